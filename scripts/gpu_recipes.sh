#!/usr/bin/env bash
# Fashion-MNIST recipes on one GPU, side by side: the runs of a list start together on the one
# chip (a small model leaves most of it idle), so each run's minutes are an upper bound on what it
# needs alone. On a GPU machine with JAX and no package registry, in a copy of this repository that
# carries gpu_bundle/ (scripts/gpu_bundle.sh makes it here), in one call of the device tool:
#
#   bash scripts/gpu_recipes.sh OUT [RUNS]
#
# RUNS: a file with a run a line, its name and then its flags of vit_small_ds_train (a line that
# starts with `#` is a comment); scripts/gpu_runs/fashion_7min.txt by default. Each run is stopped
# after LIMIT seconds (an environment variable; 540 by default: a 7-minute budget, start-up and
# scoring).
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
runs_file=${2:-scripts/gpu_runs/fashion_7min.txt}
limit=${LIMIT:-540}
runs=()
while read -r name flags; do
    runs+=("$name|$flags")
done < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$runs_file" | tr -d '\r')
if [ ${#runs[@]} = 0 ]; then
    echo "no runs in $runs_file: a line each, a name and then the flags of vit_small_ds_train" >&2
    exit 2
fi
source scripts/gpu_env.sh
mkdir -p runs_gpu/logs
nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv -l 10 \
    > "$out/gpu_use.csv" 2>&1 &
monitor=$!
trap 'kill "$monitor" 2> /dev/null || true' EXIT  # nvidia-smi samples until the script ends
# each process takes its share of the GPU's memory up front (JAX preallocates 75% by default)
export XLA_PYTHON_CLIENT_MEM_FRACTION=$(python3 -c "print(round(0.9 / ${#runs[@]}, 3))")
pids=()
for run in "${runs[@]}"; do
    name=${run%%|*}
    (
        rm -rf "runs_gpu/$name"  # a run of an earlier call on the same machine
        # shellcheck disable=SC2086  # the flags split into words
        timed "$name" "runs_gpu/logs/$name.log" timeout "$limit" vit_small_ds_train \
            --dataset fashion_mnist ${run#*|} --verbose 2 --output "runs_gpu/$name"
    ) &
    pids+=($!)
done
wait "${pids[@]}"
tar czf "$out/runs.tgz" --exclude='*.h5' --exclude='*.keras' --exclude=jax_cache \
    --exclude=backup runs_gpu
