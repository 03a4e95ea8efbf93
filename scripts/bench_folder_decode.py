"""Decode throughput of an image folder: `ImageFiles` (Pillow in `DECODE_THREADS` threads, as the
streamed batches and the caches decode) against Pillow one file after another into one array. Both
alternate, in one process, on the same files.

    python scripts/bench_folder_decode.py [--folder F] [--images 20000] [--image-size 128] [--rounds 3]

Without --folder, writes a folder of 16x16 JPEG files (three classes) in a temporary folder.
"""

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from vit_small_ds.data.folders import DECODE_THREADS, image_folder_files


def write_jpegs(folder: Path, images: int):
    rng = np.random.default_rng(0)
    for label in range(3):
        (folder / f"class{label}").mkdir()
        for i in range(images // 3):
            image = rng.integers(0, 100, (16, 16, 3), dtype=np.uint8)
            image[..., label] += 120
            Image.fromarray(image).save(folder / f"class{label}" / f"{i}.jpg", quality=90)


def decode_with_pil(paths, image_size):
    "One file after another: open, convert to RGB, resize (bilinear), stack."
    images = []
    for path in paths:
        with Image.open(path) as image:
            image = image.convert("RGB").resize((image_size, image_size), Image.BILINEAR)
            images.append(np.asarray(image))
    return np.stack(images)


def decode_threaded(files):
    "`ImageFiles` decoded into one array, `DECODE_THREADS` files at a time."
    return np.asarray(files)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--images", type=int, default=20_000)
    parser.add_argument("--image-size", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=3)
    a = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = a.folder or Path(tmp)
        if a.folder is None:
            write_jpegs(folder, a.images)
        started = time.perf_counter()
        files, _, _ = image_folder_files(folder, a.image_size)
        print(f"{len(files)} files; headers read in {time.perf_counter() - started:.1f} s")
        for round_ in range(1, a.rounds + 1):
            for name, decode in (
                ("PIL, one thread", lambda: decode_with_pil(files.paths, a.image_size)),
                (f"{DECODE_THREADS} threads", lambda: decode_threaded(files)),
            ):
                started = time.perf_counter()
                decode()
                rate = len(files) / (time.perf_counter() - started)
                print(f"round {round_}  {name:20s} {rate:8.0f} img/s")


if __name__ == "__main__":
    main()
