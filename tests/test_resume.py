"""A training run killed with SIGKILL after its second epoch resumes when the same command runs again, on each
backend; on JAX it ends where a run of the same command that was never killed ends."""

import csv
import json
import os
import signal
import subprocess
import time

import pytest
from conftest import ONE_BLOCK

EPOCHS = 8  # of three steps each: the first run is killed long before its last


def losses(history):
    "Each epoch's training and validation loss, one after the other."
    with open(history) as f:
        return [float(row[key]) for row in csv.DictReader(f) for key in ("loss", "val_loss")]


def epochs_logged(history):
    if not history.exists():
        return []
    with open(history) as f:
        return [int(row["epoch"]) for row in csv.DictReader(f)]


@pytest.mark.parametrize("backend", ["tensorflow", "jax", "torch"])
def test_killed_run_resumes_without_repeating_epochs(tmp_path, colour_folder, backend):
    out = tmp_path / "run"
    command = [
        "vit_small_ds_train",
        "--model",
        "vit",
        "--dataset",
        str(colour_folder),
        *ONE_BLOCK,
        "--image-size",
        "24",
        "--epochs",
        str(EPOCHS),
        "--batch-size",
        "16",
        "--verbose",
        "2",
        "--output",
        str(out),
    ]
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    first = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while len(epochs_logged(out / "history.csv")) < 2:  # the second epoch has finished
        assert first.poll() is None, "the first run ended before it could be killed"
        assert time.monotonic() < deadline, "the first run did not finish two epochs in time"
        time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.wait()
    finished = len(epochs_logged(out / "history.csv"))
    assert 2 <= finished < EPOCHS and not (out / "metrics.json").exists()
    assert (out / "backup").is_dir()

    second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stderr[-3000:]
    # no finished epoch ran twice; counted from 1
    assert epochs_logged(out / "history.csv") == list(range(1, EPOCHS + 1))
    # it started after the backup
    assert "Epoch 1/" not in second.stdout and f"Epoch {EPOCHS}/{EPOCHS}" in second.stdout
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["epochs_run"] == EPOCHS
    assert (out / "model.keras").is_file()
    assert not (out / "backup").exists() and not (out / "best.weights.h5").exists()
    history = {int(row["epoch"]): row for row in csv.DictReader(open(out / "history.csv"))}
    assert metrics["best_epoch"] == max(history, key=lambda e: float(history[e]["val_accuracy"]))
    rates = [float(history[epoch]["learning_rate"]) for epoch in sorted(history)]
    # the optimizer's step count carried on: the cosine ends at 0 after the last epoch
    assert rates[0] > 1e-4 and rates[-1] < 1e-9
    if backend == "jax":  # the same batches, draws and steps as a run never killed
        command[command.index("--output") + 1] = str(tmp_path / "uninterrupted")
        subprocess.run(command, env=env, check=True, capture_output=True, timeout=300)
        uninterrupted = tmp_path / "uninterrupted"
        assert losses(out / "history.csv") == pytest.approx(losses(uninterrupted / "history.csv"))
        finished = json.loads((uninterrupted / "metrics.json").read_text())
        assert metrics["test_loss"] == pytest.approx(finished["test_loss"])
