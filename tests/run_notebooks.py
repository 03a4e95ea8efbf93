"""Run notebooks top to bottom as a Colab user would: each notebook in its own process and an empty
folder, with only what `pip install` put in this environment (no nbdev, no repository files).

    python tests/run_notebooks.py [--jobs N] [--full] nbs/00_checks.ipynb nbs/01_data.ipynb ...

Cells are skipped as `nbdev_test` skips them: `#| eval: false` always (the full-size runs of
13_experiments), `#| slow` unless `--full` (demonstrations that train for minutes; their saved outputs
show the full run). Runs N notebooks at a time (default 1), prints each one's seconds, and exits with
status 1 if any failed, printing its error.

Each notebook's process is forked from this one after it has imported `vit_small_ds` and the notebook
runner: the state that a notebook's first `import vit_small_ds` leaves, without importing TensorFlow
again for each notebook (4.7 s on a Zen 4, 8 s on a Zen 3). Importing it starts none of TensorFlow's
threads, which would be lost in the fork.
"""

import argparse
import os
import shutil
import sys
import tempfile
import time
import traceback
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


def start(notebook: Path, full: bool, log: Path) -> int:
    "Fork a process that runs `notebook`, alone in its folder, writing its output to `log`; its pid."
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    status = 1
    try:
        os.chdir(notebook.parent)
        output = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(output, 1)
        os.dup2(output, 2)
        run_here(notebook.name, full)
        status = 0
    except BaseException:  # noqa: BLE001 (whatever the notebook raises, its process ends here)
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="notebooks run at the same time")
    parser.add_argument("--full", action="store_true", help="run the cells marked slow too")
    parser.add_argument("notebooks", nargs="*", type=Path)
    a = parser.parse_args(argv)
    # this environment's console scripts first, as pip puts them on a Colab user's PATH; no
    # VIRTUAL_ENV, from which IPython would add another environment's packages (the dev one)
    os.environ.pop("VIRTUAL_ENV", None)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    import execnb.shell  # noqa: F401

    import vit_small_ds  # noqa: F401

    logs = Path(tempfile.mkdtemp())  # outside the notebooks' folders
    waiting, running, failed = list(a.notebooks), {}, []
    while waiting or running:
        while waiting and len(running) < a.jobs:
            path = waiting.pop(0)
            folder = Path(tempfile.mkdtemp())
            log = logs / f"{path.stem}.log"
            shutil.copy(path, folder)
            running[start(folder / path.name, a.full, log)] = path, folder, log, time.monotonic()
        pid, status = os.wait()
        path, folder, log, started = running.pop(pid)
        if status:
            print(f"FAILED {path}\n{log.read_text()[-8000:]}", flush=True)
            failed.append(path)
        else:
            print(f"{time.monotonic() - started:6.0f} s  {path}", flush=True)
        shutil.rmtree(folder)
    shutil.rmtree(logs)
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
