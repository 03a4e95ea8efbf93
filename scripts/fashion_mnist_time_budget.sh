#!/usr/bin/env bash
# Time to accuracy: SL-ViT and vanilla ViT (`cpu` preset), two seeds each, 15 minutes of training
# per run on full Fashion-MNIST, one run after another; then the table. Needs the dataset offline
# (Debian: apt-get install dataset-fashion-mnist) or a network for keras.datasets. Run it again after
# an interruption: finished runs are kept, an interrupted one resumes. Flags after the first two
# arguments go to every run and win over the `cpu` preset, e.g. --preset fashion (the recipe of the search in
# 13a_recipe_search).
#   bash scripts/fashion_mnist_time_budget.sh [MINUTES] [OUTPUT_ROOT] [TRAIN FLAGS...]
set -euo pipefail
minutes=${1:-15}
root=${2:-runs/fashion_mnist_${minutes}min_cpu}
shift $(( $# < 2 ? $# : 2 ))
for model in sl_vit vit; do
    for seed in 42 1; do
        out="$root/${model}_seed$seed"
        [ -f "$out/metrics.json" ] && continue
        vit_small_ds_train --model "$model" --dataset fashion_mnist --preset cpu --time-budget "$minutes" \
            --seed "$seed" --output "$out" --verbose 2 "$@"
    done
done
python - "$root" <<'PY'
import json, sys
from pathlib import Path
print("| model | seed | test top-1 | epochs run (planned) | s in epochs | s in all |")
print("|---|---:|---:|---:|---:|---:|")
for run in [Path(sys.argv[1]) / f"{model}_seed{seed}" for model in ("sl_vit", "vit") for seed in (42, 1)]:
    m = json.loads((run / "metrics.json").read_text())
    planned = json.loads((run / "time_budget.json").read_text())["epochs"]
    print(f"| {m['model']} | {m['train_config']['seed']} | {100 * m['test_accuracy']:.2f}% | "
          f"{m['epochs_run']} ({planned}) | {m['train_seconds']:.0f} | {m['fit_wall_seconds']:.0f} |")
PY
