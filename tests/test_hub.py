"""`load_pretrained("hf://...")` against a local stand-in for the Hugging Face Hub: a revision is
downloaded as asked, the commit that arrived and a hash of its files are recorded, and files that
changed since are refused in one line."""

import shutil
import sys
import types

import keras
import numpy as np
import pytest

from vit_small_ds.models.saving import files_sha256, load_pretrained, save_pretrained

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A stand-in for `huggingface_hub` whose `snapshot_download` serves `user/tiny` at COMMIT from
    a cache laid out as the Hub's (`snapshots/<commit>/`); returns the snapshot folder and the
    calls it received."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)], name="tiny")
    snapshot = tmp_path / "models--user--tiny" / "snapshots" / COMMIT
    save_pretrained(model, tmp_path / "published")
    shutil.copytree(tmp_path / "published", snapshot)
    calls = []

    def snapshot_download(repo_id, revision=None):
        calls.append((repo_id, revision))
        assert repo_id == "user/tiny" and revision in (None, "main", COMMIT), (repo_id, revision)
        return str(snapshot)

    monkeypatch.setitem(
        sys.modules, "huggingface_hub", types.SimpleNamespace(snapshot_download=snapshot_download)
    )
    return snapshot, calls, model


def test_a_hub_download_is_pinned_and_a_changed_file_refused(hub):
    snapshot, calls, model = hub
    loaded, info = load_pretrained(f"hf://user/tiny@{COMMIT}")
    assert calls == [("user/tiny", COMMIT)]
    assert (info["revision"], info["files_sha256"]) == (COMMIT, files_sha256(snapshot))
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))
    load_pretrained("hf://user/tiny", files_sha256=info["files_sha256"])  # the same files
    assert calls[-1] == ("user/tiny", None)
    card = snapshot / "README.md"
    card.write_text(card.read_text() + "changed\n")
    with pytest.raises(ValueError) as refused:
        load_pretrained("hf://user/tiny", files_sha256=info["files_sha256"])
    message = str(refused.value)
    assert "\n" not in message and f"at commit {COMMIT}, hash to" in message


def test_files_sha256_sees_paths_and_contents(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    (tmp_path / "a" / "x").write_text("1")
    first = files_sha256(tmp_path)
    (tmp_path / "a" / "x").rename(tmp_path / "b" / "x")  # the same bytes, elsewhere
    moved = files_sha256(tmp_path)
    (tmp_path / "b" / "x").write_text("2")
    assert len({first, moved, files_sha256(tmp_path)}) == 3
