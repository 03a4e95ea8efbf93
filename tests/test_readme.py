"README.md is written from nbs/index.ipynb by hand (nbdev_readme needs Quarto): these tests catch drift."

import json
import re
from pathlib import Path

import pytest

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


def notebook_text(path):
    "What a reader of a notebook sees: its cells and their outputs, as text."
    cells = json.loads(path.read_text())["cells"]
    return "\n".join(
        "".join(cell["source"])
        + "".join(
            "".join(output.get("text", ""))
            + "".join(output.get("data", {}).get("text/markdown", ""))
            for output in cell.get("outputs", [])
        )
        for cell in cells
    )


# a speed measurement: images per second, a ratio "times" (percentages and results tables come from
# run files: test_results.py)
MEASURED = re.compile(r"\d[\d,.]* img/s|\d+\.\d+ to \d+\.\d+ times")


def unsourced_numbers(readme: str, notebooks: str) -> list:
    "The speed measurements of `readme` that no notebook gives: each number of a range on its own."
    missing = []
    for found in MEASURED.findall(readme):
        parts = re.findall(r"\d+\.\d+", found) if found.endswith(" times") else [found]
        missing += [part for part in parts if part not in notebooks]
    return missing


def test_readme_numbers_come_from_the_notebooks():
    notebooks = "\n".join(
        notebook_text(path) for path in (ROOT / "nbs").glob("*.ipynb") if path.stem != "index"
    )
    assert unsourced_numbers((ROOT / "README.md").read_text(), notebooks) == []


@pytest.mark.parametrize(
    "readme, missing",
    [
        ("trains 2.8 to 3.3 times as fast", []),
        ("trains 2.8 to 3.4 times as fast", ["3.4"]),
        ("at 1,535 img/s", ["1,535 img/s"]),
        ("at 1,536 img/s", []),
    ],
)
def test_unsourced_numbers_are_found(readme, missing):
    notebooks = "at 1,536 img/s; 2.8-3.3, or 2.8 to 3.3 times"
    assert unsourced_numbers(readme, notebooks) == missing
