"""Keras' JAX `affine_transform` against `jax_affine.jax_affine_transform`: milliseconds per call, jitted, on a batch
of random images and rotate-and-zoom transforms (bilinear, reflect: `RandomRotation`'s and `RandomZoom`'s defaults).

    KERAS_BACKEND=jax python scripts/bench_affine.py [--batch-size 2048] [--side 72]
"""

import argparse
import statistics

import jax
import numpy as np
from keras.src.backend.jax.image import affine_transform as keras_affine_transform

from vit_small_ds.layers.jax_affine import jax_affine_transform
from vit_small_ds.training.time_budget import seconds_per_call


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=2048)
    parser.add_argument("--side", type=int, default=72, help="height and width of the images")
    parser.add_argument(
        "--calls", type=int, default=10, help="calls per timing (median of 5 timings)"
    )
    a = parser.parse_args()
    rng = np.random.default_rng(0)
    images = rng.normal(size=(a.batch_size, a.side, a.side, 3)).astype("float32")
    angle, zoom = rng.uniform(-0.13, 0.13, a.batch_size), rng.uniform(0.8, 1.2, a.batch_size)
    cos, sin, centre = np.cos(angle) * zoom, np.sin(angle) * zoom, (a.side - 1) / 2
    transforms = np.stack(
        [cos, -sin, centre * (1 - cos + sin), sin, cos, centre * (1 - sin - cos), 0 * cos, 0 * cos],
        1,
    ).astype("float32")
    images, transforms = jax.device_put(images), jax.device_put(transforms)
    print(f"{a.batch_size} images of {a.side}x{a.side}x3 on {jax.devices()[0].device_kind}:")
    for name, transform in (
        ("Keras' affine_transform (JAX)", keras_affine_transform),
        ("jax_affine_transform", jax_affine_transform),
    ):
        run = jax.jit(lambda x, t: transform(x, t, "bilinear", "reflect"))
        jax.block_until_ready(run(images, transforms))  # compiles
        timings = seconds_per_call(
            lambda: jax.block_until_ready([run(images, transforms) for _ in range(a.calls)]),
            [()] * 5,
        )
        print(f"  {name}: {statistics.median(timings) / a.calls * 1e3:.3f} ms per call")


if __name__ == "__main__":
    main()
