"""Training and inference throughput on a GPU: SL-ViT and ViT at the `cifar100` preset, float32 against
mixed bfloat16, at three batch sizes, and SL-ViT without the keras-io example's attention dropout (0.1). Training runs
as `model.fit` does (`benchmark(loop="fit")`); one row also runs it one `train_on_batch` call per step, as the
keras-io example's benchmark does. At inference, attention runs as `keras.ops.dot_product_attention` (cuDNN's fused
kernel on JAX).

    KERAS_BACKEND=jax python scripts/bench_gpu.py [--steps 20] [--out results.jsonl]

Prints one JSON line per configuration (as `vit_small_ds_bench` does), then a table. Before the
runs it says whether cuDNN's flash attention accepts the `cifar100` preset's attention shapes.
"""

import argparse
import json

import keras

from vit_small_ds.cli.benchmark import benchmark
from vit_small_ds.models.vit import VIT_PRESETS

CONFIGS = [  # (model, batch size, dtype policy, training loop, overrides)
    ("sl_vit", 256, "float32", "fit", {}),
    ("sl_vit", 256, "mixed_bfloat16", "fit", {}),
    ("sl_vit", 1024, "float32", "fit", {}),
    ("sl_vit", 1024, "mixed_bfloat16", "fit", {}),
    ("sl_vit", 2048, "mixed_bfloat16", "fit", {}),
    ("sl_vit", 2048, "mixed_bfloat16", "train_on_batch", {}),
    ("sl_vit", 2048, "mixed_bfloat16", "fit", {"dropout": 0.0}),
    ("vit", 1024, "float32", "fit", {}),
    ("vit", 1024, "mixed_bfloat16", "fit", {}),
]


def flash_attention_check() -> str:
    "Whether cuDNN's flash attention takes the preset's query/key/value shapes with an additive mask, in bfloat16."
    config = VIT_PRESETS["cifar100"]
    shape = (8, config.num_patches, config.num_heads, config.key_dim)
    q, k, v = (keras.ops.cast(keras.random.normal(shape, seed=i), "bfloat16") for i in range(3))
    bias = keras.ops.zeros((1, 1, config.num_patches, config.num_patches), "bfloat16")
    try:
        keras.ops.dot_product_attention(q, k, v, bias=bias, scale=1.0, flash_attention=True)
        return f"cuDNN flash attention: yes, for {shape} with a bias"
    except Exception as error:  # noqa: BLE001 (the reason is the report)
        return f"cuDNN flash attention: no ({type(error).__name__}: {str(error).splitlines()[0][:200]})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20, help="timed steps per repeat")
    parser.add_argument("--out", help="also append the JSON lines to this file")
    a = parser.parse_args()
    print(flash_attention_check(), flush=True)
    rows = []
    for model, batch_size, policy, loop, overrides in CONFIGS:
        result = benchmark(
            model,
            "cifar100",
            batch_size,
            steps=a.steps,
            repeats=3,
            warmup=3,
            dtype_policy=policy,
            matmul_size=8192,
            loop=loop,
            **overrides,
        )
        print(json.dumps(result), flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(json.dumps(result) + "\n")
        rows.append(result)
    print(
        "| model | batch | dtype | loop | overrides | train img/s | infer img/s | peak fraction |"
    )
    print("|---|---:|---|---|---|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['model']} | {r['batch_size']} | {r['compute_dtype']} | {r['loop']} | {r['overrides'] or '-'} | "
            f"{r['train_img_per_s']:,.0f} | {r['infer_img_per_s']:,.0f} | {r['peak_fraction']:.3f} |"
        )


if __name__ == "__main__":
    main()
