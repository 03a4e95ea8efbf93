#!/usr/bin/env bash
# All the project's checks, from the dev environment (tests/README.md says what each costs):
#   bash tests/run_all.sh          # what CI runs: cells marked slow are skipped
#   bash tests/run_all.sh --full   # the slow cells too: run it before changing a notebook's demonstration
set -euo pipefail
cd "$(dirname "$0")/.."
. tests/stages.sh
export TF_CPP_MIN_LOG_LEVEL=3
# TensorFlow's oneDNN CPU kernels on every CPU, as the command-line tools run (09d_devices): notebooks
# import Keras first, and on an AVX2 CPU TensorFlow would keep its own, slower kernels there.
export TF_ENABLE_ONEDNN_OPTS=1
# JAX's persistent compilation cache, empty at the start of each run: the JAX notebooks and tests
# compile the same small programs in many processes (a test that runs a command twice, a resumed run)
export JAX_COMPILATION_CACHE_DIR="$PWD/.jax_cache" JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0
rm -rf "$JAX_COMPILATION_CACHE_DIR"
# Wait for every background job given, so that none goes on after a failure ends the run; fails
# if any of them failed.
wait_all() {
    local failed=0
    for job in "$@"; do wait "$job" || failed=1; done
    return "$failed"
}
# nbs/*.ipynb with the longest of them ($2 on) first, so that both workers stay busy to the end,
# and those whose paths match $1 (unless empty) left out
notebooks_longest_first() {
    local leave_out=$1 notebook
    shift
    local listed=("$@")
    for notebook in nbs/*.ipynb; do
        [[ " $* " == *" $notebook "* ]] && continue
        [[ -n $leave_out && $notebook =~ $leave_out ]] || listed+=("$notebook")
    done
    printf '%s\n' "${listed[@]}"
}
full=()
if [ "${1:-}" = "--full" ]; then full=(--full); fi

stage "nbdev_export and nbdev_clean leave no diff"
nbdev_export
nbdev_clean
if [ -n "$(git status --porcelain -- vit_small_ds nbs)" ]; then
    git status --porcelain -- vit_small_ds nbs
    echo "nbdev_export or nbdev_clean changed the package or the notebooks: edit the notebooks (not vit_small_ds/*.py), then run both" >&2
    exit 1
fi

# The environments of the stages below, installed two at a time: pip's work is mostly one core's
# (the three took 154 s one after another and 118 s side by side in CI on a Zen 3). Both
# environments install the package from one wheel, so that two builds do not share the source
# tree's build folder.
# - runtime-only: every notebook as a Colab user runs it, on TensorFlow, with only the package's
#   runtime requirements, the export extra (10c_deploy) and a notebook runner (no nbdev, no dev
#   extras). pip compiles the modules as it installs them: where PYTHONDONTWRITEBYTECODE is set (as
#   on CI's machines), Python never keeps what it compiles, and every notebook's process would
#   compile TensorFlow again (`import vit_small_ds` 20 s against 8 on a Zen 3).
# - JAX without TensorFlow: only the package and its jax extra, as a JAX user installs it, and the
#   notebook runner.
# - PyTorch, the third backend, into the dev environment: its CPU build (PyPI's torch wheel brings
#   GBs of CUDA libraries); the registry here mirrors PyTorch's index, a machine without such a
#   mirror needs its --index-url.
stage "environments: install (runtime-only; JAX without TensorFlow, then PyTorch's CPU build)"
wheels=$(mktemp -d)
pip wheel -q --no-deps --wheel-dir "$wheels" .
package=$(echo "$wheels"/vit_small_ds-*.whl)
python3 -m venv .venv-notebooks
.venv-notebooks/bin/pip install -q "$package[tensorflow,export]" "execnb<0.2" &
runtime_only=$!
(
    python3 -m venv .venv-jax
    .venv-jax/bin/pip install -q "$package[jax]" "execnb<0.2"
    python -c "import torch" 2>/dev/null || pip install -q "torch==2.13.0+cpu" \
        || pip install -q "torch==2.13.0+cpu" --index-url https://download.pytorch.org/whl/cpu
) &
jax_and_torch=$!
wait_all "$runtime_only" "$jax_and_torch"
rm -rf "$wheels"

# Every notebook top to bottom, each alone in an empty folder and its own process (forked from one
# that has imported the package once), in the runtime-only environment
stage "notebooks, runtime-only environment (TensorFlow)"
mapfile -t notebooks < <(notebooks_longest_first '' nbs/09_training.ipynb nbs/tutorial.ipynb \
    nbs/index.ipynb nbs/13a_recipe_search.ipynb)
KERAS_BACKEND=tensorflow .venv-notebooks/bin/python tests/run_notebooks.py --jobs 2 "${full[@]}" "${notebooks[@]}"

# The README's Python example and the command line on the sample (one epoch), without TensorFlow,
# side by side: a JAX process keeps about one core of two busy on a CPU (the two took 58 s side by
# side and 69 s one after the other on a Zen 5, 2026-12-07)
stage "JAX without TensorFlow: the README's Python example, vit_small_ds_train"
(
    export KERAS_BACKEND=jax MPLBACKEND=Agg
    cd "$(mktemp -d)"
    "$OLDPWD/.venv-jax/bin/python" - "$OLDPWD/README.md" <<'EOF' &
import importlib.util, re, sys
assert importlib.util.find_spec("tensorflow") is None, "this environment must not have TensorFlow"
exec(re.search(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S)[1])
EOF
    example=$!
    "$OLDPWD/.venv-jax/bin/vit_small_ds_train" --epochs 1 --output run --verbose 0 &
    command_line=$!
    wait_all "$example" "$command_line"
)

# From here on XLA compiles without LLVM's optimizations: these checks run small programs once or for
# a few steps, so compiling is most of their time (the JAX notebooks took 147 s with the flag and
# 251 s without, pytest 383 and 464 s, back to back on a Zen 3). The TensorFlow notebooks and the
# README's example above train for minutes (that example and the command line took 186 s with the
# flag and 144 s without on a Zen 4).
export XLA_FLAGS="--xla_backend_optimization_level=0 ${XLA_FLAGS:-}"

# The component notebooks again on JAX, in the environment without TensorFlow: a JAX user's lessons.
# The training notebooks' code runs on JAX in pytest (tests/test_cli.py, tests/test_determinism.py),
# at a fraction of the time. Exports run on TensorFlow (tests/test_deploy.py exports a model trained
# on JAX).
stage "component notebooks, JAX without TensorFlow"
not_on_jax='^nbs/(index|tutorial|09_training|09e_run|09f_inference|09g_distillation|10c_deploy|10d_export_formats|11_cli|12_bench|13_experiments|13a_recipe_search)\.ipynb$'
mapfile -t notebooks < <(notebooks_longest_first "$not_on_jax" nbs/08_models.ipynb \
    nbs/05_vit.ipynb nbs/06_shiftvit.ipynb nbs/02_augmentation.ipynb)
KERAS_BACKEND=jax .venv-jax/bin/python tests/run_notebooks.py --jobs 2 "${full[@]}" "${notebooks[@]}"

stage "layer round trips (PyTorch)"
KERAS_BACKEND=torch python -m pytest -q -p no:cacheprovider tests/test_layer_saving.py

stage "pytest"
python -m pytest -q -n 2 --dist loadfile --durations=15 "${full[@]}" tests  # a file's tests share one worker, and its fixtures
