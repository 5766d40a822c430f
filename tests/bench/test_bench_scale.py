"""Generated corpora: reproducible, prefix-stable, and timed per backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.bench.scale import MAX_DOCS, generate_corpus, generate_queries, parse_sizes, run_scale
from mimomem.errors import ScaleError


def test_parse_sizes() -> None:
    assert parse_sizes("10000,1000, 1_000") == [1000, 10000]
    for bad in ("", "ten", "0", str(MAX_DOCS + 1), ","):
        with pytest.raises(ScaleError):
            parse_sizes(bad)


def test_corpus_is_reproducible_and_prefix_stable() -> None:
    small, large = generate_corpus(20), generate_corpus(60)
    assert small == large[:20] == generate_corpus(20)
    assert generate_corpus(20, seed=1) != small
    assert len({d for d, _ in large}) == 60
    texts = "".join(t for _, t in large)
    assert sum("\u4e00" <= ch <= "\u9fff" for ch in texts) > len(texts) / 2  # mostly Chinese
    assert any(ch.isascii() and ch.isalpha() for ch in texts)  # with English material
    assert all(90 <= len(t) <= 1000 for _, t in large)


def test_queries_are_reproducible() -> None:
    queries = generate_queries(50)
    assert queries == generate_queries(50) and len(queries) == 50
    assert all(1 <= len(q.split()) <= 3 for q in queries)


def test_run_scale_records_each_backend_and_size(tmp_path: Path) -> None:
    out = run_scale([10, 30], ["fts5-bigram", "native-index"], workroot=tmp_path)
    points = out["points"]
    assert [(p["backend"], p["documents"]) for p in points] == [
        ("fts5-bigram", 10),
        ("native-index", 10),
        ("fts5-bigram", 30),
        ("native-index", 30),
    ]
    assert out["queries"] == 200
    for p in points:
        assert p["build_s"] > 0 and p["latency_ms"]["p95"] >= p["latency_ms"]["p50"] >= 0
        assert p["cpu_ms"]["p95"] >= p["cpu_ms"]["p50"] >= 0
        assert 0 < p["queries_with_hits"] <= 200
    assert points[2]["queries_with_hits"] >= points[0]["queries_with_hits"]
    assert points[1]["index_bytes"]["memory"] and points[0]["index_bytes"]["disk"]
    assert list(tmp_path.iterdir()) == []  # scratch directories removed
