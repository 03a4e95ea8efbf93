"""Build `vit_small_ds/assets/fashion_mnist_sample.npz`, the embedded default dataset.

A class-balanced subset of Fashion-MNIST (MIT licence, Zalando Research): 600 training and
100 test images per class, drawn with a fixed seed from the original IDX files.

    apt-get install dataset-fashion-mnist   # puts the IDX files in /usr/share/datasets/fashion-mnist
    python scripts/make_sample.py
"""

import argparse
from pathlib import Path

import numpy as np

from vit_small_ds.data.named import FASHION_MNIST_CLASSES, DEBIAN_FASHION_MNIST, read_idx_split


def balanced_subset(y, per_class, rng):
    "Indices of `per_class` examples of every class, drawn with `rng`, in ascending order."
    return np.sort(
        np.concatenate(
            [rng.choice(np.flatnonzero(y == c), per_class, replace=False) for c in np.unique(y)]
        )
    )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--source", type=Path, default=DEBIAN_FASHION_MNIST)
    parser.add_argument("--train-per-class", type=int, default=600)
    parser.add_argument("--test-per-class", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--output",
        type=Path,
        default=Path(__file__).parents[1] / "vit_small_ds/assets/fashion_mnist_sample.npz",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x_train, y_train = read_idx_split(args.source, "train")
    x_test, y_test = read_idx_split(args.source, "t10k")
    train = balanced_subset(y_train, args.train_per_class, rng)
    test = balanced_subset(y_test, args.test_per_class, rng)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.output,
        x_train=x_train[train],
        y_train=y_train[train],
        x_test=x_test[test],
        y_test=y_test[test],
        class_names=np.array(FASHION_MNIST_CLASSES),
    )
    print(
        f"wrote {args.output} ({args.output.stat().st_size / 1e6:.1f} MB): {len(train)} train, {len(test)} test images"
    )


if __name__ == "__main__":
    main()
