#!/usr/bin/env bash
# Three seeds of each model family, one run after another, with the same flags; then the table of
# 13_experiments: each seed's test top-1, their mean and spread (the sample standard deviation), the
# best validation accuracy's mean, the epochs run and the seconds of the fit. Finished runs are kept.
# Flags after the first argument go to every run. The two tables of 13_experiments:
#   bash scripts/three_seeds.sh runs/sample_seeds                  # the default command
#   bash scripts/three_seeds.sh runs/fashion_mnist_15min_seeds --dataset fashion_mnist --time-budget 15
set -euo pipefail
root=${1:?the output folder, then the flags of every run}
shift
mkdir -p "$root"
for seed in 42 1 2; do
    for model in sl_vit vit shiftvit; do
        out="$root/${model}_seed$seed"
        [ -f "$out/metrics.json" ] && continue
        vit_small_ds_train --model "$model" --seed "$seed" --output "$out" --verbose 2 "$@" \
            > "$out.log" 2>&1 || { echo "$model seed $seed failed: see $out.log"; exit 1; }
    done
done
python - "$root" <<'PY'
import json, statistics, sys
from pathlib import Path
from vit_small_ds.training.run_files import read_history
root = Path(sys.argv[1])
print("| model | preset | test top-1, seeds 42, 1, 2 | mean | spread | best val top-1, mean | epochs run, mean | s in all, mean |")
print("|---|---|---|---:|---:|---:|---:|---:|")
for model in ("sl_vit", "vit", "shiftvit"):
    runs = [root / f"{model}_seed{seed}" for seed in (42, 1, 2)]
    metrics = [json.loads((run / "metrics.json").read_text()) for run in runs]
    preset = json.loads((runs[0] / "config.json").read_text())["preset"]
    test = [100 * m["test_accuracy"] for m in metrics]
    val = [100 * max(r["val_accuracy"] for r in read_history(run / "history.csv")) for run in runs]
    epochs = statistics.mean(m["epochs_run"] for m in metrics)
    seconds = statistics.mean(m["fit_wall_seconds"] for m in metrics)
    print(f"| {model} | {preset} | {', '.join(f'{t:.2f}%' for t in test)} | {statistics.mean(test):.2f}% | "
          f"{statistics.stdev(test):.2f} | {statistics.mean(val):.2f}% | {epochs:.1f} | {seconds:.0f} |")
PY
