"""Whatever a user gives `vit_small_ds_train`, it ends one of two ways before training starts:
refused in one line (exit status 2, no traceback), or a run whose recorded settings are the ones it
uses and whose data can finish it. Hypothesis draws the command lines and small image folders (one
class, one image, empty class folders, unreadable files, mixed modes and sizes, odd names,
symlinks, a BMP that claims 20,000 x 20,000 pixels); `Model.fit` is stopped at its start, so that
each drawn input costs a fraction of a second in this process. One accepted folder of the fewest
images then trains for real.

VIT_SMALL_DS_INPUTS=400 draws that many inputs instead of CI's, and
VIT_SMALL_DS_INPUTS_LOG=file writes each input and its outcome there, one JSON line each."""

import contextlib
import io
import json
import os
import re
import struct
import tempfile
from pathlib import Path

import keras
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from vit_small_ds.cli.commands import main, train
from vit_small_ds.data.datasets import _fewest_images, load_dataset
from vit_small_ds.training.spec import RunSpec

EXAMPLES = int(os.environ.get("VIT_SMALL_DS_INPUTS", 25))
LOG = os.environ.get("VIT_SMALL_DS_INPUTS_LOG")
# a model that builds in a blink: the drawn settings are about the data and the run
TINY = ["--model", "vit", "--transformer-layers", "1", "--num-heads", "1"]


def bmp_claiming(width: int, height: int) -> bytes:
    "A BMP file of a few bytes whose header claims a `width` x `height` image: no pixels follow."
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, 0, 2835, 2835, 0, 0)
    return b"BM" + struct.pack("<IHHI", 14 + len(info), 0, 0, 14 + len(info)) + info


class Trains(Exception):
    "Raised by `Model.fit` in these tests: every check before training has passed."


@st.composite
def image_folders(draw):
    """A folder description: classes of drawn images (mode, size, format), with what users leave
    in such folders."""
    classes = draw(st.lists(st.integers(0, 18), min_size=0, max_size=3))
    image = st.tuples(
        st.sampled_from(["L", "RGB", "RGBA", "P"]),
        st.sampled_from([8, 12, 16]),
        st.sampled_from([8, 12, 16]),
        st.sampled_from(["png", "jpg", "bmp", "gif"]),
    )
    mixed = draw(st.booleans())  # sizes and modes vary from image to image, or not
    first = draw(image)
    folder = [[draw(image) if mixed else first for _ in range(n)] for n in classes]
    extras = draw(
        st.sets(
            st.sampled_from(
                ["text_file", "fake_png", "odd_names", "symlink", "nested", "decompression_bomb"]
            )
        )
    )
    return folder, sorted(extras)


def write_folder(root: Path, folder, extras):
    rng = np.random.default_rng(0)
    names = ["class a", "clåss_b", "c"] if "odd_names" in extras else ["a", "b", "c"]
    for label, images in enumerate(folder):
        directory = root / names[label]
        directory.mkdir(parents=True)
        for i, (mode, height, width, suffix) in enumerate(images):
            pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
            picture = Image.fromarray(pixels).convert(mode)
            if suffix == "jpg" and mode in ("RGBA", "P"):
                picture = picture.convert("RGB")
            picture.save(directory / f"{'ïmage ' if 'odd_names' in extras else ''}{i}.{suffix}")
        if "text_file" in extras:
            (directory / "notes.txt").write_text("not an image")
        if "fake_png" in extras:
            (directory / "broken.png").write_bytes(b"\x89PNG not really")
        if "decompression_bomb" in extras:  # 20,000 x 20,000 pixels claimed in 54 bytes
            (directory / "huge.bmp").write_bytes(bmp_claiming(20_000, 20_000))
        if "nested" in extras:
            (directory / "more").mkdir()
        if "symlink" in extras and images:
            first = sorted(directory.iterdir())[0]
            (directory / f"link.{first.suffix[1:]}").symlink_to(first)


def mostly(usual: list, unusual: list):
    "One of `usual` most of the time, else one of `unusual`: most draws reach the deeper checks."
    return st.sampled_from(usual * 8 + unusual)


