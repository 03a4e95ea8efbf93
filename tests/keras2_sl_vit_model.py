"""The keras-io example's SL-ViT or vanilla ViT (seed 001), built with Keras 2 and saved as a TensorFlow
SavedModel the way `huggingface_hub.save_pretrained_keras` saved the published model. Run by
tests/test_keras2_savedmodel.py in a subprocess, with tf-keras installed and TF_USE_LEGACY_KERAS=1:

    TF_USE_LEGACY_KERAS=1 python tests/keras2_sl_vit_model.py KIND FOLDER [KIND FOLDER ...]   # KIND: sl|vanilla|cnn

The sizes are small (so the test is quick) unless DOCUMENTS_SIZE=published; the layers, their order, names and
call are seed 001's.
`cnn` saves a small Keras 2 CNN instead: a SavedModel of another architecture.
Every weight is then set to a random value (so a weight mapped to the wrong place shows), and the
folder gets `expected.npz`: eight images and the model's logits on them (inference mode).
"""

import json
import math
import os
import sys

assert os.environ.get("TF_USE_LEGACY_KERAS") == "1", (
    "run with TF_USE_LEGACY_KERAS=1: this is Keras 2 code"
)
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

# DOCUMENTS_SIZE=published builds the published model's size (72-pixel input from CIFAR's 32, 8 layers, the
# 2048-1024 head), its weights moved by less (NOISE) so that its logits stay about 10 in size.
PUBLISHED = os.environ.get("DOCUMENTS_SIZE", "small") == "published"
INPUT_SHAPE, NUM_CLASSES = ((32, 32, 3), 100) if PUBLISHED else ((16, 16, 3), 7)
IMAGE_SIZE, PATCH_SIZE = (72, 6) if PUBLISHED else (24, 6)
NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2
LAYER_NORM_EPS, TRANSFORMER_LAYERS, PROJECTION_DIM, NUM_HEADS = (
    (1e-6, 8, 64, 4) if PUBLISHED else (1e-6, 2, 16, 2)
)
TRANSFORMER_UNITS, MLP_HEAD_UNITS = (
    [PROJECTION_DIM * 2, PROJECTION_DIM],
    [2048, 1024] if PUBLISHED else [32, 24],
)
NOISE = 0.02 if PUBLISHED else 0.2


class ShiftedPatchTokenization(layers.Layer):
    def __init__(self, vanilla=False, **kwargs):
        super().__init__(**kwargs)
        self.vanilla, self.half_patch = vanilla, PATCH_SIZE // 2
        self.flatten_patches = layers.Reshape((NUM_PATCHES, -1))
        self.projection = layers.Dense(units=PROJECTION_DIM)
        self.layer_norm = layers.LayerNormalization(epsilon=LAYER_NORM_EPS)

    def crop_shift_pad(self, images, mode):
        h = self.half_patch
        crop_height, crop_width, shift_height, shift_width = {
            "left-up": (h, h, 0, 0),
            "left-down": (0, h, h, 0),
            "right-up": (h, 0, 0, h),
            "right-down": (0, 0, h, h),
        }[mode]
        crop = tf.image.crop_to_bounding_box(
            images, crop_height, crop_width, IMAGE_SIZE - h, IMAGE_SIZE - h
        )
        return tf.image.pad_to_bounding_box(crop, shift_height, shift_width, IMAGE_SIZE, IMAGE_SIZE)

    def call(self, images):
        if not self.vanilla:
            images = tf.concat(
                [images]
                + [
                    self.crop_shift_pad(images, mode)
                    for mode in ("left-up", "left-down", "right-up", "right-down")
                ],
                axis=-1,
            )
        patches = tf.image.extract_patches(
            images=images,
            sizes=[1, PATCH_SIZE, PATCH_SIZE, 1],
            strides=[1, PATCH_SIZE, PATCH_SIZE, 1],
            rates=[1, 1, 1, 1],
            padding="VALID",
        )
        flat_patches = self.flatten_patches(patches)
        tokens = flat_patches if self.vanilla else self.layer_norm(flat_patches)
        return self.projection(tokens), patches


