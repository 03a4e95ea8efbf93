"""Training: the run specification and `train`, the training loop, its callbacks, schedules, time
budgets, distillation, scoring, devices, fine-tuning, and the files a run leaves. Imports the
models, layers and data below."""

from vit_small_ds.checks import former_module_names

# `vit_small_ds.training` was one module, the training loop, before it was this package
__getattr__ = former_module_names(
    "vit_small_ds.training",
    "vit_small_ds.training.loop",
    "vit_small_ds.training.config",
    "vit_small_ds.training.run_checks",
)
