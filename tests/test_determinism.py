"""The same seed gives the same first-epoch loss twice on CPU, on TensorFlow. On JAX,
tests/test_resume.py shows more: two runs of one command, one killed and resumed, end the same."""

import os
import subprocess
import sys

SNIPPET = """
import numpy as np
from vit_small_ds.data.datasets import ImageDataset, load_dataset
from vit_small_ds.models.registry import create_model
from vit_small_ds.training.config import TrainConfig
from vit_small_ds.training.loop import run_experiment
import keras
d = load_dataset("sample")
data = ImageDataset(d.x_train[:128], d.y_train[:128], d.x_val[:32], d.y_val[:32], d.x_test[:32], d.y_test[:32], d.class_names)
keras.utils.set_random_seed(7)
model = create_model("sl_vit", data=data, transformer_layers=1)
history, _ = run_experiment(model, data, TrainConfig(epochs=1, batch_size=32, seed=7, verbose=0))
print(repr(history["loss"][0]))
"""


def first_epoch_loss(backend):
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(
        [sys.executable, "-c", SNIPPET], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return float(result.stdout.strip().splitlines()[-1])


def test_same_seed_same_first_epoch_loss():
    assert first_epoch_loss("tensorflow") == first_epoch_loss("tensorflow")
