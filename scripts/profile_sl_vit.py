"""Where an SL-ViT training step spends its time: each part of the `cifar100` preset trained alone.

    KERAS_BACKEND=tensorflow python scripts/profile_sl_vit.py [--dtype-policy mixed_bfloat16] [PART ...]
    KERAS_BACKEND=jax python scripts/profile_sl_vit.py

Each part is wrapped in a small model (part -> pooled -> Dense(1), mean squared error, AdamW) and
timed over training steps of batch 256 after two compiling steps (the median of 3 timings of 10
steps): forward, backward and update, the work the part adds to a real step. The attention core
is then built up stage by stage (QK^T, the diagonal mask, softmax, dropout, the weighted sum of
the values); each stage's cost is the difference to the stage before. Prints one JSON line per
measurement, with the machine and software. The performance page renders its table of the two
backends part by part from results/parts_zen5, written by (NAME=zen5):

    mkdir -p results/parts_NAME
    for backend in tensorflow jax; do
        KERAS_BACKEND=$backend python scripts/profile_sl_vit.py >> results/parts_NAME/parts.jsonl
    done
"""

import argparse
import json
import statistics
import time

import keras
import numpy as np
from keras import layers, ops

from vit_small_ds.layers.augmentation import vit_augmentation
from vit_small_ds.layers.lsa import TokenDense, make_attention
from vit_small_ds.layers.regularization import Dropout
from vit_small_ds.layers.spt import PatchEncoder, ShiftedPatchTokenization
from vit_small_ds.models.vit import VIT_PRESETS, TransformerBlock, mlp
from vit_small_ds.training.devices import environment

BATCH, STEPS, REPEATS = 256, 10, 3
config = VIT_PRESETS["cifar100"]
rng = np.random.default_rng(0)
tokens = rng.normal(size=(BATCH, config.num_patches, config.projection_dim)).astype("float32")


def pooled_model(inputs, outputs):
    pooled = layers.GlobalAveragePooling1D()(outputs) if len(outputs.shape) == 3 else outputs
    return keras.Model(inputs, layers.Dense(1)(pooled))


def augmentation_part():
    images = keras.Input(config.input_shape)
    x = vit_augmentation(rng.integers(0, 256, (64, *config.input_shape)), config.image_size)(images)
    x = layers.Reshape((config.image_size**2, config.input_shape[-1]))(x)
    return pooled_model(images, x), rng.integers(0, 256, (BATCH, *config.input_shape)).astype(
        "float32"
    )


def tokenizer_part():
    images = keras.Input((config.image_size, config.image_size, config.input_shape[-1]))
    x = ShiftedPatchTokenization(config.image_size, config.patch_size, config.projection_dim)(
        images
    )
    x = PatchEncoder(config.num_patches, config.projection_dim)(x)
    return pooled_model(images, x), rng.normal(size=(BATCH, *images.shape[1:])).astype("float32")


def attention_part(dropout, lsa):
    def build():
        x = inputs = keras.Input(tokens.shape[1:])
        x = layers.LayerNormalization(epsilon=config.layer_norm_eps)(x)
        x = make_attention("standard", config.num_heads, config.projection_dim, dropout, lsa=lsa)(
            x, x
        )
        return pooled_model(inputs, x), tokens

    return build


def mlp_part():
    x = inputs = keras.Input(tokens.shape[1:])
    x = mlp(
        layers.LayerNormalization(epsilon=config.layer_norm_eps)(x),
        config.transformer_units,
        config.dropout,
        "mlp",
    )
    return pooled_model(inputs, x), tokens


def block_part():
    "A whole SL-ViT block (attention and MLP, each with its norm and residual): the model has `transformer_layers` of them."
    inputs = keras.Input(tokens.shape[1:])
    x = TransformerBlock(
        config.num_heads,
        config.projection_dim,
        config.transformer_units,
        config.dropout,
        config.attention,
        config.lsa,
        config.layer_norm_eps,
    )(inputs)
    return pooled_model(inputs, x), tokens


