# Sourced by the GPU scripts (gpu_run.sh, gpu_recipes.sh), which set `out`, on a GPU machine with
# JAX and no package registry, in a copy of this repository that carries gpu_bundle/
# (scripts/gpu_bundle.sh): installs the bundle's wheels into .gpu_site beside the machine's own
# packages (JAX, NumPy, h5py, matplotlib), which its python3 holds; points the library at the
# bundle's Fashion-MNIST and the JAX compilation cache at runs_gpu/; writes $out/environment.json
# (the device, the versions).
python3 -m pip install -q --no-index --no-deps --upgrade --target .gpu_site gpu_bundle/wheels/*.whl
export PYTHONPATH="$PWD/.gpu_site" PATH="$PWD/.gpu_site/bin:$PATH"
mkdir -p "$out" runs_gpu
export KERAS_BACKEND=jax VIT_SMALL_DS_DATA="$PWD/gpu_bundle/data" \
    JAX_COMPILATION_CACHE_DIR="$PWD/runs_gpu/jax_cache" PYTHONUNBUFFERED=1
python3 -c "import json, jax
from vit_small_ds.training.devices import environment
print(json.dumps({**environment(), 'jax_devices': [str(d) for d in jax.devices()]}))" \
    | tee "$out/environment.json"
