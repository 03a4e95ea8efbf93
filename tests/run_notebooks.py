"""Run notebooks top to bottom as a Colab user would: each notebook in a fresh Python and an empty
folder, with only what `pip install` put in this environment (no nbdev, no repository files).

    python tests/run_notebooks.py [--jobs N] [--full] nbs/00_checks.ipynb nbs/01_data.ipynb ...

Cells are skipped as `nbdev_test` skips them: `#| eval: false` always (the full-size runs of
13_experiments), `#| slow` unless `--full` (demonstrations that train for minutes; their saved outputs
show the full run). Runs N notebooks at a time (default 1), prints each one's seconds, and exits with
status 1 if any failed, printing its error.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def directives(source: str) -> dict:
    "The nbdev directives at the top of a cell's `source`: `#| slow` -> {'slow': []}, `#| eval: false` -> {'eval:': ['false']}."
    found = {}
    for line in source.splitlines():
        if not line.startswith("#|"):
            break
        key, *values = line[2:].split()
        found[key] = values
    return found


def skipped(cell, full: bool) -> bool:
    "Whether `nbdev_test` (with `--flags slow` when `full`) would skip `cell`."
    found = directives(cell.source) if cell.cell_type == "code" else {}
    return found.get("eval:", [""])[0].lower() == "false" or ("slow" in found and not full)


def run_here(name: str, full: bool):
    "Execute the notebook `name` in the current folder (the child process's job)."
    from execnb.nbio import read_nb
    from execnb.shell import CaptureShell

    CaptureShell().run_all(read_nb(name), exc_stop=True, preproc=lambda cell: skipped(cell, full))


def run_alone(path: Path, full: bool) -> bool:
    "Run `path` in a child process and an empty folder; print how it went; whether it succeeded."
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(path, folder)
        command = [sys.executable, __file__, "--here", path.name] + (["--full"] if full else [])
        result = subprocess.run(
            command,
            cwd=folder,
            # this environment's console scripts first, as pip puts them on a Colab user's PATH; no
            # VIRTUAL_ENV, from which IPython would add another environment's packages (the dev one)
            env={
                **{k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"},
                "TF_CPP_MIN_LOG_LEVEL": "3",
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            },
            capture_output=True,
            text=True,
        )
    if result.returncode:
        print(f"FAILED {path}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}", flush=True)
        return False
    print(f"{time.monotonic() - started:6.0f} s  {path}", flush=True)
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--here", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at the same time")
    parser.add_argument("--full", action="store_true", help="run the cells marked slow too")
    parser.add_argument("notebooks", nargs="*", type=Path)
    a = parser.parse_args(argv)
    if a.here:
        return run_here(a.here, a.full)
    with ThreadPoolExecutor(a.jobs) as pool:
        succeeded = list(pool.map(lambda path: run_alone(path, a.full), a.notebooks))
    if not all(succeeded):
        raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