def head_part():
    x = inputs = keras.Input(tokens.shape[1:])
    x = layers.Flatten()(layers.LayerNormalization(epsilon=config.layer_norm_eps)(x))
    x = mlp(Dropout(config.head_dropout)(x), config.mlp_head_units, config.head_dropout, "head")
    return pooled_model(inputs, layers.Dense(config.num_classes)(x)), tokens


class AttentionCore(layers.Layer):
    "The LSA core up to `stages`, on one set of projected heads used as queries, keys and values."

    def __init__(self, stages, **kwargs):
        super().__init__(**kwargs)
        self.stages, self.dropout = stages, Dropout(config.dropout)  # the model's

    def build(self, input_shape):
        self.tau = self.add_weight(
            shape=(), initializer=keras.initializers.Constant(8.0), name="tau"
        )

    def call(
        self, heads, training=None
    ):  # heads: (B, h, T, d), as MultiHeadAttentionLSA.attend gets them
        x = heads * self.tau
        if "qk" in self.stages:
            x = ops.matmul(heads / self.tau, ops.swapaxes(heads, -1, -2))
        if "mask" in self.stages:
            x = x + ops.cast(ops.eye(x.shape[-1]) * -1e9, x.dtype)
        if "softmax" in self.stages:
            x = ops.softmax(x, axis=-1)
        if "dropout" in self.stages:
            x = self.dropout(x, training=training)
        if "av" in self.stages:
            x = ops.matmul(x, heads)
        return ops.mean(ops.reshape(x, (ops.shape(x)[0], -1)), axis=-1, keepdims=True)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], 1)


def core_part(stages):
    def build():
        inputs = keras.Input(tokens.shape[1:])
        heads = TokenDense(
            "abc,cde->abde", (None, config.num_heads, config.projection_dim), bias_axes="de"
        )(inputs)
        heads = layers.Permute((2, 1, 3))(heads)  # heads first
        return keras.Model(inputs, layers.Dense(1)(AttentionCore(stages)(heads))), tokens

    return build


PARTS = {
    "augmentation": augmentation_part,
    "tokenizer": tokenizer_part,
    "lsa_attention": attention_part(config.dropout, True),
    "lsa_attention_no_dropout": attention_part(0.0, True),
    "standard_attention": attention_part(config.dropout, False),
    "mlp": mlp_part,
    "block": block_part,
    "head": head_part,
}
CORE_STAGES = [
    "projection",
    "qk",
    "qk+mask",
    "qk+mask+softmax",
    "qk+mask+softmax+dropout",
    "qk+mask+softmax+dropout+av",
]
PARTS.update({f"core:{stages}": core_part(stages) for stages in CORE_STAGES})


def step_milliseconds(build):
    "The median over `REPEATS` timings of the milliseconds of one step, each timing `STEPS` steps."
    keras.utils.set_random_seed(0)
    model, x = build()
    y = np.zeros((BATCH, 1), "float32")
    model.compile(keras.optimizers.AdamW(1e-4), "mse")
    for _ in range(2):
        model.train_on_batch(x, y)  # compiles
    timings = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(STEPS):
            model.train_on_batch(x, y)  # returns the loss as a number: the step has finished
        timings.append((time.perf_counter() - start) / STEPS * 1000)
    return statistics.median(timings)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "parts",
        nargs="*",
        default=list(PARTS),
        help=f"parts to time (default: all): {', '.join(PARTS)}",
    )
    parser.add_argument(
        "--dtype-policy", default="float32", help="Keras dtype policy the parts are built under"
    )
    args = parser.parse_args()
    if unknown := set(args.parts) - set(PARTS):
        parser.error(f"unknown parts {sorted(unknown)}; choose from {list(PARTS)}")
    keras.config.set_dtype_policy(args.dtype_policy)
    this_process = environment()
    keys = ("backend", "backend_version", "keras_version", "vit_small_ds_version", "machine", "cpu")
    machine = {key: this_process[key] for key in keys}
    for name in args.parts:
        print(
            json.dumps(
                {
                    "part": name,
                    "dtype_policy": args.dtype_policy,
                    "batch": BATCH,
                    "ms_per_step": round(step_milliseconds(PARTS[name]), 1),
                    "repeats": REPEATS,
                    **machine,
                }
            ),
            flush=True,
        )
