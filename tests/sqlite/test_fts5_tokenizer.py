"""The FTS5 tokenizer ``mimomem`` emits exactly the tokens of ``mimomem.tokenize``, with byte offsets."""

from __future__ import annotations

from typing import Any

from conftest import tokens_via
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mimomem

SAMPLES = [
    "部署脚本用pnpm而不是npm，端口5433 ＡＰＩ５４３３ Crème Brûlée ｶﾞｷﾞ カタカナー 한국어abc",
    "東京タワー 一 二三四 memory_fts_idx v1.2.3 T5.3 ﬁ ß İ ǅ ① 々〇 हिन्दी e\u0301 \U00020000\U00020001",
    "ΐ ΰ ὐ ㍿ ＡＢＣ",
    "x" * 600 + "\u0301" + "y" * 300,
    "",
    "   ",
    "\x00部\x00署",
]


def expected(text: str) -> list[tuple[str, int, int]]:
    """``mimomem.tokenize`` with its code-point offsets turned into UTF-8 byte offsets."""
    at = [0]
    for ch in text:
        at.append(at[-1] + len(ch.encode("utf-8")))
    return [(t.text, at[t.start], at[t.end]) for t in mimomem.tokenize(text)]


def test_samples_tokenize_like_the_package(apsw_conn: Any) -> None:
    for text in SAMPLES:
        assert expected(text) == tokens_via(apsw_conn, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text())
def test_tokens_and_byte_offsets_equal_the_package_on_any_text(apsw_conn: Any, text: str) -> None:
    assert expected(text) == tokens_via(apsw_conn, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=60))
def test_the_fts5_index_holds_the_same_tokens_in_order(apsw_conn: Any, text: str) -> None:
    """Through FTS5 itself (document mode): fts5vocab's instances, in position order, are our tokens."""
    apsw_conn.execute(
        "CREATE VIRTUAL TABLE IF NOT EXISTS t USING fts5(body, tokenize='mimomem');"
        "CREATE VIRTUAL TABLE IF NOT EXISTS v USING fts5vocab(t, 'instance'); DELETE FROM t"
    )
    apsw_conn.execute("INSERT INTO t(body) VALUES (?)", (text,))
    indexed = [term for term, _ in apsw_conn.execute("SELECT term, offset FROM v ORDER BY offset")]
    assert [t.text for t in mimomem.tokenize(text)] == indexed


def test_highlight_and_snippet_mark_the_original_text(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    apsw_conn.execute("INSERT INTO t(body) VALUES ('我们决定使用ＰＯＳＴＧＲＥＳ，端口5433')")
    (marked,) = next(iter(apsw_conn.execute("SELECT highlight(t, 0, '[', ']') FROM t WHERE t MATCH 'postgres'")))
    assert "我们决定使用[ＰＯＳＴＧＲＥＳ]，端口5433" == marked
    query = "SELECT mimomem_highlight(t, 0, '[', ']') FROM t WHERE t MATCH mimomem_query('决定使用 端口')"
    (merged,) = next(iter(apsw_conn.execute(query)))
    assert "我们[决定使用]ＰＯＳＴＧＲＥＳ，[端口]5433" == merged


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=80))
def test_any_bytes_tokenize_like_their_decoding_with_replacement(apsw_conn: Any, raw: bytes) -> None:
    """Invalid UTF-8, NUL and encoded surrogates separate tokens, as U+FFFD would; offsets stay in bounds."""
    got = tokens_via(apsw_conn, raw)
    assert [t.text for t in mimomem.tokenize(raw.decode("utf-8", "replace"))] == [t for t, _, _ in got]
    for _, start, end in got:
        assert 0 <= start < end <= len(raw)
        raw[start:end].decode("utf-8")  # whole characters
    apsw_conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS b USING fts5(body, tokenize='mimomem')")
    apsw_conn.execute("INSERT INTO b(body) VALUES (CAST(? AS TEXT))", (raw,))


def test_encoded_surrogates_and_overlong_forms_separate(apsw_conn: Any) -> None:
    raw = "部署".encode() + b"\xed\xa0\x80" + "脚本".encode() + b"\xc0\xaf" + b"ab\xf4\x90\x80\x80cd"
    assert ["部署", "脚本", "ab", "cd"] == [t for t, _, _ in tokens_via(apsw_conn, raw)]


def test_a_huge_document_indexes_and_matches(apsw_conn: Any) -> None:
    text = "部署脚本用pnpm而不是npm，端口5433。" * 200_000 + "末尾的词"  # about 5 M characters
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    apsw_conn.execute("INSERT INTO t(body) VALUES (?)", (text,))
    (hits,) = next(iter(apsw_conn.execute("SELECT count(*) FROM t WHERE t MATCH mimomem_query('末尾')")))
    assert 1 == hits
    (count,) = next(iter(apsw_conn.execute("SELECT json_array_length(mimomem_tokens(?))", (text,))))
    assert len(mimomem.tokenize(text)) == count


def test_prefix_queries_tokenize_the_prefix_alike(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    apsw_conn.execute("INSERT INTO t(body) VALUES ('部署脚本用 PNPM'), ('署名')")
    for prefix, rows in [("部*", [1]), ("ｐｎｐ*", [1]), ("署*", [1, 2]), ("npm*", [])]:
        assert rows == [
            r for (r,) in apsw_conn.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid", (prefix,))
        ]
