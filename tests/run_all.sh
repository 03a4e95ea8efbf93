#!/usr/bin/env bash
# All the project's checks, from the dev environment: notebooks and package in sync, the notebooks
# run as a user runs them (TensorFlow), the component notebooks' tests on JAX, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export TF_CPP_MIN_LOG_LEVEL=3

echo "== nbdev_export leaves no diff"
nbdev_export
if [ -n "$(git status --porcelain -- vit_small_ds nbs)" ]; then
    git status --porcelain -- vit_small_ds nbs
    git --no-pager diff --stat -- vit_small_ds
    echo "nbdev_export changed the package: edit the notebooks, not vit_small_ds/*.py" >&2
    exit 1
fi

# The notebooks as a Colab user runs them, on TensorFlow: every cell, each notebook alone in an empty
# folder, in a second environment with only the package's runtime requirements and a notebook runner
# (no nbdev, no dev extras). 13_experiments trains for hours there, so it runs below in its reduced form.
echo "== notebooks in a runtime-only environment (TensorFlow)"
python3 -m venv .venv-notebooks
.venv-notebooks/bin/pip install -q ".[tensorflow]" "execnb<0.2"
KERAS_BACKEND=tensorflow .venv-notebooks/bin/python tests/run_notebooks.py --jobs 2 $(ls nbs/[0-9]*.ipynb | grep -v 13_experiments)

echo "== nbdev_test 13_experiments (TensorFlow; its eval: false cells, the full-size runs, skipped)"
KERAS_BACKEND=tensorflow nbdev_test --path nbs/13_experiments.ipynb

# The component notebooks run on JAX too, in the dev environment. The training notebooks are
# TensorFlow-only here; their code runs on JAX in tests/test_cli.py and tests/test_determinism.py,
# at a fraction of the time. Cells marked slow (training demonstrations) are skipped.
echo "== nbdev_test (JAX backend, component notebooks)"
KERAS_BACKEND=jax nbdev_test --n_workers 2 --flags "${NBDEV_TEST_FLAGS:-}" \
    --skip_file_re '^([_.]|09_training|11_cli|12_bench|13_experiments)'

echo "== pytest"
python -m pytest -q tests
