"""The query model: ``parse_query`` terms and the FTS5 MATCH string they render to.

``to_fts5`` must never produce a MATCH error: every rendered string is run against real
FTS5 tables (the ``ascii`` reader of pre-tokenized text and ``unicode61``), for hostile
inputs and for hypothesis text.
"""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem import Query, Term, parse_query
from mimomem.query import MAX_TERMS, QUERY_STOPWORDS, as_query


def term_tuples(query: Query) -> list[tuple[tuple[str, ...], str]]:
    return [(t.tokens, t.kind) for t in query.terms]


# -- terms ------------------------------------------------------------------------------


def test_cjk_run_is_a_phrase_of_its_bigrams_plus_segment_words():
    q = parse_query("部署脚本")
    assert q.terms[0] == Term(("部署", "署脚", "脚本"), "phrase", "部署脚本")
    assert term_tuples(q)[1:] == [(("部署",), "segment"), (("脚本",), "segment")]


def test_segmentation_can_be_turned_off():
    assert term_tuples(parse_query("部署脚本", segment=False)) == [(("部署", "署脚", "脚本"), "phrase")]


def test_naive_baseline_has_one_term_per_bigram():
    q = parse_query("部署脚本 v1.2.3", phrases=False)
    assert term_tuples(q) == [
        (("部署",), "bigram"),
        (("署脚",), "bigram"),
        (("脚本",), "bigram"),
        (("v1",), "word"),
        (("2",), "word"),
        (("3",), "word"),
    ]


def test_two_character_run_and_lone_character():
    assert term_tuples(parse_query("部署")) == [(("部署",), "bigram")]
    assert term_tuples(parse_query("用")) == [(("用",), "word")]
    assert term_tuples(parse_query("用 pnpm")) == [(("用",), "word"), (("pnpm",), "word")]


def test_long_run_segments_drop_question_words_but_keep_the_exact_phrase():
    q = parse_query("部署是什么")
    assert q.terms[0].tokens == ("部署", "署是", "是什", "什么")
    segments = [t.tokens for t in q.terms if t.kind == "segment"]
    assert ("部署",) in segments
    assert ("什么",) not in segments and "什么" in QUERY_STOPWORDS


def test_longer_segment_words_are_phrases_of_their_bigrams():
    q = parse_query("记忆多久整理一次数据库迁移")
    segments = {t.source: t.tokens for t in q.terms if t.kind == "segment"}
    assert segments["数据库"] == ("数据", "据库")
    assert segments["整理"] == ("整理",)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("v1.2.3", ("v1", "2", "3")),
        ("T5.3", ("t5", "3")),
        ("pnpm-lock.yaml", ("pnpm", "lock", "yaml")),
        ("src/memory/fts.ts", ("src", "memory", "fts", "ts")),
        ("localhost:8080", ("localhost", "8080")),
        ("C:\\Users\\me", ("c", "users", "me")),
        ("user@example.com", ("user", "example", "com")),
    ],
)
def test_connected_words_form_one_identifier_phrase(text, tokens):
    q = parse_query(text)
    assert q.terms == (Term(tokens, "identifier", text),)


def test_identifiers_and_plain_words():
    assert term_tuples(parse_query("memory_fts_idx TASK_ID_RE")) == [
        (("memory_fts_idx",), "word"),
        (("task_id_re",), "word"),
    ]
    # a space breaks an identifier
    assert term_tuples(parse_query("v1. 2")) == [(("v1",), "word"), (("2",), "word")]


def test_cjk_glued_to_digits_and_latin_splits():
    assert term_tuples(parse_query("端口5433")) == [(("端口",), "bigram"), (("5433",), "word")]
    q = parse_query("数据库是postgres")
    assert q.terms[0].tokens == ("数据", "据库", "库是")
    assert q.terms[-1] == Term(("postgres",), "word", "postgres")


def test_full_width_and_case_fold_like_documents():
    assert parse_query("ＡＰＩ５４３３ Lockfile").phrases() == [("api5433",), ("lockfile",)]


def test_japanese_and_korean_runs():
    assert parse_query("学生が試験", segment=False).phrases() == [("学生", "生が", "が試", "試験")]
    assert parse_query("한국어", segment=False).phrases() == [("한국", "국어")]


def test_terms_are_deduplicated_in_order():
    assert parse_query("部署 pnpm 部署 PNPM ｐｎｐｍ").phrases() == [("部署",), ("pnpm",)]


