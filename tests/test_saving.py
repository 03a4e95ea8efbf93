"Every model variant saves and loads back exactly, on each backend and from TensorFlow to JAX."
from pathlib import Path

import pytest
from processes import json_report

SCRIPT = Path(__file__).with_name("roundtrip.py")


def roundtrip(mode, folder, backend):
    return json_report([str(SCRIPT), mode, str(folder)], backend, timeout=1200)["max_abs_difference"]


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
