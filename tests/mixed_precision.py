"""Every custom layer under `mixed_bfloat16` against the same layer in float32; run by
tests/test_mixed_precision.py on each backend (KERAS_BACKEND is read when keras is imported).

    python tests/mixed_precision.py layers        # each layer: policy, dtypes, values
    python tests/mixed_precision.py saved DIR     # a bf16-trained model, saved, loaded into a float32 one

Prints one JSON line.
"""

import json
import sys
from pathlib import Path

import keras
import numpy as np

import vit_small_ds
from tiny_models import masked_image_model
from vit_small_ds.layers.augmentation import InputNormalization, adapted_normalization
from vit_small_ds.layers.jax_affine import (
    RandAugment,
    RandomRotation,
    RandomTranslation,
    RandomZoom,
)
from vit_small_ds.training.hardware import using_dtype_policy
from vit_small_ds.training.loop import run_experiment
from vit_small_ds.layers.lsa import (
    CosineAttention,
    DotProductAttention,
    LinearAttention,
    MultiHeadAttentionLSA,
    TokenDense,
)
from vit_small_ds.layers.regularization import DropPath, Dropout
from vit_small_ds.layers.conv_tokenizer import ConvTokenizer
from vit_small_ds.models.shiftvit import PatchMerging, ShiftViTBlock, StackedShiftBlocks
from vit_small_ds.layers.spt import PatchEncoder, Patches, ShiftedPatchTokenization
from vit_small_ds.models.vit import ClassToken, SequencePooling, TransformerBlock

rng = np.random.default_rng(0)
images = rng.uniform(0, 1, (2, 12, 12, 3)).astype("float32")
tokens = rng.normal(size=(2, 9, 16)).astype("float32")
feature_map = rng.normal(size=(2, 8, 8, 24)).astype("float32")
patch_mask = np.array([[1, 0, 1, 0, 1, 0, 1, 0, 1], [0, 1, 1, 0, 0, 1, 1, 0, 0]], "float32")


def built_under(dtype, factory, *arguments):
    "`factory(*arguments)` made under the dtype policy `dtype`: a model, whose layers take the policy."
    with using_dtype_policy(dtype):
        return factory(*arguments)


def adapted(normalization):
    "`normalization` adapted to `images`, as `adapted_normalization` adapts its own."
    statistics = adapted_normalization(images)
    normalization.build(images.shape)
    normalization.adapt_mean.assign(statistics.adapt_mean)
    normalization.adapt_variance.assign(statistics.adapt_variance)
    return normalization


# name: (factory taking dtype, inputs)
LAYERS = {
    "Patches": (lambda dtype: Patches(4, dtype=dtype), (images,)),
    "PatchEncoder": (lambda dtype: PatchEncoder(9, 16, dtype=dtype), (tokens,)),
    "ShiftedPatchTokenization": (
        lambda dtype: ShiftedPatchTokenization(12, 4, 16, dtype=dtype),
        (images,),
    ),
    "ShiftedPatchTokenization(shifted=False)": (
        lambda dtype: ShiftedPatchTokenization(12, 4, 16, shifted=False, dtype=dtype),
        (images,),
    ),
    "DotProductAttention": (lambda dtype: DotProductAttention(2, 8, dtype=dtype), (tokens, tokens)),
    "MultiHeadAttentionLSA": (
        lambda dtype: MultiHeadAttentionLSA(2, 8, dtype=dtype),
        (tokens, tokens),
    ),
    "CosineAttention": (
        lambda dtype: CosineAttention(2, 8, diagonal_mask=True, dtype=dtype),
        (tokens, tokens),
    ),
    "LinearAttention": (
        lambda dtype: LinearAttention(2, 8, diagonal_mask=True, dtype=dtype),
        (tokens, tokens),
    ),
    "TransformerBlock": (
        lambda dtype: TransformerBlock(2, 8, (32, 16), lsa=True, dtype=dtype),
        (tokens,),
    ),
    "TransformerBlock(standard)": (
        lambda dtype: TransformerBlock(2, 8, (32, 16), dtype=dtype),
        (tokens,),
    ),
    "TransformerBlock(drop_path)": (
        lambda dtype: TransformerBlock(2, 8, (32, 16), lsa=True, drop_path=0.1, dtype=dtype),
        (tokens,),
    ),
    "ConvTokenizer": (lambda dtype: ConvTokenizer(12, 2, 16, dtype=dtype), (images,)),
    "ClassToken": (lambda dtype: ClassToken(dtype=dtype), (tokens,)),
    "SequencePooling": (lambda dtype: SequencePooling(dtype=dtype), (tokens,)),
    "DropPath": (lambda dtype: DropPath(0.5, dtype=dtype), (feature_map,)),
    "Dropout": (lambda dtype: Dropout(0.5, dtype=dtype), (feature_map,)),
    "ShiftViTBlock": (lambda dtype: ShiftViTBlock(num_div=12, dtype=dtype), (feature_map,)),
    "PatchMerging": (lambda dtype: PatchMerging(dtype=dtype), (feature_map,)),
    "StackedShiftBlocks": (
        lambda dtype: StackedShiftBlocks([0.0, 0.1], merge=True, dtype=dtype),
        (feature_map,),
    ),
    "RandomRotation": (lambda dtype: RandomRotation(0.1, seed=1, dtype=dtype), (images,)),
    "RandomZoom": (lambda dtype: RandomZoom(0.2, 0.2, seed=1, dtype=dtype), (images,)),
    "RandomTranslation": (
        lambda dtype: RandomTranslation(0.1, 0.1, seed=1, dtype=dtype),
        (images,),
    ),
    "TokenDense": (
        lambda dtype: TokenDense(
            "abc,cde->abde", output_shape=(None, 2, 8), bias_axes="de", dtype=dtype
        ),
        (tokens,),
    ),
    "RandAugment": (
        lambda dtype: RandAugment(value_range=(0, 1), num_ops=2, factor=0.5, seed=1, dtype=dtype),
        (images,),
    ),
    "InputNormalization": (lambda dtype: adapted(InputNormalization(dtype=dtype)), (images,)),
    "MaskedImageModel": (
        lambda dtype: built_under(dtype, masked_image_model, 12),
        (images, patch_mask),
    ),
}