settings_drawn = st.fixed_dictionaries(
    {
        "--batch-size": mostly(["4", "16", "100000"], ["0", "many"]),
        "--validation-split": mostly(["0.1", "0.2", "0.5"], ["0.95", "1.5"]),
        "--image-size": mostly([None, "12"], ["0", "3"]),
        "--epochs": mostly(["1"], ["0", "-2"]),
        "--time-budget": mostly([None], ["-1", "5"]),
        "--data-dir": mostly([None], ["archives"]),
        "--cache": mostly([None], ["memory"]),
        "--augment": mostly([None, "flip", "none"], ["rotate"]),
    }
)


def outcome(argv, output: Path, capsys) -> dict:
    "Run the command `argv` as a console script; what became of it."
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            main(train, argv)
    except SystemExit as exit:
        err = capsys.readouterr().err.strip().splitlines()
        assert exit.code == 2 and len(err) == 1 and err[0].startswith("error: "), (argv, err)
        # it speaks of what the user gave: an argument, or the folder's images
        assert re.search(r"argument|image folder|have the sizes|holds no", err[0]), (argv, err)
        return {"status": 2, "says": err[0]}
    except Trains:
        capsys.readouterr()
        return {"status": "trains", "config": json.loads((output / "config.json").read_text())}
    raise AssertionError(f"{argv}: neither refused nor reached training")


def check_accepted(argv, config: dict):
    """The run that was about to train records the settings it uses, and its data finishes it:
    every split holds images, and a batch is no larger than the training split."""
    spec = RunSpec.from_config(config)
    given = dict(zip(argv[::2], argv[1::2]))
    assert spec.validation_split == float(given["--validation-split"])
    data = load_dataset(
        spec.dataset,
        validation_split=spec.validation_split,
        seed=spec.train.seed,
        image_size=spec.image_size,
    )
    assert min(len(data.y_train), len(data.y_val), len(data.y_test)) > 0
    # a batch larger than the training split is one batch of it, recorded so
    assert spec.train.batch_size == min(int(given["--batch-size"]), len(data.y_train))
    if "--image-size" in given:
        side = int(given["--image-size"])
        assert (
            data.input_shape[:2] == (side, side) == tuple(config["model_config"]["input_shape"][:2])
        )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs in every CI run
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(image_folders(), settings_drawn, mostly(["folder"], ["sample", "missing"]))
def test_every_input_is_refused_in_one_line_or_trains_as_recorded(
    monkeypatch, capsys, folder, drawn, dataset_kind
):
    monkeypatch.setattr(keras.Model, "fit", lambda *args, **kwargs: (_ for _ in ()).throw(Trains()))
    with tempfile.TemporaryDirectory() as tmp:
        root, output = Path(tmp) / "images", Path(tmp) / "run"
        root.mkdir()
        write_folder(root, *folder)
        dataset = {"folder": str(root), "sample": "sample", "missing": str(root / "missing")}
        argv = [*TINY, "--dataset", dataset[dataset_kind], "--output", str(output)]
        argv += [word for flag, value in drawn.items() if value for word in (flag, value)]
        result = outcome(argv, output, capsys)
        if result["status"] == "trains":
            check_accepted(argv, result["config"])
        if LOG:
            with open(LOG, "a") as log:
                described = {"classes": [len(c) for c in folder[0]], "extras": folder[1]}
                said = result.get("says", "trains")
                log.write(json.dumps({"argv": argv[6:], "folder": described, "gives": said}) + "\n")


def test_the_fewest_images_a_folder_may_hold_train_to_the_end(tmp_path, capsys):
    "Two classes of one image fewer than `load_dataset` accepts are refused; of the fewest, trained."
    fewest, few = _fewest_images(0.1, 2), tmp_path / "images"
    for name in ("a", "b"):
        (few / name).mkdir(parents=True)
        for i in range(fewest - 1):
            Image.fromarray(np.full((8, 8), 40 * i, np.uint8)).save(few / name / f"{i}.png")
    with pytest.raises(SystemExit):
        main(train, [*TINY, "--dataset", str(few), "--output", str(tmp_path / "refused")])
    assert "a class needs at least" in capsys.readouterr().err
    for name in ("a", "b"):
        Image.fromarray(np.zeros((8, 8), np.uint8)).save(few / name / "last.png")
    output = tmp_path / "run"
    run = train([*TINY, "--dataset", str(few), "--output", str(output), "--epochs", "1"])
    assert json.loads((output / "metrics.json").read_text()) == run.metrics
    assert run.metrics["epochs_run"] == 1 and run.spec.train.batch_size == 2 * fewest - 2 - 2
