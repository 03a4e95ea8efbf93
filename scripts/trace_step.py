"""Where a whole training step's op time goes on TensorFlow: a profiler trace of `--steps` steps of the
model `vit_small_ds_bench` times, summed by op type over TensorFlow's threads.

    python scripts/trace_step.py [--model sl_vit] [--preset cifar100] [--dtype-policy mixed_bfloat16]

Prints milliseconds per step for the most expensive op types, then for the most expensive ops of
each type in `--detail` (names with block numbers folded into `blockN`).
"""

import argparse
import collections
import glob
import os
import re
import tempfile

os.environ["KERAS_BACKEND"] = "tensorflow"
import tensorflow as tf
from tensorflow.tsl.profiler.protobuf import xplane_pb2

from vit_small_ds.cli.benchmark import training_on_random_data
from vit_small_ds.training.hardware import using_dtype_policy

WRAPPERS = ("Process", "Run")  # events that contain the ops rather than being ops


def op_times(model_name, preset, dtype_policy, batch_size, steps):
    "Milliseconds per step by op type, and by (op type, op name), summed over threads."
    with using_dtype_policy(dtype_policy):
        model, x, y = training_on_random_data(model_name, preset, batch_size)
        for _ in range(2):
            model.train_on_batch(x, y)  # compiles
        with tempfile.TemporaryDirectory() as logdir:
            tf.profiler.experimental.start(logdir)
            for _ in range(steps):
                model.train_on_batch(x, y)
            tf.profiler.experimental.stop()
            space = xplane_pb2.XSpace()
            space.ParseFromString(
                open(glob.glob(f"{logdir}/**/*.xplane.pb", recursive=True)[-1], "rb").read()
            )
    by_type, by_name = collections.Counter(), collections.Counter()
    for plane in (p for p in space.planes if p.name == "/host:CPU"):
        for event in (e for line in plane.lines for e in line.events):
            name = plane.event_metadata[event.metadata_id].name
            if ":" not in name:
                continue
            op_name, op_type = name.rsplit(":", 1)
            if op_type in WRAPPERS or op_type.startswith(" __inference"):
                continue
            ms = event.duration_ps / 1e9 / steps
            by_type[op_type] += ms
            by_name[
                op_type, re.sub(r"_\d+(?=/|$)", "", re.sub(r"block\d+", "blockN", op_name))
            ] += ms
    return by_type, by_name


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="sl_vit")
    parser.add_argument("--preset", default="cifar100")
    parser.add_argument("--dtype-policy", default="mixed_bfloat16")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--top", type=int, default=20, help="op types to list")
    parser.add_argument(
        "--detail", nargs="*", default=[], help="op types whose most expensive ops to list"
    )
    args = parser.parse_args()
    by_type, by_name = op_times(
        args.model, args.preset, args.dtype_policy, args.batch_size, args.steps
    )
    total = sum(by_type.values())
    print(f"op time per step, summed over threads: {total:.0f} ms")
    for op_type, ms in by_type.most_common(args.top):
        print(f"{op_type:36s} {ms:7.1f} ms {100 * ms / total:5.1f}%")
    for op_type in args.detail:
        print(f"{op_type}:")
        ops = [(name, ms) for (kind, name), ms in by_name.most_common() if kind == op_type]
        for name, ms in ops[:10]:
            print(f"    {name[-90:]:90s} {ms:7.1f} ms")