def test_long_queries_are_cut_not_rejected():
    words = " ".join(f"w{i}" for i in range(200))
    assert len(parse_query(words).terms) == MAX_TERMS
    assert parse_query(words, max_terms=3).phrases() == [("w0",), ("w1",), ("w2",)]


def test_empty_and_punctuation_only_queries():
    for text in ["", "   ", "!!! ??? ...", '"""', "（）。，", "😀"]:
        q = parse_query(text)
        assert not q and q.terms == () and q.to_fts5() is None
        assert q.text == text


def test_parse_query_rejects_non_str():
    with pytest.raises(TypeError, match="needs str"):
        parse_query(None)  # type: ignore[arg-type]


def test_as_query_accepts_query_string_and_term_lists():
    q = parse_query("部署")
    assert as_query(q) is q
    assert as_query("部署") == q
    listed = as_query(["部署", ("端口", "口5")])
    assert listed.phrases() == [("部署",), ("端口", "口5")]
    with pytest.raises(TypeError):
        as_query([()])


# -- rendering to FTS5 -------------------------------------------------------------------


def test_rendering_quotes_every_phrase():
    assert parse_query("部署脚本 v1.2.3 NEAR", segment=False).to_fts5() == '"部署 署脚 脚本" OR "v1 2 3" OR "near"'


HOSTILE = [
    '"',
    '"unbalanced',
    'say "hi" and "',
    "NEAR(a b, 2)",
    "NEAR",
    "a NEAR b",
    "prefix*",
    "*",
    "^start",
    "^",
    "body:部署",
    "{body title}: x",
    "-body:x",
    "a AND b OR NOT c",
    "AND",
    "OR OR OR",
    "NOT",
    "(a OR b",
    ")",
    "((()))",
    "a + b",
    "column:filter:deep",
    "'single' quotes",
    "`back` ticks",
    "部署\"脚本\"*^:",
    "\x00\x01\x02 nul",
    "\u200b\u200d\ufeff",
    "!!! ??? ...",
    "",
    "   ",
    "\"" * 10_000,
    ("NEAR(" + "部署 " * 20 + ") AND ") * 100,
    "部署脚本" * 2_500,
    "x" * 10_000,
]


@pytest.fixture(scope="module", params=["ascii tokenchars '_'", "unicode61 remove_diacritics 1 tokenchars '_'"])
def fts5_table(request):
    con = sqlite3.connect(":memory:")
    con.execute(f'CREATE VIRTUAL TABLE t USING fts5(body, tokenize="{request.param}")')
    con.executemany(
        "INSERT INTO t(body) VALUES (?)",
        [("部署 署脚 脚本 near and or not",), ("v1 2 3 x",), ("端口 5433 body",)],
    )
    yield con
    con.close()


def run_match(con: sqlite3.Connection, match: str) -> int:
    return con.execute("SELECT count(*) FROM t WHERE t MATCH ? ORDER BY rank", (match,)).fetchone()[0]


def test_hostile_text_really_is_an_fts5_error_when_passed_raw(fts5_table):
    # The oracle can fail: these strings break a MATCH unless parse_query renders them.
    for raw in ['"unbalanced', "NEAR(a b", "(a OR b", "*", "AND"]:
        with pytest.raises(sqlite3.OperationalError):
            run_match(fts5_table, raw)


@pytest.mark.parametrize("text", HOSTILE, ids=[repr(h[:16]) for h in HOSTILE])
def test_rendered_match_never_errors_on_hostile_text(fts5_table, text):
    for options in [{}, {"segment": False}, {"phrases": False}]:
        match = parse_query(text, **options).to_fts5()
        if match is None:
            continue
        run_match(fts5_table, match)  # raises sqlite3.OperationalError on a syntax error


def test_rendered_keywords_match_as_plain_tokens(fts5_table):
    assert run_match(fts5_table, parse_query("NEAR AND OR NOT").to_fts5()) == 1
    assert run_match(fts5_table, parse_query("v1.2.3").to_fts5()) == 1
    assert run_match(fts5_table, parse_query("body:部署").to_fts5()) == 2


@given(st.text(max_size=60))
@settings(max_examples=400, deadline=None)
def test_rendered_match_never_errors_on_any_text(fts5_table, text):
    q = parse_query(text)
    match = q.to_fts5()
    assert (match is None) == (not q.terms)
    if match is not None:
        run_match(fts5_table, match)
    for term in q.terms:
        assert term.tokens and all(tok and '"' not in tok and " " not in tok for tok in term.tokens)
