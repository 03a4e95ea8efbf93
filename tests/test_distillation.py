"""Distillation trains the student on the teacher's targets: in `run_experiment`, where a teacher that
always names the next class pulls the student halfway there, and from the command line, where
`--teacher cnn` trains the CNN first and records it; and a finished run as the teacher, whose
seconds include scoring the training images."""

import json
import time

import keras
import numpy as np
from conftest import TRAIN_FLAGS
from processes import run_command

import vit_small_ds
from vit_small_ds.data.datasets import ImageDataset
from vit_small_ds.training.config import TrainConfig
from vit_small_ds.training.loop import run_experiment

CLASSES = 3


def images_of(labels, rng):
    "4x4 grayscale noise with pixel (0, k) lit for class k: a linear model can learn any targets."
    images = rng.integers(0, 40, (len(labels), 4, 4, 1), dtype=np.uint8)
    images[np.arange(len(labels)), 0, labels] = 255
    return images


def test_the_student_trains_on_the_teachers_targets():
    rng = np.random.default_rng(0)
    splits = [rng.integers(0, CLASSES, n) for n in (192, 48, 48)]
    data = ImageDataset(
        *(part for y in splits for part in (images_of(y, rng), y)), ["a", "b", "c"], name="bright"
    )
    # a teacher sure of the wrong class: the next one
    teacher = np.eye(CLASSES, dtype=np.float32)[(data.y_train + 1) % CLASSES]
    keras.utils.set_random_seed(0)
    student = keras.Sequential(
        [
            keras.Input((4, 4, 1)),
            keras.layers.Rescaling(1 / 255),
            keras.layers.Flatten(),
            keras.layers.Dense(CLASSES),
        ]
    )
    config = TrainConfig(
        epochs=40, batch_size=32, learning_rate=0.05, label_smoothing=0.0, teacher="cnn", verbose=0
    )
    run_experiment(student, data, config, teacher_probabilities=teacher)
    probabilities = keras.ops.convert_to_numpy(keras.ops.softmax(student(data.x_train)))
    label, taught, neither = (
        probabilities[np.arange(len(data.y_train)), (data.y_train + k) % CLASSES].mean()
        for k in range(CLASSES)
    )
    # hard distillation's targets, half the label and half the teacher's class, pull the student
    # to both, well above the class that neither names
    assert min(label, taught) > max(0.3, 2 * neither), (label, taught, neither)


def test_the_command_line_trains_the_teacher_first(tmp_path, colour_folder, monkeypatch):
    out = tmp_path / "distilled"
    command = ["vit_small_ds_train", "--dataset", str(colour_folder), *TRAIN_FLAGS]
    run_command([*command, "--teacher", "cnn", "--epochs", "1", "--output", str(out)], "jax")
    config = json.loads((out / "config.json").read_text())
    teacher = json.loads((out / "teacher" / "metrics.json").read_text())
    assert (teacher["model"], teacher["epochs_run"]) == ("cnn", 1)
    assert config["train"]["teacher"] == config["teacher"]["source"] == "cnn"
    assert config["teacher"]["test_accuracy"] == teacher["test_accuracy"]

    # that teacher again, from its folder, for a student in this process; its scoring 1 s slower
    scoring_seconds = []

    def slow_scoring(model, images):
        started = time.monotonic()
        time.sleep(1)
        probabilities = vit_small_ds.training.scoring.predict_probabilities(model, images)
        scoring_seconds.append(time.monotonic() - started)
        return probabilities

    monkeypatch.setattr(vit_small_ds.training.run, "predict_probabilities", slow_scoring)
    again = tmp_path / "again"
    vit_small_ds.train(
        dataset=str(colour_folder), teacher=str(out / "teacher"), model="cnn", image_size=24,
        epochs=1, batch_size=16, output=str(again), verbose=0,
    )  # fmt: skip
    recorded = json.loads((again / "config.json").read_text())["teacher"]["seconds"]
    assert scoring_seconds[0] > 1 and recorded >= scoring_seconds[0] - 0.05  # recorded to 0.1 s
