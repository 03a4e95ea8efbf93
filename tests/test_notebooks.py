"""The notebooks run in Colab with only the package installed, and every link to the project comes
from settings.ini's `git_url`."""

import json
import re
from configparser import ConfigParser
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb")) + [ROOT / "nbs/tutorial.ipynb"]


def settings():
    config = ConfigParser(delimiters=["="])
    config.read(ROOT / "settings.ini", encoding="utf-8")
    return config["DEFAULT"]


# the notebooks that need an extra beyond the runtime requirements
EXTRAS = {"10c_deploy": "export", "10d_export_formats": "export"}


def colab_cell(notebook: str):
    """The first cell of every notebook: in Colab, install the package from the project's repository,
    with the extra the notebook needs."""
    extra = EXTRAS.get(notebook)
    needs = f"this library and its {extra} extra" if extra else "only this library"
    package = (
        f'"vit_small_ds[{extra}] @ git+{settings()["git_url"]}"'
        if extra
        else f"git+{settings()['git_url']}"
    )
    return (
        "import sys\n"
        "\n"
        f"# Colab has Keras, TensorFlow, JAX and matplotlib; it needs {needs}\n"
        'if "google.colab" in sys.modules:\n'
        f"    %pip install -q {package}"
    )


def code_cells(path):
    return [
        "".join(c["source"])
        for c in json.loads(path.read_text())["cells"]
        if c["cell_type"] == "code"
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_starts_by_installing_the_package_in_colab_only(path):
    assert code_cells(path)[0] == colab_cell(path.stem)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_without_nbdev(path):
    assert not [
        cell for cell in code_cells(path) if re.search(r"^\s*(import|from)\s+nbdev\b", cell, re.M)
    ]


def test_every_link_to_the_project_uses_the_url_in_settings():
    git_url = settings()["git_url"]  # https://github.com/<user>/<repo>
    owner_and_repo = git_url.removeprefix("https://github.com/")
    texts = [(ROOT / "README.md").read_text()] + [
        path.read_text() for path in [*NOTEBOOKS, ROOT / "nbs/index.ipynb"]
    ]
    links = [
        link for text in texts for link in re.findall(r"github\.com/[\w.-]+/vit_small_ds", text)
    ]
    assert links and all(link == f"github.com/{owner_and_repo}" for link in links), set(links)
    assert (
        f"colab.research.google.com/github/{owner_and_repo}/blob/{settings()['branch']}/nbs/"
        in texts[0]
    )


PAGES = [*NOTEBOOKS, ROOT / "nbs/index.ipynb"]
TEMPORARY_PATH = re.compile(r"/tmp/|/var/folders/|\btmp[a-z0-9_]{6,}\b")
OBJECT_REPR = re.compile(r"object at 0x|<(Functional|Sequential|Model)\b[^>]*>")
PROJECT_HISTORY = re.compile(r"\bissues?\s*#?\d+|\.\./shared", re.I)
# the sources go by their titles (README.md, "Sources"), not by a shorthand
SOURCE_SHORTHAND = re.compile(r"\bthe\s+documents?\b", re.I)
# timings belong on the performance page, and in 13_experiments' tables of runs
TIMING = re.compile(
    r"\b\d[\d,.]*\s?(?:ms|img/s|images/s)\b|\b\d[\d,.]*\s?s (?:per|an|a) (?:epoch|step)\b", re.I
)
PERFORMANCE_PAGE, TABLES_OF_RUNS = "12_bench", "13_experiments"


def prose_timings(page: str, text: str) -> list:
    "The timings that the markdown `text` of notebook `page` gives where a lesson should not."
    if page == PERFORMANCE_PAGE:
        return []
    lines = text.split("\n")
    if page == TABLES_OF_RUNS:
        lines = [line for line in lines if not line.startswith("|")]
    return [m.group(0) for line in lines for m in TIMING.finditer(line)]


def shown_text(output):
    "What a reader sees of a cell's output, as text."
    data = output.get("data", {})
    return (
        "".join(output.get("text", ""))
        + "".join(data.get("text/plain", ""))
        + "".join(data.get("text/html", ""))
    )


def page_problems(path):
    problems = []
    for number, cell in enumerate(json.loads(path.read_text())["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            problems += [
                f"cell {number}: prose names {m.group(0)!r}"
                for pattern in (PROJECT_HISTORY, SOURCE_SHORTHAND)
                for m in pattern.finditer(text)
            ]
            problems += [
                f"cell {number}: prose gives the timing {timing!r}"
                for timing in prose_timings(path.stem, text)
            ]
            continue
        if len(text.split("\n")) > 60:
            problems.append(f"cell {number}: {len(text.split(chr(10)))} lines of code")
        for output in cell.get("outputs", []):
            shown = shown_text(output)
            problems += [
                f"cell {number}: output shows {m.group(0)!r}"
                for m in TEMPORARY_PATH.finditer(shown)
            ]
            problems += [
                f"cell {number}: output shows {m.group(0)!r}" for m in OBJECT_REPR.finditer(shown)
            ]
    if path.name not in (ROOT / "nbs/sidebar.yml").read_text():
        problems.append("not listed in nbs/sidebar.yml")
    return problems


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.stem)
def test_notebook_reads_as_a_page(path):
    "Short code cells, no temporary paths or object reprs in outputs, listed in the sidebar, no project history."
    assert page_problems(path) == []


def test_page_checks_catch_each_problem(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["As issue 7 and ../shared/bench say"]},
        {"cell_type": "markdown", "source": ["The documents' step took 30 ms, 2.5 s an epoch."]},
        {"cell_type": "code", "source": ["x = 1\n"] * 61, "outputs": []},
        {
            "cell_type": "code",
            "source": ["model"],
            "outputs": [
                {
                    "output_type": "execute_result",
                    "data": {"text/plain": ["<Functional name=functional_14, built=True>"]},
                },
                {
                    "output_type": "stream",
                    "text": ["saved to /tmp/tmpab12cd34/model.keras, <object object at 0x7f>"],
                },
            ],
        },
    ]
    page = tmp_path / "99_unlisted.ipynb"
    page.write_text(json.dumps({"cells": cells}))
    problems = page_problems(page)
    # issue 7, ../shared, the documents, 30 ms, 2.5 s an epoch, 61 lines, the repr, /tmp/,
    # tmpab12cd34, 0x, the sidebar
    assert len(problems) == 11, problems


def test_timings_are_allowed_on_the_performance_page_and_in_the_experiments_tables(tmp_path):
    cells = [{"cell_type": "markdown", "source": ["| run | 30 ms |\n", "It took 30 ms."]}]
    problems = {}
    for name in ("12_bench", "13_experiments", "04_lsa"):
        page = tmp_path / f"{name}.ipynb"
        page.write_text(json.dumps({"cells": cells}))
        problems[name] = [p for p in page_problems(page) if "timing" in p]
    assert problems == {
        "12_bench": [],
        "13_experiments": ["cell 0: prose gives the timing '30 ms'"],
        "04_lsa": ["cell 0: prose gives the timing '30 ms'"] * 2,
    }
