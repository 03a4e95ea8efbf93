"Run Python in a fresh process under a chosen Keras backend (KERAS_BACKEND is read when keras is imported)."
import json
import os
import subprocess
import sys


def run_python(args, backend, timeout=900, env=None) -> str:
    "The stdout of `python *args` under `backend` (and the variables `env`); fails the test with its stderr if it exits non-zero."
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})}
    result = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result.stdout


def json_report(args, backend, timeout=900) -> dict:
    "The JSON object on the last line `python *args` prints under `backend`, checked to come from that backend."
    report = json.loads(run_python(args, backend, timeout).strip().splitlines()[-1])
    assert report["backend"] == backend
    return report
