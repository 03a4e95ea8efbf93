"""The keras-io example's CIFAR-100 SL-ViT and vanilla ViT, as the keras-io example "Train a Vision
Transformer on small datasets" builds them, timed as `vit_small_ds_bench` times a model.

This is the reference that the library's speed is measured against. It uses plain Keras 3 layers
and nothing of this library: the example's augmentation (normalization, resize to 72, flip, small
rotation and zoom), Shifted Patch Tokenization by cropping and padding four shifted copies, an
`Embedding` for positions, Keras' `MultiHeadAttention` (with the diagonal mask and a learned
temperature for LSA), eight pre-norm blocks, and the 2048-1024 head on all flattened tokens,
compiled as the example compiles it (AdamW, sparse cross-entropy on logits, top-1 and top-5).

Two changes that Keras 3.15 needs: the LSA layer's `_compute_attention` accepts the arguments
Keras now passes, and patches are extracted with `strides=(p, p)` (JAX rejects `[1, p, p, 1]`).

    KERAS_BACKEND=tensorflow python scripts/keras_io_sl_vit.py --model sl_vit --batch-size 256

prints one JSON line with the training images/s: the median over `--repeats` of `--steps`
`train_on_batch` calls on one fixed random batch, after `--warmup` calls.
"""

import argparse
import json
import math
import statistics
import time

import keras
import numpy as np
from keras import layers, ops

INPUT_SHAPE, NUM_CLASSES = (32, 32, 3), 100
IMAGE_SIZE, PATCH_SIZE = 72, 6
NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2
PROJECTION_DIM, NUM_HEADS, TRANSFORMER_LAYERS = 64, 4, 8
TRANSFORMER_UNITS, MLP_HEAD_UNITS = (128, 64), (2048, 1024)
LAYER_NORM_EPS = 1e-6


def augmentation(x_train):
    "Normalization adapted on `x_train`, resize, flip, a rotation of 2% of a turn, a 20% zoom."
    block = keras.Sequential(
        [
            layers.Normalization(),
            layers.Resizing(IMAGE_SIZE, IMAGE_SIZE),
            layers.RandomFlip("horizontal"),
            layers.RandomRotation(factor=0.02),
            layers.RandomZoom(height_factor=0.2, width_factor=0.2),
        ],
        name="data_augmentation",
    )
    block.layers[0].adapt(x_train)
    return block


class ShiftedPatchTokenization(layers.Layer):
    "The image and four copies shifted diagonally by half a patch, cut into patches and projected."

    def __init__(self, vanilla=False, **kwargs):
        super().__init__(**kwargs)
        self.vanilla, self.half_patch = vanilla, PATCH_SIZE // 2
        self.flatten_patches = layers.Reshape((NUM_PATCHES, -1))
        self.projection = layers.Dense(PROJECTION_DIM)
        self.layer_norm = layers.LayerNormalization(epsilon=LAYER_NORM_EPS)

    def shifted(self, images, crop_top, crop_left):
        "Crop `half_patch` rows and columns on one side each, then pad them back on the other."
        crop = ops.image.crop_images(
            images,
            top_cropping=crop_top,
            left_cropping=crop_left,
            target_height=IMAGE_SIZE - self.half_patch,
            target_width=IMAGE_SIZE - self.half_patch,
        )
        return ops.image.pad_images(
            crop,
            top_padding=self.half_patch - crop_top,
            left_padding=self.half_patch - crop_left,
            target_height=IMAGE_SIZE,
            target_width=IMAGE_SIZE,
        )

    def call(self, images):
        if not self.vanilla:
            h = self.half_patch  # left-up, left-down, right-up, right-down
            views = [
                self.shifted(images, top, left) for top, left in ((h, h), (0, h), (h, 0), (0, 0))
            ]
            images = ops.concatenate([images, *views], axis=-1)
        patches = ops.image.extract_patches(
            images, size=(PATCH_SIZE, PATCH_SIZE), strides=(PATCH_SIZE, PATCH_SIZE), padding="valid"
        )
        tokens = self.flatten_patches(patches)
        return self.projection(tokens if self.vanilla else self.layer_norm(tokens))


