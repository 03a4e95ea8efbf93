"""`save_pretrained` and `load_pretrained` with `hf://` against a local stand-in for the Hugging Face
Hub: a pushed model comes back with its card; a revision is downloaded as asked, the commit that
arrived and a hash of its files are recorded, and files that changed since are refused in one line."""

import shutil
import sys
import types

import keras
import numpy as np
import pytest
from keras.src.saving import saving_lib  # Keras' own upload reads its module's huggingface_hub

from vit_small_ds.models.saving import files_sha256, load_pretrained, save_pretrained

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class StandInHub:
    """What the library and Keras call of `huggingface_hub`, on a folder: repository `user/name`
    is `root/models--user--name/snapshots/COMMIT/`, as the Hub's cache lays out a download."""

    def __init__(self, root):
        self.root, self.downloads = root, []

    def snapshot(self, repo_id):
        return self.root / f"models--{repo_id.replace('/', '--')}" / "snapshots" / COMMIT

    def snapshot_download(self, repo_id, revision=None):
        self.downloads.append((repo_id, revision))
        assert revision in (None, "main", COMMIT), revision
        return str(self.snapshot(repo_id))

    def HfApi(self, **kwargs):  # noqa: N802 (the name huggingface_hub gives it)
        return self

    def create_repo(self, repo_id, exist_ok=False):
        self.snapshot(repo_id).mkdir(parents=True, exist_ok=exist_ok)
        return types.SimpleNamespace(repo_id=repo_id)

    def upload_folder(self, repo_id, folder_path, **kwargs):
        shutil.copytree(folder_path, self.snapshot(repo_id), dirs_exist_ok=True)

    def upload_file(self, path_or_fileobj, path_in_repo, repo_id, **kwargs):
        (self.snapshot(repo_id) / path_in_repo).write_bytes(path_or_fileobj)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    "The stand-in Hub, with `user/tiny` pushed to it by `save_pretrained`; and that model."
    stand_in = StandInHub(tmp_path)
    monkeypatch.setitem(sys.modules, "huggingface_hub", stand_in)
    monkeypatch.setattr(saving_lib, "huggingface_hub", stand_in)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)], name="tiny")
    save_pretrained(model, "hf://user/tiny", dataset="numbers", metrics={"test_accuracy": 0.5})
    return stand_in, model


def test_a_pushed_model_comes_back_pinned_with_its_card(hub):
    stand_in, model = hub
    loaded, info = load_pretrained(f"hf://user/tiny@{COMMIT}")
    assert stand_in.downloads == [("user/tiny", COMMIT)]
    snapshot = stand_in.snapshot("user/tiny")
    assert (info["revision"], info["files_sha256"]) == (COMMIT, files_sha256(snapshot))
    assert (info["dataset"], info["metrics"]) == ("numbers", {"test_accuracy": 0.5})
    assert "| test_accuracy | 0.5 |" in (snapshot / "README.md").read_text()  # ours, not Keras'
    x = np.arange(6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0))


def test_a_changed_file_is_refused_in_one_line(hub):
    stand_in, _ = hub
    pinned = load_pretrained("hf://user/tiny")[1]["files_sha256"]
    load_pretrained("hf://user/tiny", files_sha256=pinned)  # the same files
    card = stand_in.snapshot("user/tiny") / "README.md"
    card.write_text(card.read_text() + "changed\n")
    with pytest.raises(ValueError) as refused:
        load_pretrained("hf://user/tiny", files_sha256=pinned)
    assert "\n" not in str(refused.value) and f"at commit {COMMIT}, hash to" in str(refused.value)


def test_files_sha256_sees_paths_and_contents(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    (tmp_path / "a" / "x").write_text("1")
    first = files_sha256(tmp_path)
    (tmp_path / "a" / "x").rename(tmp_path / "b" / "x")  # the same bytes, elsewhere
    moved = files_sha256(tmp_path)
    (tmp_path / "b" / "x").write_text("2")
    assert len({first, moved, files_sha256(tmp_path)}) == 3
