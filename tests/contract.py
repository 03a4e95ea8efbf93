"""What every registered model must do, checked on a small one of each, on the backend of this process: train a
step, build every layer, compute in bfloat16 with float32 logits, give a backbone, hand its weights on to a
model for other classes; then every variant (each model, and ViT and SL-ViT with each other attention kind)
saved here loads on the other backend. Run by tests/test_contract.py (KERAS_BACKEND is read when keras is
imported, so each backend is a process).

    python tests/contract.py save DIR    # the contract, then each variant saved (.keras and weights only) with its
                                         # logits; SL-ViT also with save_pretrained, and its attention maps
    python tests/contract.py load DIR    # with only `import keras, vit_small_ds`: load each, compare
Prints one JSON line.
"""

import json
import sys
from pathlib import Path

import keras
import numpy as np

import vit_small_ds  # the only import of the library `load` needs: it registers every layer

# the variant also saved with save_pretrained, whose attention maps are compared too
PRETRAINED = "sl_vit"


def small(name):
    "create_model settings of a small `name`: one transformer block where the family has them."
    return {
        "model": name,
        **({"transformer_layers": 1} if "transformer_layers" in _settings(name) else {}),
    }


def _settings(name):
    import dataclasses

    return {
        f.name for f in dataclasses.fields(vit_small_ds.models.registry.model_recipe(name).config())
    }


def variants():
    """name -> create_model settings: every registered model as it is, and ViT and SL-ViT (attention
    without and with LSA's mask and temperature) with each other attention kind."""
    found = {name: small(name) for name in vit_small_ds.list_models()}
    for name in ("vit", "sl_vit"):
        default = vit_small_ds.models.registry.model_recipe(name).config().attention
        for kind in sorted(set(vit_small_ds.layers.lsa.ATTENTION_KINDS) - {default}):
            found[f"{name}-{kind}"] = {**small(name), "attention": kind}
    return found


def random_data(num_classes=10):
    """Images of random pixels, and a dataset of them to build from. Across backends we compare on these: on real
    images, patches of flat background reach the SPT's layer norm with a variance of rounding noise, which its
    epsilon of 1e-6 amplifies about 1000-fold, so two correct backends differ there by up to 3e-4."""
    images = np.random.default_rng(0).integers(0, 256, (16, 28, 28, 1)).astype("uint8")
    labels = np.arange(16) % num_classes
    names = [str(i) for i in range(num_classes)]
    return images, vit_small_ds.ImageDataset(images, labels, images, labels, images, labels, names)


def build(settings, data, seed):
    keras.utils.set_random_seed(seed)
    return vit_small_ds.create_model(
        settings["model"], data=data, **{k: v for k, v in settings.items() if k != "model"}
    )


def unbuilt_layers(model):
    "Layers of `model` left unbuilt: on JAX, `predict` would first run the whole model eagerly."
    return [layer.name for layer in model._flatten_layers() if not layer.built]


def logits(model, images):
    # compiled: on JAX an eager call compiles each of the model's operations apart (sl_vit's first
    # call 3.8 s against 0.4 on a Zen 3, at XLA optimization level 0), and on TensorFlow or PyTorch
    # it costs a tenth of a second more
    return np.asarray(model.predict_on_batch(images))


def contract(name) -> dict:
    "The checks every registered model passes, on a small `name`; raises AssertionError naming the one that fails."
    images, data = random_data()
    model = build(small(name), data, seed=0)
    assert not unbuilt_layers(model), (name, unbuilt_layers(model))
    model.compile(
        optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    )
    before = [keras.ops.convert_to_numpy(w).copy() for w in model.trainable_weights]
    loss = float(model.train_on_batch(images, data.y_train))
    changed = sum(
        not np.array_equal(b, keras.ops.convert_to_numpy(w))
        for b, w in zip(before, model.trainable_weights)
    )
    assert np.isfinite(loss) and changed == len(before), (name, loss, changed, len(before))
    with vit_small_ds.using_dtype_policy("mixed_bfloat16"):
        mixed = build(small(name), data, seed=0)
    out = logits(mixed, images)
    assert out.dtype == "float32" and np.isfinite(out).all(), name
    # float32 weights, bfloat16 compute
    assert mixed.get_layer("logits").kernel.dtype == "float32", name
    features = vit_small_ds.features(model, images)
    assert features.ndim == 2 and len(features) == len(images) and np.isfinite(features).all(), (
        name,
        features.shape,
    )
    five_classes = build(small(name), random_data(num_classes=5)[1], seed=1)
    plan = vit_small_ds.training.finetuning.transfer_weights(model, five_classes)
    assert plan["fresh"] and all(
        path.startswith(vit_small_ds.training.finetuning.HEAD_LAYERS) for path in plan["fresh"]
    ), plan
    # the same backbone
    assert np.allclose(vit_small_ds.features(five_classes, images), features, atol=1e-5), name
    return {"loss": loss, "features": features.shape[1], "copied": len(plan["copied"])}


