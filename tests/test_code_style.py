"""The package's code keeps one shape: lines of at most 100 characters (nbdev's own `__all__` block
aside), notebooks, tests and scripts as `ruff format` writes them (ruff.toml), and parameters
documented one way, as docments (a comment after each parameter), never as `Args:` sections."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for p in (ROOT / "vit_small_ds").glob("*.py") if p.name != "_modidx.py")


def lines_outside_nbdev_all(path):
    "(number, line) of each line, less the `__all__` that nbdev writes at width 120."
    in_all = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("__all__ = ["):
            in_all = True
        if not in_all:
            yield number, line
        if in_all and line.rstrip().endswith("]"):
            in_all = False


def test_exported_lines_fit_in_100_characters():
    long = [
        f"{p.name}:{n} ({len(line)})"
        for p in MODULES
        for n, line in lines_outside_nbdev_all(p)
        if len(line) > 100
    ]
    assert long == [], long


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is in the dev requirements")
def test_sources_are_ruff_formatted():
    result = subprocess.run(
        ["ruff", "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_google_style_sections():
    sections = [
        f"{p.name}: {m.group(0).strip()}"
        for p in MODULES
        for m in re.finditer(
            r"^\s+(Args|Arguments|Returns|Raises|Example|Examples):\s*$", p.read_text(), re.M
        )
    ]
    assert sections == [], sections
