"""Each idea of the performance page's "What made it fast" timed against the code without it, the two
in turns (the median of `--rounds` timings each; oneDNN's in a process per timing), on TensorFlow
and on JAX; one JSON line per idea into RESULTS/ideas.jsonl, which `training.results.ideas_table`
renders.

    python scripts/bench_ideas.py results/ideas_zen4    # about 8 minutes on a 2-core CPU

Shapes are the `cifar100` preset's (batch 256, 144 tokens of width 64, 4 heads of 64, an MLP of
128), in bfloat16 (the images of `affine` in float32); the whole-step ideas train the `fashion`
preset's SL-ViT on batches of 256.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BATCH, TOKENS, WIDTH, HEADS, HEAD_DIM, HIDDEN = 256, 144, 64, 4, 64, 128


def alternating_ms(without, with_, rounds, calls):
    """Median milliseconds per call of `without()` and of `with_()`, timed in turns (which goes
    first alternates from round to round), after one untimed call of each (it compiles). Each must
    return once its work is done."""
    times = {without: [], with_: []}
    for run in times:
        run()
    for round_ in range(rounds):
        for run in (without, with_) if round_ % 2 == 0 else (with_, without):
            start = time.perf_counter()
            for _ in range(calls):
                run()
            times[run].append((time.perf_counter() - start) / calls)
    return [1000 * statistics.median(times[run]) for run in (without, with_)]


def backward(fn, *inputs, variables=()):
    """A compiled forward and backward pass of `fn(*inputs)` to the gradients of `inputs` and
    `variables` (TensorFlow: a call on the CPU returns once done)."""
    import tensorflow as tf

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            tape.watch(inputs)
            y = fn(*inputs)
        return tape.gradient(y, [*inputs, *variables], output_gradients=tf.ones_like(y))

    return step


def heads_middle_attention(q, k, v):
    "Attention on (B, T, heads, dim) with einsums, the heads axis in the middle."
    from keras import ops

    weights = ops.softmax(ops.einsum("bthd,bshd->bhts", q, k), axis=-1)
    return ops.einsum("bhts,bshd->bthd", weights, v)


def heads_first_attention(q, k, v):
    "The same, its inputs turned heads first, as batched matmuls, and turned back."
    from keras import ops

    q, k, v = (ops.transpose(t, (0, 2, 1, 3)) for t in (q, k, v))
    weights = ops.softmax(ops.matmul(q, ops.swapaxes(k, -1, -2)), axis=-1)
    return ops.transpose(ops.matmul(weights, v), (0, 2, 1, 3))


def tensorflow_ideas(rng):
    "(idea, what is timed, without, with, the two callables) on TensorFlow."
    import keras
    import tensorflow as tf

    from vit_small_ds.layers.activations import gelu
    from vit_small_ds.layers.lsa import TokenDense
    from vit_small_ds.layers.regularization import Dropout

    def bf16(*shape):
        return tf.constant(rng.normal(size=shape), tf.bfloat16)

    hidden, attention_weights = bf16(BATCH * TOKENS, HIDDEN), bf16(BATCH, HEADS, TOKENS, TOKENS)
    qkv = [bf16(BATCH, TOKENS, HEADS, HEAD_DIM) for _ in range(3)]
    tokens = bf16(BATCH, TOKENS, WIDTH)
    dropouts = [layer(0.1, dtype="bfloat16") for layer in (keras.layers.Dropout, Dropout)]
    dense = [
        layer("abc,cde->abde", (None, HEADS, HEAD_DIM), bias_axes="de", dtype="mixed_bfloat16")
        for layer in (keras.layers.EinsumDense, TokenDense)
    ]
    for layer in dense:
        layer.build(tokens.shape)
    yield (
        "gelu",
        "exact GELU, forward and backward, one MLP's hidden activations",
        "Keras' `gelu` (`tf.nn.gelu`, through `erfc`)",
        "ours (`erf`, in float32)",
        backward(lambda x: tf.nn.gelu(x, approximate=False), hidden),
        backward(gelu, hidden),
    )
    yield (
        "dropout",
        "dropout 0.1 of the attention weights, forward and backward",
        "`keras.layers.Dropout` (a uniform random number per value)",
        "ours (16 random bits per value)",
        *(backward(lambda x, d=d: d(x, training=True), attention_weights) for d in dropouts),
    )
    tau = tf.Variable(8.0)  # LSA's learned temperature: the queries are divided by it

    def scaled_projection(layer):
        def project(x):
            scale = tf.cast(1 / tau, tf.bfloat16)
            # TokenDense scales its kernel, EinsumDense's outputs are scaled
            return layer(x, scale) if isinstance(layer, TokenDense) else layer(x) * scale

        return project

    yield (
        "token_dense",
        "LSA's query projection times 1 / tau, forward and backward",
        "`keras.layers.EinsumDense`, its outputs scaled",
        "`TokenDense`, its kernel scaled (one 2-D matmul)",
        *(
            backward(scaled_projection(d), tokens, variables=[*d.trainable_weights, tau])
            for d in dense
        ),
    )
    yield (
        "attention_layout",
        "softmax attention, forward and backward",
        "einsums, heads in the middle",
        "batched matmuls, heads first",
        backward(heads_middle_attention, *qkv),
        backward(heads_first_attention, *qkv),
    )
    yield ("schedule", *schedule_steps())


def schedule_steps():
    """A training step of the `fashion` preset's SL-ViT with Keras' AdamW on Keras' warm-up cosine
    schedule, and with `CosineAdamW`, which computes the rate once a step."""
    import keras

    from vit_small_ds.cli.benchmark import training_on_random_data
    from vit_small_ds.training.hardware import using_dtype_policy

    with using_dtype_policy("mixed_bfloat16"):
        steps = []
        for keras_schedule in (True, False):
            model, x, y = training_on_random_data("sl_vit", "fashion", BATCH)
            optimizer = model.optimizer  # CosineAdamW, as training compiles it
            if keras_schedule:  # the same schedule and decay in Keras' own classes
                total_steps = int(keras.ops.convert_to_numpy(optimizer.total_steps))
                rate = keras.optimizers.schedules.CosineDecay(
                    0.0,
                    total_steps - optimizer.warmup_steps,
                    warmup_target=float(keras.ops.convert_to_numpy(optimizer._learning_rate)),
                    warmup_steps=optimizer.warmup_steps,
                )
                optimizer = keras.optimizers.AdamW(rate, weight_decay=optimizer.weight_decay)
            model.compile(optimizer=optimizer, loss=model.loss, metrics=["accuracy"])
            steps.append(lambda model=model, x=x, y=y: model.train_on_batch(x, y))
    return (
        "a training step of the `fashion` preset's SL-ViT (`train_on_batch`)",
        "Keras' `AdamW` on its `CosineDecay` with warm-up",
        "`CosineAdamW` (the rate once a step)",
        *steps,
    )


def jax_ideas(rng):
    "(idea, what is timed, without, with, the two callables) on JAX."
    import jax
    import jax.numpy as jnp
    import keras
    from keras.src.backend.jax.image import affine_transform as keras_affine_transform

    from vit_small_ds.layers.jax_affine import jax_affine_transform
    from vit_small_ds.layers.regularization import Dropout

    side = 72
    images = jnp.asarray(rng.normal(size=(BATCH, side, side, 3)), jnp.float32)
    angle, zoom = rng.uniform(-0.13, 0.13, BATCH), rng.uniform(0.8, 1.2, BATCH)
    cos, sin, centre = jnp.cos(angle) * zoom, jnp.sin(angle) * zoom, (side - 1) / 2
    transforms = jnp.stack(
        [cos, -sin, centre * (1 - cos + sin), sin, cos, centre * (1 - sin - cos), 0 * cos, 0 * cos],
        1,
    ).astype(jnp.float32)
    qkv = [
        jnp.asarray(rng.normal(size=(BATCH, TOKENS, HEADS, HEAD_DIM)), jnp.bfloat16)
        for _ in range(3)
    ]

    attention_weights = jnp.asarray(rng.normal(size=(BATCH, HEADS, TOKENS, TOKENS)), jnp.bfloat16)

    def compiled(fn, *inputs):
        run = jax.jit(fn)
        return lambda: jax.block_until_ready(run(*inputs))

    def gradients(attention):
        return jax.grad(lambda *t: attention(*t).astype(jnp.float32).sum(), (0, 1, 2))

    def dropout_gradient(layer):
        "The gradient of `layer` in training, its seed's state given (JAX's functional form)."
        layer.build(attention_weights.shape)
        state = [variable.value for variable in layer.non_trainable_variables]

        def total(x):
            return layer.stateless_call([], state, x, training=True)[0].astype(jnp.float32).sum()

        return compiled(jax.grad(total), attention_weights)

    yield (
        "affine",
        "rotate and zoom a batch of 72x72 images (bilinear, reflect)",
        "Keras' `affine_transform`",
        "`jax_affine_transform`",
        *(
            compiled(lambda x, t, f=f: f(x, t, "bilinear", "reflect"), images, transforms)
            for f in (keras_affine_transform, jax_affine_transform)
        ),
    )
    yield (
        "dropout",
        "dropout 0.1 of the attention weights, forward and backward",
        "`keras.layers.Dropout` (a uniform random number per value)",
        "ours (16 random bits per value, XLA's threefry)",
        *(
            dropout_gradient(layer(0.1, dtype="bfloat16"))
            for layer in (keras.layers.Dropout, Dropout)
        ),
    )
    yield (
        "attention_layout",
        "softmax attention, forward and backward",
        "einsums, heads in the middle",
        "batched matmuls, heads first",
        compiled(gradients(heads_middle_attention), *qkv),
        compiled(gradients(heads_first_attention), *qkv),
    )


def onednn_line(rounds):
    """A float32 training step of the `fashion` preset's SL-ViT with TensorFlow's oneDNN kernels
    off and on: `vit_small_ds_bench` in a process of its own each time, the two in turns (which
    goes first alternates from round to round)."""
    step_ms = {"0": [], "1": []}
    for round_ in range(rounds):
        for onednn in ("0", "1") if round_ % 2 == 0 else ("1", "0"):
            result = json.loads(
                subprocess.run(
                    ["vit_small_ds_bench", "--preset", "fashion", "--dtype-policy", "float32"],
                    env={
                        **os.environ,
                        "KERAS_BACKEND": "tensorflow",
                        "TF_ENABLE_ONEDNN_OPTS": onednn,
                    },
                    stdout=subprocess.PIPE,
                    text=True,
                    check=True,
                ).stdout.splitlines()[-1]
            )
            assert result["tensorflow_onednn"] == (onednn == "1"), result["tensorflow_onednn"]
            step_ms[onednn].append(1000 * result["batch_size"] / result["train_img_per_s"])
    return {
        "idea": "onednn",
        "timed": "a float32 training step of the `fashion` preset's SL-ViT (`vit_small_ds_bench`)",
        "without": "`TF_ENABLE_ONEDNN_OPTS=0`",
        "with": "oneDNN's kernels",
        "without_ms": statistics.median(step_ms["0"]),
        "with_ms": statistics.median(step_ms["1"]),
        "rounds": rounds,
        **{key: result[key] for key in ("backend", "backend_version", "keras_version", "cpu")},
        "vit_small_ds_version": result["vit_small_ds_version"],
    }


def backend_lines(rounds, calls):
    "The current backend's ideas, timed, as dicts."
    import numpy as np

    from vit_small_ds.training.devices import environment

    rng = np.random.default_rng(0)
    ideas = tensorflow_ideas(rng) if os.environ["KERAS_BACKEND"] == "tensorflow" else jax_ideas(rng)
    machine = environment()
    for idea, timed, without, with_, run_without, run_with in ideas:
        without_ms, with_ms = alternating_ms(run_without, run_with, rounds, calls)
        yield {
            "idea": idea,
            "timed": timed,
            "without": without,
            "with": with_,
            "without_ms": without_ms,
            "with_ms": with_ms,
            "rounds": rounds,
            **{
                key: machine[key]
                for key in ("backend", "backend_version", "keras_version", "vit_small_ds_version")
            },
            "cpu": machine["cpu"],
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="the folder that gets ideas.jsonl")
    parser.add_argument("--rounds", type=int, default=5, help="timings of each side")
    parser.add_argument("--calls", type=int, default=5, help="calls per timing")
    parser.add_argument("--backend", help=argparse.SUPPRESS)  # a child process's one backend
    args = parser.parse_args()
    if args.backend:
        for line in backend_lines(args.rounds, args.calls):
            print(json.dumps(line), flush=True)
        return
    measured = []
    for backend in ("tensorflow", "jax"):
        child = subprocess.run(  # its errors go to this process's stderr
            [sys.executable, __file__, str(args.results), "--backend", backend]
            + ["--rounds", str(args.rounds), "--calls", str(args.calls)],
            env={**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"},
            stdout=subprocess.PIPE,
            text=True,
            check=True,
        )
        measured += [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    measured.append(onednn_line(args.rounds))
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "ideas.jsonl").write_text("".join(json.dumps(m) + "\n" for m in measured))
    for m in measured:
        print(
            f"{m['backend']:10s} {m['idea']:16s} {m['without_ms']:9.2f} ms -> "
            f"{m['with_ms']:9.2f} ms  ({m['without_ms'] / m['with_ms']:.2f}x)"
        )


if __name__ == "__main__":
    main()
