"""Save every model variant, load it back, and compare predictions; run by tests/test_saving.py
under each backend (KERAS_BACKEND is read when keras is imported, so each backend is a process).

    python tests/roundtrip.py same DIR       # save, load, compare on this backend; weights-only too
    python tests/roundtrip.py save DIR       # save models, inputs and outputs for another backend
    python tests/roundtrip.py load DIR       # load what `save` wrote and compare
Prints one JSON line: the largest absolute difference per variant.
"""
import json
import sys
from pathlib import Path

import keras
import numpy as np

from vit_small_ds.data import load_dataset
from vit_small_ds.models import build_model

VARIANTS = [(name, "standard") for name in ("vit", "sl_vit", "spt_vit", "lsa_vit")] + [
    ("sl_vit", "cosine"), ("sl_vit", "linear"), ("vit", "cosine"), ("shiftvit", None)]


def build(name, attention, data, seed=0):
    keras.utils.set_random_seed(seed)
    vit_settings = {} if attention is None else dict(transformer_layers=2, attention=attention)  # ShiftViT has neither
    return build_model(name, data, **vit_settings)


def random_images(shape, n=32):
    """Images of random pixels. Across backends we compare on these: on real images, patches of flat background
    reach the SPT's layer norm with a variance of rounding noise, which its epsilon of 1e-6 amplifies about
    1000-fold, so two correct backends differ there by up to 3e-4 (and JAX compiled from JAX op by op by 2e-4)."""
    return np.random.default_rng(0).integers(0, 256, (n, *shape)).astype("uint8")


def predict(model, images):
    return np.asarray(model.predict(images, verbose=0))


def main(mode, folder):
    folder = Path(folder)
    data = load_dataset("sample")
    images = data.x_test[:32] if mode == "same" else random_images(data.x_test.shape[1:])
    differences = {}
    for name, attention in VARIANTS:
        key = f"{name}-{attention}"
        if mode == "load":
            loaded = keras.saving.load_model(folder / f"{key}.keras")
            differences[key] = float(np.abs(predict(loaded, images) - np.load(folder / f"{key}.npy")).max())
            continue
        model = build(name, attention, data)
        expected = predict(model, images)
        model.save(folder / f"{key}.keras")
        if mode == "save":
            np.save(folder / f"{key}.npy", expected)
            continue
        loaded = keras.saving.load_model(folder / f"{key}.keras")
        model.save_weights(folder / f"{key}.weights.h5")
        rebuilt = build(name, attention, data, seed=1)  # other initial weights: the load has to do the work
        assert np.abs(predict(rebuilt, images) - expected).max() > 1e-3
        rebuilt.load_weights(folder / f"{key}.weights.h5")
        differences[key] = float(np.abs(predict(loaded, images) - expected).max())
        differences[f"{key} (weights only)"] = float(np.abs(predict(rebuilt, images) - expected).max())
    print(json.dumps({"backend": keras.backend.backend(), "max_abs_difference": differences}))


if __name__ == "__main__":
    main(*sys.argv[1:])
