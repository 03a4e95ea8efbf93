"Data-parallel training on two virtual CPU devices gives the weights single-device training gives."

import json
import os
import subprocess
import sys

import pytest

# Runs in a fresh process: the devices must be made before the backend starts.
SCRIPT = r"""
import contextlib, json, os, sys
if os.environ["KERAS_BACKEND"] == "tensorflow":  # JAX gets its two devices from XLA_FLAGS
    import tensorflow as tf
    tf.config.set_logical_device_configuration(tf.config.list_physical_devices("CPU")[0],
                                               [tf.config.LogicalDeviceConfiguration()] * 2)
import keras, numpy as np
from vit_small_ds.layers.augmentation import vit_augmentation
from vit_small_ds.data.datasets import ImageDataset, load_dataset
from vit_small_ds.training.devices import data_parallel
from vit_small_ds.models.registry import model_recipe
from vit_small_ds.training.config import TrainConfig
from vit_small_ds.training.loop import run_experiment

full = load_dataset("sample")
data = ImageDataset(full.x_train[:256], full.y_train[:256], full.x_val[:64], full.y_val[:64],
                    full.x_test[:64], full.y_test[:64], full.class_names, "subset")
random_layers = sys.argv[1] == "random_layers"
if not random_layers:  # serve the batches in a fixed order (see the TensorFlow test)
    import vit_small_ds.training.loop as training
    seeded_pipeline = training.make_pipeline
    training.make_pipeline = lambda x, y, batch_size, training, batch_map=None, **shuffling: seeded_pipeline(
        x, y, batch_size, training=False, batch_map=batch_map)  # whatever the shuffling arguments: none

def train(scope):
    with scope:
        keras.utils.set_random_seed(0)
        overrides = {} if random_layers else dict(dropout=0.0, head_dropout=0.0)
        recipe = model_recipe("sl_vit")
        config = recipe.config("small", input_shape=data.input_shape, num_classes=10, transformer_layers=1, **overrides)
        augmentation = vit_augmentation(data.x_train, config.image_size) if random_layers else None  # flip, rotate, zoom
        model = recipe.build(config, augmentation, "sl_vit")

        _, metrics = run_experiment(model, data, TrainConfig(epochs=2, batch_size=64, verbose=0))
        return [keras.ops.convert_to_numpy(w) for w in model.weights], metrics

single, one = train(contextlib.nullcontext())
split, two = train(data_parallel())
print(json.dumps({"devices": [one["devices"], two["devices"]],
                  "max_weight_difference": max(float(np.abs(a - b).max()) for a, b in zip(single, split)),
                  "test_accuracy": [one["test_accuracy"], two["test_accuracy"]]}))
"""


def train_both_ways(backend, mode):
    env = {
        **os.environ,
        "KERAS_BACKEND": backend,
        "TF_CPP_MIN_LOG_LEVEL": "3",
        # the caller's XLA options kept (CI's optimization level among them)
        "XLA_FLAGS": f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count=2",
    }
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], env=env, capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_jax_data_parallel_matches_one_device():
    # Dropout and random augmentation included: JAX draws the same random numbers however the batch is split.
    result = train_both_ways("jax", "random_layers")
    assert result["devices"] == [1, 2]
    assert result["max_weight_difference"] < 1e-4, result
    assert result["test_accuracy"][0] == pytest.approx(result["test_accuracy"][1], abs=1 / 64), (
        result
    )


def test_tensorflow_mirrored_strategy_matches_one_device():
    # No dropout or random augmentation, fixed batch order: each TensorFlow replica draws its own random numbers, and
    # MirroredStrategy rewrites the input pipeline, whose seeded shuffle then draws another order.
    result = train_both_ways("tensorflow", "deterministic")
    assert result["devices"] == [1, 2]
    assert result["max_weight_difference"] < 1e-4, result
    assert result["test_accuracy"][0] == pytest.approx(result["test_accuracy"][1], abs=1 / 64), (
        result
    )
