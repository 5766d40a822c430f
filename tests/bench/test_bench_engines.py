"""Benchmark adapters: names, and each engine's behaviour on a four-document corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.bench.engines import (
    BENCH_BACKENDS,
    BaseEngine,
    Engine,
    available_backends,
    check_name,
    make_engine,
    mimo_query_words,
    unavailable_reason,
)
from mimomem.errors import BackendUnavailableError, UnknownBackendError

DOCS = [
    ("d1", "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容"),
    ("d2", "我们决定使用端口5433，数据库是postgres"),
    ("d3", "部署之前先跑冒烟测试，脚本放在 ops 目录"),
    ("d4", "memory_fts_idx is rebuilt by reconcile"),
]


def _build(name: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    if unavailable_reason(name) is not None:
        pytest.skip(f"{name}: {unavailable_reason(name)}")
    engine = make_engine(name, tmp_path / name)
    engine.build(DOCS)
    return engine


def test_unknown_backend_lists_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(UnknownBackendError) as info:
        make_engine("fts5-bigrams", tmp_path)
    for name in BENCH_BACKENDS:
        assert name in str(info.value)
    with pytest.raises(ValueError):
        check_name("")


def test_unavailable_backend_says_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mimomem.bench import engines

    monkeypatch.setattr(engines, "_has", lambda module: False)
    assert "pip install" in (unavailable_reason("tantivy") or "")
    assert "tantivy" not in available_backends()
    with pytest.raises(BackendUnavailableError, match="tantivy"):
        make_engine("tantivy", tmp_path)


def test_mimo_query_words() -> None:
    assert mimo_query_words("T5.3 部署脚本 FOO_bar, 端口5433!") == ["T5", "3", "部署脚本", "FOO_bar", "端口5433"]
    assert mimo_query_words("*** ()") == []


@pytest.mark.parametrize("name", BENCH_BACKENDS)
def test_every_engine_finds_a_latin_word_and_answers_empty_queries(name: str, tmp_path: Path) -> None:
    engine = _build(name, tmp_path)
    try:
        hits = engine.search("lockfile", 10)
        assert [d for d, _ in hits] == ["d1"]
        assert all(isinstance(s, float) for _, s in hits)
        assert engine.search("", 10) == []
        # FTS5 syntax in a query is text, never syntax: no error, and the word still finds its note
        assert [d for d, _ in engine.search('"lockfile" NEAR( * OR', 10)] == ["d1"]
        assert engine.search('"NEAR( *', 10) == []
        assert engine.size_bytes() is not None or engine.memory_bytes() is not None
    finally:
        engine.close()


@pytest.mark.parametrize("name", ["fts5-bigram", "native-index", "fts5-jieba", "naive-bigram", "bm25s", "tantivy"])
def test_cjk_capable_engines_find_two_character_words(name: str, tmp_path: Path) -> None:
    engine = _build(name, tmp_path)
    try:
        assert {d for d, _ in engine.search("部署", 10)} == {"d1", "d3"}
        assert [d for d, _ in engine.search("端口", 10)] == ["d2"]
        ranked = engine.search("部署脚本", 10)
        if name != "fts5-jieba":  # jieba ORs 部署 and 脚本, so d3 (both words, apart) can win
            assert ranked[0][0] == "d1"  # the exact substring ranks first
        assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    finally:
        engine.close()


@pytest.mark.parametrize("name", ["fts5-unicode61", "fts5-trigram"])
def test_fallback_engines_miss_two_character_words(name: str, tmp_path: Path) -> None:
    engine = _build(name, tmp_path)
    try:
        assert engine.search("部署", 10) == []
        assert engine.search("端口", 10) == []
    finally:
        engine.close()


def test_trigram_finds_three_characters(tmp_path: Path) -> None:
    engine = _build("fts5-trigram", tmp_path)
    try:
        assert [d for d, _ in engine.search("数据库", 10)] == ["d2"]
    finally:
        engine.close()


def test_bigram_and_native_index_rank_identically(tmp_path: Path) -> None:
    fts, native = _build("fts5-bigram", tmp_path), _build("native-index", tmp_path)
    try:
        for query in ("部署脚本", "端口 postgres", "部署 ops 目录", "memory_fts_idx"):
            a, b = fts.search(query, 10), native.search(query, 10)
            assert [d for d, _ in a] == [d for d, _ in b]
            assert [s for _, s in a] == pytest.approx([s for _, s in b], rel=1e-6)
        assert native.memory_bytes() and fts.size_bytes()
    finally:
        fts.close()
        native.close()


def test_query_tokens_show_what_each_engine_looks_up(tmp_path: Path) -> None:
    naive = _build("naive-bigram", tmp_path)
    ours = _build("fts5-bigram", tmp_path)
    mimo = _build("fts5-unicode61", tmp_path / "u")
    try:
        assert naive.query_tokens("部署脚本") == ["部署", "署脚", "脚本"]
        assert "部署 署脚 脚本" in ours.query_tokens("部署脚本")  # the exact-substring phrase
        assert mimo.query_tokens("部署 v1.2") == ["部署", "v1", "2"]
    finally:
        for engine in (naive, ours, mimo):
            engine.close()


def test_the_0_1_backend_name_is_refused(tmp_path: Path) -> None:
    assert "native-scan" not in BENCH_BACKENDS and "native-index" in BENCH_BACKENDS
    with pytest.raises(UnknownBackendError, match="valid backends"):
        check_name("native-scan")


@pytest.mark.parametrize("name", BENCH_BACKENDS)
def test_every_engine_implements_the_engine_protocol(name: str, tmp_path: Path) -> None:
    engine: Engine = _build(name, tmp_path)
    try:
        assert isinstance(engine, BaseEngine) and engine.name == name
        assert all(
            callable(getattr(engine, m))
            for m in ("build", "search", "query_tokens", "size_bytes", "memory_bytes", "close")
        )
    finally:
        engine.close()
