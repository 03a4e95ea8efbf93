"""Save the encoder that `vit_small_ds_pretrain` with FLAGS starts from, untrained: the same model
and seed, so the same initial weights. A probe of it (`--init-from OUTPUT --freeze-backbone`) is
the control for a probe of a pretrained encoder.

    python scripts/untrained_encoder.py OUTPUT.keras [FLAGS]
    python scripts/untrained_encoder.py runs/untrained.keras --dataset fashion_mnist --seed 1
"""

import sys

import keras

from vit_small_ds.cli.commands import run_spec
from vit_small_ds.models.masked_image import encoder_of
from vit_small_ds.training.run import create_run_model
from vit_small_ds.training.run_files import atomic_write

output, flags = sys.argv[1], sys.argv[2:]
spec = run_spec(flags)
keras.utils.set_random_seed(spec.train.seed)
encoder = encoder_of(create_run_model(spec, spec.split_data()))
atomic_write(output, encoder.save)  # whole or not at all: the file's presence marks it made
print(f"the untrained encoder of {spec.model} ({spec.preset}) in {output}")
