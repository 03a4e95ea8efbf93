"""A full disk while a run writes its files ends it with one line, and the same command then finishes
the run without training again. (A kill while the best checkpoint or a history row is written:
09b_callbacks; a kill between epochs: test_resume.py.)"""

import errno
import json

import pytest

from vit_small_ds.training import run_files
from vit_small_ds.cli.commands import main, train

TINY = ["--model", "vit", "--transformer-layers", "1", "--num-heads", "1", "--verbose", "2"]
TINY += ["--batch-size", "16"]


def test_a_full_disk_while_writing_the_run_files_leaves_a_run_that_finishes(
    tmp_path, colour_folder, monkeypatch, capsys
):
    out = tmp_path / "run"
    argv = [*TINY, "--dataset", str(colour_folder), "--image-size", "12", "--epochs", "2"]
    argv += ["--output", str(out)]
    write = run_files.atomic_write

    def full_disk(path, writer):
        if path.name == "confusion_matrix.png":  # after the model, before metrics.json
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        write(path, writer)

    monkeypatch.setattr(run_files, "atomic_write", full_disk)
    with pytest.raises(SystemExit) as exit:
        main(train, argv)
    err = capsys.readouterr().err.strip().splitlines()
    assert exit.value.code == 2 and err == [
        f"error: [Errno 28] No space left on device: '{out}/confusion_matrix.png'"
    ]
    assert not (out / "metrics.json").exists() and (out / "trained.json").exists()

    monkeypatch.setattr(run_files, "atomic_write", write)  # space again
    run = main(train, argv)
    assert "Epoch 1/" not in capsys.readouterr().out  # it did not train again
    assert [int(r["epoch"]) for r in run_files.read_history(out / "history.csv")] == [1, 2]
    assert json.loads((out / "metrics.json").read_text()) == run.metrics
    assert run.metrics["epochs_run"] == 2
    assert not any((out / name).exists() for name in ("backup", "trained.json", "best.weights.h5"))
