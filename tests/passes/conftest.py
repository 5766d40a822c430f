"""Fixtures for the passes: a project with an imported history (the histories of tests/history)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))

from trajectory_fixtures import day, make_project, ms, write_claude_code, write_mimocode

from mimomem.history.agent_db import import_agent_db
from mimomem.history.claude_code import import_claude_code
from mimomem.history.history_store import HistoryStore
from mimomem.passes.base import PassContext
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate

NOW = ms(day(30, 18))


@dataclass
class World:
    """A project, its memory tree and its imported history."""

    tmp: Path
    project: Path
    tree: MemoryTree
    store: HistoryStore

    def context(self, session_id: str | None = None, *, days: int | None = None) -> PassContext:
        where = locate(self.project, session_id=session_id, tree=self.tree, env={})
        return PassContext.open(where, self.store, days=days, now=NOW)

    def memory(self) -> Path:
        return self.tree.project_memory(self.context().where.project_id)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    project = make_project(tmp_path)
    tree = MemoryTree(tmp_path / "data" / "memory")
    with HistoryStore(tmp_path / "data" / "history.db") as store:
        write_claude_code(tmp_path / "projects", str(project))
        import_claude_code(store, tmp_path / "projects")
        import_agent_db(store, write_mimocode(tmp_path / "mimocode.db", str(project)))
        yield World(tmp_path, project, tree, store)
