"Every model variant saves and loads back exactly, on each backend and from TensorFlow to JAX."
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("roundtrip.py")


def roundtrip(mode, folder, backend):
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3"}
    result = subprocess.run([sys.executable, str(SCRIPT), mode, str(folder)], env=env, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["backend"] == backend
    return report["max_abs_difference"]


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_save_and_load_predict_identically(backend, tmp_path):
    differences = roundtrip("same", tmp_path, backend)
    assert len(differences) == 2 * 8  # 8 variants, full model and weights only
    assert max(differences.values()) < 1e-6, differences


def test_a_model_saved_under_tensorflow_loads_under_jax(tmp_path):
    roundtrip("save", tmp_path, "tensorflow")
    differences = roundtrip("load", tmp_path, "jax")
    assert len(differences) == 8
    assert max(differences.values()) < 1e-5, differences
