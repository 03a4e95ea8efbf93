"""Vision Transformers for small image datasets, on Keras 3.

`import vit_small_ds` is all a user needs: it registers every custom layer with Keras (so
`keras.saving.load_model` finds them) and exposes the main API here. The modules hold the rest.
This file is the one that nbdev leaves to us. The version comes from the installed package's
metadata (settings.ini's `version`, through setup.py).
"""

import importlib as _importlib
import importlib.metadata as _importlib_metadata
import os as _os
import sys as _sys
import warnings as _warnings

__version__ = _importlib_metadata.version("vit_small_ds")

# TensorFlow turns its oneDNN CPU kernels on by itself only on CPUs with AVX-512 VNNI, BF16 or AMX;
# on an AVX2 CPU they train SL-ViT twice as fast as its default kernels (12_bench). TensorFlow reads
# the variable once, when it loads: imported first, this library turns them on; an explicit
# TF_ENABLE_ONEDNN_OPTS=0 keeps them off (09d_devices).
if "tensorflow" not in _sys.modules:
    _os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "1")

from vit_small_ds.checks import FormerModules as _FormerModules

# A console script (`vit_small_ds_train`, ...) imports no backend until its arguments parse, so that
# its help and its usage errors come at once: the command then starts the backend quietly and
# registers the layers itself (`_start_backend`).
_COMMANDS = {
    entry.name
    for entry in _importlib_metadata.distribution("vit_small_ds").entry_points
    if entry.group == "console_scripts"
}
_IN_A_COMMAND = _os.path.splitext(_os.path.basename(getattr(_sys, "argv", [""])[0]))[0] in _COMMANDS

# Importing the modules that define layers registers them with Keras
_LAYER_MODULES = (
    "layers.activations",
    "layers.augmentation",
    "layers.conv_tokenizer",
    "layers.jax_affine",
    "layers.lsa",
    "layers.regularization",
    "layers.spt",
    "models.masked_image",
    "models.shiftvit",
    "models.vit",
    "training.schedules",
)


def _register_layers():
    "Import every module that defines a layer, so that Keras finds each one by name when loading."
    for module in _LAYER_MODULES:
        _importlib.import_module(f"{__name__}.{module}")


def _start_backend():
    """Import Keras and register every layer. TensorFlow writes its start-up lines (oneDNN, CUDA
    drivers, CPU instructions) straight to the process's stderr as it loads, before any log level
    applies, and its CUDA driver's error when it first looks for its devices (once a process): in a
    console script they go nowhere, and TensorFlow's INFO lines stay off after; `--debug` shows
    them."""
    if _IN_A_COMMAND and "--debug" not in _sys.argv and "keras" not in _sys.modules:
        _os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        stderr, devnull = _os.dup(2), _os.open(_os.devnull, _os.O_WRONLY)
        _os.dup2(devnull, 2)
        try:
            import keras

            if keras.backend.backend() == "tensorflow":
                import tensorflow

                tensorflow.config.list_physical_devices()
        finally:
            _os.dup2(stderr, 2)
            _os.close(stderr)
            _os.close(devnull)
    _register_layers()


if not _IN_A_COMMAND:
    _register_layers()
    from vit_small_ds.data.datasets import ImageDataset, load_dataset, select_classes, show_images
    from vit_small_ds.data.pipeline import make_pipeline
    from vit_small_ds.deploy.artifacts import (
        artifact_runner,
        evaluate_artifact,
        export,
        predict_artifact,
    )
    from vit_small_ds.deploy.inference import Predictions, evaluate, predict
    from vit_small_ds.layers.augmentation import adapt_normalization
    from vit_small_ds.models.attention_maps import attention_maps, plot_attention
    from vit_small_ds.models.registry import create_model, list_models, list_presets, list_recipes
    from vit_small_ds.models.saving import load_pretrained, save_pretrained
    from vit_small_ds.training.hardware import using_dtype_policy
    from vit_small_ds.training.finetuning import backbone, features
    from vit_small_ds.training.config import TrainConfig
    from vit_small_ds.training.pretraining import Pretraining, pretrain
    from vit_small_ds.training.run import Run, train
    from vit_small_ds.training.results import compare
    from vit_small_ds.training.run_files import plot_confusion_matrix, plot_history
    from vit_small_ds.training.scoring import predict_probabilities, with_test_time_flip
    from vit_small_ds.training.spec import RunSpec

