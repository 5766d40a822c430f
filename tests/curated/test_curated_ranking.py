"""Recall ranking: bm25 x scope x decay x rehearsal, and the top k is exact."""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from mimomem import BM25Index, CuratedMemory
from mimomem.text.query import parse_query

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


class Clock:
    """A settable clock for the store's ``now``."""

    def __init__(self, t: dt.datetime = NOW) -> None:
        self.t = t

    def __call__(self) -> dt.datetime:
        return self.t


def test_recall_returns_full_text_and_why(store: CuratedMemory) -> None:
    store.remember("facts", "数据库端口是 5433", "生产数据库 postgres 端口改为 5433。", author="user")
    store.remember("facts", "Tokenizer uses bigrams", "CJK runs become bigrams.", author="user")
    (r,) = store.recall("数据库端口", limit=1)
    assert "facts/数据库端口是-5433" == r.id
    assert "生产数据库 postgres 端口改为 5433。" == r.memory.body
    assert ("数据库端口",) == r.matched_terms  # its bigrams are not listed again
    assert r.score == pytest.approx(r.bm25 * r.scope_prior * r.decay * r.rehearsal)
    assert (1.0, 1.0, 1.0, 0) == (r.scope_prior, r.decay, r.rehearsal, r.hits)
    assert "bm25" in r.why() and "rehearsal" in r.why()


def test_bm25_base_equals_the_core_index(store: CuratedMemory) -> None:
    texts = {"alpha": "redis cache eviction policy", "beta": "redis cluster failover", "gamma": "postgres vacuum"}
    for slug, summary in texts.items():
        store.remember("facts", summary, "", author="user", slug=slug)
    index = BM25Index()
    for slug, summary in texts.items():
        index.add_text(slug, f"{summary}\n\n")
    expected = {h.doc_id: h.score for h in index.search(parse_query("redis failover", segment=True), 10)}
    got = {r.memory.slug: r.bm25 for r in store.recall("redis failover", limit=10, count_hits=False)}
    assert expected == got


def test_scope_prior_halves_global(tmp_path: Path) -> None:
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW)
    s.remember("facts", "lockfile is pnpm-lock.yaml", "", author="user", slug="lock-p")
    s.remember("facts", "lockfile is pnpm-lock.yaml", "", author="user", slug="lock-g", scope="global")
    p, g = s.recall("lockfile", limit=2, count_hits=False)
    assert ("lock-p", "project", "lock-g", "global") == (p.memory.slug, p.memory.scope, g.memory.slug, g.memory.scope)
    assert (1.0, 0.5) == (p.scope_prior, g.scope_prior)
    assert g.score == pytest.approx(p.score / 2)


def test_time_decay_half_life_and_pinned(tmp_path: Path) -> None:
    clock = Clock(NOW - dt.timedelta(days=28))
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=clock, half_life_days=14)
    s.remember("facts", "old note about vite config", "", author="user", slug="old")
    s.remember("facts", "pinned note about vite config", "", author="user", slug="pinned", pinned=True)
    clock.t = NOW
    s.remember("facts", "new note about vite config", "", author="user", slug="new")
    by = {r.memory.slug: r for r in s.recall("vite", limit=3, count_hits=False)}
    assert by["old"].decay == pytest.approx(0.25)
    assert 1.0 == by["pinned"].decay == by["new"].decay
    no_decay = CuratedMemory(tmp_path / "p", tmp_path / "g", now=NOW, half_life_days=0)
    assert {1.0} == {r.decay for r in no_decay.recall("vite", limit=3, count_hits=False)}


def test_rehearsal_grows_with_hits_and_is_bounded() -> None:
    values = [CuratedMemory.rehearsal(h) for h in range(0, 200)]
    assert 1.0 == values[0]
    assert values[1] == pytest.approx(1.1)
    assert values == sorted(values)
    assert 1.5 == values[31] == values[199]


