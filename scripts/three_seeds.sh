#!/usr/bin/env bash
# Three seeds of each model family, one run after another, with the same flags, into runs/NAME/; then
# each run's small files (config.json, metrics.json, history.csv) into results/NAME/, which the
# repository keeps, and the table that the README prints from them (training.results.results_table).
# Finished runs are kept. Flags after the name go to every run. The README's tables:
#   bash scripts/three_seeds.sh sample_seeds                  # the default command
#   MODELS="sl_vit vit" bash scripts/three_seeds.sh fashion_mnist_15min --dataset fashion_mnist --time-budget 15
# MODELS names the families to run (all three by default).
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"
for seed in 42 1 2; do
    for model in ${MODELS:-sl_vit vit shiftvit}; do
        run_once vit_small_ds_train "$runs/${model}_seed$seed" --model "$model" --seed "$seed" "$@"
    done
done
keep_results
