"""The command-line tools: thin parsers over the Python API below, their flags, and the
benchmark."""

from vit_small_ds.checks import former_module_names

# `vit_small_ds.cli` was one module, the commands, before it was this package
__getattr__ = former_module_names("vit_small_ds.cli", "vit_small_ds.cli.commands")