def _brute_force(store: CuratedMemory, query: str, k: int) -> list[tuple[str, float]]:
    """The same formula over every memory, without the batched candidate fetch."""
    parsed = parse_query(query, segment=True)
    index = BM25Index()
    memories = {}
    for m in store.memories():
        if m.superseded_by or m.kind == "rule-proposal":
            continue
        key = f"{m.scope}:{m.id}"
        memories[key] = m
        index.add_text(key, m.text)
    hits = {scope: root.read_hits() for scope, root in store._roots.items()}
    scored = []
    for key, base in index.search(parsed, len(memories)):  # type: ignore[assignment]
        m = memories[key]
        mult = {"project": 1.0, "global": 0.5}[m.scope] * store._decay(m, store.now())
        mult *= CuratedMemory.rehearsal(hits[m.scope].get(m.id, 0))
        scored.append((base * mult, m.scope != "project", m.id))
    scored.sort(key=lambda s: (-s[0], s[1], s[2]))
    return [(i, s) for s, _, i in scored[:k]]


def test_top_k_is_exact_against_a_full_scan(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = [
        "redis",
        "cache",
        "port",
        "deploy",
        "vite",
        "config",
        "lockfile",
        "tokenizer",
        "bigram",
        "数据库",
        "端口",
        "部署",
        "脚本",
        "缓存",
        "测试",
    ]
    clock = Clock()
    s = CuratedMemory(tmp_path / "p", tmp_path / "g", now=clock, half_life_days=3)
    items = {"project": [], "global": []}  # type: ignore[var-annotated]
    for i in range(400):
        summary = " ".join(rng.choice(words) for _ in range(rng.randint(2, 6))) + f" n{i}"
        items[rng.choice(["project", "global"])].append(
            {
                "category": "facts",
                "summary": summary,
                "body": f"item {i}",
                "slug": f"m{i}",
                "pinned": rng.random() < 0.05,
            }
        )
    for scope, batch in items.items():
        # spread the ages over 0..60 days so decay reorders the BM25 ranking strongly
        for item in batch:
            clock.t = NOW - dt.timedelta(days=rng.uniform(0, 60))
            assert [] == s.remember_many([item], author="user", scope=scope).refused
    clock.t = NOW
    for _ in range(30):  # give some memories hits
        s.recall(rng.choice(words), limit=3)
    fell_outside_first_batch = 0
    for query in ["redis 端口", "deploy", "数据库 部署 脚本", "vite config lockfile", "缓存", "n17 bigram"]:
        for k in (1, 4, 10):
            got = [(r.id, r.score) for r in s.recall(query, limit=k, count_hits=False)]
            want = _brute_force(s, query, k)
            assert [i for i, _ in want] == [i for i, _ in got]
            assert [sc for _, sc in want] == pytest.approx([sc for _, sc in got])
        first_batch = max(8 * 10, 64)  # what recall(limit=10) fetches first
        base_rank = [h.doc_id for h in s._ranking.index.search(parse_query(query, segment=True), first_batch)]  # type: ignore[union-attr]
        fell_outside_first_batch += sum(
            f"{m_scope}:{i}" not in base_rank
            for i, m_scope in [(r.id, r.memory.scope) for r in s.recall(query, limit=10, count_hits=False)]
        )
    assert fell_outside_first_batch > 0  # the growing fetch was needed for exactness


@pytest.mark.parametrize(
    "query", ['"; DROP TABLE x; --', "foo* AND bar OR NEAR(a b)", "\udcff\udcfe", "", "   ", "的的的"]
)
def test_hostile_queries_do_not_crash(store: CuratedMemory, query: str) -> None:
    store.remember("facts", "drop table notes", "sql injection words", author="user")
    assert all(r.id == "facts/drop-table-notes" for r in store.recall(query))


@pytest.mark.native
def test_pure_and_native_cores_recall_identically(
    store: CuratedMemory, monkeypatch: pytest.MonkeyPatch, native_implementation: object
) -> None:
    import mimomem.text.bm25 as bm25_module
    from mimomem.text._bm25_py import BM25Core as PureCore

    rng = random.Random(11)
    words = ["端口", "数据库", "部署", "redis", "cache", "vite", "配置", "脚本", "lockfile", "测试", "bigram"]
    store.remember_many(
        [
            {"category": "facts", "summary": " ".join(rng.sample(words, 4)) + f" {i}", "slug": f"s{i}"}
            for i in range(200)
        ],
        author="user",
    )
    native = [[(r.id, r.score) for r in store.recall(q, limit=6, count_hits=False)] for q in words]
    monkeypatch.setattr(bm25_module, "BM25Core", PureCore)
    store.reload()
    pure = [[(r.id, r.score) for r in store.recall(q, limit=6, count_hits=False)] for q in words]
    assert native == pure