def first_output(layer, inputs):
    "`layer`'s output on `inputs`; of a layer of several outputs, the first."
    return keras.tree.flatten(layer(*inputs))[0]


def sublayers(layer):
    return list(layer._flatten_layers(include_self=True, recursive=True))


def untested_layers(tested):
    "The library's registered layer classes that no entry of LAYERS builds (`tested`: the classes that they build)."
    registered = {
        cls
        for cls in keras.saving.get_custom_objects().values()
        if isinstance(cls, type)
        and issubclass(cls, keras.layers.Layer)
        and cls.__module__.startswith("vit_small_ds.")
    }
    return sorted(cls.__name__ for cls in registered - tested)


def check_layers():
    keras.utils.set_random_seed(0)  # the same weights in every run, so that the errors reproduce
    report, tested = {}, set()
    for name, (factory, inputs) in LAYERS.items():
        exact, mixed = factory("float32"), factory("mixed_bfloat16")
        tested.add(type(exact))
        expected = np.asarray(first_output(exact, inputs))
        if exact.weights:
            mixed(*inputs)  # builds it
            mixed.set_weights(exact.get_weights())
        # for the random layers, the first draw of the same seed, as for `exact`
        output = first_output(mixed, inputs)
        values = np.asarray(keras.ops.cast(output, "float32"))
        report[name] = {
            "output_dtype": keras.backend.standardize_dtype(output.dtype),
            "policies": sorted({sub.dtype_policy.name for sub in sublayers(mixed)}),
            # of the weights that are numbers with a fraction: a counter (the normalization's) is
            # an integer under every policy
            "variable_dtypes": sorted(
                {
                    dtype
                    for v in mixed.weights
                    if "float" in (dtype := keras.backend.standardize_dtype(v.dtype))
                }
            ),
            "relative_error": float(
                np.abs(values - expected).max() / max(np.abs(expected).max(), 1e-6)
            ),
        }
    return {"layers": report, "untested": untested_layers(tested)}


def train_save_and_load(folder):
    "Train a one-block SL-ViT for a few steps under mixed_bfloat16, save it, load its weights into a float32 twin, compare."
    full = vit_small_ds.load_dataset("sample")
    data = vit_small_ds.ImageDataset(
        full.x_train[:512],
        full.y_train[:512],
        full.x_val[:64],
        full.y_val[:64],
        full.x_test[:256],
        full.y_test[:256],
        full.class_names,
        "subset",
    )
    keras.utils.set_random_seed(0)
    with using_dtype_policy("mixed_bfloat16"):
        model = vit_small_ds.create_model("sl_vit", data=data, transformer_layers=1)
    run_experiment(
        model,
        data,
        vit_small_ds.TrainConfig(epochs=1, batch_size=64, dtype_policy="mixed_bfloat16", verbose=0),
    )
    path = Path(folder) / "bf16.keras"
    model.save(path)
    float32_twin = vit_small_ds.create_model("sl_vit", data=data, transformer_layers=1)
    float32_twin.load_weights(path)
    probabilities = [
        vit_small_ds.predict_probabilities(m, data.x_test) for m in (model, float32_twin)
    ]
    return {
        "twin_policy": float32_twin.dtype_policy.name,
        "predicted_classes": len(set(probabilities[0].argmax(1).tolist())),
        "max_probability_difference": float(np.abs(probabilities[0] - probabilities[1]).max()),
        "mean_probability_difference": float(np.abs(probabilities[0] - probabilities[1]).mean()),
        "same_class": float((probabilities[0].argmax(1) == probabilities[1].argmax(1)).mean()),
    }


if __name__ == "__main__":
    result = check_layers() if sys.argv[1] == "layers" else train_save_and_load(sys.argv[2])
    print(json.dumps({"backend": keras.backend.backend(), "result": result}))
