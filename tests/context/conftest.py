"""Fixtures shared by the context tests: a memory tree under the test's own directory, and a git repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.tree.memory_tree import MemoryTree


@pytest.fixture
def tree(tmp_path: Path) -> MemoryTree:
    return MemoryTree(tmp_path / "data" / "memory")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "app"
    (path / ".git").mkdir(parents=True)
    return path
