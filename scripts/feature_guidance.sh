#!/usr/bin/env bash
# SL-ViT alone and guided by a CNN's features (scripts/feature_guidance.py, the paper's weight 2.5),
# seeds 1, 2 and 42, one run after another, into runs/NAME/: the CNN (cnn_teacher_seed<seed>),
# SL-ViT alone (sl_vit_seed<seed>) and guided by that CNN (sl_vit_guided_seed<seed>), each with
# FLAGS; then their small files into results/NAME/ and the table the pages print from them.
# Finished runs are kept.
#   bash scripts/feature_guidance.sh NAME [FLAGS]
#   bash scripts/feature_guidance.sh fashion_mnist_feature_guidance --dataset fashion_mnist --epochs 4
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"
for seed in 1 2 42; do
    teacher="$runs/cnn_teacher_seed$seed"
    run_once vit_small_ds_train "$teacher" --model cnn --seed "$seed" "$@"
    run_once vit_small_ds_train "$runs/sl_vit_seed$seed" --seed "$seed" "$@"
    run_once "$(dirname "$0")/feature_guidance.py" "$runs/sl_vit_guided_seed$seed" \
        --guide "$teacher" --seed "$seed" "$@"
done
keep_results
