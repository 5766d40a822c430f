"""The three backends: MiMo's query builder, the failures table, bigram/native equality,
hostile queries, snippets and tie order."""

from __future__ import annotations

import random

import pytest

from mimomem.search.backends import SEARCH_BACKENDS, UnknownBackendError, check_backend, cut_snippet, mimo_fts_query
from mimomem.search.document_index import DocumentIndex
from mimomem.search.rows import Row, put_rows
from mimomem.text.query import parse_query

FAILURE_DOCS = {
    "deploy": "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容",
    "port": "我们决定使用端口5433，数据库是postgres",
}
# (document, query, unicode61 hits) from failures.md; bigram backends must give 1 for each.
FAILURES = [
    ("deploy", "部署", 0),
    ("deploy", "部署脚本", 0),
    ("deploy", "lockfile", 1),
    ("port", "端口", 0),
    ("port", "postgres", 0),
    ("port", "5433", 0),
    ("port", "数据库", 0),
    ("port", "我们决定使用端口5433", 1),
]

HOSTILE = [
    "",
    "   ",
    '"',
    '""',
    '"unbalanced',
    "a AND b OR NOT c",
    "NEAR(a b, 2)",
    "NEAR",
    "foo*",
    "*",
    "^start",
    "body:secret",
    "{body tokens}: x",
    "- -- ---",
    "(((",
    ")",
    "!@#$%^&*()_+-=[]{}|;':\",./<>?",
    "。，、；：？！",
    "\x00\x01\x02",
    "\ud800 部署 \udfff",  # lone surrogates, as a JSON payload can carry them
    "\U0010ffff",
    "部署" * 5000,
    "x" * 10_000,
    ("a " * 5000),
    " OR ".join(["部署"] * 300),
]


@pytest.fixture(scope="module")
def failure_index() -> DocumentIndex:
    index = DocumentIndex()
    index.add_documents(FAILURE_DOCS.items())
    return index


def test_mimo_query_builder_conformance():
    # MiMo-Code's fts-query.test.ts cases
    assert '"hello" OR "world"' == mimo_fts_query("hello world")
    assert '"FOO_bar" OR "baz" OR "1"' == mimo_fts_query("FOO_bar baz-1")
    assert '"金银价格"' == mimo_fts_query("金银价格")
    assert '"価格" OR "2026年"' == mimo_fts_query("価格 2026年")
    assert mimo_fts_query("") is None
    assert mimo_fts_query("   ") is None
    assert '"T5" OR "3" OR "closure"' == mimo_fts_query("T5.3 closure")
    assert '"foo" OR "bar" OR "baz" OR "qux"' == mimo_fts_query("(foo) bar* baz/qux")
    assert '"say" OR "hi"' == mimo_fts_query('say "hi"')
    assert '"foo" OR "and" OR "bar"' == mimo_fts_query("foo and bar")
    assert 4 == mimo_fts_query("postgres database port 5433").count('"') // 2  # type: ignore[union-attr]


@pytest.mark.parametrize("doc,query,unicode61_hits", FAILURES, ids=[f"{d}-{q}" for d, q, _ in FAILURES])
def test_failures_table(failure_index, doc, query, unicode61_hits):
    def hits(backend: str) -> int:
        return sum(1 for h in failure_index.search(query, backend=backend) if h.doc_id == doc)

    assert unicode61_hits == hits("fts5-unicode61")  # the fallback reproduces the miss
    assert 1 == hits("fts5-bigram")
    assert 1 == hits("native-index")


@pytest.mark.parametrize("query", HOSTILE, ids=range(len(HOSTILE)))
@pytest.mark.parametrize("backend", SEARCH_BACKENDS)
def test_hostile_queries_never_raise(failure_index, backend, query):
    hits = failure_index.search(query, backend=backend, snippets=True)
    assert all(h.doc_id in FAILURE_DOCS for h in hits)


@pytest.mark.parametrize("backend", ["fts5-bigram", "native-index"])
def test_lone_surrogates_are_separators_and_the_words_still_match(failure_index, backend):
    hits = failure_index.search("\ud800部署\udfff 端口", backend=backend, snippets=True)
    assert sorted(h.doc_id for h in hits) == ["deploy", "port"]
    assert all(isinstance(h.snippet, str) for h in hits)


