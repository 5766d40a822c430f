"""Native twin == pure reference, under hypothesis.

The tokenizer must give the same tokens *and offsets* on any surrogate-free Unicode; the
BM25 core must give the same ids, order and (bit-identical) scores after any sequence of
adds, replacements and removes.  Skipped when the native twin is unavailable.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.native


def _ranges(*pairs: tuple[int, int]) -> st.SearchStrategy[str]:
    return st.one_of(*(st.integers(lo, hi).map(chr) for lo, hi in pairs))


HAN = _ranges((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0xF900, 0xFAFF))
KANA = _ranges((0x3040, 0x309F), (0x30A0, 0x30FF), (0xFF61, 0xFF9F), (0x31F0, 0x31FF))
HANGUL = _ranges((0xAC00, 0xD7A3), (0x1100, 0x11FF), (0x3130, 0x318F), (0xFFA0, 0xFFDC))
LATIN = _ranges((0x41, 0x5A), (0x61, 0x7A), (0xC0, 0x24F), (0x1E00, 0x1EFF), (0xFB00, 0xFB06))
DIGITS = _ranges((0x30, 0x39), (0x660, 0x669), (0x2460, 0x24FF), (0xB2, 0xB3))
FULL_WIDTH = _ranges((0xFF01, 0xFF5E), (0x3000, 0x303F), (0x3300, 0x33FF))
MARKS = _ranges((0x300, 0x36F), (0x3099, 0x309A), (0xE30, 0xE4E), (0x900, 0x97F), (0x64B, 0x65F), (0x20D0, 0x20FF))
EMOJI = _ranges((0x1F300, 0x1FAFF), (0x2600, 0x27BF), (0x200D, 0x200D), (0xFE0F, 0xFE0F), (0x1F1E6, 0x1F1FF))
OTHER_SCRIPTS = _ranges((0x400, 0x4FF), (0x600, 0x6FF), (0xE00, 0xE7F), (0x370, 0x3FF), (0x5D0, 0x5EA))
PUNCT = st.sampled_from(list(" \t\n._-/:@#，。、；！？（）「」…—\u3000\u00a0'\"*^()"))
ANY = st.characters(exclude_categories=("Cs",))

CHAR = st.one_of(HAN, KANA, HANGUL, LATIN, DIGITS, FULL_WIDTH, MARKS, EMOJI, OTHER_SCRIPTS, PUNCT, ANY)
# Runs of one class make long CJK runs and long words likelier than independent draws.
CHUNK = st.one_of(
    st.text(CHAR, max_size=6),
    st.text(st.one_of(HAN, KANA, HANGUL), min_size=1, max_size=12),
    st.text(st.one_of(LATIN, DIGITS, st.just("_")), min_size=1, max_size=12),
    st.text(st.one_of(LATIN, MARKS), min_size=1, max_size=8),
)
MIXED_TEXT = st.lists(CHUNK, max_size=12).map("".join)


def _triples(tokens):
    return [(t.text, t.start, t.end) for t in tokens]


@given(MIXED_TEXT)
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_tokenizer_parity_mixed_scripts(pure_implementation, native_implementation, text):
    assert _triples(native_implementation.tokenize_bigram(text)) == _triples(pure_implementation.tokenize_bigram(text))


@given(st.text(ANY, max_size=200))
@settings(max_examples=500, deadline=None)
def test_tokenizer_parity_arbitrary_unicode(pure_implementation, native_implementation, text):
    assert _triples(native_implementation.tokenize_bigram(text)) == _triples(pure_implementation.tokenize_bigram(text))


@given(st.integers(0, 600), st.sampled_from(["a", "字", "\u0e31", "é", "_", "5"]))
@settings(max_examples=60, deadline=None)
def test_tokenizer_parity_long_runs(pure_implementation, native_implementation, n, filler):
    text = "x" * n + filler * n + "y"
    assert _triples(native_implementation.tokenize_bigram(text)) == _triples(pure_implementation.tokenize_bigram(text))


def test_tokenizer_returns_token_namedtuples(native_implementation):
    from mimomem import Token

    tokens = native_implementation.tokenize_bigram("部署 pnpm")
    assert all(type(t) is Token for t in tokens)


# -- BM25 core ------------------------------------------------------------------------

VOCAB = [
    "部署",
    "署脚",
    "脚本",
    "端口",
    "数据",
    "pnpm",
    "npm",
    "lockfile",
    "v1",
    "2",
    "3",
    "memory_fts_idx",
    "a",
    "b",
    "の学",
]
TOKEN = st.sampled_from(VOCAB)
DOC_ID = st.one_of(st.integers(0, 12), st.sampled_from(["n1", "n2", "notes/a.md", "記憶"]))
OP = st.one_of(
    st.tuples(st.just("add"), DOC_ID, st.lists(TOKEN, max_size=25)),
    st.tuples(st.just("add_text"), DOC_ID, MIXED_TEXT),
    st.tuples(st.just("add_joined"), DOC_ID, st.lists(st.one_of(TOKEN, st.just("")), max_size=25).map(" ".join)),
    st.tuples(st.just("remove"), DOC_ID, st.just(None)),
)
PHRASE = st.lists(st.one_of(TOKEN, st.just("absent")), min_size=1, max_size=3).map(tuple)
QUERY = st.lists(PHRASE, min_size=0, max_size=5)


def _apply(core, ops):
    results = []
    for op, doc_id, payload in ops:
        if op == "add":
            results.append(core.add(doc_id, list(payload)))
        elif op == "add_text":
            results.append(core.add_text(doc_id, payload))
        elif op == "add_joined":
            results.append(core.add_joined(doc_id, payload))
        else:
            results.append(core.remove(doc_id))
    return results


def _state(core):
    return (
        len(core),
        core.doc_ids(),
        core.total_tokens(),
        core.term_count(),
        [core.doc_freq(t) for t in [*VOCAB, "absent"]],
        [d in core for d in [0, 1, 5, "n1", "notes/a.md", "missing"]],
    )


@given(st.lists(OP, max_size=30), st.lists(QUERY, min_size=1, max_size=6), st.integers(0, 15))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bm25_core_parity(pure_implementation, native_implementation, ops, queries, k):
    pure = pure_implementation.BM25Core()
    native = native_implementation.BM25Core()
    assert _apply(native, ops) == _apply(pure, ops)
    assert _state(native) == _state(pure)
    for phrases in queries:
        got = native.search(phrases, k)
        want = pure.search(phrases, k)
        assert [d for d, _ in got] == [d for d, _ in want]
        assert [s for _, s in got] == [s for _, s in want]  # bit-identical, not approximate


@given(
    st.lists(OP, max_size=30),
    st.lists(st.lists(st.tuples(PHRASE, st.floats(0.0, 8.0)), min_size=1, max_size=5), min_size=1, max_size=4),
    st.integers(1, 15),
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bm25_core_weighted_search_parity(pure_implementation, native_implementation, ops, queries, k):
    pure = pure_implementation.BM25Core()
    native = native_implementation.BM25Core()
    _apply(native, ops)
    _apply(pure, ops)
    for weighted in queries:
        phrases = [p for p, _ in weighted]
        weights = [w for _, w in weighted]
        got = native.search(phrases, k, weights)
        assert got == pure.search(phrases, k, weights)  # same ids, order and bit-identical scores


def test_bm25_core_parity_ties_follow_insertion_order(pure_implementation, native_implementation):
    for impl in (pure_implementation, native_implementation):
        core = impl.BM25Core()
        for doc_id in ["c", "a", "b"]:
            core.add(doc_id, ["部署", "脚本"])
        core.add("c", ["部署", "脚本"])  # a replacement moves to the end
        assert [d for d, _ in core.search([("部署",)], 10)] == ["a", "b", "c"]
