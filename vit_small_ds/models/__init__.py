"""The model families (ViT and SL-ViT, ShiftViT, a small CNN), the registry that creates them by
name and preset, attention maps, and saving and loading. Imports the layers and the data below."""

from vit_small_ds.checks import former_module_names

# `vit_small_ds.models` was one module, the registry, before it was this package
__getattr__ = former_module_names(
    "vit_small_ds.models", "vit_small_ds.models.registry", "vit_small_ds.models.flops"
)
