"""``mimomem_query(text)``: the package's query model in SQL, and never an FTS5 syntax error."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mimomem
from mimomem.text.query import MAX_QUERY_CHARS, clip_query_text, parse_query

PHRASE = re.compile(r'"((?:[^"]|"")*)"')
FTS5_SYNTAX = st.sampled_from(
    ['"', "'", "(", ")", "*", "^", ":", "+", "-", " AND ", " OR ", " NOT ", "NEAR(", ",", "{", "}"]
)
QUERY_TEXT = st.lists(st.one_of(st.text(max_size=6), FTS5_SYNTAX, st.sampled_from(["部署脚本", "v1.2.3", "端口5433"])))


def match_of(conn: Any, text: str, detail: str | None = "full") -> str:
    """``mimomem_query(text, detail)``; ``detail=None``: the one-argument form."""
    sql, args = (
        ("SELECT mimomem_query(?)", (text,)) if detail is None else ("SELECT mimomem_query(?, ?)", (text, detail))
    )
    (match,) = next(iter(conn.execute(sql, args)))
    return str(match)


def terms_of(match: str) -> list[tuple[str, ...]]:
    """The token tuples FTS5 reads from a MATCH string of quoted phrases (each phrase re-tokenized)."""
    phrases = [p.replace('""', '"') for p in PHRASE.findall(match)]
    return [tuple(t.text for t in mimomem.tokenize(p)) for p in phrases if p]


def spellable(token: str, text: str) -> bool:
    """Whether some text tokenizes to exactly ``token``: the token itself, or the query's spelling of it."""
    if [t.text for t in mimomem.tokenize(token)] == [token]:
        return True
    clipped = clip_query_text(text)[0]
    return any(
        t.text == token and [u.text for u in mimomem.tokenize(clipped[t.start : t.end])] == [token]
        for t in mimomem.tokenize(clipped)
    )


def expected_terms(text: str) -> list[tuple[str, ...]]:
    """parse_query's terms, less those FTS5 cannot be asked for (a token no text tokenizes to)."""
    return [t.tokens for t in parse_query(text).terms if all(spellable(token, text) for token in t.tokens)]


@pytest.mark.parametrize(
    "text",
    ["部署脚本", "pnpm-lock.yaml v1.2.3 Tauri2.0", "我们决定使用端口5433", "memory_fts_idx", "㍿ ｶﾞｷﾞ", "a b 12 123"],
)
def test_the_match_string_is_the_shadow_columns(apsw_conn: Any, text: str) -> None:
    assert parse_query(text).to_fts5() == match_of(apsw_conn, text)


def test_a_token_whose_fold_is_not_stable_is_spelled_as_the_user_did(apsw_conn: Any) -> None:
    """``ΐ`` folds to ``ι`` + two combining marks, which a second fold strips: the query carries ``ΐ``."""
    assert '"ΐ" OR "ab"' == match_of(apsw_conn, "ΐ ab")
    assert [t.tokens for t in parse_query("ΐ ab").terms] == terms_of(match_of(apsw_conn, "ΐ ab"))


def test_a_term_no_text_can_spell_is_left_out(apsw_conn: Any) -> None:
    """``0ꢀ`` gives the part ``ꢀ``, a lone combining mark: no text tokenizes to it, so no phrase can ask for it."""
    assert [("0ꢀ",), ("0", "ꢀ")] == [t.tokens for t in parse_query("0ꢀ").terms]
    assert '"0ꢀ"' == match_of(apsw_conn, "0ꢀ")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text())
def test_terms_equal_parse_query_on_any_text(apsw_conn: Any, text: str) -> None:
    assert expected_terms(text) == terms_of(match_of(apsw_conn, text))


def test_long_queries_are_cut_like_the_package(apsw_conn: Any) -> None:
    for text in ["abc " * MAX_QUERY_CHARS, "部署" * MAX_QUERY_CHARS, "word" * 400 + " " + "x" * 1500 + "y" * 300]:
        assert expected_terms(text) == terms_of(match_of(apsw_conn, text))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(QUERY_TEXT)
def test_fts5_syntax_in_the_query_is_only_text(apsw_conn: Any, parts: list[str]) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS t USING fts5(body, tokenize='mimomem')")
    apsw_conn.execute("INSERT INTO t(body) SELECT '部署脚本 v1.2.3 NEAR OR' WHERE NOT EXISTS (SELECT 1 FROM t)")
    list(apsw_conn.execute("SELECT rowid FROM t WHERE t MATCH mimomem_query(?)", ("".join(parts),)))


