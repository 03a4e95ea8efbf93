"""`load_pretrained` on the keras-io example's Keras 2 SavedModels: seed 001's SL-ViT and vanilla ViT, built with
tf-keras (Keras 2) in a subprocess and saved as `save_pretrained_keras` saved the published model, load
as this library's Keras 3 models and predict what Keras 2 predicted, on TensorFlow and on JAX. A
SavedModel of another architecture, and a folder that is no model, get errors that say what was found."""

from pathlib import Path

import pytest
from processes import json_report, run_python

BUILDER = Path(__file__).with_name("keras2_sl_vit_model.py")
LOAD = r"""
import json, sys
import keras, numpy as np
import vit_small_ds
report = {"backend": keras.backend.backend()}
for folder in sys.argv[1:]:
    model, info = vit_small_ds.load_pretrained(folder)
    expected = np.load(folder + "/expected.npz")
    logits = np.asarray(model(expected["images"], training=False))
    report[folder] = {"difference": float(np.abs(logits - expected["logits"]).max()),
                      "largest": float(np.abs(expected["logits"]).max()), "model": info["model"],
                      "spt": info["config"]["spt"], "lsa": info["config"]["lsa"],
                      "patch_size": info["config"]["patch_size"], "image_size": info["config"]["image_size"]}
print(json.dumps(report))
"""
KINDS = {"sl": "sl_vit", "vanilla": "vit"}  # the keras-io example's kind -> the model it loads as


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    "kind -> folder of a Keras 2 SavedModel made by the keras-io example's code (sizes of keras2_sl_vit_model.py)."
    folders = {kind: tmp_path_factory.mktemp(kind) / "model" for kind in (*KINDS, "cnn")}
    words = [word for kind, folder in folders.items() for word in (kind, str(folder))]
    # needs tf-keras (dev extra)
    run_python([str(BUILDER), *words], "tensorflow", env={"TF_USE_LEGACY_KERAS": "1"})
    return folders


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_the_keras_io_keras2_models_predict_the_same_in_keras3(saved, backend):
    report = json_report(["-c", LOAD, *(str(saved[kind]) for kind in KINDS)], backend)
    for kind, model in KINDS.items():
        loaded = report[str(saved[kind])]
        assert loaded["largest"] > 1  # logits far from zero: a weight in the wrong place would show
        assert loaded["difference"] <= 1e-4, (kind, loaded)
        assert (loaded["model"], loaded["spt"], loaded["lsa"]) == (
            model,
            kind == "sl",
            kind == "sl",
        )
        assert (loaded["patch_size"], loaded["image_size"]) == (6, 24)


@pytest.mark.slow
def test_the_keras_io_models_at_their_published_size_predict_the_same(tmp_path):
    folders = {kind: tmp_path / kind for kind in KINDS}
    words = [word for kind, folder in folders.items() for word in (kind, str(folder))]
    run_python(
        [str(BUILDER), *words],
        "tensorflow",
        env={"TF_USE_LEGACY_KERAS": "1", "DOCUMENTS_SIZE": "published"},
    )
    for backend in ("tensorflow", "jax"):
        report = json_report(["-c", LOAD, *(str(folder) for folder in folders.values())], backend)
        for kind, folder in folders.items():
            loaded = report[str(folder)]
            assert loaded["largest"] > 5 and loaded["difference"] <= 1e-4, (backend, kind, loaded)
            assert (loaded["patch_size"], loaded["image_size"]) == (6, 72)


def test_a_savedmodel_of_another_architecture_is_refused(saved):
    import vit_small_ds

    with pytest.raises(ValueError, match=r"not of the keras-io example's \(SL-\)ViT.*conv2d"):
        vit_small_ds.load_pretrained(saved["cnn"])


def test_a_folder_that_is_no_model_is_refused(tmp_path):
    import vit_small_ds

    (tmp_path / "notes.txt").write_text("not a model")
    with pytest.raises(
        ValueError,
        match=r"neither .*save_pretrained.* nor a TensorFlow SavedModel.*found: notes.txt",
    ):
        vit_small_ds.load_pretrained(tmp_path)
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        vit_small_ds.load_pretrained(tmp_path / "missing")


# A SavedModel that runs code when restored: a resource whose initializer writes the file `marker`.
PLANTED = r"""
import sys
import tensorflow as tf

class Planted(tf.saved_model.experimental.TrackableResource):
    def __init__(self, marker):
        self.marker = marker
        super().__init__()

    def _create_resource(self):
        return tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[], shared_name="planted")

    def _initialize(self):
        return tf.io.write_file(self.marker, "ran")

folder, marker = sys.argv[1:]
module = tf.Module()
module.planted, module.scale = Planted(marker), tf.Variable(2.0)
serve = tf.function(lambda images: {"logits": images * module.scale},
                    input_signature=[tf.TensorSpec([None, 16, 16, 3], tf.float32)])
module.serve = serve
tf.saved_model.save(module, folder, signatures={"serving_default": serve})
if tf.io.gfile.exists(marker):
    tf.io.gfile.remove(marker)  # in case saving ran it
"""
RESTORE = "import sys, tensorflow as tf; tf.saved_model.load(sys.argv[1])"
LOAD_PRETRAINED = r"""
import sys, vit_small_ds
try:
    vit_small_ds.load_pretrained(sys.argv[1])
except ValueError as error:
    print(error)
"""


def test_a_savedmodel_is_read_as_data_its_initializers_never_run(tmp_path):
    folder, marker = tmp_path / "planted", tmp_path / "marker"
    run_python(["-c", PLANTED, str(folder), str(marker)], "tensorflow")
    run_python(["-c", RESTORE, str(folder)], "tensorflow")
    assert marker.exists()  # TensorFlow's loader runs what the folder holds
    marker.unlink()
    refused = run_python(["-c", LOAD_PRETRAINED, str(folder)], "tensorflow")
    assert "not of the keras-io example's (SL-)ViT" in refused
    assert not marker.exists()
