#!/usr/bin/env bash
# A round of the recipe search (13a_recipe_search): SL-ViT on full Fashion-MNIST with `--preset fashion`
# and one change each, every run on the same time budget, one run after another on a quiet machine,
# into runs/NAME/; then each run's small files into results/NAME/ with changes.json (each change's
# flags), and the table the page prints from them (training.results.search_table). Finished runs
# are kept.
#   bash scripts/fashion_mnist_search.sh NAME MINUTES "SEEDS" "CHANGES"
#   bash scripts/fashion_mnist_search.sh fashion_mnist_search_5min 5 42 "preset depth3 patch7"
# Calls with the same NAME add to one table.
# CHANGES: some of the names below ("preset" is the preset unchanged).
set -euo pipefail
. "$(dirname "$0")/table_runs.sh"
minutes=${1:?the minutes of each run}
seeds=${2:?the seeds, in quotes}
chosen=${3:?the changes, in quotes}
declare -A changes=(
    [preset]=""
    [ema0.998]="--ema-momentum 0.998"
    [lr3e-3]="--learning-rate 3e-3"
    [erasing0.5]="--random-erasing 0.5"
    [depth3]="--transformer-layers 3"
    [depth6]="--transformer-layers 6"
    [teacher_cnn]="--teacher cnn"
    [patch7]="--patch-size 7"
    [linear_head]="--mlp-head-units"
    [width96_depth2]="--projection-dim 96 --transformer-units 192 96 --transformer-layers 2"
    [batch128]="--batch-size 128"
)
for change in $chosen; do
    [ -n "${changes[$change]+known}" ] \
        || { echo "unknown change '$change': one of ${!changes[*]}" >&2; exit 1; }
done
# each change's flags, written first, so that the runs' folder never holds a change it lacks
mkdir -p "results/$name"
for change in $chosen; do printf '%s\t%s\n' "$change" "${changes[$change]}"; done | python -c '
import json, sys
from pathlib import Path
kept = Path(sys.argv[1])  # a later call with other changes or seeds adds to it
flags = json.loads(kept.read_text()) if kept.exists() else {}
flags.update(line.rstrip("\n").split("\t") for line in sys.stdin)
kept.write_text(json.dumps(flags, indent=1) + "\n")' "results/$name/changes.json"
for seed in $seeds; do
    for change in $chosen; do
        # shellcheck disable=SC2086
        run_once vit_small_ds_train "$runs/${change}_seed$seed" --dataset fashion_mnist \
            --preset fashion --time-budget "$minutes" --seed "$seed" ${changes[$change]}
    done
done
keep_results
