"""A write made through mimomem is visible to the very next search, in any process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mimomem.search.memory_index import MemoryIndex
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer


def test_search_right_after_a_write_finds_it(tmp_path: Path) -> None:
    tree = MemoryTree(tmp_path / "data" / "memory")
    with MemoryIndex(tree, reconcile_interval=3600, progress=False) as index:
        assert not index.search("蓝绿部署")  # builds the cache; the interval now says "fresh"
        tree.write(tree.global_memory(), "# Global\n\n- 蓝绿部署先切 10% 流量\n", Writer(agent="user"))
        hits = index.search("蓝绿部署")
        assert [Path(h.path).name for h in hits] == ["MEMORY.md"]


def test_another_process_sees_the_write_at_once(tmp_path: Path) -> None:
    env = dict(os.environ, MIMOMEM_HOME=str(tmp_path / "home"), MIMOMEM_SESSION="s1")
    repo = tmp_path / "app"
    (repo / ".git").mkdir(parents=True)

    def mimomem(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "mimomem", *args], capture_output=True, text=True, env=env, cwd=repo, timeout=60
        )

    assert mimomem("search", "灰度发布").returncode in (0, 1)  # builds the cache first
    assert mimomem("note", "灰度发布要先通知运维").returncode == 0
    found = mimomem("search", "灰度发布")
    assert "notes.md" in found.stdout, found.stdout + found.stderr
