"""Every registered model variant saved on one backend loads on the other, in a fresh process that imports
only `keras` and `vit_small_ds`, and predicts the same, whole or as weights only; an SL-ViT written by
`save_pretrained` loads with `load_pretrained` and has the same attention maps."""
from pathlib import Path

import pytest
from processes import json_report
from roundtrip import PRETRAINED

SCRIPT = Path(__file__).with_name("roundtrip.py")


@pytest.mark.parametrize("saved_on, loaded_on", [("tensorflow", "jax"), ("jax", "tensorflow")])
def test_a_model_saved_on_one_backend_loads_on_the_other_after_importing_the_package(tmp_path, saved_on, loaded_on):
    saved = json_report([str(SCRIPT), "save", str(tmp_path)], saved_on)["saved"]
    report = json_report([str(SCRIPT), "load", str(tmp_path)], loaded_on)
    assert len(saved) == 13  # five models, and the four of the ViT family with each of three attention kinds
    assert sorted(report["differences"]) == sorted(saved + [f"{key} (weights only)" for key in saved] +
                                                   [f"{PRETRAINED} (save_pretrained)", f"{PRETRAINED} (attention maps)"])
    assert max(report["differences"].values()) < 1e-5, report["differences"]
    assert report["layers"] >= 12 and report["unregistered"] == [], report
