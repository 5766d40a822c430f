"""``native-index`` saved beside the database: reused by new processes only when it is exactly current.

A saved file is mapped back when its stamp equals the one the database recorded; then it is
caught up with any later writes.  A stale, foreign or damaged file is never used: the index
is rebuilt from the database (and saved again).  Every answer equals ``fts5-bigram``'s.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3

import pytest

from mimomem.search import db
from mimomem.search.document_index import DocumentIndex
from mimomem.search.native_index import FILE_SUFFIX, META_KEY, NativeIndex
from mimomem.search.rows import Row, put_rows
from mimomem.text import bm25_file

WORDS = ["部署", "脚本", "端口", "数据库", "配置", "依赖", "接口", "记忆", "pnpm", "lockfile", "postgres", "5433"]
WORDS += ["memory_fts_idx", "发布", "回滚", "缓存"]
QUERIES = ["部署脚本", "端口 5433", "pnpm lockfile", "数据库配置", "记忆", "缓存 回滚 发布", "不存在的词"]


@pytest.fixture(autouse=True)
def save_small_indexes(monkeypatch):
    monkeypatch.setattr(NativeIndex, "save_min_rows", 0)


def _docs(n: int, seed: int = 0, prefix: str = "d") -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(f"{prefix}{i:04d}", "".join(rng.choice(WORDS) for _ in range(rng.randint(1, 30)))) for i in range(n)]


def _answers(index: DocumentIndex, backend: str) -> list[list[tuple[str, float]]]:
    return [[(h.doc_id, h.score) for h in index.search(q, backend=backend, limit=20)] for q in QUERIES]


def _check_equal_to_fts5(index: DocumentIndex) -> None:
    assert _answers(index, "native-index") == _answers(index, "fts5-bigram")


def _native(index: DocumentIndex) -> NativeIndex:
    backend = index.backend("native-index")
    assert isinstance(backend, NativeIndex)
    return backend


def _fresh(path) -> DocumentIndex:
    """A new DocumentIndex on the same file: what a new process sees."""
    return DocumentIndex(path)


def test_the_index_is_saved_and_mapped_back_with_equal_scores(tmp_path):
    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(300))
        expected = _answers(first, "native-index")
        assert _native(first).source == "database"
    assert (tmp_path / f"c.db{FILE_SUFFIX}").is_file()
    with _fresh(path) as second:
        assert _answers(second, "native-index") == expected
        assert _native(second).source == "file"
        _check_equal_to_fts5(second)


def test_writes_after_the_save_are_caught_up(tmp_path):
    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(300))
        _native(first).load()
    with DocumentIndex(path) as writer:  # another process changes, removes and adds documents
        writer.add_documents(_docs(40, seed=1))  # same ids: replaced (new row ids)
        writer.remove_documents([f"d{i:04d}" for i in range(100, 130)])
        writer.add_documents(_docs(25, seed=2, prefix="new"))
    with _fresh(path) as second:
        _check_equal_to_fts5(second)
        assert _native(second).source == "file"
        assert len(_native(second).sync()) == 300 - 30 + 25


def test_a_file_the_database_did_not_record_is_never_used(tmp_path):
    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(200))
        _native(first).load()
    saved = tmp_path / "saved.bm25"
    shutil.copy(f"{path}{FILE_SUFFIX}", saved)
    # the cache is deleted and rebuilt with other content: the old file must not be used
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"c.db{suffix}").unlink(missing_ok=True)
    with DocumentIndex(path) as rebuilt:
        rebuilt.add_documents(_docs(200, seed=7))
        _check_equal_to_fts5(rebuilt)
        assert _native(rebuilt).source == "database"
    with _fresh(path) as later:  # and the file saved for the new content is used from then on
        _check_equal_to_fts5(later)
        assert _native(later).source == "file"
    shutil.copy(saved, f"{path}{FILE_SUFFIX}")  # a file of the same path but another database
    with _fresh(path) as foreign:
        _check_equal_to_fts5(foreign)
        assert _native(foreign).source == "database"


def test_a_restored_older_database_ignores_the_newer_file(tmp_path, monkeypatch):
    monkeypatch.setattr(NativeIndex, "resave_share", 0.0)
    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(200))
        _native(first).load()
        first.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy(path, tmp_path / "backup.db")
        first.add_documents(_docs(200, seed=3, prefix="later"))
        _native(first).load()  # caught up and saved again, with a new stamp
        newer = bm25_file.read_header(f"{path}{FILE_SUFFIX}")["stamp"]
        assert newer == json.loads(db.get_meta(first.connection, META_KEY) or "null")
        assert newer["rows"] == 400
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"c.db{suffix}").unlink(missing_ok=True)
    shutil.copy(tmp_path / "backup.db", path)  # the user restores yesterday's cache
    with _fresh(path) as restored:
        assert len(_native(restored).sync()) == 200
        assert _native(restored).source == "database"
        _check_equal_to_fts5(restored)


def test_a_new_epoch_rebuilds(tmp_path):
    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(100))
        _native(first).load()
        with db.transaction(first.connection):  # what a tokenizer change does (ensure_tokenizers)
            first.connection.execute("UPDATE meta SET value = value + 1 WHERE key IN ('epoch', 'generation')")
    with _fresh(path) as second:
        _check_equal_to_fts5(second)
        assert _native(second).source == "database"


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "stamp"])
def test_a_damaged_file_is_rebuilt_and_saved_again(tmp_path, damage):
    path = tmp_path / "c.db"
    saved = tmp_path / f"c.db{FILE_SUFFIX}"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(150))
        expected = _answers(first, "native-index")
    data = saved.read_bytes()
    if damage == "garbage":
        saved.write_bytes(random.Random(2).randbytes(len(data)))
    elif damage == "truncated":
        saved.write_bytes(data[: len(data) // 3])
    elif damage == "empty":
        saved.write_bytes(b"")
    else:  # the recorded stamp is not one this version wrote
        with DocumentIndex(path) as other, db.transaction(other.connection):
            db.set_meta(other.connection, META_KEY, "not json")
    with _fresh(path) as second:
        assert _answers(second, "native-index") == expected
        assert _native(second).source == "database"
    with _fresh(path) as third:  # the rebuilt index was saved over the damaged file
        assert _answers(third, "native-index") == expected
        assert _native(third).source == "file"


def test_saving_is_best_effort(tmp_path, monkeypatch):
    path = tmp_path / "c.db"

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bm25_file, "save_index", refuse)
    with DocumentIndex(path) as index:
        index.add_documents(_docs(100))
        _check_equal_to_fts5(index)
    assert not (tmp_path / f"c.db{FILE_SUFFIX}").exists()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = ?", (META_KEY,)).fetchone() is None


def test_filters_on_a_mapped_index(tmp_path):
    path = tmp_path / "c.db"
    rows = [
        Row(f"/m/{i}.md", ("global", "projects", "sessions")[i % 3], f"s{i % 4}", ("memory", "notes")[i % 2], t, "")
        for i, (_, t) in enumerate(_docs(240, seed=5))
    ]
    with DocumentIndex(path) as first, db.transaction(first.connection):
        put_rows(first.connection, rows)
    with DocumentIndex(path) as first:
        _native(first).load()
    with _fresh(path) as index:
        for query in QUERIES:
            parsed = index.parse(query, "native-index")
            for filters in ({"scope": "project"}, {"scope_id": "s1", "type": "notes"}, {"type": "memory"}):
                native = index.rank(parsed, "native-index", limit=15, **filters)
                assert native == index.rank(parsed, "fts5-bigram", limit=15, **filters)
        assert _native(index).source == "file"


def test_small_indexes_are_not_saved(tmp_path, monkeypatch):
    monkeypatch.setattr(NativeIndex, "save_min_rows", 1000)
    path = tmp_path / "c.db"
    with DocumentIndex(path) as index:
        index.add_documents(_docs(50))
        _check_equal_to_fts5(index)
    assert not (tmp_path / f"c.db{FILE_SUFFIX}").exists()  # built in a millisecond: not worth a file


def test_an_in_memory_database_saves_nothing(tmp_path):
    with DocumentIndex() as index:
        index.add_documents(_docs(50))
        _check_equal_to_fts5(index)
        assert _native(index).path is None


def test_a_fifo_planted_at_the_index_file_is_replaced_not_waited_on(tmp_path):
    import os
    import threading

    path = tmp_path / "c.db"
    with DocumentIndex(path) as first:
        first.add_documents(_docs(50))
        expected = _answers(first, "native-index")
    index_file = tmp_path / f"c.db{FILE_SUFFIX}"
    index_file.unlink()
    os.mkfifo(index_file)
    got: list[object] = []

    def search() -> None:
        with _fresh(path) as second:
            got.append(_answers(second, "native-index"))

    worker = threading.Thread(target=search, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "opening the planted FIFO blocked the search"
    assert got == [expected]
    assert index_file.is_file()  # saved over the FIFO
