"""Rendering: Markdown tables, byte sizes, and the PNG charts of ``--report``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mimomem.bench.report import format_result, human_bytes, quality_chart, write_report
from mimomem.errors import BenchDependencyError


def _point(backend: str, docs: int, p50: float) -> dict:
    return {
        "backend": backend,
        "documents": docs,
        "characters": docs * 300,
        "build_s": docs / 1000,
        "latency_ms": {"p50": p50, "p95": p50 * 2},
        "cpu_ms": {"p50": p50, "p95": p50},
        "queries_with_hits": 190,
        "index_bytes": {"disk": docs * 1000, "memory": None},
        "rss_growth_bytes": None,
    }


def _result() -> dict:
    cats = {
        "two-char": {
            "queries": 2,
            "ndcg@10": 0.25,
            "recall@10": 0.5,
            "recall@100": 0.5,
            "mrr@10": 0.5,
            "zero_result_share": 0.5,
        }
    }
    backends = [
        {
            "backend": name,
            "ndcg@10": v,
            "recall@10": v,
            "recall@100": v,
            "mrr@10": v,
            "zero_result_share": 1 - v,
            "latency_ms": {"p50": 0.12, "p95": 0.5},
            "cpu_ms": {"p50": 0.1, "p95": 0.25},
            "build_s": 0.3,
            "index_bytes": {"disk": 2048, "memory": None},
            "categories": cats,
            "queries": {},
        }
        for name, v in (("fts5-unicode61", 0.2), ("fts5-bigram", 0.8))
    ]
    return {
        "schema": 1,
        "machine": {
            "python": "3.11.7",
            "sqlite": "3.40.1",
            "cpu_count": 2,
            "memory_bytes": 24 * 2**30,
            "platform": "Linux",
            "native": True,
        },
        "timing": "once",
        "backends": ["fts5-unicode61", "fts5-bigram"],
        "skipped_backends": {"tantivy": "not installed"},
        "datasets": [
            {
                "name": "mem",
                "path": "x",
                "documents": 10,
                "queries": 2,
                "categories": ["two-char"],
                "judged_documents_missing": 0,
                "backends": backends,
            }
        ],
        "failures": {
            "source": "c",
            "all_as_expected": True,
            "rows": [
                {
                    "row": 1,
                    "document": "部署脚本用 pnpm",
                    "query": "部署",
                    "expected": {"unicode61": 0, "trigram": 0, "bigram": 1},
                    "hits": {"fts5-bigram": 1, "fts5-unicode61": 0},
                    "as_expected": {"fts5-unicode61": True, "fts5-bigram": True},
                }
            ],
        },
        "scale": {
            "seed": 1,
            "query_seed": 7,
            "queries": 200,
            "points": [
                _point(b, n, p) for b in ("fts5-bigram", "fts5-unicode61") for n, p in ((1000, 0.1), (10000, 0.4))
            ],
        },
    }


def test_human_bytes() -> None:
    assert human_bytes(None) == "-"
    assert human_bytes(512) == "512 B"
    assert human_bytes(1536) == "1.5 KiB"
    assert human_bytes(3 * 2**30) == "3.0 GiB"
    assert human_bytes(-(2**20)) == "-1.0 MiB"  # RSS can shrink


def test_format_result_has_every_table() -> None:
    text = format_result(_result())
    header = "| backend | nDCG@10 | Recall@10 | Recall@100 | MRR@10 | zero-result | p50 ms | p95 ms | p95 CPU ms |"
    assert header + " build s | disk | memory |" in text
    assert "| fts5-bigram | 0.800 | 0.800 | 0.800 | 0.800 | 20.0% | 0.12 | 0.50 | 0.25 | 0.30 | 2.0 KiB | - |" in text
    assert "| backend | two-char (2) |" not in text  # one category: no per-category table
    two = _result()
    two["datasets"][0]["categories"].append("long")
    for b in two["datasets"][0]["backends"]:
        b["categories"]["long"] = b["categories"]["two-char"]
    assert "| backend | two-char (2) | long (2) |" in format_result(two)
    assert "| 1 | 部署脚本用 pnpm | 部署 | 0 | 1 | 0 / 0 / 1 | yes |" in text
    assert "| fts5-bigram | 10,000 |" in text
    # table order is BENCH_BACKENDS order even after a JSON round trip sorted the keys
    assert text.index("| fts5-unicode61 | 1,000 |") < text.index("| fts5-bigram | 1,000 |")
    assert "| # | document | query | fts5-unicode61 | fts5-bigram |" in text
    assert "SQLite 3.40.1" in text and "Skipped: tantivy (not installed)" in text


def test_write_report_writes_markdown_and_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = _result()
    result["datasets"][0]["categories"].append("long")
    for b in result["datasets"][0]["backends"]:
        b["categories"]["long"] = b["categories"]["two-char"]
    paths = write_report(result, tmp_path / "rep")
    assert [p.name for p in paths] == ["report.md", "quality.png", "scaling.png", "categories-mem.png"]
    for png in paths[1:]:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![scaling](scaling.png)" in paths[0].read_text(encoding="utf-8")


def test_report_without_matplotlib_writes_the_tables_and_says_how_to_get_charts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run with --report and no matplotlib was thrown away (exit 2, empty DIR) -> the tables, and how to chart."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    paths = write_report(_result(), tmp_path / "rep")
    assert [p.name for p in paths] == ["report.md"] and sorted(p.name for p in (tmp_path / "rep").iterdir()) == [
        "report.md"
    ]
    text = paths[0].read_text(encoding="utf-8")
    assert "| backend |" in text and "pip install 'mimomem[bench]'" in text
    with pytest.raises(BenchDependencyError, match=r"mimomem\[bench\]"):  # a chart asked for directly
        quality_chart(_result(), tmp_path / "q.png")
