"""The modules of 0.2.0 moved into sub-packages: each public name of each former module still
imports from its former path, as the same object, with a FutureWarning that names where it lives."""

import importlib
import json
import warnings
from pathlib import Path

import pytest

import vit_small_ds

# every module's `__all__` at 0.2.0 (git show v0.2.0:vit_small_ds/<module>.py)
FORMER = json.loads((Path(__file__).parent / "fixtures/v0.2.0_public_names.json").read_text())
# left with tf.data: the input pipeline is a Keras PyDataset on every backend (01c_pipeline)
REMOVED = {"CACHE_SHUFFLE_BUFFER", "without_autotuning"}


@pytest.mark.parametrize("former", sorted(FORMER))
def test_a_former_modules_names_import_with_a_warning_naming_their_home(former):
    module = importlib.import_module(f"vit_small_ds.{former}")
    if former != "attention_maps":  # the package's attribute of that name is the function
        assert getattr(vit_small_ds, former) is module
    for name in FORMER[former]:
        if name in REMOVED:
            assert not hasattr(module, name), f"{former}.{name}"
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(module, name)
        if caught:  # moved; `checks` stayed where it was
            home = str(caught[0].message).split(" moved to ")[1].split(":")[0]
            home_module, _, home_name = home.rpartition(".")
            assert caught[0].category is FutureWarning and home_name == name
            assert value is getattr(importlib.import_module(home_module), name)
            assert name in importlib.import_module(home_module).__all__, home
        else:
            assert hasattr(module, name), f"{former}.{name}"


def test_the_compute_dtype_still_imports_from_devices_with_a_warning():
    "The compute dtype's functions moved from `training.devices` to `training.hardware`."
    from vit_small_ds.training import devices, hardware

    for name in ("using_dtype_policy", "resolve_dtype_policy", "fast_bfloat16"):
        with pytest.warns(FutureWarning, match=f"moved to vit_small_ds.training.hardware.{name}"):
            assert getattr(devices, name) is getattr(hardware, name)
