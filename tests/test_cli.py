"The console scripts, run as a user runs them (the training runs on JAX; the notebooks cover TensorFlow)."
import csv
import json
import os
import re
import subprocess

import keras
import numpy as np
import pytest
from PIL import Image

from vit_small_ds.data import load_dataset
from vit_small_ds.models import AUGMENTS  # importing it registers the layers, to load the models


def run(*args, backend="jax", expect=0):
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(list(args), env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == expect, result.stdout[-3000:] + result.stderr[-3000:]
    return result


TENSORFLOW_LOG = re.compile(r"^([IWEF]\d{4} |WARNING: All log messages before absl)")  # its C++ start-up lines, not ours


def our_lines(stderr):
    return [line for line in stderr.strip().splitlines() if not TENSORFLOW_LOG.match(line)]


def last_json(result):
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "sl_vit"
    result = run("vit_small_ds_train", "--model", "sl_vit", "--epochs", "1", "--batch-size", "64", "--output", str(out),
                 "--verbose", "0")
    return out, result.stdout


@pytest.fixture(scope="module")
def boot_image(tmp_path_factory):
    data = load_dataset("sample")
    path = tmp_path_factory.mktemp("images") / "boot.png"
    Image.fromarray(data.x_test[data.y_test == 9][0, ..., 0]).resize((56, 56)).save(path)  # predict resizes it to 28
    return path


def test_help_shows_dashes_defaults_and_examples():
    for command in ("vit_small_ds_train", "vit_small_ds_evaluate", "vit_small_ds_predict", "vit_small_ds_bench"):
        text = run(command, "--help").stdout
        assert "_" not in "".join(word for word in text.split() if word.startswith("--")), command
        assert "examples:" in text, command
    text = run("vit_small_ds_train", "--help").stdout
    for flag, default in [("--epochs", "10"), ("--batch-size", "128"), ("--seed", "42"), ("--validation-split", "0.1")]:
        assert flag in text and f"(default: {default})" in text, flag
    assert "{vit,sl_vit,spt_vit,lsa_vit,shiftvit}" in text and "{standard,flip,flip_shift,randaugment,paper,none}" in text
    assert "fashion also sets --augment flip --random-erasing 0.25" in " ".join(text.split())


def test_train_writes_a_self_describing_run_folder(trained_run):
    out, stdout = trained_run
    assert sorted(p.name for p in out.iterdir()) == ["class_names.json", "config.json", "confusion_matrix.png", "curves.png",
                                                     "history.csv", "metrics.json", "model.keras"]  # no checkpoint or backup
    metrics = json.loads((out / "metrics.json").read_text())
    assert (metrics["model"], metrics["epochs_run"], metrics["best_epoch"], metrics["backend"]) == ("sl_vit", 1, 1, "jax")
    assert metrics["test_accuracy"] > 0.3  # one epoch is far above chance (0.1)
    assert f"test accuracy {100 * metrics['test_accuracy']:.2f}%" in stdout
    with open(out / "history.csv") as f: assert [row["epoch"] for row in csv.DictReader(f)] == ["1"]  # from 1, as Keras prints
    config = json.loads((out / "config.json").read_text())
    assert (config["model"], config["preset"], config["dataset_source"], config["seed"], config["validation_split"]) == \
        ("sl_vit", "small", "sample", 42, 0.1)
    assert (config["augment"], config["architecture"]["attention"], config["architecture"]["spt"]) == ("standard", "standard", True)
    assert (config["train"]["epochs"], config["train"]["batch_size"]) == (1, 64)
    environment = config["environment"]
    assert (environment["backend"], environment["dtype_policy"]) == ("jax", "float32")  # auto: JAX on a CPU is fastest in float32
    assert environment["keras_version"] and environment["backend_version"] and environment["vit_small_ds_version"]


def test_evaluate_takes_a_run_folder_or_its_model_file(trained_run):
    out, _ = trained_run
    metrics = json.loads((out / "metrics.json").read_text())
    for path in (out, out / "model.keras"):
        result = last_json(run("vit_small_ds_evaluate", str(path)))
        assert result["accuracy"] == pytest.approx(metrics["test_accuracy"], abs=1e-6)


def test_predict_takes_a_run_folder_resizes_and_prints_json(trained_run, boot_image):
    out, _ = trained_run
    line = run("vit_small_ds_predict", str(out), str(boot_image)).stdout.strip().splitlines()[-1]
    names_and_probs = line.split(": ", 1)[1].split(", ")
    assert len(names_and_probs) == 5
    probs = [float(item.rsplit(" ", 1)[1]) for item in names_and_probs]
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1.0001
    ranked = last_json(run("vit_small_ds_predict", str(out / "model.keras"), str(boot_image), "--json", "--top", "2"))[str(boot_image)]
    assert len(ranked) == 2 and all(name in load_dataset("sample").class_names for name, _ in ranked)


def test_a_finished_run_is_refused_and_overwrite_starts_afresh(trained_run, tmp_path):
    out, _ = trained_run
    command = ["vit_small_ds_train", "--model", "vit", "--epochs", "1", "--output", str(out), "--verbose", "0"]
    refused = run(*command, expect=2)
    assert "--overwrite" in refused.stderr and "metrics.json" in refused.stderr
    assert json.loads((out / "metrics.json").read_text())["model"] == "sl_vit"  # untouched
    fresh = tmp_path / "fresh"
    run(*command[:-4], "--output", str(fresh), "--verbose", "0")
    run(*command[:-4], "--output", str(fresh), "--verbose", "0", "--overwrite")
    assert json.loads((fresh / "metrics.json").read_text())["epochs_run"] == 1


def test_evaluate_scores_the_runs_own_test_split_of_an_image_folder(tmp_path):
    data = load_dataset("sample")
    folder = tmp_path / "images"
    for label, name in enumerate(data.class_names[:4]):
        (folder / name.replace("/", "-")).mkdir(parents=True)
        for i, image in enumerate(data.x_train[data.y_train == label][:30]):
            Image.fromarray(image[..., 0]).save(folder / name.replace("/", "-") / f"{i}.png")
    out = tmp_path / "run"
    run("vit_small_ds_train", "--dataset", str(folder), "--seed", "1", "--epochs", "1", "--batch-size", "32",
        "--output", str(out), "--verbose", "0", backend="tensorflow")
    metrics = json.loads((out / "metrics.json").read_text())
    result = last_json(run("vit_small_ds_evaluate", str(out), backend="tensorflow"))
    assert result["test_images"] == 12  # 10% of each class's 30
    assert result["accuracy"] == pytest.approx(metrics["test_accuracy"], abs=1e-6)


@pytest.fixture(scope="module")
def colour_folder(tmp_path_factory):
    "Three classes of 20 RGB images of 40x30 pixels each."
    folder = tmp_path_factory.mktemp("colour")
    rng = np.random.default_rng(0)
    for label in range(3):
        (folder / f"class{label}").mkdir()
        for i in range(20):
            image = rng.integers(0, 80, (30, 40, 3)).astype("uint8")
            image[..., label] += 150  # each class its own colour
            Image.fromarray(image).save(folder / f"class{label}" / f"{i}.png")
    return folder


@pytest.mark.parametrize("augment", AUGMENTS)
def test_an_image_folder_trains_with_every_recipe(tmp_path, colour_folder, augment):
    out = tmp_path / augment
    erasing = ["--random-erasing", "0.5"] if augment == "randaugment" else []
    run("vit_small_ds_train", "--dataset", str(colour_folder), "--image-size", "24", "--augment", augment, *erasing,
        "--epochs", "1", "--batch-size", "16", "--output", str(out), "--verbose", "0")
    config = json.loads((out / "config.json").read_text())
    expected = (3, 0.1, True) if augment == "paper" else (1, 0.0, False)  # the paper's training defaults
    assert (config["train"]["repeated_augmentation"], config["train"]["label_smoothing"], config["train"]["mixing"]) == expected
    assert config["random_erasing"] == (0.5 if augment == "randaugment" else None)
    model = keras.saving.load_model(out / "model.keras")
    assert model.input_shape == (None, 24, 24, 3)
    erased = [layer.name for layer in model.layers[1].layers if layer.name == "random_erasing"] if augment != "none" else []
    assert erased == (["random_erasing"] if augment in ("paper", "randaugment") else [])
    assert 0 <= json.loads((out / "metrics.json").read_text())["test_accuracy"] <= 1


def test_patience_stops_early_and_augment_picks_the_recipe(tmp_path):
    out = tmp_path / "run"
    run("vit_small_ds_train", "--model", "vit", "--epochs", "5", "--learning-rate", "1e-12", "--patience", "1",
        "--augment", "none", "--output", str(out), "--verbose", "0", backend="tensorflow")
    metrics = json.loads((out / "metrics.json").read_text())
    assert (metrics["epochs_run"], metrics["best_epoch"]) == (2, 1)  # nothing improves after the first epoch
    assert json.loads((out / "config.json").read_text())["augment"] == "none"
    assert keras.saving.load_model(out / "model.keras").layers[1].name == "preprocessing"  # rescale and resize only


def test_curves_of_one_epoch_are_drawn():
    from vit_small_ds.run_files import plot_history
    figure = plot_history({"loss": [1.0], "val_loss": [0.9], "accuracy": [0.5], "val_accuracy": [0.6]})
    lines = [line for ax in figure.axes for line in ax.lines]
    assert len(lines) == 4 and all(line.get_marker() == "o" and len(line.get_xdata()) == 1 for line in lines)


def error_cases(out, image):
    notes = out.parent / "notes.txt"
    notes.write_text("not an image")
    rgb = out.parent / "rgb"
    for name in ("a", "b"):
        (rgb / name).mkdir(parents=True, exist_ok=True)
        for i in range(10): Image.new("RGB", (28, 28), (i * 20, 0, 0)).save(rgb / name / f"{i}.png")
    return {
        "unknown model": (["vit_small_ds_train", "--model", "resnet"], "invalid choice: 'resnet'"),
        "negative image size": (["vit_small_ds_train", "--image-size", "-5"], "--image-size: expected a positive integer. Received: -5"),
        "zero image size": (["vit_small_ds_train", "--image-size", "0"], "--image-size: expected a positive integer. Received: 0"),
        "negative epochs": (["vit_small_ds_train", "--epochs", "-3"], "--epochs: expected a positive integer. Received: -3"),
        "unknown dataset": (["vit_small_ds_train", "--dataset", "imagenet", "--output", str(out.parent / "x")], "name='imagenet'"),
        "missing folder": (["vit_small_ds_train", "--dataset", "/no/such/folder", "--output", str(out.parent / "y")], "no such folder"),
        "evaluate without a model": (["vit_small_ds_evaluate"], "the following arguments are required: path"),
        "missing model file": (["vit_small_ds_evaluate", str(out / "missing.keras")], "missing.keras"),
        "wrong image shape": (["vit_small_ds_evaluate", str(out), "--dataset", str(rgb)], "but its images are (28, 28, 3)"),
        "not an image": (["vit_small_ds_predict", str(out), str(notes)], "image files that PIL can read"),
        "missing image": (["vit_small_ds_predict", str(out), str(out / "missing.png")], "no such file"),
        "top 0": (["vit_small_ds_predict", str(out), str(image), "--top", "0"], "--top: expected a positive integer. Received: 0"),
        "frozen random backbone": (["vit_small_ds_train", "--freeze-backbone"], "expected --init-from as well"),
        "init from no model": (["vit_small_ds_train", "--init-from", str(notes.parent), "--output", str(out.parent / "z")],
                               "holds neither a model written by save_pretrained"),
    }


def test_every_user_error_is_one_line_and_status_2(trained_run, boot_image):
    out, _ = trained_run
    for case, (command, message) in error_cases(out, boot_image).items():
        result = run(*command, expect=2)
        lines = our_lines(result.stderr)
        assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], (case, result.stderr[-2000:])
    debug = run("vit_small_ds_train", "--epochs", "-3", "--debug", expect=1)
    assert "Traceback" in debug.stderr


