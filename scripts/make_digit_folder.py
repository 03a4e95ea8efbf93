"""An image folder of another domain than Fashion-MNIST, made offline: the digits 0-9 drawn in the
DejaVu fonts that matplotlib ships (sans, serif, mono; upright, bold, oblique), each at a random
size, angle and position, with noise, as 28x28 grey PNGs. A mirrored digit is not that digit, so it
checks that a recipe with flips does not hurt where flipping changes the class.

    python scripts/make_digit_folder.py OUTPUT [--train 300] [--test 100] [--seed 0]

Writes OUTPUT/train/<digit>/*.png and OUTPUT/test/<digit>/*.png.
"""

import argparse
from pathlib import Path

import numpy as np
from matplotlib import font_manager
from PIL import Image, ImageDraw, ImageFont

FONTS = [
    f"DejaVu{family}{style}.ttf"
    for family in ("Sans", "Serif", "SansMono")
    for style in ("", "-Bold", "-Oblique" if family != "Serif" else "-Italic")
]


def draw_digit(digit: int, font_file: str, rng) -> np.ndarray:
    "One 28x28 uint8 image of `digit`: drawn large, turned, shrunk, moved, with noise."
    font = ImageFont.truetype(font_file, int(rng.integers(70, 100)))
    canvas = Image.new("L", (112, 112))
    ImageDraw.Draw(canvas).text((56, 56), str(digit), fill=255, font=font, anchor="mm")
    canvas = canvas.rotate(float(rng.uniform(-15, 15)), resample=Image.BILINEAR)
    dx, dy = rng.integers(-10, 11, size=2)
    canvas = canvas.transform(canvas.size, Image.AFFINE, (1, 0, int(dx), 0, 1, int(dy)))
    image = np.asarray(canvas.resize((28, 28), Image.LANCZOS), np.float32)
    return np.clip(image + rng.normal(0, 12, image.shape), 0, 255).astype(np.uint8)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--train", type=int, default=300, help="training images per digit")
    parser.add_argument("--test", type=int, default=100, help="test images per digit")
    parser.add_argument("--seed", type=int, default=0)
    a = parser.parse_args()
    rng = np.random.default_rng(a.seed)
    directory = Path(font_manager.findfont("DejaVu Sans")).parent
    fonts = [str(directory / name) for name in FONTS]
    for split, count in (("train", a.train), ("test", a.test)):
        for digit in range(10):
            folder = a.output / split / str(digit)
            folder.mkdir(parents=True, exist_ok=True)
            for i in range(count):
                image = draw_digit(digit, fonts[rng.integers(len(fonts))], rng)
                Image.fromarray(image).save(folder / f"{i:04d}.png")


if __name__ == "__main__":
    main()