def test_a_query_without_tokens_matches_nothing(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem'); INSERT INTO t VALUES ('x')")
    for text in ["", "  ，。！", '"""', None]:
        assert [] == list(
            apsw_conn.execute("SELECT rowid FROM t WHERE t MATCH coalesce(mimomem_query(?), '\"\"')", (text,))
        )
    assert '""' == match_of(apsw_conn, "，。")


# -- every FTS5 detail setting: full, column, none ---------------------------------------------------

DETAILS = ("full", "column", "none")
DOCS = ["部署脚本在 scripts/deploy.sh", "脚本部署很慢", "pnpm-lock.yaml 冲突", "端口 5433 给 staging"]


def table(conn: Any, detail: str) -> str:
    name = f"t_{detail}"
    conn.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(body, tokenize='mimomem', detail={detail})")
    for doc in DOCS:
        conn.execute(f"INSERT INTO {name}(body) VALUES (?)", (doc,))
    return name


def hits(conn: Any, name: str, match: str) -> list[int]:
    return [r[0] for r in conn.execute(f"SELECT rowid FROM {name} WHERE {name} MATCH ? ORDER BY rank, rowid", (match,))]


@pytest.mark.parametrize("detail", DETAILS)
def test_the_one_argument_form_is_valid_on_every_detail_setting(apsw_conn: Any, detail: str) -> None:
    """Before: '部署脚本' gave a phrase, and column / none tables refused it ("phrase queries are not supported")."""
    name = table(apsw_conn, detail)
    for text in ("部署脚本", "pnpm-lock.yaml", "端口5433", "Tauri2.0 部署"):
        found = hits(apsw_conn, name, match_of(apsw_conn, text, None))
        assert found, text
    assert set(hits(apsw_conn, name, match_of(apsw_conn, "部署脚本", None))) == {1, 2}


@pytest.mark.parametrize("detail", DETAILS)
def test_the_detail_argument_gives_a_string_that_table_accepts(apsw_conn: Any, detail: str) -> None:
    name = table(apsw_conn, detail)
    assert hits(apsw_conn, name, match_of(apsw_conn, "部署脚本", detail))[0] == 1


def test_on_a_full_table_the_phrase_form_ranks_the_exact_sequence_first(apsw_conn: Any) -> None:
    name = table(apsw_conn, "full")
    assert hits(apsw_conn, name, match_of(apsw_conn, "脚本部署", "full"))[0] == 2


def test_without_phrases_a_run_is_an_and_of_its_bigrams(apsw_conn: Any) -> None:
    assert match_of(apsw_conn, "部署脚本", None) == '"部署" OR "署脚" OR "脚本" OR ("部署" AND "署脚" AND "脚本")'
    assert match_of(apsw_conn, "部署脚本", "none") == match_of(apsw_conn, "部署脚本", "column")
    assert match_of(apsw_conn, "部署脚本", "full") == '"部署" OR "署脚" OR "脚本" OR "部署 署脚 脚本"'


@pytest.mark.parametrize(
    "text", ["部署脚本", "pnpm-lock.yaml v1.2.3 Tauri2.0", "我们决定使用端口5433", 'a"b c"d', "a b 12 123"]
)
@pytest.mark.parametrize("detail", DETAILS)
def test_each_detail_form_is_the_packages(apsw_conn: Any, text: str, detail: str) -> None:
    assert parse_query(text).to_fts5(detail) == match_of(apsw_conn, text, detail)
    assert parse_query(text).to_fts5("none") == match_of(apsw_conn, text, None)


def test_an_unknown_detail_is_an_error_naming_the_choices(apsw_conn: Any) -> None:
    with pytest.raises(Exception, match="'full', 'column' or 'none'"):
        match_of(apsw_conn, "部署", "offsets")
    with pytest.raises(ValueError, match="'full', 'column' or 'none'"):
        parse_query("部署").to_fts5("offsets")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=QUERY_TEXT)
def test_fts5_syntax_is_only_text_on_column_and_none_tables(apsw_conn: Any, parts: list[str]) -> None:
    for detail in ("column", "none"):
        name = f"h_{detail}"
        apsw_conn.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {name} USING fts5(body, tokenize='mimomem', detail={detail})"
        )
        text = "".join(parts)
        list(apsw_conn.execute(f"SELECT rowid FROM {name} WHERE {name} MATCH mimomem_query(?)", (text,)))
