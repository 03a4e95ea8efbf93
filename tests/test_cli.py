"""The console scripts. Each runs once as a user runs it, in a fresh process on JAX (11_cli runs the same
functions on TensorFlow); help, argument errors and flags are checked in-process, where they cost milliseconds."""

import csv
import importlib
import importlib.metadata
import inspect
import json
import re
import shutil
import sys
from pathlib import Path

import keras
import numpy as np
import pytest
from conftest import ONE_BLOCK, TRAIN_FLAGS
from fastcore.docments import docments
from PIL import Image
from processes import run_command

from vit_small_ds.cli import commands
from vit_small_ds.cli.commands import (
    bench,
    bench_parser,
    evaluate,
    evaluate_parser,
    main,
    predict,
    predict_parser,
    train,
    train_parser,
)
from vit_small_ds.cli.flags import _FLAG_TYPES, declared
from vit_small_ds.data.datasets import load_dataset
from vit_small_ds.models.registry import list_models, list_recipes

# the console scripts, by the command's word: train, evaluate, ...
COMMANDS = sorted(
    entry.name.removeprefix("vit_small_ds_")
    for entry in importlib.metadata.distribution("vit_small_ds").entry_points
    if entry.group == "console_scripts"
)


def last_json(text):
    return json.loads(text.strip().splitlines()[-1])


def test_train_writes_a_self_describing_run_folder(trained_run, colour_folder):
    out, stdout = trained_run
    # no checkpoint or backup
    assert sorted(p.name for p in out.iterdir()) == [
        "class_names.json",
        "config.json",
        "confusion_matrix.png",
        "curves.png",
        "history.csv",
        "metrics.json",
        "model.keras",
    ]
    metrics = json.loads((out / "metrics.json").read_text())
    assert (metrics["model"], metrics["epochs_run"], metrics["backend"]) == ("sl_vit", 2, "jax")
    assert metrics["test_accuracy"] > 0.8  # the colours separate the classes; chance is 1/3
    assert f"test accuracy {100 * metrics['test_accuracy']:.2f}%" in stdout
    # not a terminal: a line per epoch
    epoch_lines = [line for line in stdout.splitlines() if " - val_accuracy: " in line]
    assert len(epoch_lines) == 2 and "\r" not in stdout and "━" not in stdout, stdout[-2000:]
    with open(out / "history.csv") as f:
        assert [row["epoch"] for row in csv.DictReader(f)] == ["1", "2"]  # from 1, as Keras
    config = json.loads((out / "config.json").read_text())
    assert (
        config["model"],
        config["preset"],
        config["dataset"],
        config["train"]["seed"],
        config["validation_split"],
    ) == ("sl_vit", "small", str(colour_folder.resolve()), 42, 0.1)
    assert (
        config["augment"],
        config["random_erasing"],
        config["model_config"]["attention"],
        config["model_config"]["spt"],
    ) == ("standard", None, "standard", True)
    assert (config["train"]["epochs"], config["train"]["batch_size"]) == (2, 16)
    # the folder's file list, which evaluate checks the folder against
    assert config["files_hash"] == load_dataset(str(colour_folder)).files_hash
    environment = config["environment"]
    # auto: JAX on a CPU is fastest in float32
    assert (environment["backend"], environment["dtype_policy"]) == (
        "jax",
        "float32",
    )
    assert (
        environment["keras_version"]
        and environment["backend_version"]
        and environment["vit_small_ds_version"]
    )


def test_a_run_trains_again_from_its_config_with_the_same_settings(trained_run, tmp_path):
    out, _ = trained_run
    again = train(["--config", str(out / "config.json"), "--output", str(tmp_path / "again")])
    first, second = (
        json.loads((folder / "config.json").read_text()) for folder in (out, again.folder)
    )
    # the first run's folder chose its flips; the second's chose them again, the same way
    assert first["chosen"]["flip"].startswith("off:") and second["chosen"] == first["chosen"]
    for config in (first, second):
        del config["environment"], config["train"]["output"]
    assert second == first


