"""Using a trained model: evaluating and predicting from a run, and exporting it to SavedModel,
ONNX and LiteRT and running those. Imports training, models and data below."""

from vit_small_ds.checks import former_module_names

# `vit_small_ds.deploy` was one module, the export, before it was this package
__getattr__ = former_module_names(
    "vit_small_ds.deploy", "vit_small_ds.deploy.artifacts", "vit_small_ds.deploy.formats"
)
