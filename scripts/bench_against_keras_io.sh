#!/usr/bin/env bash
# The library's training step against the keras-io example's own model and compile, on this machine,
# the two alternating for two rounds, each result kept as the JSON line it printed:
#
#     bash scripts/bench_against_keras_io.sh NAME [MODEL]    # MODEL: sl_vit (default) or vit
#
# writes results/bench_NAME/keras_io_<round>.json and ours_<dtype policy>_<round>.json (ours in
# float32 and in bfloat16), then prints the table that the performance page (12_bench) shows, with
# the marker line above it. Run it on a quiet machine, in the environment of the README's first
# command; KERAS_BACKEND picks the backend (TensorFlow by default). About 5 minutes on a 2-core CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: bash scripts/bench_against_keras_io.sh NAME [MODEL]}
model=${2:-sl_vit}
out=results/bench_$name
rm -rf "$out" && mkdir -p "$out"  # a table of one session only
timing=(--batch-size 256 --steps 3 --repeats 3 --warmup 2)
ours=(vit_small_ds_bench --model "$model" --preset cifar100 "${timing[@]}")
keep() {  # the JSON line of a command that finished, as the file $1; a failed one leaves nothing
    "${@:2}" >"$1.part" && mv "$1.part" "$1"
}
for round in 1 2; do
    keep "$out/keras_io_$round.json" \
        python scripts/keras_io_sl_vit.py --model "$model" "${timing[@]}"
    for policy in float32 mixed_bfloat16; do
        keep "$out/ours_${policy}_$round.json" "${ours[@]}" --dtype-policy "$policy"
    done
done
echo "<!-- $out -->"
echo
python - "$out" <<'EOF'
import sys
from vit_small_ds.training.results import speed_table
print(speed_table(sys.argv[1]))
EOF
