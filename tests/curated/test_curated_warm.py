"""After ``remember_many``: a new process opens and recalls from the caches, and a hand edit is never taken for ours."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mimomem import CuratedMemory
from mimomem.curated import recall_cache, roots, snapshot

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
WORDS = ["redis", "cache", "port", "deploy", "vite", "config", "lockfile", "端口", "部署", "脚本"]

pytestmark = pytest.mark.usefixtures("cache")  # tests/curated/conftest.py


def _items(count: int) -> list[dict[str, Any]]:
    out = []
    for i in range(count):
        words = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(3))
        out.append({"category": "facts", "summary": f"note {i} {words}", "body": f"{words} body {i}"})
    later = {"category": "facts", "summary": "later one", "body": "x", "supersedes": "facts/note-1-deploy-vite-config"}
    out.append(later)
    return out


def _store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


class Reads:
    """Counts memory files read and parsed, and recall indexes built from every memory."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.files = self.builds = 0
        read, fresh = roots.CuratedRoot._read_memory_file, recall_cache.fresh_ranking

        def counted_read(root: Any, path: Path, memory_id: str) -> Any:
            self.files += 1
            return read(root, path, memory_id)

        def counted_fresh(*args: Any, **kwargs: Any) -> Any:
            self.builds += 1
            return fresh(*args, **kwargs)

        monkeypatch.setattr(roots.CuratedRoot, "_read_memory_file", counted_read)
        monkeypatch.setattr(recall_cache, "fresh_ranking", counted_fresh)


def _everything(store: CuratedMemory) -> tuple[list[Any], list[Any]]:
    memories = [tuple(m) for m in store.memories()]
    ranked = [(r.memory.id, r.score) for r in store.recall("deploy 端口 redis", limit=50, count_hits=False)]
    return memories, ranked


def _from_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    with monkeypatch.context() as patch:
        patch.setattr(snapshot, "MIN_FILES", 10**9)
        patch.setattr(snapshot.RootSnapshot, "lookup", lambda self, name, key: None)
        return _everything(_store(tmp_path))


def test_a_new_process_after_remember_many_reads_no_memory_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert not _store(tmp_path).remember_many(_items(60), author="user").refused
    reads = Reads(monkeypatch)
    store = _store(tmp_path)
    assert store.recall("deploy 端口", count_hits=False)
    assert reads.builds == 0 and reads.files <= 4  # recall reads its hits' files, nothing else
    warm = _everything(store)
    assert reads.builds == 0 and reads.files <= 4  # listing every memory came from the snapshot too
    assert warm == _from_files(tmp_path, monkeypatch)


def test_a_hand_edit_during_the_batch_is_read_from_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = _items(60)
    edited = tmp_path / "proj" / ".memory" / "facts" / "note-0-redis-cache-port.md"

    def with_an_edit() -> Iterator[dict[str, Any]]:
        for n, item in enumerate(items):
            yield item
            if n == 30:  # the user fixes a memory the batch wrote, same size, while the batch goes on
                text = edited.read_text(encoding="utf-8")
                edited.write_text(text.replace("note 0 redis", "NOTE 0 REDIS"), encoding="utf-8")

    store = _store(tmp_path)
    assert not store.remember_many(with_an_edit(), author="user").refused
    fresh = _store(tmp_path)
    assert fresh.get("facts/note-0-redis-cache-port").summary.startswith("NOTE 0 REDIS")
    assert _everything(fresh) == _from_files(tmp_path, monkeypatch)
    assert _everything(store) == _from_files(tmp_path, monkeypatch)  # the writer's own view caught up too
