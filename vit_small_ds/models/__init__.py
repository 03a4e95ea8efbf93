"""The model families (ViT and SL-ViT, ShiftViT, a small CNN), the registry that creates them by
name and preset, attention maps, and saving and loading. Imports the layers and the data below."""

from vit_small_ds.checks import former_module_names

# Each family registers its names as its settings are imported, in the order `list_models` gives
# them; the settings import no backend, the families' layers are imported when a model is made
from vit_small_ds.models import vit_config  # noqa: F401
from vit_small_ds.models import shiftvit_config  # noqa: F401
from vit_small_ds.models import cnn_config  # noqa: F401

_FAMILIES = ("vit", "shiftvit", "cnn")

# `vit_small_ds.models` was one module, the registry, before it was this package
__getattr__ = former_module_names(
    "vit_small_ds.models",
    "vit_small_ds.models.registry",
    "vit_small_ds.models.flops",
    *(f"vit_small_ds.models.{family}{part}" for family in _FAMILIES for part in ("", "_config")),
)
