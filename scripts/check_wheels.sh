#!/usr/bin/env bash
# Which packages pip would install for vit_small_ds on each platform we promise wheels for, without
# installing anything: Linux x86-64 and aarch64, macOS arm64, Windows; with no extra, with
# [tensorflow] and with [jax]. Every line must list versions, no "ERROR".
#   bash scripts/check_wheels.sh [PYTHON_VERSION]        (default 3.12)
set -euo pipefail
cd "$(dirname "$0")/.."
python_version=${1:-3.12}
wheel_dir=$(mktemp -d)
pip wheel -q --no-deps . -w "$wheel_dir" >/dev/null
wheel=$(ls "$wheel_dir"/*.whl)
platforms() {  # pip matches --platform tags exactly, so Linux lists the manylinux tags a wheel may carry
    case $1 in
        linux_*) arch=${1#linux_}; echo "--platform manylinux_2_28_$arch --platform manylinux_2_27_$arch --platform manylinux_2_17_$arch --platform manylinux2014_$arch" ;;
        *) echo "--platform $1" ;;
    esac
}
for platform in linux_x86_64 linux_aarch64 macosx_14_0_arm64 win_amd64; do
    for extra in "" "[tensorflow]" "[jax]"; do
        # shellcheck disable=SC2046
        chosen=$(pip install --dry-run --ignore-installed --target "$wheel_dir/target" --only-binary=:all: \
                     $(platforms "$platform") --python-version "$python_version" --implementation cp "$wheel$extra" 2>&1 \
                 | grep -E "^Would install|ERROR" | tr ' ' '\n' | grep -E "^(tensorflow|jax|jaxlib|keras|ERROR)" | tr '\n' ' ' || true)
        echo "$platform ${extra:-(no extra)}: ${chosen:-ERROR: nothing resolved}"
    done
done
rm -rf "$wheel_dir"
