"""An image folder streamed from disk: 20,100 JPEG files train a model for an epoch while the
process's memory stays far below the size of their decoded images."""

import io
import json

import numpy as np
import pytest
from PIL import Image

from processes import run_python

IMAGES_PER_CLASS = 6_700  # three classes
IMAGE_SIZE = 128  # decoded, the 18,141 training images are 850 MB
FEW_PER_CLASS = 1_000  # training images per class of the first epoch

# One process trains a tiny ViT one epoch on a sixth of the folder's training images, enough to
# fill the input pipeline's buffers, then one epoch on all of them, and reports its peak resident
# memory after each.
CHILD = """
import json, resource, sys
import vit_small_ds as vsd
from vit_small_ds.training.loop import run_experiment

def peak_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

data = vsd.load_dataset(sys.argv[1], image_size=int(sys.argv[2]), validation_split=0.05)
FEW_PER_CLASS = int(sys.argv[3])
few = vsd.select_classes(data, range(3), per_class={"train": FEW_PER_CLASS, "val": 20, "test": 20})
tiny = dict(image_size=16, patch_size=8, transformer_layers=1, projection_dim=16,
            num_heads=2, transformer_units=(32, 16), mlp_head_units=(32,))
model = vsd.create_model("vit", "small", input_shape=data.input_shape, num_classes=3,
                         augment="none", normalize_on=few.x_train, **tiny)
config = vsd.TrainConfig(epochs=1, batch_size=250, learning_rate=3e-3, verbose=0)
run_experiment(model, few, config)
few_peak = peak_mb()
_, metrics = run_experiment(model, data, config)
print(json.dumps({"few_peak_mb": few_peak, "all_peak_mb": peak_mb(),
                  "train_images": len(data.x_train), "test_accuracy": metrics["test_accuracy"]}))
"""


@pytest.fixture(scope="module")
def jpeg_folder(tmp_path_factory):
    "Three classes of 16x16 JPEG files, each class tinted its own colour (100 distinct per class)."
    folder = tmp_path_factory.mktemp("jpegs")
    rng = np.random.default_rng(0)
    for label in range(3):
        (folder / f"class{label}").mkdir()
        images = rng.integers(0, 100, (100, 16, 16, 3), dtype=np.uint8)
        images[..., label] += 120
        encoded = []
        for image in images:
            jpeg = io.BytesIO()
            Image.fromarray(image).save(jpeg, "JPEG", quality=90)
            encoded.append(jpeg.getvalue())
        for i in range(IMAGES_PER_CLASS):
            (folder / f"class{label}" / f"{i}.jpg").write_bytes(encoded[i % len(encoded)])
    return folder


def test_a_streamed_folder_trains_in_bounded_memory(jpeg_folder):
    stdout = run_python(
        ["-c", CHILD, str(jpeg_folder), str(IMAGE_SIZE), str(FEW_PER_CLASS)], "tensorflow"
    )
    report = json.loads(stdout.strip().splitlines()[-1])
    assert report["train_images"] == 18_141
    # Holding the images in memory would take the added ones' decoded size more (709 MB); streamed,
    # the second epoch takes at most a quarter of it more (about 70 MB on a 2-core Xeon)
    added_mb = (report["train_images"] - 3 * FEW_PER_CLASS) * IMAGE_SIZE**2 * 3 / 2**20
    assert report["all_peak_mb"] - report["few_peak_mb"] < added_mb / 4, report
    assert report["test_accuracy"] > 0.9  # chance: 1/3
