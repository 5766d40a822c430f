"""The ``fts5-unicode61`` baseline is built by its first query, not by every build (search/lazy_index.py)."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

from mimomem import MemoryIndex
from mimomem.cli import main
from mimomem.search import db, lazy_index
from mimomem.search.document_index import DocumentIndex

U61 = "fts5-unicode61"
WORDS = ["deploy", "pnpm", "lockfile", "postgres", "5433", "Crème", "部署脚本", "端口", "redis", "cache"]
QUERIES = ["deploy pnpm", "postgres 5433", "creme", "部署脚本", "redis OR cache", "端口 lockfile"]


def _docs(n: int, seed: int = 0) -> list[tuple[str, str]]:
    words = len(WORDS)
    return [(f"d{i}", " ".join(WORDS[(i * 7 + k * (seed + 3)) % words] for k in range(i % 9 + 1))) for i in range(n)]


def _results(index: DocumentIndex) -> dict[str, list[tuple[str, float, str | None]]]:
    return {q: [(h.doc_id, h.score, h.snippet) for h in index.search(q, backend=U61, snippets=True)] for q in QUERIES}


def _built(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return lazy_index.is_built(conn, U61)
    finally:
        conn.close()


def _integrity(conn: sqlite3.Connection) -> None:
    for spec in lazy_index.built_indexes(conn):
        conn.execute(f"INSERT INTO {spec.table}({spec.table}) VALUES ('integrity-check')")


def test_a_build_does_not_create_the_unicode61_index(tmp_path):
    with DocumentIndex(tmp_path / "bulk.db") as index:
        index.add_documents(_docs(1500))  # a bulk load
        index.add_documents(_docs(20, seed=1))  # row by row
        assert index.search("deploy", backend="fts5-bigram")
        assert index.search("deploy", backend="native-index")
        assert 0 == index.size_bytes(U61)
        assert db.get_meta(index.connection, f"tokenizer:{U61}") is None
    assert not _built(tmp_path / "bulk.db")


def test_the_first_unicode61_search_builds_it_with_the_results_of_an_eager_build(tmp_path):
    docs = _docs(1500)
    with DocumentIndex(tmp_path / "eager.db") as eager:
        assert lazy_index.ensure_index(eager.connection, U61)  # built before the rows: as every build used to
        eager.add_documents(docs)
        expected = _results(eager)
    with DocumentIndex(tmp_path / "lazy.db") as lazy:
        lazy.add_documents(docs)
        assert not lazy_index.is_built(lazy.connection, U61)
        assert expected == _results(lazy)
        assert lazy_index.is_built(lazy.connection, U61)
        assert lazy.size_bytes(U61) > 0
        assert db.tokenizer_ids()[U61] == db.get_meta(lazy.connection, f"tokenizer:{U61}")
        _integrity(lazy.connection)
    assert all(expected.values())


def test_it_stays_current_after_later_writes(tmp_path):
    with DocumentIndex(tmp_path / "i.db") as index:
        index.add_documents(_docs(50))
        assert [] == index.search("zebra", backend=U61)  # builds it
        index.add_documents([("new", "zebra crossing"), ("d1", "giraffe only")])  # an added and a replaced document
        index.remove_documents(["d2"])
        assert ["new"] == [h.doc_id for h in index.search("zebra", backend=U61)]
        assert ["d1"] == [h.doc_id for h in index.search("giraffe", backend=U61)]
        assert "d1" not in {h.doc_id for h in index.search("deploy OR pnpm OR postgres OR redis", backend=U61)}
        assert "d2" not in {h.doc_id for h in index.search("deploy OR pnpm OR postgres OR redis", backend=U61)}
        index.add_documents([(f"b{i}", f"okapi {i}") for i in range(2000)])  # a bulk load rebuilds it too
        assert 10 == len(index.search("okapi", backend=U61, limit=10))
        _integrity(index.connection)
    with DocumentIndex(tmp_path / "i.db") as reopened:  # and a new process keeps using it
        assert ["new"] == [h.doc_id for h in reopened.search("zebra", backend=U61)]


def _writer(path: str, rounds: int) -> None:
    with DocumentIndex(path) as index:
        for r in range(rounds):
            index.add_documents([(f"w{r}-{i}", f"writer round{r} deploy") for i in range(20)])
            index.remove_documents([f"d{r}"])


def test_the_first_query_during_concurrent_writes_loses_nothing(tmp_path):
    path = tmp_path / "c.db"
    with DocumentIndex(path) as index:
        index.add_documents(_docs(1200))
    writer = multiprocessing.get_context("spawn").Process(target=_writer, args=(str(path), 40))
    writer.start()
    with DocumentIndex(path) as index:
        while writer.is_alive() and not index.search("writer", backend="fts5-bigram"):
            pass  # the writer has begun
        index.search("deploy", backend=U61)  # the first unicode61 query, while it writes
        writer.join(120)
        assert 0 == writer.exitcode
        _integrity(index.connection)
        every = index.search("deploy OR writer", backend=U61, limit=10_000)
        table = index.connection.execute("SELECT path FROM memory_fts WHERE body LIKE '%deploy%'")
        assert sorted(h.doc_id for h in every) == sorted(row[0] for row in table)
        assert 800 == sum(h.doc_id.startswith("w") for h in every)


def test_the_first_cli_search_with_the_unicode61_backend_builds_it(tmp_path, capsys):
    root = tmp_path / "data" / "memory"
    (root / "global").mkdir(parents=True)
    (root / "global" / "MEMORY.md").write_text("deploy with pnpm\n", encoding="utf-8")
    db_path = tmp_path / "m.db"
    assert 0 == main(["search", "pnpm", "--root", str(root), "--db", str(db_path)])  # the default backend
    assert not _built(db_path)
    capsys.readouterr()
    assert 0 == main(["index", "stats", "--root", str(root), "--db", str(db_path)])
    assert f"{U61:<15} not built (built by its first query)" in capsys.readouterr().out.splitlines()
    assert 0 == main(["search", "pnpm", "--root", str(root), "--db", str(db_path), "--backend", U61])
    assert "MEMORY.md" in capsys.readouterr().out
    assert _built(db_path)
    assert 0 == main(["index", "stats", "--root", str(root), "--db", str(db_path)])
    assert f"{U61:<15} {db.UNICODE61_SPEC} (" in capsys.readouterr().out
    (root / "global" / "notes.md").write_text("pnpm again, in a later file\n", encoding="utf-8")
    with MemoryIndex(root, db_path, reconcile_interval=0) as index:
        assert {"MEMORY.md", "notes.md"} == {Path(h.path).name for h in index.search("pnpm", backend=U61)}
