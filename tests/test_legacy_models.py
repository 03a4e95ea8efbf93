"""Models saved by version 0.1.0 still load and predict what they predicted then, on TensorFlow and JAX.

The fixtures in tests/fixtures/v0.1.0 are five small models (SL-ViT, vanilla ViT, cosine and linear
attention, ShiftViT), trained for one epoch and saved with their optimizer by commit 5ef1e09, with
their logits on eight random-pixel images; make_fixture.py.txt is the script that made them.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).with_name("fixtures") / "v0.1.0"
SCRIPT = r"""
import json, sys
from pathlib import Path
import keras, numpy as np
import vit_small_ds.models.registry, vit_small_ds.training.schedules  # register the library's layers and its old schedule

folder = Path(sys.argv[1])
expected = np.load(folder / "expected.npz")
report = {}
for path in sorted(folder.glob("*.keras")):
    model = keras.saving.load_model(path)
    logits = np.asarray(model.predict(expected["images"], verbose=0))
    report[path.stem] = {"difference": float(np.abs(logits - expected[path.stem]).max()),
                         "schedule": model.optimizer.get_config()["learning_rate"]["class_name"],
                         "iterations": int(keras.ops.convert_to_numpy(model.optimizer.iterations))}
print(json.dumps(report))
"""


# saved under TensorFlow
@pytest.mark.parametrize("backend, tolerance", [("tensorflow", 1e-6), ("jax", 1e-5)])
def test_models_saved_by_0_1_load_and_predict_the_same(backend, tolerance):
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(FIXTURES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert sorted(report) == [
        "shiftvit-none",
        "sl_vit-cosine",
        "sl_vit-standard",
        "spt_vit-linear",
        "vit-standard",
    ]
    for name, loaded in report.items():
        assert loaded["difference"] < tolerance, (name, loaded)
        # the old WarmUpCosine, read as Keras' equal
        assert loaded["schedule"] == "CosineDecay", (
            name,
            loaded,
        )
        # the optimizer state came back: 64 images, batch 32
        assert loaded["iterations"] == 2, (
            name,
            loaded,
        )
