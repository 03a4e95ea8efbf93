#!/usr/bin/env bash
# On a GPU machine with JAX and no package registry, in a copy of this repository that carries
# gpu_bundle/ (scripts/gpu_bundle.sh makes it here), in one call of the device tool:
#
#   bash scripts/gpu_run.sh OUT
#
# installs the bundle (scripts/gpu_env.sh), then measures, writing under OUT:
#   environment.json  the device and the versions;
#   wall.jsonl        SL-ViT on Fashion-MNIST (the `fashion` preset), 40 epochs: seed 42 first,
#                     filling the compilation cache (cold), then seeds 1 and 2 from it (warm), the
#                     wall seconds of each, start-up and data loading included;
#   runs.tgz          those runs' folders, weights left out; *.log their output;
#   bench.jsonl       vit_small_ds_bench: SL-ViT's training and inference images per second in
#                     bfloat16 at the `fashion` and `cifar100` presets, one step and 32 steps per
#                     compiled call (`--steps-per-execution`); its `peak_fraction` means nothing
#                     on a GPU, whose rate its small matmul probe, timed from Python, misses.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?the output folder}
source scripts/gpu_env.sh
for run in cold:42 warm:1 warm:2; do
    name="fashion_${run%:*}_seed${run#*:}"
    timed "$name" "$out/$name.log" timeout 200 vit_small_ds_train --dataset fashion_mnist \
        --preset fashion --epochs 40 --seed "${run#*:}" --verbose 2 --output "runs_gpu/$name"
done
tar czf "$out/runs.tgz" --exclude='*.h5' --exclude='*.keras' --exclude=jax_cache runs_gpu
bench() { timeout 100 vit_small_ds_bench --model sl_vit --dtype-policy mixed_bfloat16 --loop fit "$@" \
    | tee -a "$out/bench.jsonl" || echo "bench $* failed"; }
for steps_per_execution in 1 32; do
    bench --preset fashion --batch-size 256 --steps 320 --steps-per-execution "$steps_per_execution"
done
bench --preset fashion --batch-size 1024 --steps 160 --steps-per-execution 32
for steps_per_execution in 1 32; do
    bench --preset cifar100 --batch-size 2048 --steps 64 --steps-per-execution "$steps_per_execution"
done
