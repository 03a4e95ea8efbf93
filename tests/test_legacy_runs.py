"""A run folder written by version 0.2.0 (tests/fixtures/run_v0.2.0: `vit_small_ds_train --epochs 1
--pool mean --label-smoothing 0.1 --test-time-flip --dtype-policy float32` on the embedded sample, its
model re-saved without the optimizer's state to keep the fixture small) still reads back as the run it
was, and evaluates to the metrics its run wrote: the same test split, loss (label smoothing) and
scoring (test-time flip)."""

import json
from pathlib import Path

import pytest

from vit_small_ds.cli.commands import evaluate
from vit_small_ds.training.spec import RunSpec

RUN = Path(__file__).with_name("fixtures") / "run_v0.2.0"


def test_a_run_folder_of_0_2_reads_back_and_evaluates_to_its_own_metrics():
    spec = RunSpec.from_run(RUN)
    assert (spec.model, spec.preset, spec.architecture, spec.dataset) == (
        "sl_vit",
        "small",
        {"pool": "mean"},
        "sample",
    )
    assert (spec.train.epochs, spec.train.label_smoothing, spec.train.test_time_flip) == (
        1,
        0.1,
        True,
    )
    written = json.loads((RUN / "metrics.json").read_text())
    result = evaluate([str(RUN)])
    assert result["test_images"] == 1000
    assert result["test_accuracy"] == pytest.approx(written["test_accuracy"], abs=1e-3)
    assert result["test_loss"] == pytest.approx(written["test_loss"], abs=1e-4)
    # the same, named (a named dataset keeps its images' size)
    named = evaluate([str(RUN), "--dataset", "sample"])
    assert (named["test_accuracy"], named["test_images"]) == (result["test_accuracy"], 1000)
