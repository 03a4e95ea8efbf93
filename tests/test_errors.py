"Bad input fails early with an error that names the argument, the value and what would work."

import numpy as np
import pytest
from PIL import Image

from vit_small_ds.data.datasets import ImageDataset, load_dataset
from vit_small_ds.models.registry import create_model
from vit_small_ds.training.schedules import warmup_cosine
from vit_small_ds.models.shiftvit import ShiftViTConfig, shift_channels
from vit_small_ds.layers.spt import ShiftedPatchTokenization
from vit_small_ds.training.scoring import predict_probabilities
from vit_small_ds.training.config import TrainConfig
from vit_small_ds.training.loop import run_experiment
from vit_small_ds.models.vit import ViTConfig, create_vit_classifier


def test_unknown_model_names_the_choices():
    with pytest.raises(ValueError, match=r"model='resnet'") as error:
        create_model("resnet", data=load_dataset("sample"))
    assert "sl_vit" in str(error.value) and "shiftvit" in str(error.value)


def test_unknown_dataset_names_the_choices():
    with pytest.raises(ValueError, match=r"name='imagenet'") as error:
        load_dataset("imagenet")
    assert "cifar100" in str(error.value) and "image folder" in str(error.value)


def test_patch_size_must_divide_image_size():
    with pytest.raises(ValueError, match=r"patch_size=5, image_size=72"):
        ShiftedPatchTokenization(72, 5, 64)
    with pytest.raises(ValueError, match=r"patch_size=5, image_size=72"):
        ViTConfig(patch_size=5)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: ViTConfig(num_heads=0), "num_heads=0"),
        (lambda: TrainConfig(epochs=0), "epochs=0"),
        (lambda: TrainConfig(batch_size=0), "batch_size=0"),
        (lambda: load_dataset("sample", validation_split=0.0), "validation_split=0.0"),
        (lambda: load_dataset("sample", validation_split=1.5), "validation_split=1.5"),
        (
            lambda: warmup_cosine(1e-3, total_steps=10, warmup_steps=11),
            "warmup_steps=11, total_steps=10",
        ),
        (lambda: ShiftViTConfig(num_div=3), "num_div=3"),
        (lambda: shift_channels(np.zeros((1, 4, 4, 12), "float32"), num_div=2), "num_div=2"),
    ],
)
def test_invalid_settings(make, message):
    with pytest.raises(ValueError, match=message) as error:
        make()
    assert "expected" in str(error.value) or "must" in str(error.value)


def test_image_folder_problems(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such folder"):
        load_dataset(str(tmp_path / "missing"))
    (tmp_path / "only").mkdir()
    Image.new("L", (8, 8)).save(tmp_path / "only" / "a.png")
    with pytest.raises(ValueError, match="at least two classes"):
        load_dataset(str(tmp_path))
    (tmp_path / "other").mkdir()
    for i in range(10):
        Image.new("L", (8, 8), 255).save(tmp_path / "other" / f"{i}.png")
        Image.new("L", (8, 8), 0).save(tmp_path / "only" / f"{i}.png")
    (tmp_path / "other" / "readme.txt").write_text("not an image")
    with pytest.warns(
        UserWarning, match="readme.txt"
    ):  # documented: skipped with a warning naming it
        data = load_dataset(str(tmp_path), validation_split=0.2)
    assert len(data.x_train) + len(data.x_val) + len(data.x_test) == 21


def test_predict_checks_rank_and_channels():
    data = load_dataset("sample")
    model = create_model("vit", data=data)
    with pytest.raises(ValueError, match=r"images.shape=\(28, 28, 1\)"):
        predict_probabilities(model, data.x_test[0])
    with pytest.raises(ValueError, match=r"\(n, 28, 28, 1\)"):
        predict_probabilities(model, np.zeros((2, 28, 28, 3), np.uint8))


def test_labels_outside_the_classes():
    d = load_dataset("sample")
    bad = ImageDataset(
        d.x_train[:8],
        np.array([0, 1, 2, 3, 4, 5, 6, -1]),
        d.x_val,
        d.y_val,
        d.x_test,
        d.y_test,
        d.class_names,
    )
    config = ViTConfig(
        input_shape=(28, 28, 1), image_size=28, patch_size=4, num_classes=10, spt=False, lsa=False
    )
    with pytest.raises(ValueError, match=r"`y_train` must be in \[0, 10\)"):
        run_experiment(create_vit_classifier(config), bad, TrainConfig(epochs=1, verbose=0))
