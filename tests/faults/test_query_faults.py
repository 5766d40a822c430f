"""Regression tests for the pathological-query faults of the hardening issue.

Each test's docstring reads "what the user saw -> what happens now".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.bench.scale import generate_corpus
from mimomem.search.document_index import DocumentIndex
from mimomem.search.index import MemoryIndex
from mimomem.search.params import SEARCH_BACKENDS
from mimomem.text.query import MAX_QUERY_CHARS, MAX_TERMS, parse_query

CONNECTED = ("a1." * 33334)[:100_000]
MIXED = ("部署 pnpm-lock.yaml v1.2.3 端口5433 数据库 memory_fts_idx Crème config deploy build " * 2000)[:100_000]
CJK = ("部署脚本用而不是端口数据库" * 8000)[:100_000]
WORDS = " ".join(f"w{i}" for i in range(20_000))[:100_000]
PATHOLOGICAL = {"connected": CONNECTED, "mixed": MIXED, "cjk": CJK, "words": WORDS}


def test_fault_long_connector_query_parses_fast():
    """A 100,000-character 'a1.a1.…' query took 18 s to parse -> only its first MAX_QUERY_CHARS are read.

    No timing assertion (the machine is shared): the bound is on the work, which is what made it slow."""
    query = parse_query(CONNECTED)
    assert query.truncated and 0 < len(query.terms) <= MAX_TERMS
    assert all(t.source in CONNECTED[:MAX_QUERY_CHARS] for t in query.terms)


@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_fault_every_long_query_is_cut_to_the_documented_caps(name):
    """Huge queries produced up to 100,000-token phrases -> at most MAX_TERMS terms from MAX_QUERY_CHARS characters."""
    query = parse_query(PATHOLOGICAL[name])
    assert query.truncated
    assert len(query.terms) <= MAX_TERMS
    assert sum(len(t.tokens) for t in query.terms) <= 2 * MAX_QUERY_CHARS
    assert all(t.source in PATHOLOGICAL[name][:MAX_QUERY_CHARS] for t in query.terms)


def test_fault_normal_queries_are_not_truncated():
    """(unchanged) ordinary queries keep every term and are not marked truncated."""
    for text in ("部署脚本 pnpm lockfile", "v1.2.3 T5.3 端口5433", "x " * 40, "设计 " * 300):
        query = parse_query(text)
        assert not query.truncated
    assert ("lockfile",) in parse_query("lockfile lockfile lockfile").phrases()
    assert 1 == len(parse_query("lockfile lockfile lockfile").terms)


def test_fault_repeated_terms_do_not_use_up_the_cap():
    """A query repeating one word thousands of times -> one term (de-duplicated before the cap)."""
    query = parse_query("lockfile " * 200 + "端口")
    assert [("lockfile",), ("端口",)] == query.phrases()
    assert not query.truncated


@pytest.fixture(scope="module")
def docs() -> DocumentIndex:  # type: ignore[misc]
    index = DocumentIndex()
    index.add_documents(generate_corpus(2000))
    yield index
    index.close()


@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
@pytest.mark.parametrize("name", sorted(PATHOLOGICAL))
def test_fault_pathological_queries_answer_well_under_a_second(docs, backend, name):
    """A 100k mixed query took 45-76 s on fts5-unicode61 -> every backend evaluates a capped query.

    The bound is on the work each backend is given (at most MAX_TERMS terms, marked truncated),
    not a timing assertion on a shared machine; the search itself must still answer."""
    query = docs.parse(PATHOLOGICAL[name], backend)
    assert query.truncated
    if backend == "fts5-unicode61":  # MiMo's builder: the raw text's first distinct words
        assert 0 < len(query.text.split()) <= MAX_TERMS and len(query.text) <= MAX_QUERY_CHARS
    else:
        assert 0 < len(query.terms) <= MAX_TERMS
    hits = docs.search(PATHOLOGICAL[name], backend=backend, limit=10, snippets=True)
    assert len(hits) <= 10


def test_fault_unicode61_query_keeps_mimo_words_until_the_cap(docs):
    """(unchanged below the cap) fts5-unicode61 sees the user's text; above it, the first distinct words."""
    short = "部署 pnpm pnpm lockfile"
    assert short == docs.parse(short, "fts5-unicode61").text
    assert not docs.parse(short, "fts5-unicode61").truncated
    long = docs.parse(MIXED, "fts5-unicode61")
    assert long.truncated and len(long.text.split()) <= MAX_TERMS
    assert len(set(long.text.split())) == len(long.text.split())


def test_fault_truncation_is_said_in_the_result(tmp_path: Path):
    """A cut query gave no sign of it -> MemoryIndex results carry a hint that the query was truncated."""
    root = tmp_path / "data" / "memory"
    (root / "global").mkdir(parents=True)
    (root / "global" / "MEMORY.md").write_text("a1 pnpm lockfile\n", encoding="utf-8")
    with MemoryIndex(root) as index:
        cut = index.search(CONNECTED)
        assert any("truncated" in hint for hint in cut.hints)
        normal = index.search("lockfile")
        assert normal and not any("truncated" in hint for hint in normal.hints)
