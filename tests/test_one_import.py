"""`import vit_small_ds` alone is enough: it registers every custom layer, so a fresh Python loads any
saved model with `import keras, vit_small_ds; keras.saving.load_model(path)` and nothing else."""
import json
import textwrap

import pytest
from processes import run_python

MODELS = {"sl_vit": dict(transformer_layers=1), "lsa_vit": dict(transformer_layers=1, attention="cosine"),
          "shiftvit": {}}

TRAIN_AND_SAVE = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    import keras, numpy as np
    from vit_small_ds.data import load_dataset, make_pipeline
    from vit_small_ds.models import build_model

    folder, models = Path(sys.argv[1]), json.loads(sys.argv[2])
    data = load_dataset("sample")
    images = data.x_test[:32]
    np.save(folder / "images.npy", images)
    for name, overrides in models.items():
        keras.utils.set_random_seed(0)
        model = build_model(name, data, **overrides)
        model.compile(optimizer="adamw", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.fit(make_pipeline(data.x_train[:256], data.y_train[:256], 64, training=True), epochs=1, verbose=0)
        model.save(folder / f"{name}.keras")
        np.save(folder / f"{name}.npy", np.asarray(model.predict(images, verbose=0)))
""")

LOAD = textwrap.dedent("""
    import json, sys
    import keras, vit_small_ds
    import numpy as np

    folder, names = sys.argv[1], json.loads(sys.argv[2])
    images = np.load(f"{folder}/images.npy")
    differences = {name: float(np.abs(np.asarray(keras.saving.load_model(f"{folder}/{name}.keras").predict(images, verbose=0))
                                      - np.load(f"{folder}/{name}.npy")).max()) for name in names}
    print(json.dumps(differences))
""")


def run(code, backend, *args): return run_python(["-c", code, *args], backend)


@pytest.mark.parametrize("backend", ["tensorflow", "jax"])
def test_a_fresh_process_loads_a_trained_model_after_importing_the_package(backend, tmp_path):
    run(TRAIN_AND_SAVE, backend, str(tmp_path), json.dumps(MODELS))
    differences = json.loads(run(LOAD, backend, str(tmp_path), json.dumps(list(MODELS))).splitlines()[-1])
    assert set(differences) == set(MODELS)
    assert max(differences.values()) <= 1e-6, differences


def test_the_package_import_registers_every_custom_layer():
    code = textwrap.dedent("""
        import importlib, inspect, json, pkgutil
        import keras, vit_small_ds
        registered = set(keras.saving.get_custom_objects().values())
        classes = {cls for info in pkgutil.iter_modules(vit_small_ds.__path__)
                   for _, cls in inspect.getmembers(importlib.import_module(f"vit_small_ds.{info.name}"), inspect.isclass)
                   if cls.__module__.startswith("vit_small_ds.") and issubclass(cls, keras.layers.Layer)}
        classes.discard(vit_small_ds.lsa.ProjectedAttention)  # a base class: a model holds its subclasses
        print(json.dumps({"layers": len(classes), "missing": sorted(c.__name__ for c in classes - registered)}))
    """)
    report = json.loads(run(code, "tensorflow").splitlines()[-1])
    assert report["layers"] >= 12 and report["missing"] == [], report