class PatchEncoder(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.position_embedding = layers.Embedding(input_dim=NUM_PATCHES, output_dim=PROJECTION_DIM)
        self.positions = tf.range(start=0, limit=NUM_PATCHES, delta=1)

    def call(self, encoded_patches):
        return encoded_patches + self.position_embedding(self.positions)


class MultiHeadAttentionLSA(layers.MultiHeadAttention):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.tau = tf.Variable(math.sqrt(float(self._key_dim)), trainable=True)

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        query = tf.multiply(query, 1.0 / self.tau)
        attention_scores = tf.einsum(self._dot_product_equation, key, query)
        attention_scores = self._masked_softmax(attention_scores, attention_mask)
        attention_scores_dropout = self._dropout_layer(attention_scores, training=training)
        attention_output = tf.einsum(self._combine_equation, attention_scores_dropout, value)
        return attention_output, attention_scores


def mlp(x, hidden_units, dropout_rate):
    for units in hidden_units:
        x = layers.Dense(units, activation=tf.nn.gelu)(x)
        x = layers.Dropout(dropout_rate)(x)
    return x


def create_vit_classifier(data_augmentation, vanilla):
    inputs = layers.Input(shape=INPUT_SHAPE)
    augmented = data_augmentation(inputs)
    (tokens, _) = ShiftedPatchTokenization(vanilla=vanilla)(augmented)
    encoded_patches = PatchEncoder()(tokens)
    diag_attn_mask = tf.cast(1 - tf.eye(NUM_PATCHES), tf.int8)
    for _ in range(TRANSFORMER_LAYERS):
        x1 = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
        if not vanilla:
            attention_output = MultiHeadAttentionLSA(
                num_heads=NUM_HEADS, key_dim=PROJECTION_DIM, dropout=0.1
            )(x1, x1, attention_mask=diag_attn_mask)
        else:
            attention_output = layers.MultiHeadAttention(
                num_heads=NUM_HEADS, key_dim=PROJECTION_DIM, dropout=0.1
            )(x1, x1)
        x2 = layers.Add()([attention_output, encoded_patches])
        x3 = layers.LayerNormalization(epsilon=1e-6)(x2)
        x3 = mlp(x3, hidden_units=TRANSFORMER_UNITS, dropout_rate=0.1)
        encoded_patches = layers.Add()([x3, x2])
    representation = layers.LayerNormalization(epsilon=1e-6)(encoded_patches)
    representation = layers.Flatten()(representation)
    representation = layers.Dropout(0.5)(representation)
    features = mlp(representation, hidden_units=MLP_HEAD_UNITS, dropout_rate=0.5)
    logits = layers.Dense(NUM_CLASSES)(features)
    return keras.Model(inputs=inputs, outputs=logits)


def save(kind, folder):
    "Build the model `kind`, give it random weights, and save it with its logits on eight images in `folder`."
    keras.backend.clear_session()  # layer names as a fresh process gives them, as in the published model
    tf.keras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x_train = rng.integers(0, 256, (64, *INPUT_SHAPE)).astype("float32")
    data_augmentation = keras.Sequential(
        [
            layers.Normalization(),
            layers.Resizing(IMAGE_SIZE, IMAGE_SIZE),
            layers.RandomFlip("horizontal"),
            layers.RandomRotation(factor=0.02),
            layers.RandomZoom(height_factor=0.2, width_factor=0.2),
        ],
        name="data_augmentation",
    )
    data_augmentation.layers[0].adapt(x_train)
    if kind == "cnn":
        model = keras.Sequential(
            [
                layers.Input(INPUT_SHAPE),
                layers.Conv2D(4, 3),
                layers.Flatten(),
                layers.Dense(NUM_CLASSES),
            ]
        )
    else:
        model = create_vit_classifier(data_augmentation, vanilla=kind == "vanilla")
    for weight in (
        model.trainable_weights
    ):  # away from their initial values: zeros, ones and sqrt(key_dim) give nothing away
        weight.assign(weight + rng.normal(0, NOISE, weight.shape).astype("float32"))
    images = rng.integers(0, 256, (8, *INPUT_SHAPE)).astype("uint8")
    logits = model(images.astype("float32"), training=False).numpy()
    # what huggingface_hub.save_pretrained_keras does, beside a config.json
    model.save(folder, save_format="tf")
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump({}, f)
    np.savez(os.path.join(folder, "expected.npz"), images=images, logits=logits)
    return {"weights": len(model.weights), "params": model.count_params()}


if __name__ == "__main__":
    print(
        json.dumps(
            {kind: save(kind, folder) for kind, folder in zip(sys.argv[1::2], sys.argv[2::2])}
        )
    )