def save(folder):
    images, data = random_data()
    contracts = {name: contract(name) for name in vit_small_ds.list_models()}
    for key, settings in variants().items():
        model = build(settings, data, seed=0)
        model.save(folder / f"{key}.keras")
        model.save_weights(folder / f"{key}.weights.h5")
        np.save(folder / f"{key}.npy", logits(model, images))
        if key == PRETRAINED:
            vit_small_ds.save_pretrained(model, folder / "pretrained", class_names=data.class_names)
            np.savez(folder / "attention_maps.npz", *vit_small_ds.attention_maps(model, images))
    return {"contracts": contracts, "saved": sorted(variants())}


def load(folder):
    "The largest logit difference of each variant loaded whole, and loaded as weights into a model built afresh."
    images, data = random_data()
    differences = {}
    for key, settings in variants().items():
        expected = np.load(folder / f"{key}.npy")
        loaded = keras.saving.load_model(folder / f"{key}.keras")
        assert not unbuilt_layers(loaded), (key, unbuilt_layers(loaded))
        differences[key] = float(np.abs(logits(loaded, images) - expected).max())
        # other initial weights: the load has to do the work
        rebuilt = build(settings, data, seed=1)
        assert np.abs(logits(rebuilt, images) - expected).max() > 1e-3, key
        rebuilt.load_weights(folder / f"{key}.weights.h5")
        differences[f"{key} (weights only)"] = float(
            np.abs(logits(rebuilt, images) - expected).max()
        )
    pretrained, info = vit_small_ds.load_pretrained(folder / "pretrained")
    assert info["class_names"] == data.class_names, info
    differences[f"{PRETRAINED} (save_pretrained)"] = float(
        np.abs(logits(pretrained, images) - np.load(folder / f"{PRETRAINED}.npy")).max()
    )
    saved_maps = np.load(folder / "attention_maps.npz")
    differences[f"{PRETRAINED} (attention maps)"] = max(
        float(np.abs(m - saved_maps[f"arr_{i}"]).max())
        for i, m in enumerate(vit_small_ds.attention_maps(pretrained, images))
    )
    return differences


def unregistered_layers():
    "The library's layer classes that `import vit_small_ds` did not register (a saved model holding one would not load)."
    import importlib, inspect, pkgutil

    registered = set(keras.saving.get_custom_objects().values())
    classes = {
        cls
        for info in pkgutil.walk_packages(vit_small_ds.__path__, "vit_small_ds.")
        for _, cls in inspect.getmembers(importlib.import_module(info.name), inspect.isclass)
        if cls.__module__.startswith("vit_small_ds.") and issubclass(cls, keras.layers.Layer)
    }
    # a base class: a model holds its subclasses
    classes.discard(vit_small_ds.layers.lsa.ProjectedAttention)
    return len(classes), sorted(c.__name__ for c in classes - registered)


if __name__ == "__main__":
    mode, folder = sys.argv[1], Path(sys.argv[2])
    if mode == "save":
        report = save(folder)
    else:  # load first: `unregistered_layers` imports every module of the library
        differences = load(folder)
        layers, missing = unregistered_layers()
        report = {"differences": differences, "layers": layers, "unregistered": missing}
    print(json.dumps({"backend": keras.backend.backend(), **report}))
