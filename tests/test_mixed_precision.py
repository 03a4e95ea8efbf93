"Mixed precision end to end: every custom layer under mixed_bfloat16, and a bf16-trained model read back in float32."

from pathlib import Path

import pytest
from processes import json_report

SCRIPT = Path(__file__).with_name("mixed_precision.py")
BFLOAT16_TOLERANCE = (
    0.02  # bfloat16 rounds to 8 significant bits (0.4%); a layer's output is a few roundings away
)
# A whole network's roundings add up. On average they move a probability by 0.0004-0.0005 (measured
# with seeds 0-3 on TensorFlow and JAX); near a decision boundary they move one by a few percent
# (the largest: 0.015-0.052 on TensorFlow, 0.017-0.027 on JAX); the predicted classes still agree.
MEAN_PROBABILITY_TOLERANCE = 0.002
NETWORK_PROBABILITY_TOLERANCE = 0.1
# Keras' RandAugment draws its magnitudes in the compute dtype, so under bfloat16 it draws others than in float32
# (the same operations, other shear, contrast and solarization factors): its dtypes are checked, not its values.
DRAWS_IN_COMPUTE_DTYPE = {"RandAugment"}


def run(backend, *args):
    return json_report([str(SCRIPT), *args], backend)["result"]


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_every_layer_computes_in_bfloat16_with_float32_weights(backend):
    result = run(backend, "layers")
    # a new layer gets an entry in mixed_precision.LAYERS
    assert result["untested"] == [], result["untested"]
    for name, layer in result["layers"].items():
        assert layer["output_dtype"] == "bfloat16", (name, layer)
        # every sublayer follows its parent's policy
        assert layer["policies"] == ["mixed_bfloat16"], (
            name,
            layer,
        )
        assert layer["variable_dtypes"] in ([], ["float32"]), (name, layer)
        if name not in DRAWS_IN_COMPUTE_DTYPE:
            assert layer["relative_error"] < BFLOAT16_TOLERANCE, (name, layer)


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_a_bfloat16_trained_model_predicts_the_same_in_float32(backend, tmp_path):
    report = run(backend, "saved", str(tmp_path))
    assert report["twin_policy"] == "float32"
    # not one class for every image, which any two models would agree on
    assert report["predicted_classes"] >= 3, report
    assert report["mean_probability_difference"] < MEAN_PROBABILITY_TOLERANCE, report
    assert report["max_probability_difference"] < NETWORK_PROBABILITY_TOLERANCE, report
    assert report["same_class"] >= 0.97, report
