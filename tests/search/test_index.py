"""MemoryIndex search semantics, DocumentIndex API, and the search / reconcile / index CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mimomem import MemoryIndex, cli
from mimomem.search.backends import SEARCH_BACKENDS, UnknownBackendError
from mimomem.search.document_index import DocumentIndex
from mimomem.search.hits import RankedRow
from mimomem.search.index import MAX_FETCH, InvalidFloorError, InvalidLimitError, InvalidScopeError, apply_floor

FAILURES = [
    ("global/MEMORY.md", "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容", "部署", 0),
    ("global/MEMORY.md", "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容", "部署脚本", 0),
    ("global/MEMORY.md", "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容", "lockfile", 1),
    ("global/MEMORY.md", "我们决定使用端口5433，数据库是postgres", "端口", 0),
    ("global/MEMORY.md", "我们决定使用端口5433，数据库是postgres", "postgres", 0),
    ("global/MEMORY.md", "我们决定使用端口5433，数据库是postgres", "5433", 0),
    ("global/MEMORY.md", "我们决定使用端口5433，数据库是postgres", "数据库", 0),
    ("global/MEMORY.md", "我们决定使用端口5433，数据库是postgres", "我们决定使用端口5433", 1),
]


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "memory"
    write(root, "global/MEMORY.md", "JWT tokens are signed with RS256\n")
    write(root, "projects/p1/MEMORY.md", "the abandoned scope of T5.3 closure was moved\n")
    write(root, "projects/p2/memory-db.md", "postgres listens on 5433\n")
    write(root, "sessions/s1/checkpoint.md", "session scope notes about deploy\n")
    write(root, "sessions/s1/tasks/T5.3/progress.md", "T5.3 closure: done\n")
    for i in range(15):
        write(root, f"sessions/s2/topic-{i:02d}.md", f"common filler word number {i}\n")
    return root


def rel(index: MemoryIndex, hits) -> list[str]:
    return [os.path.relpath(h.path, index.root) for h in hits]


@pytest.mark.parametrize("row", FAILURES, ids=[r[2] for r in FAILURES])
def test_failures_table_on_a_tree(tmp_path, row):
    path, body, query, unicode61_hits = row
    root = tmp_path / "memory"
    write(root, path, body + "\n")
    index = MemoryIndex(root)
    assert unicode61_hits == len(index.search(query, backend="fts5-unicode61"))
    assert 1 == len(index.search(query, backend="fts5-bigram"))
    assert 1 == len(index.search(query, backend="native-index"))


@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
def test_search_semantics_match_mimo(tree, backend):
    index = MemoryIndex(tree, backend=backend)
    assert ["global/MEMORY.md"] == rel(index, index.search("JWT"))
    assert index.search("JWT")[0].score > 0
    assert "projects/p1/MEMORY.md" == rel(index, index.search("abandoned nonexistentterm"))[0]  # OR
    assert [] == list(index.search("zzzqqq yyyxxx"))
    assert [] == list(index.search("   "))
    assert 5 == len(index.search("common filler", limit=5))
    assert 15 == len(index.search("common filler", limit=50))
    hit = index.search("postgres")[0]
    assert ("project", "p2", "memory") == (hit.scope, hit.scope_id, hit.type)
    assert "<<" in hit.snippet and ">>" in hit.snippet


@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
def test_filters(tree, backend):
    index = MemoryIndex(tree, backend=backend)
    assert {"session"} == {h.scope for h in index.search("scope", scope="session")}
    assert {"project"} == {h.scope for h in index.search("scope", scope="project")}
    assert {"global"} == {h.scope for h in index.search("JWT scope", scope="global")}
    assert ["sessions/s1/tasks/T5.3/progress.md"] == rel(index, index.search("closure", type="progress"))
    assert ["projects/p1/MEMORY.md"] == rel(index, index.search("closure", scope_id="p1"))
    assert len(index.search("closure", scope="")) == len(index.search("closure"))  # empty = no filter


def test_identifier_query_finds_the_identifier_first(tree):
    index = MemoryIndex(tree)
    top = rel(index, index.search("T5.3 closure"))
    assert set(top[:2]) == {"sessions/s1/tasks/T5.3/progress.md", "projects/p1/MEMORY.md"}


def test_limit_is_validated(tree):
    index = MemoryIndex(tree)
    for bad in (0, -1, 201, True, 1.5, "10", None):
        with pytest.raises(InvalidLimitError, match=r"1\.\.200"):
            index.search("x", limit=bad)  # type: ignore[arg-type]
    assert 10 >= len(index.search("common filler"))
    assert 15 == len(index.search("common filler", limit=200))


def test_scope_and_backend_are_validated(tree):
    index = MemoryIndex(tree)
    with pytest.raises(InvalidScopeError, match="global, project, session, claude-code, host"):
        index.search("x", scope="sessionz")
    with pytest.raises(UnknownBackendError):
        index.search("x", backend="nope")
    with pytest.raises(InvalidFloorError):
        MemoryIndex(tree, score_floor=2)


def test_zero_results_carry_escalation_hints(tree):
    index = MemoryIndex(tree)
    result = index.search("nothing-like-this")
    assert not result and 0 == len(result)
    text = "\n".join(result.hints)
    assert "fewer" in text and str(tree) in text and "history" in text
    assert () == index.search("JWT").hints


def test_relative_floor_keeps_top_and_drops_weak_hits():
    hits = [RankedRow(i, f"p{i}", "", "", "", s) for i, s in enumerate([10.0, 2.0, 1.5, 1.0])]
    assert [10.0, 2.0, 1.5] == [h.score for h in apply_floor(hits, 0.15, 10)]
    assert [10.0] == [h.score for h in apply_floor(hits, 0.9, 10)]
    assert 4 == len(apply_floor(hits, 0.0, 10))
    assert 2 == len(apply_floor(hits, 0.0, 2))
    assert [] == apply_floor([], 0.15, 10)


def test_over_fetch_is_capped(tree, monkeypatch):
    index = MemoryIndex(tree, score_floor=0)
    seen = []
    real = index.docs.rank

    def spy(query, backend, *, limit, **kw):
        seen.append(limit)
        return real(query, backend, limit=limit, **kw)

    monkeypatch.setattr(index.docs, "rank", spy)
    # the plain ranking (retrieval options widen their own passes: tests/search/test_rerank.py)
    index.search("x", limit=4, retrieval="off")
    index.search("x", limit=40, retrieval="off")
    index.search("x", limit=120, retrieval="off")
    assert [12, MAX_FETCH, 120] == seen
    assert len(index.search("common filler", limit=4)) == 4  # the default options still return the limit


def test_backend_from_environment(tree, monkeypatch):
    monkeypatch.setenv("MIMOMEM_BACKEND", "native-index")
    assert "native-index" == MemoryIndex(tree).search("JWT").backend
    monkeypatch.setenv("MIMOMEM_BACKEND", "bogus")
    with pytest.raises(UnknownBackendError):
        MemoryIndex(tree)


def test_hostile_queries_through_the_memory_index(tree):
    index = MemoryIndex(tree)
    for q in ['"quoted"', "wild*", "(paren)", "-not", "and", "NEAR(a b)", "body:x", "^x", "x" * 10_000, "!!!"]:
        for backend in SEARCH_BACKENDS:
            index.search(q, backend=backend)


# -- DocumentIndex ------------------------------------------------------------------------------


def test_document_index_round_trip(tmp_path):
    docs = [("a", "部署脚本用 pnpm"), ("b", "部署 和 脚本 分开"), ("c", "unrelated english text")]
    with DocumentIndex(tmp_path / "docs.db") as index:
        assert 3 == index.add_documents(iter(docs))
        assert 3 == len(index)
        for backend in ("fts5-bigram", "native-index"):
            hits = index.search("部署脚本", backend=backend)
            assert ["a", "b"] == [h.doc_id for h in hits]
            assert all(h.snippet is None for h in hits)
            assert hits[0].score > hits[1].score
            naive = index.search("部署脚本", backend=backend, segment=False, phrases=False)
            assert ["a", "b"] == [h.doc_id for h in naive]
            assert ["a"] == [h.doc_id for h in index.search("部署脚本", backend=backend, floor=0.5)]
        assert "<<部署脚本>>" in index.search("部署脚本", backend="fts5-bigram", snippets=True)[0].snippet  # type: ignore[operator]
        index.add_documents([("a", "now about redis")])
        assert ["a"] == [h.doc_id for h in index.search("redis", backend="native-index")]
        assert ["b"] == [h.doc_id for h in index.search("部署脚本", backend="native-index")]
        assert 1 == index.remove_documents(["b", "missing"])
        assert [] == index.search("部署脚本", backend="fts5-bigram")
        assert 0 == index.size_bytes("fts5-unicode61")  # never queried: not built (search/lazy_index.py)
        assert ["a"] == [h.doc_id for h in index.search("redis", backend="fts5-unicode61")]
        assert all(index.size_bytes(b) > 0 for b in SEARCH_BACKENDS)
    with DocumentIndex(tmp_path / "docs.db") as reopened:  # persisted
        assert 2 == len(reopened)


def test_document_index_validates_arguments():
    index = DocumentIndex()
    with pytest.raises(InvalidLimitError):
        index.search("x", backend="fts5-bigram", limit=0)
    with pytest.raises(UnknownBackendError):
        index.search("x", backend="bm25s")
    with pytest.raises(InvalidFloorError):
        index.search("x", backend="fts5-bigram", floor=-0.1)
    with pytest.raises(TypeError):
        index.search(b"x", backend="fts5-bigram")  # type: ignore[arg-type]
    assert [] == index.search("", backend="fts5-bigram", limit=1000)  # no upper cap; empty query: no hits


# -- CLI ------------------------------------------------------------------------------------------


def test_cli_search_json_and_text(tree, capsys):
    db = str(tree.parent / "cli.db")
    assert 0 == cli.main(["search", "postgres", "--root", str(tree), "--db", db, "--json", "--all-projects"])
    out = json.loads(capsys.readouterr().out)
    assert 1 == out["count"] and out["hits"][0]["path"].endswith("memory-db.md")
    assert out["hits"][0]["source"] == "tree" and out["hits"][0]["label"].startswith("project p2")
    assert 1 == cli.main(["search", "postgres", "--root", str(tree), "--db", db])  # another project: not by default
    assert "--all-projects" in capsys.readouterr().out
    assert 1 == cli.main(["search", "postgres", "--root", str(tree), "--db", db, "--scope", "project"])
    assert "--all-projects" in capsys.readouterr().out  # a filter narrows within this project, as without one
    wide = ["--backend", "native-index", "--scope", "project", "--all-projects"]
    assert 0 == cli.main(["search", "postgres", "--root", str(tree), "--db", db, *wide])
    text = capsys.readouterr().out
    assert "Found 1 match" in text and "--scope project" in text and "project p2 (memory-db.md), type memory" in text
    assert 1 == cli.main(["search", "nothing-here", "--root", str(tree), "--db", db])
    assert "0 results does not mean" in capsys.readouterr().out
    assert 2 == cli.main(["search", "x", "--root", str(tree), "--db", db, "--limit", "500"])
    assert "1..200" in capsys.readouterr().err


def test_cli_reconcile_and_index_stats(tree, capsys):
    db = str(tree.parent / "cli.db")
    write(tree, "global/notes.txt", "not markdown")
    assert 0 == cli.main(["reconcile", "--root", str(tree), "--db", db, "-v"])
    out = capsys.readouterr().out
    assert out.startswith("indexed 20, pruned 0") and "not Markdown" in out
    assert 0 == cli.main(["index", "stats", "--root", str(tree), "--db", db, "--json"])
    stats = json.loads(capsys.readouterr().out)
    assert 20 == stats["rows"] and 1 == stats["per_type"]["progress"]
    assert stats["tokenizers"]["fts5-bigram"].startswith("ascii tokenchars '_'; mimomem-bigram")
    assert any(s["reason"].startswith("not Markdown") for s in stats["skipped"])
    assert 0 == cli.main(["index", "stats", "--root", str(tree), "--db", db])
    assert "rows            20" in capsys.readouterr().out


def test_search_does_not_wait_long_for_another_reconciler(tree):
    import sqlite3

    index = MemoryIndex(tree, reconcile_interval=0)
    index.reconcile()
    other = sqlite3.connect(index.db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of a long reconcile
    try:
        result = index.search("JWT")
        assert ["global/MEMORY.md"] == rel(index, result)
        assert result.warnings and "another process" in result.warnings[0]
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert () == index.search("JWT").warnings


def test_bigram_and_native_agree_on_a_random_tree_across_reconciles(tmp_path):
    import random

    rng = random.Random(11)
    han = "部署脚本端口数据库配置依赖接口记忆整理缓存测试版本发布回滚日志"
    words = ["pnpm", "redis", "v1.2.3", "T5.3", "memory_fts_idx", "5433", "deploy"]

    def text() -> str:
        return " ".join(
            han[(s := rng.randrange(len(han) - 1)) : s + rng.randint(1, 5)] if rng.random() < 0.6 else rng.choice(words)
            for _ in range(rng.randint(1, 10))
        )

    root = tmp_path / "memory"
    files = [f"projects/p{i % 3}/memory-{i}.md" if i % 2 else f"sessions/s{i % 4}/note-{i}.md" for i in range(60)]
    for rel_path in files:
        write(root, rel_path, text())
    index = MemoryIndex(root, reconcile_interval=0, score_floor=0)
    queries = [text()[:8] or "部署" for _ in range(25)]

    def compare() -> int:
        seen = 0
        for q in queries:
            for filters in ({}, {"scope": "project"}, {"type": "free"}):
                a = index.search(q, backend="fts5-bigram", limit=20, **filters)  # type: ignore[arg-type]
                b = index.search(q, backend="native-index", limit=20, **filters)  # type: ignore[arg-type]
                assert [(h.path, h.snippet) for h in a] == [(h.path, h.snippet) for h in b], q
                assert [h.score for h in a] == pytest.approx([h.score for h in b], rel=1e-12)
                seen += len(a)
        return seen

    assert compare() > 50
    for rel_path in rng.sample(files, 15):  # modify, delete and add files between searches
        write(root, rel_path, text())
    for rel_path in rng.sample(files, 5):
        (root / rel_path).unlink(missing_ok=True)
    for i in range(5):
        write(root, f"global/new-{i}.md", text())
    assert compare() > 50
