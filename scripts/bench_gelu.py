"""Forward and backward time of GELU variants on one MLP's hidden activations of the `cifar100` preset
(256 x 144 x 128, bfloat16), and their largest error against the float64 GELU. TensorFlow only.

    python scripts/bench_gelu.py
"""

import math
import os

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
import numpy as np
import tensorflow as tf

from vit_small_ds.training.time_budget import seconds_per_call
from vit_small_ds.layers.activations import gelu

x = tf.constant(np.random.default_rng(0).normal(scale=2, size=(256 * 144, 128)), tf.bfloat16)
x64 = tf.cast(x, tf.float64).numpy()
exact = 0.5 * x64 * (1 + np.vectorize(math.erf)(x64 / math.sqrt(2)))
variants = {
    "keras 'gelu' (tf.nn.gelu, erfc)": lambda z: tf.nn.gelu(z, approximate=False),
    "vit_small_ds gelu (erf, float32)": gelu,
}
for name, fn in variants.items():

    @tf.function
    def step(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            y = fn(z)
        return tape.gradient(y, z, output_gradients=tf.ones_like(y))

    step(x)
    times = [
        seconds / 8
        for seconds in seconds_per_call(lambda: [step(x) for _ in range(8)][-1].numpy(), [()] * 5)
    ]
    error = np.abs(tf.cast(fn(x), tf.float64).numpy() - exact)
    print(
        f"{name:34s} {1000 * np.median(times):6.2f} ms  largest error {error.max():.1e}, below x=-2 {error[x64 < -2].max():.1e}"
    )