def test_init_from_a_run_replaces_the_head_and_freeze_backbone_trains_only_logits(trained_run, tmp_path):
    source, _ = trained_run
    folder = tmp_path / "images"  # three classes instead of the sample's ten: a new head
    for name in ("a", "b", "c"):
        (folder / name).mkdir(parents=True)
        for i in range(12): Image.new("L", (28, 28), 40 * i + ord(name) % 7).save(folder / name / f"{i}.png")
    out = tmp_path / "probe"
    result = run("vit_small_ds_train", "--dataset", str(folder), "--init-from", str(source), "--freeze-backbone",
                 "--epochs", "2", "--batch-size", "8", "--output", str(out), "--verbose", "0")
    assert "afresh: logits/kernel, logits/bias; only logits trains" in result.stdout
    config = json.loads((out / "config.json").read_text())
    assert (config["init_from"], config["freeze_backbone"]) == (str(source), True)
    before, after = keras.saving.load_model(source / "model.keras"), keras.saving.load_model(out / "model.keras")
    saved = {w.path: keras.ops.convert_to_numpy(w) for w in before.weights}
    for weight in after.weights:
        value = keras.ops.convert_to_numpy(weight)
        if weight.path.startswith("logits/"): assert value.shape[-1] == 3
        else: assert (value == saved[weight.path]).all(), weight.path  # frozen: as the source run left it


def test_bench_times_either_training_loop_and_says_which():
    common = ("--model", "sl_vit", "--preset", "small", "--batch-size", "8", "--steps", "2", "--repeats", "1",
              "--warmup", "1")
    for loop in ("train_on_batch", "fit"):
        result = last_json(run("vit_small_ds_bench", *common, "--loop", loop))
        assert (result["loop"], result["backend"], result["batch_size"]) == (loop, "jax", 8)
        assert result["train_img_per_s"] > 0
    bad = run("vit_small_ds_bench", *common, "--loop", "scan", expect=2)
    assert "--loop: invalid choice: 'scan'" in bad.stderr
