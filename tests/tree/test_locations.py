from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.errors import LocationError, MimomemError
from mimomem.tree.locations import data_dir, memory_root, mimocode_data_dir, mimocode_memory_root
from mimomem.tree.memory_tree import MemoryTree


def test_home_env_wins_and_adds_data(tmp_path):
    env = {"MIMOMEM_HOME": str(tmp_path / "h"), "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}
    assert data_dir(env) == tmp_path / "h" / "data"
    assert memory_root(env=env) == tmp_path / "h" / "data" / "memory"


def test_relative_home_is_a_clear_error():
    with pytest.raises(LocationError, match="must be an absolute path") as info:
        data_dir({"MIMOMEM_HOME": "relative/dir"})
    assert isinstance(info.value, ValueError) and isinstance(info.value, MimomemError)


def test_xdg_data_home_used_when_absolute():
    assert data_dir({"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}) == Path("/xdg/mimomem")


@pytest.mark.parametrize("xdg", ["", "relative/xdg"])
def test_unset_or_relative_xdg_falls_back_to_local_share(xdg):
    env = {"XDG_DATA_HOME": xdg, "HOME": "/home/u"}
    assert data_dir(env) == Path("/home/u/.local/share/mimomem")


def test_empty_home_env_counts_as_unset():
    assert data_dir({"MIMOMEM_HOME": "", "HOME": "/home/u"}) == Path("/home/u/.local/share/mimomem")


def test_memory_root_of_explicit_data_dir(tmp_path):
    assert memory_root(tmp_path) == tmp_path / "memory"


def test_mimocode_locations():
    assert mimocode_data_dir({"MIMOCODE_HOME": "/m"}) == Path("/m/data")
    assert mimocode_data_dir({"HOME": "/home/u"}) == Path("/home/u/.local/share/mimocode")
    with pytest.raises(LocationError, match="MIMOCODE_HOME must be an absolute path"):
        mimocode_data_dir({"MIMOCODE_HOME": "m"})


def test_mimocode_memory_root_must_exist(tmp_path):
    with pytest.raises(LocationError, match="no MiMo-Code memory tree"):
        mimocode_memory_root(tmp_path)
    (tmp_path / "memory").mkdir()
    assert mimocode_memory_root(tmp_path) == tmp_path / "memory"


def test_tree_defaults_to_env_root(tmp_path, monkeypatch):
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path))
    assert MemoryTree().root == tmp_path / "data" / "memory"
    assert MemoryTree().data_dir == tmp_path / "data"


def test_tree_from_mimocode_opens_in_place(tmp_path, monkeypatch):
    (tmp_path / "data" / "memory" / "projects").mkdir(parents=True)
    monkeypatch.setenv("MIMOCODE_HOME", str(tmp_path))
    tree = MemoryTree.from_mimocode()
    assert tree.root == tmp_path / "data" / "memory"
    assert tree.id_files[0] == "mimocode-project-id"
    assert tree.worktree_dotdir == ".mimocode"
    assert MemoryTree.from_mimocode(tmp_path / "data").root == tree.root
