# Sourced by the GPU scripts (gpu_run.sh, gpu_recipes.sh), which set `out`, on a GPU machine with
# JAX and no package registry, in a copy of this repository that carries gpu_bundle/
# (scripts/gpu_bundle.sh): installs the bundle's wheels into .gpu_site beside the machine's own
# packages (JAX, NumPy, h5py, matplotlib), which its python3 holds; points the library at the
# bundle's Fashion-MNIST and the JAX compilation cache at runs_gpu/; writes $out/environment.json
# (the device, the versions); defines `timed`, below.
python3 -m pip install -q --no-index --no-deps --upgrade --target .gpu_site gpu_bundle/wheels/*.whl
export PYTHONPATH="$PWD/.gpu_site" PATH="$PWD/.gpu_site/bin:$PATH"
mkdir -p "$out" runs_gpu
export KERAS_BACKEND=jax VIT_SMALL_DS_DATA="$PWD/gpu_bundle/data" \
    JAX_COMPILATION_CACHE_DIR="$PWD/runs_gpu/jax_cache" PYTHONUNBUFFERED=1
python3 -c "import json, jax
from vit_small_ds.training.devices import environment
print(json.dumps({**environment(), 'jax_devices': [str(d) for d in jax.devices()]}))" \
    | tee "$out/environment.json"

# `timed NAME LOG COMMAND...`: runs COMMAND, its output into LOG, then adds NAME's wall seconds to
# $out/wall.jsonl and prints them with LOG's last line.
timed() {
    local name=$1 log=$2 start wall
    shift 2
    start=$(date +%s.%N)
    "$@" > "$log" 2>&1 || echo "$name failed"
    wall=$(python3 -c "print(round($(date +%s.%N) - $start, 2))")
    echo "{\"run\": \"$name\", \"wall_seconds\": $wall}" | tee -a "$out/wall.jsonl"
    tail -n 1 "$log"
}
