"""The `>>>` examples in the package's docstrings run and print what they say (NumPy is `np` in them)."""

import doctest
import importlib
import pkgutil

import numpy as np

import vit_small_ds


def test_every_docstring_example_runs():
    attempted, failed = 0, []
    for info in pkgutil.walk_packages(vit_small_ds.__path__, "vit_small_ds."):
        module = importlib.import_module(info.name)
        result = doctest.testmod(
            module, extraglobs={"np": np}, optionflags=doctest.NORMALIZE_WHITESPACE
        )
        attempted += result.attempted
        if result.failed:
            failed.append(info.name)
    assert failed == [] and attempted >= 10, (failed, attempted)  # the failures are printed above
