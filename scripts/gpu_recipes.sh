#!/usr/bin/env bash
# Fashion-MNIST recipes on one GPU, side by side: the runs below start together on the one chip
# (a small model leaves most of it idle), each with the same time budget, so each run's minutes
# are an upper bound on what it needs alone. On a GPU machine with JAX and no package registry, in
# a copy of this repository that carries gpu_bundle/ (scripts/gpu_bundle.sh makes it here), in
# one call of the device tool:
#
#   bash scripts/gpu_recipes.sh OUT [MINUTES]    # MINUTES: each run's --time-budget, 7 by default
#
# installs the bundle (scripts/gpu_env.sh), then writes under OUT:
#   environment.json  the device and the versions;
#   wall.jsonl        each run's wall seconds, start-up, data loading and scoring included;
#   gpu_use.csv       the GPU's utilisation and memory every 10 s (nvidia-smi);
#   runs.tgz          the runs' folders (config.json, metrics.json, history.csv, time_budget.json)
#                     and their output (logs/), weights left out.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?the output folder}
minutes=${2:-7}
source scripts/gpu_env.sh
mkdir -p runs_gpu/logs
# CCT's recipe: RandAugment, MixUp or CutMix on each batch until the last 40% of the schedule
strong="--augment randaugment --mixing --mixing-until 0.6"
cct="--model cct --preset fashion --learning-rate 1e-3 $strong"
runs=(
    "cct_seed42|$cct --seed 42"
    "cct_seed1|$cct --seed 1"
    "cct_seed2|$cct --seed 2"
    "cnn_seed42|--model cnn --preset resnet18 --seed 42"
    "cnn_seed1|--model cnn --preset resnet18 --seed 1"
    "cnn_seed2|--model cnn --preset resnet18 --seed 2"
    "cct_3x2_seed42|$cct --conv-layers 2 --patch-size 4 --seed 42"
    "sl_vit_strong_seed42|--model sl_vit $strong --seed 42"
)
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 10 \
    > "$out/gpu_use.csv" 2>&1 &
monitor=$!
trap 'kill "$monitor" 2> /dev/null || true' EXIT  # nvidia-smi samples until the script ends
# each process takes its share of the GPU's memory up front (JAX preallocates 75% by default)
limit=$(python3 -c "print(int($minutes * 60 + 120))")  # seconds: the budget, start-up and scoring
export XLA_PYTHON_CLIENT_MEM_FRACTION=$(python3 -c "print(round(0.9 / ${#runs[@]}, 3))")
pids=()
for run in "${runs[@]}"; do
    name=${run%%|*}
    (
        rm -rf "runs_gpu/$name"  # a run of an earlier call on the same machine
        # shellcheck disable=SC2086  # the flags split into words
        timed "$name" "runs_gpu/logs/$name.log" timeout "$limit" vit_small_ds_train \
            --dataset fashion_mnist --time-budget "$minutes" ${run#*|} --verbose 2 \
            --output "runs_gpu/$name"
    ) &
    pids+=($!)
done
wait "${pids[@]}"
tar czf "$out/runs.tgz" --exclude='*.h5' --exclude='*.keras' --exclude=jax_cache \
    --exclude=backup runs_gpu
