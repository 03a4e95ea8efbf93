#!/usr/bin/env bash
# On a GPU machine with JAX and no package registry, in a clone of this repository, in two calls of
# the device tool (each carries at most 64 MiB; the machine keeps ignored folders between calls):
#
#   bash scripts/gpu_run.sh install            # carry gpu_bundle/wheels: installs into .venv-gpu
#   bash scripts/gpu_run.sh measure OUT [B]    # carry gpu_bundle/data: measures, writing under OUT
#
# scripts/gpu_bundle.sh makes gpu_bundle/ here. `measure` writes:
#   environment.json  the device and the versions;
#   bench.jsonl       vit_small_ds_bench: SL-ViT's training and inference images per second at the
#                     `fashion` and `cifar100` presets in bfloat16, batch B (default 1024), with
#                     the share of the matmul peak;
#   fashion_cold/, fashion_warm/, wall.jsonl, *.log
#                     the README's Fashion-MNIST command twice, the second with the compilation
#                     cache the first filled: the run folders and the wall seconds of each.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-gpu
case "${1:?install or measure}" in
install)
    python -m venv --system-site-packages "$venv"  # JAX and NumPy from the machine
    "$venv/bin/pip" install -q --no-index --find-links gpu_bundle/wheels vit_small_ds
    ;;
measure)
    out=${2:?the output folder}
    batch_size=${3:-1024}
    mkdir -p "$out"
    export KERAS_BACKEND=jax VIT_SMALL_DS_DATA="$PWD/gpu_bundle/data" \
        JAX_COMPILATION_CACHE_DIR="$out/jax_cache"
    "$venv/bin/python" -c "import json, jax
from vit_small_ds.training.devices import environment
print(json.dumps({**environment(), 'jax_devices': [str(d) for d in jax.devices()]}))" \
        | tee "$out/environment.json"
    for preset in fashion cifar100; do
        "$venv/bin/vit_small_ds_bench" --model sl_vit --preset "$preset" --batch-size "$batch_size" \
            --dtype-policy mixed_bfloat16 --loop fit | tee -a "$out/bench.jsonl"
    done
    for attempt in cold warm; do
        SECONDS=0
        "$venv/bin/vit_small_ds_train" --dataset fashion_mnist --preset fashion --verbose 2 \
            --output "$out/fashion_$attempt" > "$out/fashion_$attempt.log" 2>&1
        echo "{\"run\": \"fashion_$attempt\", \"wall_seconds\": $SECONDS}" | tee -a "$out/wall.jsonl"
        tail -n 1 "$out/fashion_$attempt.log"
    done
    ;;
esac
