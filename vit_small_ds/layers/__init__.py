"""The layers models are built from: patches and Shifted Patch Tokenization, the attention kinds
(Locality Self-Attention among them), regularization, activations, and the augmentation layers.
Imports `vit_small_ds.data` and `vit_small_ds.checks` only."""