def test_evaluate_scores_the_runs_own_test_split_of_its_image_folder(trained_run):
    out, _ = trained_run
    # config.json beside it
    result = last_json(
        run_command(["vit_small_ds_evaluate", str(out / "model.keras")], "jax").stdout
    )
    assert result["test_images"] == 6  # 10% of each class's 20
    assert result["test_accuracy"] == pytest.approx(
        json.loads((out / "metrics.json").read_text())["test_accuracy"], abs=1e-6
    )


def test_an_int8_export_is_calibrated_on_the_runs_images_and_scored_on_its_test_split(
    trained_run, tmp_path
):
    out, _ = trained_run
    artifact = tmp_path / "sl_vit_int8.onnx"
    export = ["vit_small_ds_export", str(out), "--format", "onnx", "--quantize", "int8_static"]
    run_command([*export, "--output", str(artifact)], "jax")  # a TensorFlow process inside
    signature = json.loads(artifact.with_name(f"{artifact.name}.json").read_text())
    assert signature["quantization"] == "int8_static"
    assert signature["run_config"] == json.loads((out / "config.json").read_text())
    result = last_json(run_command(["vit_small_ds_evaluate", str(artifact)], "jax").stdout)
    assert result["test_images"] == 6
    run_accuracy = json.loads((out / "metrics.json").read_text())["test_accuracy"]
    assert result["test_accuracy"] == pytest.approx(run_accuracy, abs=1 / 6 + 1e-6)  # one image


def test_a_run_trains_on_torch_and_scores_the_same_on_tensorflow(colour_folder, tmp_path):
    """The third backend: the console script trains on PyTorch within a time budget and predicts
    there; here, on TensorFlow, its run scores the same."""
    out = tmp_path / "torch"
    flags = [*ONE_BLOCK, "--image-size", "24", "--batch-size", "16", "--time-budget", "0.05"]
    words = ["--dataset", str(colour_folder), *flags, "--output", str(out)]
    run_command(["vit_small_ds_train", *words, "--dtype-policy", "float32"], "torch")
    assert json.loads((out / "config.json").read_text())["environment"]["backend"] == "torch"
    assert json.loads((out / "time_budget.json").read_text())["steps"] >= 3  # an epoch at least
    metrics = json.loads((out / "metrics.json").read_text())
    result = evaluate([str(out)])
    assert (result["test_accuracy"], result["test_loss"]) == pytest.approx(
        (metrics["test_accuracy"], metrics["test_loss"]), abs=1e-5
    )
    image = sorted((colour_folder / "class1").iterdir())[0]
    predicted = run_command(["vit_small_ds_predict", str(out), str(image), "--json"], "torch")
    assert len(last_json(predicted.stdout)[str(image)]) == 3  # every class, ranked


@pytest.fixture(scope="module")
def green_image(tmp_path_factory):
    "A 56x56 image of the colour of class1 (predict resizes it to the model's 24x24)."
    image = np.full((56, 56, 3), 40, "uint8")
    image[..., 1] += 150
    path = tmp_path_factory.mktemp("images") / "green.png"
    Image.fromarray(image).save(path)
    return path


def test_predict_ranks_every_class_of_a_resized_image(trained_run, green_image, capsys):
    out, _ = trained_run
    line = (
        run_command(["vit_small_ds_predict", str(out), str(green_image)], "jax")
        .stdout.strip()
        .splitlines()[-1]
    )
    names_and_probs = [item.rsplit(" ", 1) for item in line.split(": ", 1)[1].split(", ")]
    assert [name for name, _ in names_and_probs][0] == "class1" and len(
        names_and_probs
    ) == 3  # --top 5 of 3 classes
    probabilities = [float(p) for _, p in names_and_probs]
    assert probabilities == sorted(probabilities, reverse=True) and sum(
        probabilities
    ) == pytest.approx(1, abs=2e-3)
    # a model file, on TensorFlow
    main(predict, [str(out / "model.keras"), str(green_image), "--json", "--top", "2"])
    ranked = last_json(capsys.readouterr().out)[str(green_image)]
    assert (
        len(ranked) == 2
        and ranked[0][0] == "class1"
        and ranked[0][1] == pytest.approx(probabilities[0], abs=2e-3)
    )


