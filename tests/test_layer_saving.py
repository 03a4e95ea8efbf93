"""Every layer the library registers comes back from its config and from a `.keras` file with the
same outputs. The cases are listed once here; a registered layer that no case holds fails the
first test, so a new layer is tested by adding one line."""

import tempfile

import keras
import numpy as np
import pytest

import vit_small_ds  # noqa: F401  (registers the layers)
from tiny_models import masked_image_model
from vit_small_ds.layers.augmentation import adapted_normalization
from vit_small_ds.layers.jax_affine import (
    RandAugment,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
)
from vit_small_ds.layers.lsa import ATTENTION_KINDS, make_attention
from vit_small_ds.layers.regularization import DropPath, Dropout
from vit_small_ds.layers.conv_tokenizer import ConvTokenizer
from vit_small_ds.models.shiftvit import PatchMerging, ShiftViTBlock, StackedShiftBlocks
from vit_small_ds.layers.spt import Patches, PatchEncoder, ShiftedPatchTokenization
from vit_small_ds.models.vit import ClassToken, SequencePooling, TransformerBlock

rng = np.random.default_rng(0)
images = rng.uniform(0, 255, (2, 8, 8, 3)).astype("float32")
tokens = rng.normal(size=(2, 9, 16)).astype("float32")
feature_map = rng.normal(size=(2, 8, 8, 16)).astype("float32")
patch_mask = np.array([[1, 0, 1, 0], [0, 1, 1, 0]], "float32")  # of a 2 x 2 grid of patches


def cases():
    "(layer, inputs) pairs, built afresh for each test."
    attentions = [
        make_attention(kind, 2, 8, dropout=0.1, lsa=lsa)
        for kind in ATTENTION_KINDS
        for lsa in (False, True)
    ]
    blocks = [
        TransformerBlock(2, 8, (32, 16), 0.1, kind, lsa=True, drop_path=0.1)
        for kind in ATTENTION_KINDS
    ]
    return (
        [(layer, (tokens, tokens)) for layer in attentions]
        + [
            (layer, (tokens,))
            for layer in (
                *blocks,
                ClassToken(),
                SequencePooling(),
                Dropout(0.2, seed=3),
                DropPath(0.1, seed=3),
            )
        ]
        + [
            (layer, (images,))
            for layer in (
                Patches(4),
                ShiftedPatchTokenization(8, 4, 16),
                ConvTokenizer(8, 2, 16),
                ShiftedPatchTokenization(8, 4, 16, shifted=False),
            )
        ]
        + [(PatchEncoder(9, 16), (tokens,)), (masked_image_model(8), (images, patch_mask))]
        + [
            (layer, (feature_map,))
            for layer in (
                ShiftViTBlock(num_div=4),
                PatchMerging(),
                StackedShiftBlocks([0.0, 0.1], merge=True),
            )
        ]
        + [
            (layer, (images,))
            for layer in (
                RandomRotation(0.1, seed=1),
                RandomZoom(0.2, seed=1),
                RandomTranslation(0.1, 0.1, seed=1),
                RandAugment(value_range=(0, 255), seed=1),
                adapted_normalization(images),
            )
        ]
    )


def case_id(case):
    return f"{case[0].__class__.__name__}-{case[0].name}"


def outputs(model, batch, training):
    "`model`'s outputs on `batch`, one NumPy vector (a model of several outputs: them all)."
    flat = keras.tree.flatten(model(batch, training=training))
    return np.concatenate([np.ravel(keras.ops.convert_to_numpy(x)) for x in flat])


def assert_saves_and_loads(layer, *inputs, eps: float = 1e-6):
    "`layer` survives `from_config(get_config())` and a `.keras` round trip in a model, with outputs equal within `eps`."
    clone = layer.__class__.from_config(layer.get_config())
    assert clone.get_config() == layer.get_config(), (
        f"{layer.__class__.__name__}: from_config(get_config()) differs"
    )
    symbolic = [keras.Input(np.shape(x)[1:]) for x in inputs]
    model = keras.Model(symbolic, layer(*symbolic))
    batch = list(inputs)  # the structure the model was built with, also after loading
    expected = outputs(model, batch, training=False)
    with tempfile.TemporaryDirectory() as folder:
        model.save(f"{folder}/layer.keras")
        loaded = keras.saving.load_model(f"{folder}/layer.keras")
    got = outputs(loaded, batch, training=False)
    difference = np.abs(got - expected).max()
    assert difference <= eps, (
        f"{layer.__class__.__name__}: the loaded layer differs by {difference}"
    )
    if layer.get_config().get("seed") is not None:  # seeded: its random draws come back too
        drawn = outputs(model, batch, training=True)
        assert not np.allclose(drawn, expected), f"{layer.__class__.__name__}: draws nothing"
        redrawn = outputs(loaded, batch, training=True)
        assert np.abs(redrawn - drawn).max() <= eps, (
            f"{layer.__class__.__name__}: the loaded layer draws differently"
        )


def test_every_registered_layer_has_a_case():
    registered = {
        obj
        for name, obj in keras.saving.get_custom_objects().items()
        if name.startswith("vit_small_ds>")
        and isinstance(obj, type)
        and issubclass(obj, keras.layers.Layer)
    }
    held = set()
    for layer, inputs in cases():
        layer(*inputs)  # builds the sublayers a layer makes in `build`
        held |= {type(sublayer) for sublayer in layer._flatten_layers()}
    assert not registered - held, (
        f"registered layers without a case: {sorted(c.__name__ for c in registered - held)}"
    )


@pytest.mark.parametrize("index", range(len(cases())))
def test_layer_saves_and_loads(index):
    layer, inputs = cases()[index]
    assert_saves_and_loads(layer, *inputs)


def test_a_config_that_forgets_an_argument_fails():
    @keras.saving.register_keras_serializable(package="test_layer_saving")
    class Scale(
        keras.layers.Layer
    ):  # leaves `factor` out of its config: the loaded copy multiplies by 1
        def __init__(self, factor=1.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {k: v for k, v in super().get_config().items() if k != "factor"}

    with pytest.raises(AssertionError, match="differs by 2.0"):
        assert_saves_and_loads(Scale(3.0), np.ones((2, 4), "float32"))
