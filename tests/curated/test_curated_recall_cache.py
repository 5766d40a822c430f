"""The persisted recall index: a new process gets exactly the ranking a full read gives, and never a stale one."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated import recall_cache, snapshot

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
QUERIES = ["部署 端口", "redis cache", "deploy script", "ruff", "vite config 端口", "lockfile"]
WORDS = ["redis", "cache", "port", "deploy", "vite", "config", "lockfile", "端口", "部署", "脚本"]


pytestmark = pytest.mark.usefixtures("cache")  # tests/curated/conftest.py


def _store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _fill(tmp_path: Path) -> None:
    clock = [NOW - dt.timedelta(days=30)]
    store = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=lambda: clock[0])
    for scope, count in (("project", 24), ("global", 12)):
        items = []
        for i in range(count):
            words = " ".join(WORDS[(i * 3 + k) % len(WORDS)] for k in range(3))
            items.append({"category": "facts", "summary": f"{scope} note {i} {words}", "body": f"{words} {i}"})
        items.append({"category": "rules", "summary": f"always run ruff {scope}", "pinned": True, "slug": "ruff"})  # type: ignore[dict-item]
        clock[0] += dt.timedelta(days=5)
        assert not store.remember_many(items, author="user", scope=scope).refused
    old = "facts/project-note-1-deploy-vite-config"
    store.remember("facts", "redis cache port 6380", author="user", supersedes=old)
    store.remember("facts", "shared deploy 部署 port", author="user", scope="global", slug="shared")
    store.remember("facts", "project deploy 部署 port override", author="user", slug="shared")  # shadows global
    store.recall("deploy 端口")  # some hit counts


def _view(tmp_path: Path) -> list[tuple[object, ...]]:
    """Every query's full ranking, with every factor and the memory itself, from a new store."""
    store = _store(tmp_path)
    out: list[tuple[object, ...]] = []
    for query in QUERIES:
        for r in store.recall(query, limit=100, count_hits=False):
            factors = (r.score, r.bm25, r.scope_prior, r.decay, r.rehearsal, r.hits, r.matched_terms)
            out.append((query, r.memory.scope, *factors, tuple(r.memory)))
    return out


def _reference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """What reading every file gives (no snapshot, no saved index)."""
    with monkeypatch.context() as patch:
        patch.setattr(snapshot, "MIN_FILES", 10**9)
        patch.setattr(snapshot.RootSnapshot, "lookup", lambda self, name, key: None)
        return _view(tmp_path)


