#!/usr/bin/env bash
# SL-ViT alone and with a CNN teacher (soft and hard targets), three seeds, one run after another,
# into runs/NAME/: none_seed<seed>, soft_seed<seed>, hard_seed<seed>, and the teacher that the soft
# run trained first as cnn_teacher_seed<seed>. Then their small files into results/NAME/ and the
# table that 09g_distillation prints from them. Finished runs are kept. Flags after the name go to
# every run.
#   bash scripts/distillation_seeds.sh sample_distillation      # the lesson's table
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"
for seed in 42 1 2; do
    for kind in none soft hard; do
        flags=(--seed "$seed")
        [ "$kind" = none ] || flags+=(--teacher cnn --distillation "$kind")
        run_once vit_small_ds_train "$runs/${kind}_seed$seed" "${flags[@]}" "$@"
    done
    # the teacher is the same for both kinds: same data, seed and training
    teacher="$runs/cnn_teacher_seed$seed"
    [ -f "$teacher/metrics.json" ] || { rm -rf "$teacher"; cp -r "$runs/soft_seed$seed/teacher" "$teacher"; }
done
keep_results