class PatchEncoder(layers.Layer):
    "Adds a learned position embedding (an `Embedding` looked up at 0 .. N-1) to the tokens."

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.position_embedding = layers.Embedding(NUM_PATCHES, PROJECTION_DIM)
        self.positions = ops.arange(NUM_PATCHES)

    def call(self, tokens):
        return tokens + self.position_embedding(self.positions)


class MultiHeadAttentionLSA(layers.MultiHeadAttention):
    "Keras' attention with a learned temperature `tau`, initialised to sqrt(key_dim)."

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tau = keras.Variable(math.sqrt(float(self._key_dim)), trainable=True)

    def _compute_attention(
        self, query, key, value, attention_mask=None, training=None, *args, **kwargs
    ):
        query = ops.multiply(query, 1.0 / self.tau)
        scores = ops.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask)
        output = ops.einsum(
            self._combine_equation, self._dropout_layer(scores, training=training), value
        )
        return output, scores


def mlp(x, hidden_units, dropout_rate):
    for units in hidden_units:
        x = layers.Dense(units, activation="gelu")(x)
        x = layers.Dropout(dropout_rate)(x)
    return x


def keras_io_vit(x_train, vanilla=False):
    "The example's `create_vit_classifier(vanilla)`: SL-ViT, or with `vanilla` the plain ViT."
    inputs = layers.Input(INPUT_SHAPE)
    tokens = ShiftedPatchTokenization(vanilla=vanilla)(augmentation(x_train)(inputs))
    encoded = PatchEncoder()(tokens)
    not_itself = ops.cast([1 - ops.eye(NUM_PATCHES)], "int8")  # LSA's diagonal mask
    for _ in range(TRANSFORMER_LAYERS):
        x1 = layers.LayerNormalization(epsilon=LAYER_NORM_EPS)(encoded)
        if vanilla:
            attention = layers.MultiHeadAttention(NUM_HEADS, PROJECTION_DIM, dropout=0.1)(x1, x1)
        else:
            lsa = MultiHeadAttentionLSA(num_heads=NUM_HEADS, key_dim=PROJECTION_DIM, dropout=0.1)
            attention = lsa(x1, x1, attention_mask=not_itself)
        x2 = layers.Add()([attention, encoded])
        x3 = mlp(layers.LayerNormalization(epsilon=LAYER_NORM_EPS)(x2), TRANSFORMER_UNITS, 0.1)
        encoded = layers.Add()([x3, x2])
    representation = layers.LayerNormalization(epsilon=LAYER_NORM_EPS)(encoded)
    representation = layers.Dropout(0.5)(layers.Flatten()(representation))
    logits = layers.Dense(NUM_CLASSES)(mlp(representation, MLP_HEAD_UNITS, 0.5))
    return keras.Model(inputs, logits)


def compiled(model):
    "Compiled as the example's `run_experiment` compiles it (its optimizer uses a constant rate)."
    model.compile(
        optimizer=keras.optimizers.AdamW(learning_rate=1e-3, weight_decay=1e-4),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[
            keras.metrics.SparseCategoricalAccuracy(name="accuracy"),
            keras.metrics.SparseTopKCategoricalAccuracy(5, name="top-5-accuracy"),
        ],
    )
    return model


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=("sl_vit", "vit"), default="sl_vit")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, (args.batch_size, *INPUT_SHAPE)).astype("float32")
    y = rng.integers(0, NUM_CLASSES, args.batch_size)
    keras.utils.set_random_seed(0)
    model = compiled(keras_io_vit(x, vanilla=args.model == "vit"))
    for _ in range(args.warmup):
        model.train_on_batch(x, y)  # compiles; not timed
    seconds = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for _ in range(args.steps):
            model.train_on_batch(x, y)
        seconds.append((time.perf_counter() - start) / args.steps)
    result = {
        "code": "keras-io",
        "model": args.model,
        "backend": keras.backend.backend(),
        "batch_size": args.batch_size,
        "params": int(model.count_params()),
        "train_img_per_s": round(args.batch_size / statistics.median(seconds), 2),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
