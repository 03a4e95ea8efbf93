"""The smallest models that the layer checks build around a layer of the library: imported by
tests/test_layer_saving.py and tests/mixed_precision.py."""

from vit_small_ds.models.masked_image import MaskedImageModel, encoder_of
from vit_small_ds.models.registry import create_model


def masked_image_model(image_size: int) -> MaskedImageModel:
    """A `MaskedImageModel` of a one-block SL-ViT on `image_size` x `image_size` colour images in
    patches of 4, with no random layer but its mask (give the mask to compare outputs)."""
    vit = create_model(
        "sl_vit",
        input_shape=(image_size, image_size, 3),
        num_classes=3,
        augment="none",
        image_size=image_size,
        patch_size=4,
        transformer_layers=1,
        projection_dim=16,
        num_heads=1,
        transformer_units=(32, 16),
        mlp_head_units=(),
        drop_path_rate=0.0,
    )
    return MaskedImageModel(encoder_of(vit))
