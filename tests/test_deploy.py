"""Exports run in their own runtimes and give Keras' probabilities on real images, at batch 1 and 7: vit
and shiftvit in every format here (sl_vit in float32 and in bfloat16 in nbs/10c_deploy); SavedModels of
the three families load in a fresh process that never imports this library; every family in int8, in each
runtime that has it, at most 30% of float32's size and within 0.5 points of its test accuracy; a model
trained on JAX exports from its JAX process and from its .keras file (slow: run with --full); an export
stopped half-way leaves nothing that reads as an artifact."""

import json
from dataclasses import replace
from pathlib import Path

import keras
import numpy as np
import pytest
from processes import json_report

import vit_small_ds
from vit_small_ds.deploy.formats import EXPORT_FORMATS, is_artifact
from vit_small_ds.deploy.artifacts import artifact_runner, evaluate_artifact, export

SUFFIXES = {format: record.suffix for format, record in EXPORT_FORMATS.items()}
SMALLEST = {
    "sl_vit": ("small", {"transformer_layers": 1}),
    "vit": ("small", {"transformer_layers": 1}),
    "shiftvit": ("small", {"stage_depths": (1, 1, 1, 1)}),
}

# tf.saved_model.load and the serving signature, as a TensorFlow Serving client has them
SAVED_MODEL_CLIENT = """
import json, sys
import numpy as np
import tensorflow as tf

images = np.load(sys.argv[1])
probabilities = {}
for path in sys.argv[2:]:
    signature = json.loads(open(path + ".json").read())
    serve = tf.saved_model.load(path).signatures[signature["signature"]]
    probabilities[path] = [
        serve(**{signature["input"]["name"]: tf.constant(images[:n])})[signature["output"]["name"]]
        .numpy().tolist()
        for n in (1, 7)
    ]
print(json.dumps({"backend": "tensorflow", "probabilities": probabilities,
                  "library_imported": "vit_small_ds" in sys.modules}))
"""

TRAIN_ON_JAX = """
import json, sys
import keras
import numpy as np
import vit_small_ds
from vit_small_ds.deploy.artifacts import export

folder = sys.argv[1]
keras.utils.set_random_seed(1)
data = vit_small_ds.load_dataset("sample")
model = vit_small_ds.create_model("sl_vit", "small", data=data, transformer_layers=1)
model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(data.x_train[:256], data.y_train[:256], batch_size=64, verbose=0)
model.save(f"{folder}/model.keras")
np.save(f"{folder}/keras.npy", vit_small_ds.predict_probabilities(model, data.x_test[:7]))
export(model, f"{folder}/model.onnx", "onnx", class_names=data.class_names)
print(json.dumps({"backend": keras.backend.backend()}))
"""


@pytest.fixture(scope="module")
def data():
    return vit_small_ds.load_dataset("sample")


