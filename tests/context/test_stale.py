"""A value memory-history.md holds as superseded never reaches a prompt through the notes that first said it."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.context.entry_scope import recall_text
from mimomem.context.stale import current_text, read_history, words
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import notes_template
from mimomem.tree.where import Where, locate

NOTES = """
## [turn 2 · 2026-10-06T10:04:30Z]
Transcript digest (SessionEnd), written by mimomem without a model.

**User requests**
> 今天把 staging 的对账脚本跑通。注意 staging 数据库端口是 5433，不是默认的 5432，主机是 pg-staging.lanhai.internal。
> 对账结果只写到 reconcile_runs 表，不要发邮件。
> Staging search runs on search-1.internal:7700. The search index is rebuilt nightly.
"""

LATER = """
## [turn 1 · 2026-10-10T09:00:00Z]
Transcript digest (SessionEnd), written by mimomem without a model.

**User requests**
> 韩子墨说 staging 数据库迁到新集群了，端口改成 6543，主机还是 pg-staging.lanhai.internal。
"""

HISTORY = """# Project memory: superseded values

_Kept as history; never injected as current._
- 注意 staging 数据库端口是 5433，不是默认的 5432，主机是 pg-staging.lanhai.internal - superseded 2026-10-10 by: \
韩子墨说 staging 数据库迁到新集群了，端口改成 6543，主机还是 pg-staging.lanhai.internal
- Staging search runs on search-1.internal:7700 - superseded 2026-11-05 by: search moved to search-2.internal
"""


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Where:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    repo = tmp_path / "billing"
    (repo / ".git").mkdir(parents=True)
    first = locate(repo, session_id="s-first", tree=MemoryTree())
    tree, who = first.tree, first.writer("main")
    tree.create(tree.notes("s-first"), notes_template(), who)
    tree.append(tree.notes("s-first"), NOTES, who)
    second = locate(repo, session_id="s-second", tree=tree)
    tree.create(tree.notes("s-second"), notes_template(), second.writer("main"))
    tree.append(tree.notes("s-second"), LATER, second.writer("main"))
    return locate(repo, session_id="s-new", tree=tree)


def _history(where: Where) -> Path:
    folder = where.tree.project_dir(where.project_id)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "memory-history.md"


def test_a_superseded_value_is_served_as_what_superseded_it(where: Where) -> None:
    before = recall_text(where, "staging 数据库端口是多少？")
    assert "5433" in before  # no history yet: the notes are all there is
    _history(where).write_text(HISTORY, encoding="utf-8")
    after = recall_text(where, "staging 数据库端口是多少？")
    assert "5433" not in after and "6543" in after
    first = where.tree.notes("s-first").read_text(encoding="utf-8")
    shown = current_text(first, words(first), read_history(str(_history(where))))
    assert shown is not None and "5433" not in shown and "(superseded 2026-10-10 by: 韩子墨说" in shown
    search = recall_text(where, "Which host serves staging search?")
    assert "search-1.internal" not in search and "search-2.internal" in search


def test_the_rest_of_the_entry_stays(where: Where) -> None:
    _history(where).write_text(HISTORY, encoding="utf-8")
    text = recall_text(where, "对账结果写到哪个表？要发邮件吗？")
    assert "reconcile_runs" in text and "5433" not in text
    assert "rebuilt nightly" in recall_text(where, "How often is the search index rebuilt?")


def test_the_change_itself_is_kept(where: Where) -> None:
    """The sentence that states the change holds the new value: it is not a restatement of the old one."""
    items = read_history_text(where)
    said = "韩子墨说 staging 数据库迁到新集群了，端口从 5433 改成 6543。"
    assert current_text(said, words(said), items) is None
    unrelated = "跳板机是 jump.lanhai.internal，端口 22。"
    assert current_text(unrelated, words(unrelated), items) is None


def read_history_text(where: Where) -> list:  # type: ignore[type-arg]
    _history(where).write_text(HISTORY, encoding="utf-8")
    return read_history(str(_history(where)))


def test_a_damaged_or_missing_history_changes_nothing(where: Where, tmp_path: Path) -> None:
    assert read_history(str(tmp_path / "missing.md")) == []
    _history(where).write_bytes(b"\xff\xfe- broken line without the shape\n")
    assert "5433" in recall_text(where, "staging 数据库端口是多少？")
