"""Every published number is read from the run that made it: each results table of the README and
the notebooks (a `<!-- results/NAME -->` line above it) is rendered again from the files in
`results/NAME/` (`training.results.results_table`: runs, or speed measurements), and every
percentage the README or a notebook's prose states is a number of one of that page's tables,
printed by a notebook cell that ran it, or a source's number that `results/cited.json` names."""

import json
import re
import shutil
from pathlib import Path

from vit_small_ds.training.results import results_table

ROOT = Path(__file__).parent.parent
# a marker line, a blank line, the table, a blank line, its "Ran on ..." lines
TABLE = re.compile(r"<!-- (results/[\w.-]+) -->\n\n((?:\|.*\n)+\n(?:Ran on .*(?:\n|$))+)")
PERCENTAGE = re.compile(r"\b\d+\.\d+%")
CODE_BLOCK = re.compile(r"```.*?```", re.S)


def table_faults(text: str, root: Path = ROOT) -> list:
    "Each results table of `text` that differs from the one rendered from its folder under `root`."
    return [
        f"{folder}: the page has\n{table}\nbut its files give\n{results_table(root / folder)}"
        for folder, table in TABLE.findall(text)
        if table.strip() != results_table(root / folder)
    ]


def unbacked_percentages(text: str, root: Path = ROOT) -> list:
    """The percentages in `text`'s prose and tables (not its code) that no results table of `text`
    holds, no notebook cell under `root` printed and `results/cited.json` does not name."""
    backed = set(json.loads((root / "results" / "cited.json").read_text()))
    for folder, _ in TABLE.findall(text):
        backed |= set(PERCENTAGE.findall(results_table(root / folder)))
    for notebook in (root / "nbs").glob("*.ipynb"):
        for cell in json.loads(notebook.read_text())["cells"]:
            for output in cell.get("outputs", []):
                backed |= set(PERCENTAGE.findall("".join(output.get("text", ""))))
    prose = CODE_BLOCK.sub("", text)
    return [number for number in PERCENTAGE.findall(prose) if number not in backed]


def pages() -> dict:
    "The README and every notebook's Markdown, by path."
    found = {"README.md": (ROOT / "README.md").read_text()}
    for notebook in sorted((ROOT / "nbs").glob("*.ipynb")):
        cells = json.loads(notebook.read_text())["cells"]
        found[str(notebook.relative_to(ROOT))] = "\n\n".join(
            "".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown"
        )
    return found


def test_published_tables_are_their_files():
    assert sum(len(TABLE.findall(text)) for text in pages().values()) >= 1
    faults = [fault for path, text in pages().items() for fault in table_faults(text)]
    assert not faults, "\n\n".join(faults)


def test_every_published_percentage_has_a_file_behind_it():
    unbacked = {path: unbacked_percentages(text) for path, text in pages().items()}
    assert {path: numbers for path, numbers in unbacked.items() if numbers} == {}


def test_a_changed_number_is_caught(tmp_path):
    "A run's file changed after the README printed its table: both checks name that table."
    readme = (ROOT / "README.md").read_text()
    folder, table = TABLE.findall(readme)[0]
    shutil.copytree(ROOT / "results", tmp_path / "results")
    (tmp_path / "nbs").symlink_to(ROOT / "nbs")
    assert table_faults(readme, tmp_path) == unbacked_percentages(readme, tmp_path) == []
    metrics_path = sorted((tmp_path / folder).glob("*/metrics.json"))[0]
    metrics = json.loads(metrics_path.read_text())
    metrics["test_accuracy"] -= 0.0001  # one hundredth of a point
    metrics_path.write_text(json.dumps(metrics))
    assert [fault.split(":")[0] for fault in table_faults(readme, tmp_path)] == [folder]
    unbacked = unbacked_percentages(readme, tmp_path)  # the mean at least; a seed's number may
    assert unbacked and set(unbacked) <= set(PERCENTAGE.findall(table))  # be printed elsewhere