def test_bench_times_either_training_loop_and_says_which(capsys):
    flags = [
        "--model",
        "vit",
        "--preset",
        "small",
        "--batch-size",
        "8",
        "--steps",
        "2",
        "--repeats",
        "1",
        "--warmup",
        "1",
    ]
    result = last_json(run_command(["vit_small_ds_bench", *flags, "--loop", "fit"], "jax").stdout)
    main(bench, flags)  # the default loop, on TensorFlow
    default = last_json(capsys.readouterr().out)
    assert [(r["loop"], r["backend"], r["batch_size"]) for r in (result, default)] == [
        ("fit", "jax", 8),
        ("train_on_batch", "tensorflow", 8),
    ]
    assert all(r["train_img_per_s"] > 0 and r["infer_img_per_s"] > 0 for r in (result, default))


def test_help_shows_dashes_defaults_examples_and_every_registered_choice():
    for parser in (train_parser(), evaluate_parser(), predict_parser(), bench_parser()):
        text = parser.format_help()
        assert "_" not in "".join(word for word in text.split() if word.startswith("--")), (
            parser.prog
        )
        assert "examples:" in text, parser.prog
    text = train_parser().format_help()
    for flag, default in [
        ("--batch-size", "256"),  # the default run's: its preset's, not TrainConfig's 128
        ("--seed", "42"),
        ("--validation-split", "0.1"),
    ]:
        assert flag in text and f"(default: {default})" in text, flag
    assert (
        "{" + ",".join(list_models()) + "}" in text and "{" + ",".join(list_recipes()) + "}" in text
    )
    assert "fashion also sets --augment flip --random-erasing 0.25" in " ".join(text.split())
    # what the data decides says how, not a default
    assert "unset: about 54,000 images' worth" in " ".join(text.split())


def user_errors(run, tmp_path):
    "command -> (argv, what the one line says), for the errors 11_cli does not raise already."
    grey = tmp_path / "grey"
    for name in ("a", "b"):
        (grey / name).mkdir(parents=True)
        for i in range(10):
            Image.new("L", (24, 24), i * 20).save(grey / name / f"{i}.png")
    (tmp_path / "notes.txt").write_text("not a model")
    shutil.copy(run / "model.keras", tmp_path / "alone.keras")  # no config.json beside it
    moved = tmp_path / "moved"  # a run whose image folder has other files now
    shutil.copytree(run, moved)
    config = json.loads((moved / "config.json").read_text())
    (moved / "config.json").write_text(json.dumps({**config, "files_hash": "0" * 64}))
    return [
        (
            train,
            ["--epochs", "ten"],
            "argument --epochs: invalid int value: 'ten'",
        ),
        (evaluate, [str(tmp_path / "alone.keras")], "no run (config.json)"),
        (evaluate, [], "the following arguments are required: source"),
        (evaluate, [str(run / "missing.keras")], "missing.keras"),
        (evaluate, [str(run), "--dataset", str(grey)], "but its images are (24, 24, 1)"),
        (evaluate, [str(moved)], "has other files now"),
        (
            train,
            ["--dataset", str(tmp_path / "no_such_folder"), "--output", str(tmp_path / "x")],
            "no such folder",
        ),
        (train, ["--freeze-backbone"], "expected --init-from as well"),
        (
            train,
            ["--init-from", str(tmp_path), "--output", str(tmp_path / "y")],
            "holds neither a run's model.keras",
        ),
        # a finished run, refused before any data loads
        (
            train,
            ["--output", str(run)],
            "--overwrite",
        ),
        (bench, ["--loop", "scan"], "--loop: invalid choice: 'scan'"),
    ]


