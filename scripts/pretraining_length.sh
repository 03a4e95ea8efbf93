#!/usr/bin/env bash
# What longer masked-image pretraining buys a few-label run, with one SEED, into runs/NAME/: an
# encoder pretrained for each number of EPOCHS (encoders/encoder_<E>_epochs_seed<SEED>), then from
# each a fine-tuning run of FINETUNING minutes on LABELS labels per class
# (finetuned_<E>_epochs_seed<SEED>) and a probe of half those minutes that trains only the new head
# on the frozen encoder (probe_<E>_epochs_seed<SEED>); against runs from scratch on the same labels
# for each of the SCRATCH minutes (scratch_<M>_minutes_seed<SEED>). A fine-tuned run's seconds leave
# out its encoder's (in encoders/). EPOCHS 0: the encoder as pretraining starts it, untrained
# (encoders/encoder_0_epochs_seed<SEED>.keras), probed only: the probes' control (fine-tuning it is
# training from scratch). Then the small files into results/NAME/ and their table.
# Finished runs are kept. Flags after SCRATCH go to every run (not --epochs or --time-budget).
#   bash scripts/pretraining_length.sh NAME SEED "EPOCHS ..." LABELS FINETUNING "SCRATCH ..." [FLAGS]
#   bash scripts/pretraining_length.sh fashion_mnist_100_labels_pretraining_length 1 "0 8 24" 100 \
#       4 "4 12" --dataset fashion_mnist
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"  # NAME
seed=${1:?seed} epochs=${2:?pretraining epochs} labels=${3:?labels per class}
finetuning=${4:?fine-tuning minutes} scratch=${5:?minutes from scratch}
shift 5
probing=$(python -c "print($finetuning / 2)")
few=(--seed "$seed" --labels-per-class "$labels" "$@")
mkdir -p "$runs/encoders"
for e in $epochs; do
    encoder="$runs/encoders/encoder_${e}_epochs_seed$seed"
    if [ "$e" = 0 ]; then
        log="$encoder.log" encoder="$encoder.keras"
        [ -f "$encoder" ] || python "$(dirname "$0")/untrained_encoder.py" "$encoder" \
            --seed "$seed" "$@" > "$log" 2>&1 || { echo "$encoder failed: see $log"; exit 1; }
    else
        run_once vit_small_ds_pretrain "$encoder" --seed "$seed" --epochs "$e" "$@"
        run_once vit_small_ds_train "$runs/finetuned_${e}_epochs_seed$seed" "${few[@]}" \
            --init-from "$encoder" --time-budget "$finetuning"
    fi
    run_once vit_small_ds_train "$runs/probe_${e}_epochs_seed$seed" "${few[@]}" \
        --init-from "$encoder" --freeze-backbone --time-budget "$probing"
done
for m in $scratch; do
    run_once vit_small_ds_train "$runs/scratch_${m}_minutes_seed$seed" "${few[@]}" --time-budget "$m"
done
keep_results
