#!/usr/bin/env bash
# What a GPU machine without a package registry needs to run this library on JAX, gathered here in
# gpu_bundle/ (about 35 MB, under the 64 MiB the device tool carries in a call): wheels/ (this
# package's wheel and those of its requirements that the GPU machines' image lacks, for its Python,
# 3.12 by default; JAX, NumPy, h5py, matplotlib and Pillow it has) and data/ (Fashion-MNIST's four
# files). scripts/gpu_run.sh says what to run there.
#
#     bash scripts/gpu_bundle.sh [PYTHON_VERSION]
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=gpu_bundle
python_version=${1:-3.12}
rm -rf "$bundle" && mkdir -p "$bundle/wheels" "$bundle/data/fashion_mnist"
pip wheel -q --no-deps --wheel-dir "$bundle/wheels" .
# Keras (the version compiled_steps' loop is written for) and what Keras and fastcore need beyond
# that image, as binary wheels for x86-64 Linux
pip download -q --no-deps --dest "$bundle/wheels" --only-binary=:all: \
    --python-version "$python_version" --platform manylinux2014_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
    keras==3.15.1 namex optree fastcore
# Fashion-MNIST, as Debian's dataset-fashion-mnist installs it (apt-get install dataset-fashion-mnist)
cp /usr/share/datasets/fashion-mnist/*.gz "$bundle/data/fashion_mnist/"
du -sh "$bundle"/*
