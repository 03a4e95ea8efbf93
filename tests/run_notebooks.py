"""Run notebooks top to bottom as a Colab user would: every cell, each notebook in a fresh Python and
an empty folder, with only what `pip install` put in this environment (no nbdev, no repository files).

    python tests/run_notebooks.py [--jobs N] nbs/00_checks.ipynb nbs/01_data.ipynb ...

Runs N notebooks at a time (default 1); exits with status 1 if any failed, printing its error.
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


def run_here(name: str):
    "Execute the notebook `name` in the current folder (the child process's job)."
    from execnb.nbio import read_nb
    from execnb.shell import CaptureShell
    CaptureShell().run_all(read_nb(name), exc_stop=True)


def run_alone(path: Path) -> bool:
    "Run `path` in a child process and an empty folder; print how it went; whether it succeeded."
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(path, folder)
        result = subprocess.run([sys.executable, __file__, "--here", path.name], cwd=folder,
                                env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}, capture_output=True, text=True)
    if result.returncode:
        print(f"FAILED {path}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}", flush=True)
        return False
    print(f"ran {path} in {time.monotonic() - started:.0f} s", flush=True)
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--here", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at the same time")
    parser.add_argument("notebooks", nargs="*", type=Path)
    a = parser.parse_args(argv)
    if a.here: return run_here(a.here)
    with ThreadPoolExecutor(a.jobs) as pool:
        succeeded = list(pool.map(run_alone, a.notebooks))
    if not all(succeeded): raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
