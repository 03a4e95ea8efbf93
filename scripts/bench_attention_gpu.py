"""The LSA attention core on a GPU, forward and backward, bfloat16, batch 2048 at the `cifar100` preset's shapes
(144 tokens, 4 heads of 64): composed as `lsa.softmax_attention` computes it (threefry or rbg random bits for
the dropout on the weights, or none), against cuDNN's fused attention with the same dropout, with LSA's diagonal
mask as a bias and without a mask. JAX only; the cuDNN calls use JAX's own (private) cuDNN wrapper, which is the
one that takes a dropout rate.

    python scripts/bench_attention_gpu.py [--batch-size 2048]
"""

import argparse
import statistics

import jax
import jax.numpy as jnp
from jax._src.cudnn import fused_attention_stablehlo as cudnn_attention

from vit_small_ds.training.time_budget import seconds_per_call

TOKENS, HEADS, HEAD_DIM, RATE = 144, 4, 64, 0.1
DIAGONAL_MASK = jnp.where(jnp.eye(TOKENS, dtype=bool), -1e9, 0.0).astype(jnp.bfloat16)[None, None]


def composed(q, k, v, seed, rng):
    "Heads-last in and out, as our layers hold them: transpose, QK^T, mask, softmax, dropout, times V, transpose."
    q, k, v = (jnp.swapaxes(t, 1, 2) for t in (q, k, v))
    weights = jax.nn.softmax(q @ jnp.swapaxes(k, -1, -2) + DIAGONAL_MASK, axis=-1)
    if rng is not None:
        key = jax.random.wrap_key_data(seed if rng == "rbg" else seed[:2], impl=rng)
        keep = jax.random.bits(key, weights.shape, jnp.uint16) >= int(RATE * 65536)
        weights = jnp.where(keep, weights * (1 / (1 - RATE)), 0)
    return jnp.swapaxes(weights @ v, 1, 2)


def fused(q, k, v, seed, masked):
    return cudnn_attention.dot_product_attention(
        q,
        k,
        v,
        bias=DIAGONAL_MASK if masked else None,
        scale=1.0,
        dropout_rate=RATE,
        qkv_layout="BTNH",
    )


def milliseconds(attention, batch_size):
    "Median milliseconds of one jitted forward and backward pass (gradients of q, k and v)."
    loss = lambda q, k, v, seed: jnp.sum(attention(q, k, v, seed).astype(jnp.float32) ** 2)
    step = jax.jit(jax.grad(loss, argnums=(0, 1, 2)))
    q, k, v = (
        jax.random.normal(key, (batch_size, TOKENS, HEADS, HEAD_DIM), jnp.bfloat16)
        for key in jax.random.split(jax.random.key(0), 3)
    )
    seed = jnp.array([1, 2, 3, 4], jnp.uint32)
    jax.block_until_ready(step(q, k, v, seed))  # compiles
    timings = seconds_per_call(
        lambda: jax.block_until_ready([step(q, k, v, seed) for _ in range(10)]), [()] * 5
    )
    return statistics.median(timings) / 10 * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch-size", type=int, default=2048)
    a = parser.parse_args()
    if jax.devices()[0].platform != "gpu":
        raise SystemExit(
            f"error: this compares cuDNN kernels and needs a GPU; JAX sees {jax.devices()[0].platform}"
        )
    variants = {
        "composed, no dropout": lambda *t: composed(*t, rng=None),
        "composed, threefry dropout (ours)": lambda *t: composed(*t, rng="threefry2x32"),
        "composed, rbg dropout": lambda *t: composed(*t, rng="rbg"),
        "cuDNN, diagonal mask as a bias, dropout": lambda *t: fused(*t, masked=True),
        "cuDNN, no mask, dropout": lambda *t: fused(*t, masked=False),
    }
    for name, attention in variants.items():
        print(
            f"{name}: {milliseconds(attention, a.batch_size):.2f} ms per layer, forward and backward",
            flush=True,
        )


if __name__ == "__main__":
    main()
