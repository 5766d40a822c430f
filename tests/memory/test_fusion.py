"""One search over the tree and the curated store, scoped to the current project."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.curated.store import CuratedMemory
from mimomem.memory.search import Filters, Found, search
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate
from mimomem.tree.writer import Writer


def _hits(where: Where, query: str, *, all_projects: bool = False) -> list[Found]:
    return list(search(where, query, Filters(all_projects=all_projects)))


@pytest.fixture
def two_projects(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Where, Where]:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("shop", "blog"):
        (tmp_path / name / ".git").mkdir(parents=True)
    tree = MemoryTree()
    shop = locate(tmp_path / "shop", session_id="s1", tree=tree)
    blog = locate(tmp_path / "blog", session_id="s2", tree=tree)
    tree.write(tree.project_memory(shop.project_id), "# Project memory\n\n## Rules\n- 数据库端口 5433\n", shop.writer())
    tree.write(
        tree.project_memory(blog.project_id), "# P\n\n## Rules\n- 数据库端口 3306，数据库端口别改\n", blog.writer()
    )
    tree.write(
        tree.notes("s2"), "# Session notes\n\n## [turn 1 · 2026-12-01T10:00Z]\n\n数据库端口迁移\n", blog.writer()
    )
    tree.ensure_templates(Writer(agent="main", session_id="s1", project_id=shop.project_id, worktree=tmp_path / "shop"))
    CuratedMemory(project_root=tmp_path / "shop").remember("facts", "staging 的数据库端口是 6543", author="user")
    return shop, blog


def test_default_scope_is_the_current_project(two_projects: tuple[Where, Where]) -> None:
    shop, _ = two_projects
    hits = _hits(shop, "数据库端口")
    labels = [h.label for h in hits]
    assert labels and all("blog" not in label and "s2" not in label for label in labels)
    assert {h.source for h in hits} == {"tree", "curated"}  # one list, both stores
    assert any(label.startswith("project shop") for label in labels)  # named, not only a UUID


def test_all_projects_widens(two_projects: tuple[Where, Where]) -> None:
    shop, _ = two_projects
    labels = [h.label for h in _hits(shop, "数据库端口", all_projects=True)]
    assert any("blog" in label for label in labels)
    assert any(label.startswith("session s2 of blog") for label in labels)


def test_template_boilerplate_is_not_matched(two_projects: tuple[Where, Where]) -> None:
    shop, _ = two_projects
    assert _hits(shop, "design decisions") == []
    assert _hits(shop, "near-duplicate entry") == []


def test_the_cli_list_is_in_the_order_of_the_score_it_shows(
    two_projects: tuple[Where, Where], capsys: pytest.CaptureFixture[str]
) -> None:
    """`mimomem search` printed each store's own score (BM25, recall) beside a list ordered by the fused one,
    so the numbers went up and down -> the fused score it is ordered by, each store's own in brackets."""
    import re

    from mimomem.cli import main

    shop, _ = two_projects
    CuratedMemory(project_root=shop.worktree).remember("facts", "数据库端口的备份也在 6543", author="user")
    assert main(["search", "数据库端口", "--all-projects", "--project", str(shop.worktree)]) == 0
    out = capsys.readouterr().out
    shown = [float(s) for s in re.findall(r", score ([\d.e-]+) \((?:BM25|recall) [\d.e-]+\)", out)]
    assert len(shown) == out.count("\n### ") + out.startswith("### ") >= 4
    assert shown == sorted(shown, reverse=True)
    assert "(BM25 " in out and "(recall " in out


def test_a_search_reads_no_hit_file(two_projects: tuple[Where, Where], monkeypatch: pytest.MonkeyPatch) -> None:
    """The boilerplate check reads what the index holds: a warm search opens no memory file (the old code
    re-read each of up to 50 hits)."""
    import builtins
    import io
    import os

    shop, _ = two_projects
    first = _hits(shop, "数据库端口", all_projects=True)  # builds the index
    root = str(shop.tree.root)
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    def spy_os_open(path: object, *args: object, **kwargs: object) -> int:
        opened.append(str(path))
        return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)  # pathlib's
    monkeypatch.setattr(os, "open", spy_os_open)
    again = _hits(shop, "数据库端口", all_projects=True)
    assert [h.path for h in again] == [h.path for h in first] != []
    assert [p for p in opened if p.startswith(root) and p.endswith(".md")] == []
    assert _hits(shop, "design decisions") == []  # the template's words alone still match nothing