@pytest.fixture(scope="module")
def exported(data, tmp_path_factory):
    """The smallest model of each family, trained four steps on sample images: vit and shiftvit in
    every format, sl_vit as a SavedModel. Returns the folder, Keras' probabilities per family and the
    models."""
    folder, images, references, models = (
        tmp_path_factory.mktemp("exported"),
        data.x_test[:7],
        {},
        {},
    )
    for name, (preset, overrides) in SMALLEST.items():
        keras.utils.set_random_seed(1)  # each family's weights its own, whatever the others draw
        model = vit_small_ds.create_model(name, preset, data=data, **overrides)
        model.compile("adam", keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(data.x_train[:256], data.y_train[:256], batch_size=64, verbose=0)
        references[name] = vit_small_ds.predict_probabilities(model, images)
        for format in SUFFIXES if name != "sl_vit" else ["saved_model"]:
            export(model, folder / f"{name}{SUFFIXES[format]}", format, data.class_names)
        models[name] = model
    return folder, references, models


def assert_runs_as_keras(path, reference, images):
    "The artifact at `path` gives `reference` at batch 1 and 7, within 1e-5, and the same classes."
    run = artifact_runner(path)
    for n in (1, 7):
        probabilities = run(images[:n])
        np.testing.assert_allclose(probabilities, reference[:n], atol=1e-5, err_msg=str(path))
        assert (probabilities.argmax(1) == reference[:n].argmax(1)).all(), path


def test_vit_and_shiftvit_run_in_onnx_runtime_and_litert(exported, data):
    folder, references, _ = exported
    for name in ("vit", "shiftvit"):
        for format in ("onnx", "litert"):
            path = folder / f"{name}{SUFFIXES[format]}"
            assert json.loads(Path(f"{path}.json").read_text())["output"]["shape"] == [None, 10]
            assert_runs_as_keras(path, references[name], data.x_test[:7].astype("uint8"))


def test_a_model_that_resizes_its_input_runs_in_onnx_runtime(tmp_path, data):
    # 24x24 crops, resized to the preset's 28 inside the model, then shifted by SPT
    images = data.x_test[:7, 2:26, 2:26].astype("uint8")
    model = vit_small_ds.create_model(
        "sl_vit", "small", input_shape=(24, 24, 1), num_classes=10, transformer_layers=1
    )
    export(model, tmp_path / "resized.onnx", "onnx")
    assert_runs_as_keras(
        tmp_path / "resized.onnx", vit_small_ds.predict_probabilities(model, images), images
    )


def test_saved_models_load_without_this_library(exported, data, tmp_path):
    folder, references, _ = exported
    np.save(tmp_path / "images.npy", data.x_test[:7].astype("uint8"))
    paths = {str(folder / name): name for name in SMALLEST}
    report = json_report(
        ["-c", SAVED_MODEL_CLIENT, str(tmp_path / "images.npy"), *paths], "tensorflow"
    )
    assert not report["library_imported"]
    for path, name in paths.items():
        for n, probabilities in zip((1, 7), report["probabilities"][path]):
            np.testing.assert_allclose(probabilities, references[name][:n], atol=1e-5)


def test_every_family_in_int8_is_a_quarter_of_the_size_and_as_accurate(exported, data):
    folder, _, models = exported
    for name, model in models.items():
        for format, suffix in (("onnx", ".onnx"), ("litert", ".tflite")):
            float32 = folder / f"{name}{suffix}"
            if not float32.exists():  # sl_vit's float32 artifacts are 10c_deploy's
                export(model, float32, format)
            reference = evaluate_artifact(float32, dataset="sample")["test_accuracy"]
            for quantize in EXPORT_FORMATS[format].quantizations:
                # int8_static: ShiftViT's convolutions here, SL-ViT's matmuls in 10c_deploy
                if quantize == "int8_static" and name != "shiftvit":
                    continue
                calibration = data.x_train[:512] if quantize == "int8_static" else None
                path = folder / f"{name}_{quantize}{suffix}"
                export(model, path, format, quantize=quantize, calibration_images=calibration)
                assert path.stat().st_size <= 0.3 * float32.stat().st_size, path
                accuracy = evaluate_artifact(path, dataset="sample")["test_accuracy"]
                assert accuracy == pytest.approx(reference, abs=0.005), (path, reference)


@pytest.mark.slow  # about a minute: a JAX process, and a TensorFlow one inside it
def test_a_model_trained_on_jax_exports_to_every_format(tmp_path, data):
    json_report(["-c", TRAIN_ON_JAX, str(tmp_path)], "jax")
    for format in ("saved_model", "litert"):
        export(tmp_path / "model.keras", tmp_path / f"model{SUFFIXES[format]}", format)
    for format, suffix in SUFFIXES.items():
        path = tmp_path / f"model{suffix}"
        assert_runs_as_keras(path, np.load(tmp_path / "keras.npy"), data.x_test[:7].astype("uint8"))
    signature = json.loads(Path(f"{tmp_path}/model.onnx.json").read_text())
    assert signature["class_names"] == data.class_names


@pytest.mark.skipif(
    keras.backend.backend() != "tensorflow", reason="elsewhere a TensorFlow process writes it"
)
def test_an_export_stopped_while_writing_leaves_no_artifact(tmp_path, monkeypatch):
    "A second export to the same path, stopped half-way, leaves a file that nothing takes as whole."
    tiny = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Flatten(), keras.layers.Dense(3)])
    path = tmp_path / "tiny.onnx"
    export(tiny, path, format="onnx")
    assert is_artifact(path)

    def stopped(deployed, path, quantize, calibration_images):
        path.write_bytes(b"half an ONNX file")
        raise KeyboardInterrupt

    monkeypatch.setitem(EXPORT_FORMATS, "onnx", replace(EXPORT_FORMATS["onnx"], write=stopped))
    with pytest.raises(KeyboardInterrupt):
        export(tiny, path, format="onnx")
    assert path.exists() and not is_artifact(path)
