"The console scripts, run as a user runs them, on the JAX backend (the notebooks cover TensorFlow)."
import json
import os
import subprocess

import pytest
from PIL import Image

from vit_small_ds.data import load_dataset


def run(*args, backend="jax"):
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    stdout = run("vit_small_ds_train", "--model", "sl_vit", "--epochs", "1", "--batch-size", "64",
                 "--output", str(out), "--verbose", "0")
    return out, stdout


def test_train_writes_the_run_files(trained_run):
    out, stdout = trained_run
    for name in ("history.csv", "metrics.json", "model.keras", "curves.png", "class_names.json"):
        assert (out / name).is_file(), name
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["backend"] == "jax"
    assert (metrics["model"], metrics["epochs_run"], metrics["best_epoch"]) == ("sl_vit", 1, 1)
    assert metrics["test_accuracy"] > 0.3  # one epoch is far above chance (0.1)
    assert f"test accuracy {100 * metrics['test_accuracy']:.2f}%" in stdout


def test_evaluate_reproduces_the_test_accuracy(trained_run):
    out, _ = trained_run
    result = json.loads(run("vit_small_ds_evaluate", "--model-path", str(out / "model.keras")).strip().splitlines()[-1])
    metrics = json.loads((out / "metrics.json").read_text())
    assert result["accuracy"] == pytest.approx(metrics["test_accuracy"], abs=1e-6)


def test_predict_prints_top5_with_class_names(trained_run, tmp_path):
    out, _ = trained_run
    data = load_dataset("sample")
    image = tmp_path / "boot.png"
    Image.fromarray(data.x_test[data.y_test == 9][0, ..., 0]).save(image)
    line = run("vit_small_ds_predict", str(image), "--model-path", str(out / "model.keras")).strip().splitlines()[-1]
    names_and_probs = line.split(": ", 1)[1].split(", ")
    assert len(names_and_probs) == 5
    probs = [float(item.rsplit(" ", 1)[1]) for item in names_and_probs]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0001
    assert all(item.rsplit(" ", 1)[0] in data.class_names for item in names_and_probs)


def test_unknown_model_is_a_clear_error():
    env = {**os.environ, "KERAS_BACKEND": "jax", "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(["vit_small_ds_train", "--model", "resnet", "--epochs", "1"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "model='resnet'" in result.stderr