# The modules that moved into the sub-packages, by their former names for one release: each name
# taken from one is served from where it lives now, with a FutureWarning that says where. data,
# models, training, deploy and cli are packages now: their `__init__` does the same.
_FORMER_MODULES = {
    "activations": ("layers.activations",),
    "augmentation": ("layers.augmentation",),
    "jax_affine": ("layers.jax_affine",),
    "label_mixing": ("data.label_mixing",),
    "lsa": ("layers.lsa", "checks"),
    "regularization": ("layers.regularization",),
    "spt": ("layers.spt", "checks"),
    "attention_maps": ("models.attention_maps",),
    "cnn": ("models.cnn", "models.cnn_config"),
    "keras2": ("models.keras2",),
    "saving": ("models.saving",),
    "shiftvit": ("models.shiftvit", "models.shiftvit_config"),
    "vit": ("models.vit", "models.vit_config"),
    "callbacks": ("training.callbacks",),
    "devices": ("training.devices", "training.hardware", "training.config"),
    "distillation": ("training.distillation", "training.config"),
    "finetuning": ("training.finetuning",),
    "run": ("training.run", "training.spec"),
    "run_files": ("training.run_files", "models.saving", "training.results"),
    "schedules": ("training.schedules",),
    "scoring": ("training.scoring",),
    "time_budget": ("training.time_budget",),
    "inference": ("deploy.inference",),
    "bench": ("cli.benchmark",),
    "flags": ("cli.flags",),
}
_sys.meta_path.append(
    _FormerModules(
        {
            f"{__name__}.{former}": tuple(f"{__name__}.{module}" for module in modules)
            for former, modules in _FORMER_MODULES.items()
        }
    )
)


# Names the top level no longer offers, each with the one way that replaces it there, and its module
_FORMER_NAMES = {
    "MODELS": ("list_models()", "models.registry"),
    "VIT_PRESETS": ("list_presets(name)", "models.vit"),
    "SHIFTVIT_PRESETS": ("list_presets('shiftvit')", "models.shiftvit"),
    "ViTConfig": ("create_model(name, preset, **settings)", "models.vit"),
    "ShiftViTConfig": ("create_model('shiftvit', preset, **settings)", "models.shiftvit"),
    "build_model": ("create_model(name, preset, data=data)", "models.registry"),
    "create_vit_classifier": ("create_model(name, preset)", "models.vit"),
    "create_shiftvit_classifier": ("create_model('shiftvit', preset)", "models.shiftvit"),
    "run_experiment": ("train(...)", "training.loop"),
    "run_artifact": ("artifact_runner(path)(images)", "deploy.artifacts"),
}


def __getattr__(name):
    """A former module as an attribute (`vit_small_ds.run_files`), as `import` serves it; a name
    the top level no longer offers, from its module, with a FutureWarning."""
    if name in _FORMER_MODULES:
        return _importlib.import_module(f"{__name__}.{name}")
    if name in _FORMER_NAMES:
        instead, module = _FORMER_NAMES[name]
        _warnings.warn(
            f"vit_small_ds.{name} is no longer in the top-level API: use {instead}, or import "
            f"it from vit_small_ds.{module}",
            FutureWarning,
            stacklevel=2,
        )
        return getattr(_importlib.import_module(f"{__name__}.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ImageDataset",
    "Predictions",
    "Pretraining",
    "Run",
    "RunSpec",
    "TrainConfig",
    "adapt_normalization",
    "artifact_runner",
    "attention_maps",
    "backbone",
    "compare",
    "create_model",
    "evaluate",
    "evaluate_artifact",
    "export",
    "features",
    "list_models",
    "list_presets",
    "list_recipes",
    "load_dataset",
    "load_pretrained",
    "make_pipeline",
    "plot_attention",
    "plot_confusion_matrix",
    "plot_history",
    "predict",
    "predict_artifact",
    "predict_probabilities",
    "pretrain",
    "save_pretrained",
    "select_classes",
    "show_images",
    "train",
    "using_dtype_policy",
    "with_test_time_flip",
]
