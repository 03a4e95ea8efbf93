"""Run notebooks top to bottom as a Colab user would: every cell, each notebook in a fresh Python and
an empty folder, with only what `pip install` put in this environment (no nbdev, no repository files).

    python tests/run_notebooks.py nbs/00_checks.ipynb nbs/01_data.ipynb ...

Exits with status 1 after the first notebook that fails, naming it and printing the error.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_here(name: str):
    "Execute the notebook `name` in the current folder (the child process's job)."
    from execnb.nbio import read_nb
    from execnb.shell import CaptureShell
    CaptureShell().run_all(read_nb(name), exc_stop=True)


def main(paths):
    for path in map(Path, paths):
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as folder:
            shutil.copy(path, folder)
            result = subprocess.run([sys.executable, __file__, "--here", path.name], cwd=folder,
                                    env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}, capture_output=True, text=True)
        if result.returncode:
            print(f"FAILED {path}\n{result.stdout[-4000:]}\n{result.stderr[-4000:]}", flush=True)
            raise SystemExit(1)
        print(f"ran {path} in {time.monotonic() - started:.0f} s", flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "--here": run_here(sys.argv[2])
    else: main(sys.argv[1:])
