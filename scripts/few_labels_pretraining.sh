#!/usr/bin/env bash
# Few labels, with and without masked-image pretraining, three seeds, into runs/NAME/: per seed, a
# pretraining run on every training image (encoders/encoder_seed<seed>) and its fine-tuning on
# LABELS labels per class (pretrained_seed<seed>), against a run from scratch on the same labels for
# the two runs' minutes together (scratch_seed<seed>). Then the small files (config.json,
# metrics.json, history.csv) into results/NAME/ and the table the pretraining lesson prints from them
# (training.results.results_table). Finished runs are kept. Flags after the minutes go to every run.
# LABELS "all": the fine-tuning and the runs from scratch train on every labelled training image.
#   bash scripts/few_labels_pretraining.sh sample_50_labels 50 2 1      # the lesson's table
#   bash scripts/few_labels_pretraining.sh fashion_mnist_100_labels 100 8 4 --dataset fashion_mnist
#   bash scripts/few_labels_pretraining.sh fashion_mnist_15min_pretrained all 5 10 --dataset fashion_mnist
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"  # NAME
labels=${1:?labels per class} pretraining=${2:?pretraining minutes} finetuning=${3:?fine-tuning minutes}
shift 3
total=$(python -c "print($pretraining + $finetuning)")
mkdir -p "$runs/encoders"
for seed in 42 1 2; do
    encoder="$runs/encoders/encoder_seed$seed"
    run_once vit_small_ds_pretrain "$encoder" --seed "$seed" --time-budget "$pretraining" "$@"
    few=(--seed "$seed" "$@")
    [ "$labels" = all ] || few+=(--labels-per-class "$labels")
    run_once vit_small_ds_train "$runs/pretrained_seed$seed" "${few[@]}" --init-from "$encoder" \
        --time-budget "$finetuning"
    run_once vit_small_ds_train "$runs/scratch_seed$seed" "${few[@]}" --time-budget "$total"
done
keep_results
