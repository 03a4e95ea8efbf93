"""Data: the datasets (named, the embedded sample, image folders), their splits, the input
pipeline, and label mixing. Imports only `vit_small_ds.checks`."""

from vit_small_ds.checks import former_module_names

# `vit_small_ds.data` was one module before it was this package
__getattr__ = former_module_names(
    "vit_small_ds.data",
    "vit_small_ds.data.datasets",
    "vit_small_ds.data.named",
    "vit_small_ds.data.folders",
    "vit_small_ds.data.pipeline",
)
