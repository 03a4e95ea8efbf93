"""The package's code keeps one shape: lines of at most 100 characters (nbdev's own `__all__` block
aside), notebooks, tests and scripts as `ruff format` writes them (ruff.toml), and parameters
documented one way, as docments (a comment after each parameter), never as `Args:` sections."""

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import vit_small_ds

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(p for p in (ROOT / "vit_small_ds").rglob("*.py") if p.name != "_modidx.py")


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


# The sub-packages from the bottom floor up: a module imports from its own floor and those below.
FLOORS = ["checks", "data", "layers", "models", "training", "deploy", "cli"]


def library_imports(path) -> set:
    "The library's modules that the module at `path` imports, as dotted names below `vit_small_ds`."
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            module = ".".join([*base, *(node.module or "").split(".")]).strip(".")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("vit_small_ds."):
            module = node.module
        else:
            continue
        imported.add(module.removeprefix("vit_small_ds."))
    return imported


def floor(module: str) -> int:
    return FLOORS.index(module.split(".")[0])


def test_modules_import_only_their_floor_and_below():
    graph = {
        ".".join(p.relative_to(ROOT / "vit_small_ds").with_suffix("").parts): library_imports(p)
        for p in MODULES
        if p.name != "__init__.py"
    }
    upward = [f"{m} -> {i}" for m, imports in graph.items() for i in imports if floor(i) > floor(m)]
    assert upward == [], upward

    def circle_from(module, path):
        for imported in graph.get(module, ()):
            if imported in path:
                return path[path.index(imported) :] + [imported]
            found = circle_from(imported, path + [imported])
            if found:
                return found

    circles = [c for m in graph if (c := circle_from(m, [m]))]
    assert circles == [], circles[0]


def test_modules_stay_short():
    "One job per module: at most 300 lines, the modules of one layer family excepted."
    layer_families = {"layers/lsa.py", "layers/spt.py", "models/vit.py", "models/shiftvit.py"}
    long = [
        f"{name} ({lines})"
        for p in MODULES
        if (name := str(p.relative_to(ROOT / "vit_small_ds"))) not in layer_families
        and (lines := len(p.read_text().splitlines())) > 300
    ]
    assert long == [], long


def test_import_registers_every_module_that_defines_a_layer():
    "`import vit_small_ds` imports each module that registers a layer with Keras, and no other."
    defining = {
        ".".join(p.relative_to(ROOT / "vit_small_ds").with_suffix("").parts)
        for p in MODULES
        if "@keras.saving.register_keras_serializable" in p.read_text()
    }
    assert set(vit_small_ds._LAYER_MODULES) == defining
