"Run Python or a console script in a fresh process under a chosen Keras backend (KERAS_BACKEND is read when keras is imported)."

import json
import os
import subprocess
import sys


def run_command(command, backend, timeout=600, env=None, expect=0) -> subprocess.CompletedProcess:
    "Run `command` under `backend` (and the variables `env`); fails the test with its output unless it exits with `expect`."
    env = {**os.environ, "KERAS_BACKEND": backend, "TF_CPP_MIN_LOG_LEVEL": "3", **(env or {})}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == expect, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def run_python(args, backend, timeout=600, env=None) -> str:
    "The stdout of `python *args` under `backend` (and the variables `env`); fails the test with its stderr if it exits non-zero."
    return run_command([sys.executable, *args], backend, timeout, env).stdout


def json_report(args, backend, timeout=600) -> dict:
    "The JSON object on the last line `python *args` prints under `backend`, checked to come from that backend."
    report = json.loads(run_python(args, backend, timeout).strip().splitlines()[-1])
    assert report["backend"] == backend
    return report
