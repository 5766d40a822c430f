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

from mimomem.text.query import MAX_TERMS, QUERY_STOPWORDS, Query, Term, as_query, parse_query


def term_tuples(query: Query) -> list[tuple[tuple[str, ...], str]]:
    return [(t.tokens, t.kind) for t in query.terms]


# -- terms ------------------------------------------------------------------------------


def test_cjk_run_is_its_bigrams_plus_the_exact_phrase():
    q = parse_query("部署脚本")
    assert term_tuples(q) == [
        (("部署",), "bigram"),
        (("署脚",), "bigram"),
        (("脚本",), "bigram"),
        (("部署", "署脚", "脚本"), "phrase"),
    ]
    assert q.terms[-1].source == "部署脚本"


def test_segmentation_is_off_by_default_and_adds_long_words_as_phrases():
    plain = parse_query("任务管理器怎么配置")
    assert not [t for t in plain.terms if t.kind == "segment"]
    segmented = parse_query("任务管理器怎么配置", segment=True)
    segments = {t.source: t.tokens for t in segmented.terms if t.kind == "segment"}
    assert segments == {"管理器": ("管理", "理器")}
    # segmentation only adds terms: every plain term is still there, in the same order
    assert [t for t in segmented.terms if t.kind != "segment"] == list(plain.terms)


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


def test_segments_skip_question_words_and_two_character_words():
    q = parse_query("记忆多久整理一次为什么数据库迁移失败", segment=True)
    segments = {t.source for t in q.terms if t.kind == "segment"}
    assert "数据库" in segments
    assert not segments & {"什么", "为什么", "整理", "记忆"}  # stop words; 2-char words are bigrams already
    assert "为什么" in QUERY_STOPWORDS


@pytest.mark.parametrize(
    ("text", "phrases"),
    [
        ("v1.2.3", [("v1",), ("v1", "2", "3"), ("v", "1", "2", "3")]),
        ("T5.3", [("t5",), ("t5", "3"), ("t", "5", "3")]),
        ("pnpm-lock.yaml", [("pnpm",), ("lock",), ("yaml",), ("pnpm", "lock", "yaml")]),
        ("src/memory/fts.ts", [("src",), ("memory",), ("fts",), ("ts",), ("src", "memory", "fts", "ts")]),
        ("localhost:8080", [("localhost",), ("8080",), ("localhost", "8080")]),
        ("C:\\Users\\me", [("users",), ("me",), ("c", "users", "me")]),
        ("Tauri2.0", [("tauri2",), ("tauri",), ("tauri2", "0"), ("tauri", "2", "0")]),
    ],
)
def test_connected_words_add_identifier_phrases(text, phrases):
    q = parse_query(text)
    assert q.phrases() == phrases
    assert q.terms[-1].kind == "identifier" and q.terms[-1].source == text


def test_glued_letters_and_digits_are_also_tried_split():
    assert parse_query("api5433").phrases() == [("api5433",), ("api",), ("5433",), ("api", "5433")]
    assert parse_query("x86_64").phrases() == [("x86_64",)]  # snake_case stays whole
    assert parse_query("v1.2.3", phrases=False).phrases() == [("v1",), ("2",), ("3",)]


def test_identifiers_and_plain_words():
    assert term_tuples(parse_query("memory_fts_idx TASK_ID_RE")) == [
        (("memory_fts_idx",), "word"),
        (("task_id_re",), "word"),
    ]
    # a space breaks an identifier
    assert parse_query("v1. 2").phrases() == [("v1",), ("v", "1"), ("2",)]


def test_cjk_glued_to_digits_and_latin_splits():
    assert term_tuples(parse_query("端口5433")) == [(("端口",), "bigram"), (("5433",), "word")]
    q = parse_query("数据库是postgres")
    assert q.phrases() == [("数据",), ("据库",), ("库是",), ("数据", "据库", "库是"), ("postgres",)]
    assert q.terms[-1] == Term(("postgres",), "word", "postgres")


def test_full_width_and_case_fold_like_documents():
    assert parse_query("ＡＰＩ５４３３ Lockfile").phrases() == [
        ("api5433",),
        ("api",),
        ("5433",),
        ("api", "5433"),
        ("lockfile",),
    ]


def test_japanese_and_korean_runs():
    assert parse_query("学生が試験").phrases() == [
        ("学生",),
        ("生が",),
        ("が試",),
        ("試験",),
        ("学生", "生が", "が試", "試験"),
    ]
    assert parse_query("한국어").phrases() == [("한국",), ("국어",), ("한국", "국어")]


def test_terms_are_deduplicated_in_order():
    assert parse_query("部署 pnpm 部署 PNPM ｐｎｐｍ").phrases() == [("部署",), ("pnpm",)]


def test_long_queries_are_cut_not_rejected():
    words = " ".join(chr(97 + i // 26) + chr(97 + i % 26) for i in range(200))
    assert len(parse_query(words).terms) == MAX_TERMS
    assert parse_query(words, max_terms=3).phrases() == [("aa",), ("ab",), ("ac",)]


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
    assert parse_query("部署脚本 v1.2.3 NEAR").to_fts5() == (
        '"部署" OR "署脚" OR "脚本" OR "部署 署脚 脚本" OR "v1" OR "v1 2 3" OR "v 1 2 3" OR "near"'
    )


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
    '部署"脚本"*^:',
    "\x00\x01\x02 nul",
    "\u200b\u200d\ufeff",
    "!!! ??? ...",
    "",
    "   ",
    '"' * 10_000,
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
    assert run_match(fts5_table, parse_query("NEAR AND OR NOT").to_fts5()) == 1  # type: ignore[arg-type]
    assert run_match(fts5_table, parse_query("v1.2.3").to_fts5()) == 1  # type: ignore[arg-type]
    assert run_match(fts5_table, parse_query("body:部署").to_fts5()) == 2  # type: ignore[arg-type]


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
