"""The one memory search: one rule set for both stores, one result type, and an empty result that says why."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from mimomem.curated.store import CuratedMemory
from mimomem.memory.fusion import fuse
from mimomem.memory.search import Emptied, Filters, Found, explain, search
from mimomem.text.query import parse_query
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate

SPELL = {"scope": "--scope {}", "scope_id": "--scope-id {}", "type": "--type {}", "all_projects": "--all-projects"}


def _seen(hits: Iterable[Found]) -> list[tuple[str, str, str, str]]:
    """What a reader sees of each hit, in order (a curated score decays with time, so it is left out)."""
    return [(h.source, h.path, h.label, h.snippet) for h in hits]


@pytest.fixture
def shop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Where, Where]:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("shop", "blog"):
        (tmp_path / name / ".git").mkdir(parents=True)
    tree = MemoryTree()
    shop = locate(tmp_path / "shop", session_id="s1", tree=tree)
    blog = locate(tmp_path / "blog", session_id="s2", tree=tree)
    tree.write(tree.project_memory(shop.project_id), "# Project memory\n\n## Rules\n- 数据库端口 5433\n", shop.writer())
    tree.write(tree.project_memory(blog.project_id), "# P\n\n## Rules\n- 数据库端口 3306\n", blog.writer())
    tree.write(
        tree.notes("s1"), "# Session notes\n\n## [turn 1 · 2026-12-01T10:00Z]\n\n数据库端口迁移\n", shop.writer()
    )
    CuratedMemory(project_root=tmp_path / "shop").remember("facts", "staging 的数据库端口是 6543", author="user")
    return shop, blog


def test_without_filters_it_is_the_fused_search(shop: tuple[Where, Where]) -> None:
    here, _ = shop
    results = search(here, "数据库端口")
    fused = fuse(here, parse_query("数据库端口"), Filters())
    assert _seen(results) == _seen(fused)  # the hook's search is the same call
    assert {h.source for h in results} == {"tree", "curated"} and results.backend


def test_type_and_scope_narrow_both_stores(shop: tuple[Where, Where]) -> None:
    here, _ = shop
    assert {(h.source, h.type) for h in search(here, "数据库端口", Filters(type="facts"))} == {("curated", "facts")}
    assert {h.type for h in search(here, "数据库端口", Filters(type="notes"))} == {"notes"}
    project = search(here, "数据库端口", Filters(scope="project"))
    assert {h.source for h in project} == {"tree", "curated"} and all(h.scope == "project" for h in project)
    assert {h.source for h in search(here, "数据库端口", Filters(scope="session"))} == {"tree"}


def test_a_filter_stays_within_this_project_unless_widened(shop: tuple[Where, Where]) -> None:
    here, blog = shop
    narrow = search(here, "3306", Filters(scope="project"))
    assert not narrow and narrow.emptied_by is None
    assert "add --all-projects" in explain(narrow, SPELL)[0]
    wide = search(here, "3306", Filters(scope="project", all_projects=True))
    assert [h.scope_id for h in wide] == [blog.project_id]
    named = search(here, "3306", Filters(scope="project", scope_id=blog.project_id))
    assert [h.path for h in named] == [h.path for h in wide]  # naming the project widens too


def test_an_empty_result_names_the_filter_that_emptied_it(shop: tuple[Where, Where]) -> None:
    here, _ = shop
    results = search(here, "5433", Filters(type="checkpoint"))
    assert not results and results.emptied_by is not None and results.emptied_by.dropped == ("type",)
    lines = explain(results, SPELL)
    assert lines[0] == "no matches with --type checkpoint (there is 1 match without it)"
    assert any("0 results does not mean" in line for line in lines)
    mcp = explain(results, {"type": "type={}", "all_projects": "all_projects=true"})
    assert mcp[0].startswith("no matches with type=checkpoint") and "all_projects=true" in mcp[1]


def test_leaving_curated_out_is_the_tree_alone(shop: tuple[Where, Where]) -> None:
    here, _ = shop
    tree_only = search(here, "数据库端口", Filters(curated=False))
    assert tree_only and {h.source for h in tree_only} == {"tree"}
    assert _seen(tree_only) == _seen(fuse(here, parse_query("数据库端口"), Filters(curated=False)))


def test_the_tree_index_returns_the_same_result_type(shop: tuple[Where, Where]) -> None:
    """``MemoryIndex.search`` (the tree alone) gives ``Results`` of ``Found``, labelled as the fused search does."""
    from mimomem.search.hits import Results
    from mimomem.search.memory_index import MemoryIndex

    here, _ = shop
    with MemoryIndex(here.tree, progress=False) as index:
        alone = index.search("数据库端口", scope="session")
    assert isinstance(alone, Results) and alone.filters == Filters(scope="session")
    assert all(isinstance(h, Found) and h.source == "tree" and h.source_score == h.score for h in alone)
    assert [h.label for h in alone] == [f"session s1 of shop ({Path(h.path).name})" for h in alone] != []
    fused = search(here, "数据库端口", Filters(scope="session", curated=False))
    assert [(h.path, h.label, h.snippet) for h in alone] == [(h.path, h.label, h.snippet) for h in fused]


def _emptied_by_rerunning(where: Where, query: str, filters: Filters) -> Emptied | None:
    """The explanation as it was first computed: the search run again once per dropped filter."""
    from mimomem.search.params import MAX_LIMIT

    given = list(filters.named())
    for dropped in [(name,) for name in given] + ([tuple(given)] if len(given) > 1 else []):
        found = len(fuse(where, parse_query(query), filters.without(dropped), limit=MAX_LIMIT).hits)
        if found:
            return Emptied(dropped, found)
    return None


GRID_FILTERS = [
    Filters(type="checkpoint"),
    Filters(type="facts"),
    Filters(type="notes", scope="project"),
    Filters(scope="session", type="facts"),
    Filters(scope="global"),
    Filters(scope="project", scope_id="no-such-project"),
    Filters(scope="claude-code", type="memory"),
    Filters(scope="host"),
]


@pytest.mark.parametrize("query", ["数据库端口", "5433", "3306", "staging", "迁移", "the and of"])
def test_an_empty_result_is_explained_by_one_more_search(
    shop: tuple[Where, Where], query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The explanation equals re-running the search once per dropped filter, but costs one search."""
    from mimomem.memory import fusion

    here, _ = shop
    runs: list[Filters] = []
    real = fusion._fused

    def counting(*args: Any, **kwargs: Any) -> Any:
        runs.append(args[2])
        return real(*args, **kwargs)

    explained = 0
    for filters in GRID_FILTERS:
        expected = _emptied_by_rerunning(here, query, filters)
        runs.clear()
        with monkeypatch.context() as patch:
            patch.setattr(fusion, "_fused", counting)
            results = search(here, query, filters)
        if results:
            assert len(runs) == 1
            continue
        assert results.emptied_by == expected, filters
        assert len(runs) == (2 if filters.named() else 1), filters
        explained += expected is not None
    assert explained or query in ("3306", "the and of")  # the others: empty results a dropped filter explains
