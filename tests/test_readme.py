"README.md is written from nbs/index.ipynb by hand (nbdev_readme needs Quarto): these tests catch drift."

import json
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.S)


def code_blocks(markdown):
    return [block.strip() for block in FENCE.findall(markdown)]


def index_as_markdown():
    "The index's prose, and its code cells as Python blocks (their outputs are the notebook's)."
    cells = json.loads((ROOT / "nbs/index.ipynb").read_text())["cells"]
    return "\n\n".join(
        "".join(c["source"])
        if c["cell_type"] == "markdown"
        else f"```python\n{''.join(c['source'])}\n```"
        for c in cells
    )


def test_readme_says_what_index_says():
    assert (ROOT / "README.md").read_text().strip() == index_as_markdown().strip()


def test_ci_runs_the_readme_test_command():
    main_job, test_command = code_blocks((ROOT / "README.md").read_text())[:2]
    assert "vit_small_ds_train" in main_job
    assert test_command in (ROOT / ".ci/run").read_text()