def test_unknown_backend_lists_the_valid_ones(failure_index):
    with pytest.raises(UnknownBackendError, match="fts5-bigram, native-index, fts5-unicode61"):
        failure_index.search("x", backend="fts5-trigram")
    with pytest.raises(ValueError):
        check_backend("")


# -- bigram and native give the same documents, order and scores -------------------------

HAN = "部署脚本端口数据库配置依赖接口记忆整理一次缓存测试版本发布回滚日志监控告警"
WORDS = ["pnpm", "npm", "lockfile", "postgres", "5433", "redis", "v1", "2", "3", "deploy", "memory_fts_idx", "the"]


def _random_doc(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(0, 12)):
        if rng.random() < 0.55:
            start = rng.randrange(len(HAN) - 1)
            parts.append(HAN[start : start + rng.randint(1, 6)])
        else:
            parts.append(rng.choice(WORDS))
        parts.append(rng.choice([" ", "", "，", ". ", "\n"]))
    return "".join(parts)


def _random_query(rng: random.Random) -> str:
    return _random_doc(rng)[: rng.randint(1, 12)] or "部署"


def _assert_same(index: DocumentIndex, query: str, **kw) -> int:
    a = index.search(query, backend="fts5-bigram", limit=20, **kw)
    b = index.search(query, backend="native-index", limit=20, **kw)
    assert [h.doc_id for h in a] == [h.doc_id for h in b], query
    for x, y in zip(a, b, strict=True):
        assert x.score == pytest.approx(y.score, rel=1e-12, abs=0), query
    return len(a)


@pytest.mark.parametrize("seed", range(4))
def test_bigram_and_native_agree_on_random_corpora(seed):
    rng = random.Random(seed)
    index = DocumentIndex()
    index.add_documents((f"d{i:03d}", _random_doc(rng)) for i in range(150))
    found = 0
    for _ in range(60):
        q = _random_query(rng)
        found += _assert_same(index, q)
        found += _assert_same(index, q, segment=False, phrases=False)
    # replace, remove and add documents: the native index catches up incrementally
    index.add_documents((f"d{rng.randrange(150):03d}", _random_doc(rng)) for _ in range(30))
    index.remove_documents(f"d{rng.randrange(150):03d}" for _ in range(20))
    index.add_documents((f"n{i}", _random_doc(rng)) for i in range(20))
    for _ in range(40):
        found += _assert_same(index, _random_query(rng))
    assert found > 100  # the queries really matched something


def test_bigram_and_native_agree_with_filters():
    rng = random.Random(7)
    index = DocumentIndex()
    from mimomem.search import db

    with db.transaction(index.connection):
        put_rows(
            index.connection,
            [
                Row(
                    f"/m/{i}.md",
                    rng.choice(["global", "projects"]),
                    rng.choice(["", "p1", "p2"]),
                    rng.choice(["memory", "free"]),
                    _random_doc(rng),
                    "",
                )
                for i in range(120)
            ],
        )
    for _ in range(40):
        q = parse_query(_random_query(rng))
        for filters in ({"scope": "project"}, {"scope_id": "p2", "type": "free"}, {"type": "memory"}):
            a = index.rank(q, "fts5-bigram", limit=5, **filters)
            b = index.rank(q, "native-index", limit=5, **filters)
            assert [(h.path, h.scope, h.scope_id, h.type) for h in a] == [
                (h.path, h.scope, h.scope_id, h.type) for h in b
            ]
            assert [h.score for h in a] == pytest.approx([h.score for h in b], rel=1e-12)
            for h in a:
                assert all(getattr(h, k) == v for k, v in filters.items())


def test_ties_are_broken_by_document_id_in_every_backend():
    index = DocumentIndex()
    index.add_documents([("c", "same text here"), ("a", "same text here"), ("b", "same text here"), ("z", "other")])
    for backend in SEARCH_BACKENDS:
        assert ["a", "b", "c"] == [h.doc_id for h in index.search("same", backend=backend)], backend
    assert ["a", "b"] == [h.doc_id for h in index.search("same", backend="native-index", limit=2)]
    assert ["a", "b"] == [h.doc_id for h in index.search("same", backend="fts5-bigram", limit=2)]


