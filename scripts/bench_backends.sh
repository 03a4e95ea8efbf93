#!/usr/bin/env bash
# The same training step on each Keras backend, one after another on this machine, each result kept
# as the JSON line `vit_small_ds_bench` printed:
#
#     bash scripts/bench_backends.sh NAME
#
# writes results/backends_NAME/<backend>_<dtype policy>.json (TensorFlow, JAX and PyTorch, float32
# and bfloat16), then prints the table that the performance page (12_bench) shows, with the marker
# line above it. Run it on a quiet machine, in the environment of the README's first command with
# PyTorch's CPU build added (pip install "torch==2.13.0+cpu"). About 6 minutes on a 2-core CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: bash scripts/bench_backends.sh NAME}
out=results/backends_$name
rm -rf "$out.part" && mkdir -p "$out.part"  # a table of one session only, in place once whole
for backend in tensorflow jax torch; do
    for policy in float32 mixed_bfloat16; do
        KERAS_BACKEND=$backend vit_small_ds_bench --model sl_vit --preset small --batch-size 128 \
            --steps 20 --repeats 3 --warmup 2 --loop fit --dtype-policy "$policy" \
            >"$out.part/${backend}_$policy.json"
    done
done
rm -rf "$out" && mv "$out.part" "$out"
echo "<!-- $out -->"
echo
python - "$out" <<'PY'
import sys
from vit_small_ds.training.results import backends_table
print(backends_table(sys.argv[1]))
PY