def test_a_command_starts_without_tensorflows_start_up_lines():
    "Even at TensorFlow's most verbose log level, the help is the only output."
    result = run_command(
        ["vit_small_ds_train", "--help"], "tensorflow", env={"TF_CPP_MIN_LOG_LEVEL": "0"}
    )
    assert result.stdout.startswith("usage: vit_small_ds_train") and result.stderr == "", (
        result.stderr
    )


def test_a_command_finds_its_devices_quietly():
    """TensorFlow looks for its devices once, when first asked (a run asks when it picks its dtype
    policy): on a machine without a GPU its CUDA driver's error line goes where the start-up lines
    go, nowhere, once the command has started its backend."""
    as_a_command = "import sys; sys.argv = ['vit_small_ds_train']; import vit_small_ds; "
    started = "vit_small_ds._start_backend(); "
    devices = "import tensorflow as tf; tf.config.list_physical_devices()"
    result = run_command(
        [sys.executable, "-c", as_a_command + started + devices],
        "tensorflow",
        env={"TF_CPP_MIN_LOG_LEVEL": "0"},
    )
    assert result.stderr == "", result.stderr


@pytest.mark.parametrize(
    "command, words, output",
    [
        *[(name, ["--help"], f"usage: vit_small_ds_{name}") for name in COMMANDS],
        ("train", ["--patch-size", "5"], "error: `patch_size`"),
        ("bench", ["--loop", "scan"], "argument --loop: invalid choice: 'scan'"),
    ],
)
def test_the_commands_help_and_mistakes_load_no_backend(command, words, output):
    """Every command's `--help`, and a flag that the settings or the parser refuse, answer before
    Keras, a backend or matplotlib is imported."""
    as_the_command = (
        f"import sys; sys.argv = ['vit_small_ds_{command}', *{words!r}]\n"
        f"from vit_small_ds.cli.commands import {command}_main\n"
        f"try:\n    {command}_main()\nexcept SystemExit:\n    pass\n"
        "heavy = {'keras', 'tensorflow', 'jax', 'torch', 'matplotlib'}\n"
        "print(sorted(heavy & set(sys.modules)))"
    )
    result = run_command([sys.executable, "-c", as_the_command], "tensorflow")
    assert result.stdout.strip().endswith("[]"), result.stdout[-500:]
    assert output in result.stdout.splitlines()[0] + result.stderr, (
        result.stdout[:500] + result.stderr
    )


def test_each_declaration_a_parser_reads_is_the_imported_ones():
    """Every `declared(module, name)` of the commands gives what importing the module gives: the
    parameters (annotations of the flag types), their comments and the docstring, or the value."""
    source = Path(commands.__file__).read_text()
    for module, name in re.findall(r'declared\("([\w.]+)", "(\w+)"\)', source):
        imported = getattr(importlib.import_module(f"vit_small_ds.{module}"), name)
        if not callable(imported):
            assert declared(module, name) == imported, (module, name)
            continue
        expected = [
            p.replace(annotation=p.annotation if p.annotation in _FLAG_TYPES.values() else p.empty)
            for p in inspect.signature(imported).parameters.values()
        ]
        function = declared(module, name)
        assert list(inspect.signature(function).parameters.values()) == expected, (module, name)
        assert docments(function) == docments(imported), (module, name)
        assert function.__doc__ == imported.__doc__, (module, name)


def test_every_user_error_is_one_line_and_status_2(trained_run, tmp_path, capsys):
    out, _ = trained_run
    for command, argv, message in user_errors(out, tmp_path):
        with pytest.raises(SystemExit) as exit:
            main(command, argv)
        stderr = capsys.readouterr().err.strip().splitlines()
        assert exit.value.code == 2 and len(stderr) == 1, (argv, stderr)
        assert stderr[0].startswith("error: ") and message in stderr[0], (argv, stderr)
    # the refused run left it untouched
    assert json.loads((out / "metrics.json").read_text())["model"] == "sl_vit"


