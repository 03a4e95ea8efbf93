"""The notebooks run in Colab with only the package installed, and every link to the project comes
from settings.ini's `git_url`."""

import json
import re
from configparser import ConfigParser
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
NOTEBOOKS = sorted((ROOT / "nbs").glob("[0-9]*.ipynb"))


def settings():
    config = ConfigParser(delimiters=["="])
    config.read(ROOT / "settings.ini", encoding="utf-8")
    return config["DEFAULT"]


def colab_cell():
    "The first cell of every notebook: in Colab, install the package from the project's repository."
    return (
        "import sys\n"
        "\n"
        "# Colab has Keras, TensorFlow, JAX and matplotlib; it needs only this library\n"
        'if "google.colab" in sys.modules:\n'
        f"    %pip install -q git+{settings()['git_url']}"
    )


def code_cells(path):
    return [
        "".join(c["source"])
        for c in json.loads(path.read_text())["cells"]
        if c["cell_type"] == "code"
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_starts_by_installing_the_package_in_colab_only(path):
    assert code_cells(path)[0] == colab_cell()


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
