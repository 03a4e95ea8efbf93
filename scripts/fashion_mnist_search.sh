#!/usr/bin/env bash
# The recipe search of 13_experiments: SL-ViT on full Fashion-MNIST with `--preset fashion` and one
# change each, every run on the same time budget (seed 42), one run after another on a quiet machine;
# then each run's best validation accuracy, the number the choice goes by. Finished runs are kept.
#   bash scripts/fashion_mnist_search.sh [MINUTES] [OUTPUT_ROOT] [SEED] [CANDIDATES]
# CANDIDATES: some of the names below, in quotes (the confirmation: "preset <the winner>").
set -euo pipefail
minutes=${1:-5}
root=${2:-runs/fashion_mnist_search_${minutes}min}
seed=${3:-42}
names=${4:-"preset erasing0.5 warmup0.05 depth3 depth6 teacher_cnn"}
mkdir -p "$root"
declare -A candidates=(
    [preset]=""
    [erasing0.5]="--random-erasing 0.5"
    [warmup0.05]="--warmup-fraction 0.05"
    [depth3]="--transformer-layers 3"
    [depth6]="--transformer-layers 6"
    [teacher_cnn]="--teacher cnn"
    [pool_mean]="--pool mean"
    [flip_shift]="--augment flip_shift"
    [mixing]="--mixing"
    [depth3_mixing]="--transformer-layers 3 --mixing"
    [patch7]="--patch-size 7"
    [linear_head]="--mlp-head-units"
    [width96_depth2]="--projection-dim 96 --transformer-units 192 96 --transformer-layers 2"
    [width48_depth6]="--projection-dim 48 --transformer-units 96 48 --transformer-layers 6"
    [head_dropout0.3]="--head-dropout 0.3"
    [erasing0.5_drop_path0.2]="--random-erasing 0.5 --drop-path-rate 0.2"
    [batch128]="--batch-size 128"
)
for name in $names; do
    out="$root/${name}_seed$seed"
    [ -f "$out/metrics.json" ] && continue
    # shellcheck disable=SC2086
    vit_small_ds_train --dataset fashion_mnist --preset fashion --time-budget "$minutes" \
        --seed "$seed" --output "$out" --verbose 2 ${candidates[$name]} > "$out.log" 2>&1 \
        || { echo "$name failed: see $out.log"; exit 1; }
done
python - "$root" "$seed" <<'PY'
import json, sys
from pathlib import Path
from vit_small_ds.training.run_files import read_history
root, seed = Path(sys.argv[1]), sys.argv[2]
print("| change to `--preset fashion` | best val top-1 | test top-1 | epochs run | s in all |")
print("|---|---:|---:|---:|---:|")
finished = [run for run in root.glob(f"*_seed{seed}") if (run / "metrics.json").is_file()]
for run in sorted(finished, key=lambda p: p.stat().st_mtime):  # a run stopped by hand has none
    m = json.loads((run / "metrics.json").read_text())
    val = max(r["val_accuracy"] for r in read_history(run / "history.csv"))
    name = run.name.rsplit("_seed", 1)[0]
    print(f"| {name} | {100 * val:.2f}% | {100 * m['test_accuracy']:.2f}% | {m['epochs_run']} | "
          f"{m['fit_wall_seconds']:.0f} |")
PY