# -- ranking ---------------------------------------------------------------------------------


def test_exact_run_ranks_above_scattered_bigrams():
    index = DocumentIndex()
    index.add_documents(
        [
            ("scattered", "部署 是每周的事情，另外 脚本 放在别处，和这里无关的内容很多很多"),
            ("exact", "部署脚本用 pnpm 而不是 npm"),
            ("noise1", "今天天气很好"),
            ("noise2", "明天继续测试"),
        ]
    )
    for backend in ("fts5-bigram", "native-index"):
        ids = [h.doc_id for h in index.search("部署脚本", backend=backend)]
        assert ["exact", "scattered"] == ids


def test_identifier_is_searched_as_one_unit():
    index = DocumentIndex()
    index.add_documents([("ver", "released v1.2.3 today"), ("loose", "v1 then 2 and later 3"), ("t", "T5.3 closure")])
    for backend in ("fts5-bigram", "native-index"):
        hits = index.search("v1.2.3", backend=backend)
        # the exact identifier ranks first, well above a note that only has its parts
        assert hits[0].doc_id == "ver"
        assert all(h.score < hits[0].score / 3 for h in hits[1:])
        assert "t" == index.search("T5.3", backend=backend)[0].doc_id
    assert {"ver", "loose"} <= {h.doc_id for h in index.search("v1.2.3", backend="fts5-unicode61")}


# -- snippets ---------------------------------------------------------------------------------


def test_snippet_marks_the_original_text_and_merges_overlapping_bigrams():
    text = "我们的部署脚本用 ＡＰＩ５４３３ 调用"
    snippet = cut_snippet(text, parse_query("部署脚本 api5433").phrases())
    assert "我们的<<部署脚本>>用 <<ＡＰＩ５４３３>> 调用" == snippet


def test_snippet_of_text_holding_markers_has_one_marker_per_hit():
    """History text holding a pasted search result nested the markers (<<<<数据库>>>>) -> its own are look-alikes."""
    text = "上次搜到：1. <<数据库>><<端口>>是 5433；另一条 数据库端口 >> 5432"
    snippet = cut_snippet(text, parse_query("数据库 端口").phrases())
    assert "<<<<" not in snippet and ">>>>" not in snippet
    assert snippet == "上次搜到：1. ‹‹<<数据库>>››‹‹<<端口>>››是 5433；另一条 <<数据库端口>> ›› 5432"
    assert snippet.count("<<") == snippet.count(">>") == 3


def test_snippet_window_has_ellipses_and_centres_on_the_match():
    words = [f"w{i}" for i in range(100)]
    words[50] = "needle"
    snippet = cut_snippet(" ".join(words), [("needle",)], size=10)
    assert snippet.startswith("...") and snippet.endswith("...")
    assert "<<needle>>" in snippet
    assert 10 == len(snippet.strip(".").split())


def test_snippet_prefers_the_window_with_more_distinct_terms():
    text = "alpha " + "filler " * 60 + "alpha beta here"
    snippet = cut_snippet(text, [("alpha",), ("beta",)], size=8)
    assert "<<alpha>> <<beta>>" in snippet


def test_unicode61_snippet_is_fts5_snippet_with_mimo_markers():
    index = DocumentIndex()
    index.add_documents([("a", "the lockfile is not compatible")])
    assert (
        "the <<lockfile>> is not compatible"
        == index.search("lockfile", backend="fts5-unicode61", snippets=True)[0].snippet
    )


def test_size_bytes_for_every_backend(failure_index):
    for backend in SEARCH_BACKENDS:
        assert failure_index.size_bytes(backend) > 0


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TEXT = st.text(alphabet=st.sampled_from(list("部署脚本端口数据库 ab_1.\n，ＡＰＩ。e\u0301")), max_size=80)


@settings(max_examples=200, deadline=None)
@given(text=_TEXT, query=_TEXT)
def test_snippet_is_the_original_text_with_markers(text, query):
    snippet = cut_snippet(text, parse_query(query).phrases(), size=6)
    body = snippet[3:] if snippet.startswith("...") else snippet
    body = body[:-3] if body.endswith("...") else body
    assert body.replace("<<", "").replace(">>", "") in text
