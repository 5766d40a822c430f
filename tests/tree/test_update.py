"""MemoryTree.update: read-modify-write of one file under the directory lock, through the gate."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from mimomem.errors import NotOwnerError, SecretRefusedError
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer


def test_update_gets_the_live_text_and_writes_the_result(tmp_path: Path) -> None:
    tree = MemoryTree(tmp_path / "memory")
    target = tree.project_memory("p1")
    seen: list[str | None] = []

    def change(old: str | None) -> str:
        seen.append(old)
        return (old or "") + "line\n"

    assert (target, True) == tree.update(target, change, Writer(agent="dream", project_id="p1"))
    assert (target, True) == tree.update(target, change, Writer(agent="dream", project_id="p1"))
    assert [None, "line\n"] == seen
    assert "line\nline\n" == target.read_text(encoding="utf-8")


def test_update_writes_nothing_for_none_or_same_text(tmp_path: Path) -> None:
    tree = MemoryTree(tmp_path / "memory")
    target = tree.project_memory("p1")
    assert (target, False) == tree.update(target, lambda old: None, Writer(agent="dream", project_id="p1"))
    assert not target.exists()
    tree.write(target, "x\n", Writer(agent="dream", project_id="p1"))
    assert (target, False) == tree.update(target, lambda old: old, Writer(agent="dream", project_id="p1"))


def test_update_passes_the_gate_and_the_secret_check(tmp_path: Path) -> None:
    tree = MemoryTree(tmp_path / "memory")
    with pytest.raises(NotOwnerError):
        tree.update(tree.project_memory("other"), lambda old: "x", Writer(agent="dream", project_id="p1"))
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with pytest.raises(SecretRefusedError):
        tree.update(tree.project_memory("p1"), lambda old: f"token {key}\n", Writer(agent="dream", project_id="p1"))
    assert not tree.project_memory("p1").exists()


def test_concurrent_updates_lose_nothing(tmp_path: Path) -> None:
    tree = MemoryTree(tmp_path / "memory")
    target = tree.project_memory("p1")

    def add(n: int) -> None:
        tree.update(target, lambda old: (old or "") + f"{n}\n", Writer(agent="dream", project_id="p1"))

    threads = [threading.Thread(target=add, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(range(20)) == sorted(int(x) for x in target.read_text(encoding="utf-8").split())
