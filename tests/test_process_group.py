"""Two processes on this machine's CPUs train one model as a group does on two machines (JAX's
distributed runtime, CPU collectives): the weights of one process trained on the same global
batches, only process 0 writes, and a killed process ends the other."""

import os
import signal
import socket
import subprocess
import sys
import time

import numpy as np
from processes import run_python

# Process `index` of `count` trains a tiny SL-ViT one epoch on 64 images in global batches of 16
# (its run folder `out`) and saves its weights; a group then trains on, for the test to kill a
# process. Process 1 lists every write it makes under `out` (Python's audit events).
CHILD = """
import contextlib, json, os, sys
import keras
import numpy as np
from vit_small_ds.training import devices
from vit_small_ds.cli.commands import main
index, count, port, out, weights = sys.argv[1:]
index, count = int(index), int(count)
writes = []
def audit(event, args):
    path = str(args[0]) if args else ""
    writing = event == "open" and (
        any(c in (args[1] or "") for c in "wax+") or (args[2] or 0) & (os.O_WRONLY | os.O_RDWR)
    )
    if path.startswith(out) and (writing or event in ("os.rename", "os.remove", "os.mkdir", "shutil.rmtree")):
        writes.append([event, path])
if index == 1:
    sys.addaudithook(audit)
if count > 1:
    devices.join_process_group(f"localhost:{port}", count, index)
import vit_small_ds as vsd
from vit_small_ds.training.loop import run_experiment

rng = np.random.default_rng(0)
y = np.arange(96) % 3
x = rng.integers(0, 100, (96, 16, 16, 3), dtype=np.uint8)
x[np.arange(96), :, :, y] += 150
data = vsd.ImageDataset(x[:64], y[:64], x[64:80], y[64:80], x[80:], y[80:], ["r", "g", "b"])
tiny = dict(image_size=16, patch_size=4, transformer_layers=1, projection_dim=16, num_heads=2,
            transformer_units=(32, 16), mlp_head_units=(32,))

def train(argv):  # as vit_small_ds_train does, with a tiny model
    keras.utils.set_random_seed(0)
    group = devices.data_parallel() if count > 1 else contextlib.nullcontext()
    with group, devices.stops_with_the_group():
        model = vsd.create_model("sl_vit", "small", input_shape=(16, 16, 3), num_classes=3,
                                 normalize_on=data.x_train, **tiny)
        run_experiment(model, data, vsd.TrainConfig(epochs=1, batch_size=16, output=out))
        np.savez(weights + ".partial.npz", *model.get_weights())
        os.replace(weights + ".partial.npz", weights)
        print("writes under the run folder:", json.dumps(writes), flush=True)
        if count > 1:  # train on with the compiled step, until the test kills process 1
            part = devices.batch_part()
            batches = vsd.make_pipeline(data.x_train, data.y_train, 16, True, part=part)
            print("training on", flush=True)
            model.fit(batches, epochs=10_000, verbose=0)


main(train, [])  # its errors told as the command line tells them
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def test_a_group_trains_as_one_process_and_stops_when_a_process_is_killed(tmp_path):
    port, out = free_port(), tmp_path / "run"
    env = {**os.environ, "KERAS_BACKEND": "jax", "TF_CPP_MIN_LOG_LEVEL": "3"}
    logs = [tmp_path / f"process{k}.log" for k in range(2)]
    group = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                CHILD,
                str(k),
                "2",
                str(port),
                str(out),
                str(tmp_path / f"{k}.npz"),
            ],
            env=env,
            stdout=logs[k].open("w"),
            stderr=subprocess.STDOUT,
        )
        for k in range(2)
    ]
    alone = tmp_path / "alone"
    run_python(["-c", CHILD, "0", "1", "0", str(alone), str(tmp_path / "alone.npz")], "jax")

    # one model, with the one process's weights; process 0 wrote the run folder
    deadline = time.monotonic() + 300
    while "training on" not in logs[0].read_text() or "training on" not in logs[1].read_text():
        assert all(p.poll() is None for p in group), logs[0].read_text()[-3000:]
        assert time.monotonic() < deadline
        time.sleep(0.2)
    weights = [np.load(tmp_path / f"{name}.npz") for name in ("0", "1", "alone")]
    for name in weights[0].files:
        np.testing.assert_array_equal(weights[0][name], weights[1][name])
        # up to a few 1e-6 apart: the query bias, to which the softmax is blind, gets gradients of
        # pure float noise, which Adam scales up
        np.testing.assert_allclose(weights[0][name], weights[2][name], rtol=1e-4, atol=1e-5)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in alone.iterdir())
    assert "writes under the run folder: []" in logs[1].read_text()

    time.sleep(1)  # some steps
    group[1].send_signal(signal.SIGKILL)
    killed = time.monotonic()
    status = group[0].wait(timeout=120)
    seconds = time.monotonic() - killed
    # its next step, which needed the killed process, failed: that error, in one line
    log = logs[0].read_text()
    assert status == 1 and "error: Process 0 of 2 stopped (" in log and "by peer" in log, log[
        -3000:
    ]
    assert seconds < 30, seconds  # not a hang: a second or two on a 2-core Zen 3