def test_overwrite_patience_and_the_paper_recipe_reach_the_run(
    trained_run, colour_folder, tmp_path
):
    out = tmp_path / "run"
    shutil.copytree(trained_run[0], out)
    metrics = train(
        [
            "--dataset",
            str(colour_folder),
            *TRAIN_FLAGS,
            "--output",
            str(out),
            "--overwrite",
            "--model",
            "vit",
            "--augment",
            "paper",
            "--random-erasing",
            "0.5",
            "--epochs",
            "4",
            "--learning-rate",
            "1e-12",
            "--patience",
            "1",
        ]
    ).metrics
    # no epoch improves on the first
    assert (metrics["model"], metrics["epochs_run"], metrics["best_epoch"]) == (
        "vit",
        2,
        1,
    )
    with open(out / "history.csv") as f:
        assert [row["epoch"] for row in csv.DictReader(f)] == ["1", "2"]  # afresh
    config = json.loads((out / "config.json").read_text())
    assert (config["augment"], config["random_erasing"]) == ("paper", 0.5)
    train_config = {
        k: config["train"][k]
        for k in ("mixing", "repeated_augmentation", "label_smoothing", "batch_size")
    }
    assert train_config == {
        "mixing": True,
        "repeated_augmentation": 3,
        "label_smoothing": 0.1,
        "batch_size": 16,
    }  # a flag wins
    augmentation = keras.saving.load_model(out / "model.keras").layers[1]
    assert augmentation.layers[-1].name == "random_erasing" and tuple(
        augmentation.layers[-1].factor
    ) == (0.5, 0.5)


def test_init_from_a_run_replaces_the_head_and_freeze_backbone_trains_only_logits(
    trained_run, tmp_path, capsys
):
    source, _ = trained_run
    folder = tmp_path / "images"  # four classes instead of the source's three: a new head
    for k, name in enumerate("abcd"):
        (folder / name).mkdir(parents=True)
        for i in range(10):
            Image.new("RGB", (24, 24), (60 * k, 20 * i, 0)).save(folder / name / f"{i}.png")
    out = tmp_path / "probe"
    train(
        [
            "--dataset",
            str(folder),
            *ONE_BLOCK,  # the source run's architecture
            "--init-from",
            str(source),
            "--freeze-backbone",
            "--epochs",
            "1",
            "--batch-size",
            "8",
            "--output",
            str(out),
            "--verbose",
            "0",
        ]
    )
    assert "afresh: logits/kernel, logits/bias; all frozen but logits" in capsys.readouterr().out
    config = json.loads((out / "config.json").read_text())
    assert (config["init_from"], config["freeze_backbone"]) == (str(source), True)
    before, after = (
        keras.saving.load_model(source / "model.keras"),
        keras.saving.load_model(out / "model.keras"),
    )
    saved = {w.path: keras.ops.convert_to_numpy(w) for w in before.weights}
    for weight in after.weights:
        value = keras.ops.convert_to_numpy(weight)
        if weight.path.startswith("logits/"):
            assert value.shape[-1] == 4
        else:
            # frozen: as the source run left it
            assert (value == saved[weight.path]).all(), weight.path


def test_curves_of_one_epoch_are_drawn():
    from vit_small_ds.training.run_files import plot_history

    figure = plot_history(
        {"loss": [1.0], "val_loss": [0.9], "accuracy": [0.5], "val_accuracy": [0.6]}
    )
    lines = [line for ax in figure.axes for line in ax.lines]
    assert len(lines) == 4 and all(
        line.get_marker() == "o" and len(line.get_xdata()) == 1 for line in lines
    )
