#!/usr/bin/env bash
# The same training step on each Keras backend, one after another on this machine, in ROUNDS rounds
# (3 unless given; the backends in turns, which one goes first rotating from round to round), each
# result kept as the JSON line `vit_small_ds_bench` printed:
#
#     bash scripts/bench_backends.sh NAME [ROUNDS]
#
# writes results/backends_NAME/<backend>_<dtype policy>.json (TensorFlow, JAX and PyTorch, float32
# and bfloat16; a line per round), then prints the table that the performance page (12_bench) shows,
# with the marker line above it. Run it on a quiet machine, in the environment of the README's first
# command with PyTorch's CPU build added (pip install "torch==2.13.0+cpu"). About 5 minutes a round
# on a 2-core CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: bash scripts/bench_backends.sh NAME [ROUNDS]}
rounds=${2:-3}
[[ $rounds =~ ^[1-9][0-9]*$ ]] \
    || { echo "ROUNDS must be a positive whole number, not '$rounds'" >&2; exit 2; }
out=results/backends_$name
rm -rf "$out.part" && mkdir -p "$out.part"  # a table of one session only, in place once whole
backends=(tensorflow jax torch)
for ((round = 0; round < rounds; round++)); do
    for ((i = 0; i < ${#backends[@]}; i++)); do
        backend=${backends[(i + round) % ${#backends[@]}]}
        for policy in float32 mixed_bfloat16; do
            KERAS_BACKEND=$backend vit_small_ds_bench --model sl_vit --preset small \
                --batch-size 128 --steps 20 --repeats 3 --warmup 2 --loop fit \
                --dtype-policy "$policy" >>"$out.part/${backend}_$policy.json"
        done
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