class Builds:
    """Counts the index builds from every file (as opposed to loads of the saved index)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = recall_cache.fresh_ranking

        def counted(*args: object, **kwargs: object) -> object:
            self.count += 1
            return original(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(recall_cache, "fresh_ranking", counted)


def test_cold_warm_and_full_read_rank_identically(tmp_path, monkeypatch, cache):
    _fill(tmp_path)
    for saved in (cache / "curated").glob("*.recall-*"):
        saved.unlink()  # remember_many saved one (curated.warm): start cold
    builds = Builds(monkeypatch)
    cold = _view(tmp_path)  # builds the index and saves it
    assert builds.count == 1 and list((cache / "curated").glob("*.recall-*.bm25"))
    warm = _view(tmp_path)
    assert builds.count == 1  # loaded, not built
    assert len(cold) > 20
    assert cold == warm == _reference(tmp_path, monkeypatch)


def test_a_generated_store_ranks_from_the_caches_as_from_a_full_read_parsing_nothing(tmp_path, monkeypatch):
    """300 memories of random words, 30 random queries: a new store after ``remember_many`` (saved
    snapshot and index) gives every ranking, factor and memory a full read gives, and parses no file."""
    import random

    from mimomem.common import frontmatter

    rng = random.Random(23)
    vocabulary = [*WORDS, "nginx", "kafka", "pytest", "迁移", "监控", "日志", "缓存", "构建", "鉴权", "队列"]
    store = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW - dt.timedelta(days=3))
    items = [
        {
            "category": rng.choice(["facts", "decisions", "pitfalls", "rules"]),
            "summary": f"note {i} " + " ".join(rng.sample(vocabulary, 3)),
            "body": " ".join(rng.choices(vocabulary, k=rng.randint(3, 12))),
            "pinned": rng.random() < 0.05,
        }
        for i in range(300)
    ]
    assert not store.remember_many(items, author="user").refused
    queries = [" ".join(rng.sample(vocabulary, rng.randint(1, 3))) for _ in range(30)]
    monkeypatch.setattr(sys.modules[__name__], "QUERIES", queries)
    parsed = []
    real_parse = frontmatter.parse
    monkeypatch.setattr(frontmatter, "parse", lambda text: parsed.append(text) or real_parse(text))  # type: ignore[func-returns-value]
    warm = _view(tmp_path)
    assert parsed == []  # hits came from the snapshot, the index from the saved one
    assert len(warm) > 100
    assert warm == _reference(tmp_path, monkeypatch)


def test_a_warm_recall_reads_only_its_hits(tmp_path, monkeypatch):
    _fill(tmp_path)
    _view(tmp_path)
    store = _store(tmp_path)
    results = store.recall("redis cache", limit=3, count_hits=False)
    assert len(results) == 3
    assert not any(root.materialized for root in store._roots.values())
    assert [r.memory.path.read_text(encoding="utf-8") for r in results]  # real paths of real files


def _edit_in_place(root: Path) -> None:
    path = root / "facts" / "project-note-4-port-deploy-vite.md"
    text = path.read_text(encoding="utf-8")
    before = os.stat(path)
    new = text.replace("port deploy vite 4", "lockfile ruff xx 4")
    assert len(new) == len(text) and new != text
    with open(path, "r+", encoding="utf-8") as handle:  # same size, same inode, mtime put back
        handle.write(new)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _create(root: Path) -> None:
    (root / "facts" / "hand-made.md").write_text(
        "---\nsummary: hand made redis cache note\nupdated: 2026-11-29T00:00:00Z\n---\nvite config 端口\n", "utf-8"
    )


def _delete(root: Path) -> None:
    (root / "facts" / "project-note-8-vite-config-lockfile.md").unlink()


def _rename(root: Path) -> None:
    os.rename(root / "facts" / "project-note-2-lockfile-端口-部署.md", root / "facts" / "renamed-note.md")


def _shadow(root: Path) -> None:  # a hand-made project file with a global memory's id
    (root / "facts" / "global-note-0-redis-cache-port.md").write_text(
        "---\nsummary: project side of the redis cache port\n---\nbody\n", encoding="utf-8"
    )


@pytest.mark.parametrize("edit", [_edit_in_place, _create, _delete, _rename, _shadow])
@pytest.mark.parametrize("persisted", [True, False])
def test_every_hand_change_is_seen_by_the_next_open(tmp_path, monkeypatch, edit, persisted):
    if not persisted:
        monkeypatch.setattr(snapshot, "MIN_FILES", 10**9)
    _fill(tmp_path)
    before = _view(tmp_path)
    builds = Builds(monkeypatch)
    edit(tmp_path / "proj" / ".memory")
    after = _view(tmp_path)
    assert builds.count == (0 if persisted else 1)  # the saved index was caught up, not rebuilt
    assert after != before
    assert after == _reference(tmp_path, monkeypatch)
    assert _view(tmp_path) == after


def test_many_changes_rebuild_and_a_global_change_is_caught_up(tmp_path, monkeypatch):
    _fill(tmp_path)
    _view(tmp_path)
    glob = tmp_path / "global"
    path = glob / "facts" / "global-note-1-deploy-vite-config.md"
    path.write_text(path.read_text(encoding="utf-8").replace("summary: ", "summary: ruff ruff "), "utf-8")
    (glob / "facts" / "shared.md").unlink()
    assert _view(tmp_path) == _reference(tmp_path, monkeypatch)
    monkeypatch.setattr(recall_cache, "MAX_CATCH_UP", 0)
    _rename(tmp_path / "proj" / ".memory")
    builds = Builds(monkeypatch)
    rebuilt = _view(tmp_path)
    assert builds.count == 1
    assert rebuilt == _reference(tmp_path, monkeypatch)


@pytest.mark.parametrize("damage", ["garbage", "truncate", "swap", "delete"])
def test_a_damaged_cache_is_rebuilt_silently(tmp_path, monkeypatch, cache, damage):
    _fill(tmp_path)
    good = _view(tmp_path)
    (bm25,) = (cache / "curated").glob("*.recall-*.bm25")
    info = bm25.with_suffix(".info")
    if damage == "garbage":
        bm25.write_bytes(b"not an index")
        info.write_bytes(b"\x00\x01garbage")
    elif damage == "truncate":
        bm25.write_bytes(bm25.read_bytes()[:100])
    elif damage == "swap":  # an index saved for other files: its token does not match
        other = bm25.read_bytes()
        _create(tmp_path / "proj" / ".memory")
        _view(tmp_path)
        bm25.write_bytes(other)
        (tmp_path / "proj" / ".memory" / "facts" / "hand-made.md").unlink()
    else:
        bm25.unlink()
    builds = Builds(monkeypatch)
    assert _view(tmp_path) == good
    assert builds.count == 1


@pytest.mark.parametrize("shape", ["short", "types"])
def test_a_cache_with_the_right_identity_but_wrong_contents_is_rebuilt(tmp_path, cache, shape):
    import marshal

    _fill(tmp_path)
    good = _view(tmp_path)
    (info,) = (cache / "curated").glob("*.recall-*.info")
    data = list(marshal.loads(info.read_bytes()))
    bad = ("x",) if shape == "short" else (None, None, "prior", "ts", "pinned", None)
    data[4] = {key: bad for key in data[4]}  # the per-memory ranking data
    info.write_bytes(marshal.dumps(tuple(data)))
    assert _view(tmp_path) == good
    assert marshal.loads(info.read_bytes())[4] != {key: bad for key in data[4]}  # saved again, repaired


def test_a_hit_changed_after_the_scan_is_read_again(tmp_path, monkeypatch):
    _fill(tmp_path)
    _view(tmp_path)
    top = _store(tmp_path).recall("lockfile", limit=1, count_hits=False)[0]
    store = _store(tmp_path)
    assert store.recall("redis cache", limit=1, count_hits=False)[0].memory.id != top.memory.id  # scanned
    text = top.memory.path.read_text(encoding="utf-8")
    top.memory.path.write_text(text.replace("lockfile", "nothing"), encoding="utf-8")  # no directory changes
    again = [(r.memory.id, r.score, r.memory.body) for r in store.recall("lockfile", limit=100, count_hits=False)]
    fresh = _store(tmp_path).recall("lockfile", limit=100, count_hits=False)
    assert again == [(r.memory.id, r.score, r.memory.body) for r in fresh]
    assert (top.memory.id, top.score) not in [(i, s) for i, s, _ in again]
    assert store._roots["project"].materialized  # everything was read again


def test_writes_in_this_process_then_a_new_process(tmp_path, monkeypatch):
    _fill(tmp_path)
    _view(tmp_path)
    store = _store(tmp_path)
    store.recall("redis", count_hits=False)  # the index comes from the cache
    store.remember("facts", "brand new redis cache fact", author="user")
    store.forget("facts/project-note-4-port-deploy-vite")
    mine = [(r.memory.id, r.score) for r in store.recall("redis cache port", limit=50, count_hits=False)]
    assert "facts/brand-new-redis-cache-fact" in [i for i, _ in mine]
    fresh = [(r.memory.id, r.score) for r in _store(tmp_path).recall("redis cache port", limit=50, count_hits=False)]
    assert fresh == mine
    assert store.hard_rules() == _store(tmp_path).hard_rules()


def test_a_re_read_after_a_stale_hit_ranks_with_the_new_files_bound(tmp_path):
    """A hit changed since the scan makes recall read every file again; a memory pinned meanwhile must
    then rank as in a new process, not be cut off by the old index's bound on the multipliers."""
    old = CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW - dt.timedelta(days=300))
    items = [{"category": "facts", "summary": f"redis note {i}", "body": "redis " + "word " * i} for i in range(100)]
    items.append({"category": "facts", "summary": "lockfile policy"})
    assert not old.remember_many(items, author="user").refused
    top = _store(tmp_path).recall("redis", limit=1, count_hits=False)[0].memory  # saves the recall cache
    store = _store(tmp_path)
    assert store.recall("lockfile", limit=1, count_hits=False)[0].memory.id != top.id  # scanned, not read
    top.path.write_text(top.path.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # in place: no rescan
    last = tmp_path / "proj" / ".memory" / "facts" / "redis-note-99.md"
    last.write_text(last.read_text(encoding="utf-8").replace("pinned: false", "pinned: true"), encoding="utf-8")
    again = [(r.memory.id, r.score) for r in store.recall("redis", limit=1, count_hits=False)]
    assert store._roots["project"].materialized  # the stale hit made it read everything again
    fresh = [(r.memory.id, r.score) for r in _store(tmp_path).recall("redis", limit=1, count_hits=False)]
    assert fresh[0][0] == "facts/redis-note-99"
    assert again == fresh


def test_a_tokenizer_change_rebuilds_the_saved_index(tmp_path, monkeypatch):
    """The saved index holds tokens: after an upgrade whose tokens differ (``TOKENIZER_VERSION``
    bumped) it must not be used, as the search index is not."""
    from mimomem.text import tokens

    _fill(tmp_path)
    _view(tmp_path)
    builds = Builds(monkeypatch)
    monkeypatch.setattr(tokens, "TOKENIZER_VERSION", tokens.TOKENIZER_VERSION + 1)
    _view(tmp_path)
    assert builds.count == 1


def test_fifos_planted_at_the_cache_files_are_not_waited_on(tmp_path, cache):
    import threading

    _fill(tmp_path)
    good = _view(tmp_path)
    planted = [*(cache / "curated").glob("*.info"), *(cache / "curated").glob("*.snapshot")]
    assert planted
    for path in planted:
        path.unlink()
        os.mkfifo(path)
    got: list[object] = []
    worker = threading.Thread(target=lambda: got.append(_view(tmp_path)), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "opening a planted FIFO blocked recall"
    assert got == [good]
