"""Fixtures shared by the tests: a tiny image folder that a model learns in one epoch, and one run of
`vit_small_ds_train` on it under JAX, as a user runs it (the in-process tests run on TensorFlow)."""

import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

# tests/processes.py, for the modules that start processes
sys.path.insert(0, str(Path(__file__).parent))
from processes import run_command  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--full",
        action="store_true",
        help="also run the tests marked slow (bash tests/run_all.sh --full)",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: minutes of work, skipped unless --full")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full"):
        return
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="slow: run with --full"))


# the architecture of the tests' runs: the `small` preset with one block, which shows what they check
# (the commands, the run folder, resuming) as well as the preset's four
ONE_BLOCK = ["--preset", "small", "--transformer-layers", "1"]
# no --verbose: the default (the default preset's recipe is 11_cli's)
TRAIN_FLAGS = [
    *ONE_BLOCK,
    "--image-size",
    "24",
    "--epochs",
    "2",
    "--batch-size",
    "16",
    "--learning-rate",
    "3e-3",
]


@pytest.fixture(scope="session")
def colour_folder(tmp_path_factory):
    "Three classes of 20 RGB images of 40x30 pixels, each class tinted its own colour: separable in one epoch."
    folder = tmp_path_factory.mktemp("colour")
    rng = np.random.default_rng(0)
    for label in range(3):
        (folder / f"class{label}").mkdir()
        for i in range(20):
            image = rng.integers(0, 80, (30, 40, 3)).astype("uint8")
            image[..., label] += 150
            Image.fromarray(image).save(folder / f"class{label}" / f"{i}.png")
    return folder


@pytest.fixture(scope="session")
def trained_run(tmp_path_factory, colour_folder):
    "`(run folder, stdout)` of SL-ViT trained by the console script on `colour_folder`, on JAX."
    out = tmp_path_factory.mktemp("run") / "sl_vit"
    result = run_command(
        ["vit_small_ds_train", "--dataset", str(colour_folder), *TRAIN_FLAGS, "--output", str(out)],
        "jax",
    )
    return out, result.stdout
