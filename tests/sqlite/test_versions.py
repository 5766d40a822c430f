"""A table indexed by another tokenizer version is detected, with the rebuild command in the message."""

from __future__ import annotations

from typing import Any

import pytest

import mimomem.sqlite
from mimomem.errors import StaleTokenizerIndexError
from mimomem.sqlite import VERSION_TABLE


def test_the_first_check_stamps_and_later_checks_pass(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    mimomem.sqlite.check(apsw_conn, "t")
    mimomem.sqlite.check(apsw_conn, "t")
    rows = list(apsw_conn.execute(f"SELECT fts_table, version FROM {VERSION_TABLE}"))
    assert [("t", mimomem.sqlite.tokenizer_version())] == rows


def test_a_version_mismatch_names_the_rebuild(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem'); INSERT INTO t VALUES ('部署')")
    mimomem.sqlite.stamp(apsw_conn, "t")
    apsw_conn.execute(f"UPDATE {VERSION_TABLE} SET version = 'mimomem-bigram 1 probe-0000000000000000'")
    with pytest.raises(StaleTokenizerIndexError, match=r"INSERT INTO \"t\"\(\"t\"\) VALUES\('rebuild'\)"):
        mimomem.sqlite.check(apsw_conn, "t")
    stale = list(apsw_conn.execute(f"SELECT fts_table FROM {VERSION_TABLE} WHERE version <> mimomem_version()"))
    assert [("t",)] == stale
    apsw_conn.execute("INSERT INTO t(t) VALUES('rebuild')")  # what the message says, then stamp
    mimomem.sqlite.stamp(apsw_conn, "t")
    mimomem.sqlite.check(apsw_conn, "t")
