"""Every registered model keeps the library's contract (tests/contract.py) on the three backends, and every
variant saved on one backend loads on another, in a fresh process that imports only `keras` and `vit_small_ds`, and
predicts the same, whole or as weights only; an SL-ViT written by `save_pretrained` loads with `load_pretrained`
and has the same attention maps. A new model is tested by registering it: the toy model below is one entry,
as is the toy recipe."""

import dataclasses
from pathlib import Path

import keras
import pytest
from contract import PRETRAINED, contract
from processes import json_report

import vit_small_ds
from vit_small_ds.cli.commands import train_parser
from vit_small_ds.models.registry import (
    MODELS,
    RECIPES,
    AugmentRecipe,
    ModelRecipe,
    Preset,
    register_model,
    run_settings,
)

SCRIPT = Path(__file__).with_name("contract.py")


# a cycle: each backend saves once and loads what another saved
@pytest.mark.parametrize(
    "saved_on, loaded_on", [("tensorflow", "jax"), ("jax", "torch"), ("torch", "tensorflow")]
)
def test_every_model_keeps_the_contract_and_loads_on_the_other_backend(
    tmp_path, saved_on, loaded_on
):
    saved = json_report([str(SCRIPT), "save", str(tmp_path)], saved_on)
    assert sorted(saved["contracts"]) == sorted(vit_small_ds.list_models())
    report = json_report([str(SCRIPT), "load", str(tmp_path)], loaded_on)
    # seven models, and ViT and SL-ViT with each of the two other attention kinds
    assert len(saved["saved"]) == 11
    assert sorted(report["differences"]) == sorted(
        saved["saved"]
        + [f"{key} (weights only)" for key in saved["saved"]]
        + [f"{PRETRAINED} (save_pretrained)", f"{PRETRAINED} (attention maps)"]
    )
    assert max(report["differences"].values()) < 1e-5, report["differences"]
    assert report["layers"] >= 12 and report["unregistered"] == [], report


@dataclasses.dataclass(frozen=True)
class ToyConfig:
    "The settings a model family's config has: its input, its classes, the size its recipes resize to."

    input_shape: tuple = (28, 28, 1)
    num_classes: int = 10
    image_size: int = 28
    width: int = 8


def toy_classifier(config, augmentation=None, name="toy"):
    inputs = keras.Input(config.input_shape)
    x = (augmentation or keras.layers.Rescaling(1 / 255))(inputs)
    x = keras.layers.Dense(config.width, activation="relu", name="hidden")(
        keras.layers.Flatten()(x)
    )
    # float32 under mixed precision
    logits = keras.layers.Dense(config.num_classes, name="logits", dtype="float32")
    return keras.Model(inputs, logits(x), name=name)


def test_a_model_and_a_recipe_registered_in_one_place_are_everywhere(monkeypatch):
    toy = ModelRecipe(
        presets={"small": Preset(ToyConfig(), training={"augment": "flip", "batch_size": 32})},
        build=toy_classifier,
        augmentation=lambda config, images: None,
        forward_flops=lambda c: 2 * c.width * (28 * 28 + c.num_classes),
    )
    monkeypatch.setitem(MODELS, "toy", None)  # so that the registry forgets it after the test
    register_model("toy", toy)  # what a new family's module does
    assert "toy" in vit_small_ds.list_models() and vit_small_ds.list_presets("toy") == ["small"]
    assert "toy" in train_parser().format_help()
    assert run_settings("toy") == {"augment": "flip", "batch_size": 32}
    assert contract("toy")["copied"] == 2  # hidden/kernel and hidden/bias; logits starts afresh
    model = vit_small_ds.create_model("toy", input_shape=(32, 32, 3), num_classes=4)
    assert model.output_shape == (None, 4)
    flip = AugmentRecipe(
        lambda model, config, images: keras.Sequential(
            [keras.layers.RandomFlip("horizontal")], name="flip_only"
        ),
        training={"label_smoothing": 0.2},
    )
    # the one entry a new recipe adds to models.RECIPES
    monkeypatch.setitem(RECIPES, "flip_only", flip)
    assert "flip_only" in vit_small_ds.list_recipes()
    assert "flip_only also sets --label-smoothing 0.2" in " ".join(
        train_parser().format_help().split()
    )
    assert run_settings("toy", augment="flip_only") == {
        "augment": "flip_only",
        "batch_size": 32,
        "label_smoothing": 0.2,
    }
    assert (
        vit_small_ds.create_model(
            "toy", input_shape=(28, 28, 1), num_classes=3, augment="flip_only"
        )
        .layers[1]
        .name
        == "flip_only"
    )
