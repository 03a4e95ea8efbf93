#!/usr/bin/env bash
# All the project's checks, in the installed environment: notebooks and package in sync, notebook
# tests on TensorFlow and on JAX, then pytest. Slow notebook cells run with --flags slow.
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

echo "== nbdev_test (TensorFlow backend)"
KERAS_BACKEND=tensorflow nbdev_test --n_workers 2 --flags "${NBDEV_TEST_FLAGS:-}"
# The component notebooks run on JAX too. The training notebooks are TensorFlow-only here; their
# code runs on JAX in tests/test_cli.py and tests/test_determinism.py, at a fraction of the time.
echo "== nbdev_test (JAX backend, component notebooks)"
KERAS_BACKEND=jax nbdev_test --n_workers 2 --flags "${NBDEV_TEST_FLAGS:-}" \
    --skip_file_re '^([_.]|09_training|11_cli|12_bench|13_experiments)'

echo "== pytest"
python -m pytest -q tests
