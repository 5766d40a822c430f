"""The documented failure cases (corpora/failures) pass on a plain ``tokenize='mimomem'`` table.

From every client that can load the extension: apsw, the system sqlite3 CLI, and the stdlib
``sqlite3`` where this Python build can load extensions (skipped, with the reason, where not).
Each case's index holds only its document, queried with the double-quoted phrase (MiMo-Code's
query builder) and with ``mimomem_query``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mimomem.sqlite

CASES = json.loads((Path(__file__).resolve().parents[2] / "corpora" / "failures" / "cases.json").read_text("utf-8"))[
    "cases"
]
CREATE = "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')"


def sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def hits(conn: Any, case: dict[str, Any]) -> tuple[int, int]:
    conn.execute("DROP TABLE IF EXISTS t")
    conn.execute(CREATE)
    conn.execute("INSERT INTO t(body) VALUES (?)", (case["document"],))
    phrase = '"' + case["query"].replace('"', '""') + '"'
    (plain,) = next(iter(conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (phrase,))))
    (ours,) = next(iter(conn.execute("SELECT count(*) FROM t WHERE t MATCH mimomem_query(?)", (case["query"],))))
    return int(plain), int(ours)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"row{c['row']}")
def test_failure_cases_from_apsw(apsw_conn: Any, case: dict[str, Any]) -> None:
    want = case["expected_hits"]["bigram"]
    assert (want, want) == hits(apsw_conn, case)


def test_failure_cases_from_the_stdlib_sqlite3(extension_path: str) -> None:
    conn = sqlite3.connect(":memory:")
    if not hasattr(conn, "enable_load_extension"):
        conn.close()
        pytest.skip("this Python's sqlite3 was built without loadable extensions (covered by apsw and the CLI)")
    try:
        mimomem.sqlite.load(conn)
        for case in CASES:
            want = case["expected_hits"]["bigram"]
            assert (want, want) == hits(conn, case), case["query"]
    finally:
        conn.close()


def test_failure_cases_from_the_sqlite3_cli(extension_path: str) -> None:
    script = []
    for case in CASES:
        phrase = '"' + case["query"].replace('"', '""') + '"'
        script += [
            "DROP TABLE IF EXISTS t;",
            f"{CREATE};",
            f"INSERT INTO t(body) VALUES ({sql_string(case['document'])});",
            f"SELECT count(*) FROM t WHERE t MATCH {sql_string(phrase)};",
            f"SELECT count(*) FROM t WHERE t MATCH mimomem_query({sql_string(case['query'])});",
        ]
    counts = [int(line) for line in run_cli(extension_path, "\n".join(script)).split()]
    assert [c["expected_hits"]["bigram"] for c in CASES for _ in (1, 2)] == counts


def test_unicode61_and_trigram_fail_where_mimomem_does_not(apsw_conn: Any) -> None:
    """The README's side-by-side table, checked: the builtin tokenizers give the documented misses."""
    for case in CASES:
        phrase = '"' + case["query"].replace('"', '""') + '"'
        for tokenizer in ("unicode61", "trigram"):
            apsw_conn.execute(
                f"DROP TABLE IF EXISTS b; CREATE VIRTUAL TABLE b USING fts5(body, tokenize='{tokenizer}')"
            )
            apsw_conn.execute("INSERT INTO b(body) VALUES (?)", (case["document"],))
            (found,) = next(iter(apsw_conn.execute("SELECT count(*) FROM b WHERE b MATCH ?", (phrase,))))
            assert case["expected_hits"][tokenizer] == found, (tokenizer, case["query"])
