"""``mimomem.sqlite.load`` / ``loadable_path``: every client, loading twice, and the clear refusals."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli, tokens_via

import mimomem
import mimomem.sqlite
from mimomem.errors import ExtensionNotBuiltError, LoadExtensionUnsupportedError
from mimomem.sqlite import loading


def test_the_extension_ships_inside_the_installed_package(extension_path: str) -> None:
    assert Path(extension_path).is_file()
    assert Path(extension_path).parent.parent == Path(mimomem.sqlite.__file__).parent
    assert "libmimomem" == Path(extension_path).name.split(".")[0]


def test_its_version_is_the_packages(apsw_conn: Any) -> None:
    (loaded,) = next(iter(apsw_conn.execute("SELECT mimomem_version()")))
    assert mimomem.sqlite.tokenizer_version() == loaded


def test_loading_twice_is_harmless(apsw_conn: Any) -> None:
    apsw_conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem'); INSERT INTO t VALUES ('部署脚本')")
    mimomem.sqlite.load(apsw_conn)
    mimomem.sqlite.load(apsw_conn)
    assert [(1,)] == list(apsw_conn.execute("SELECT rowid FROM t WHERE t MATCH '部署'"))
    assert [("部署", 0, 6)] == tokens_via(apsw_conn, "部署")


def test_the_stdlib_sqlite3_loads_it_or_says_what_instead(extension_path: str) -> None:
    conn = sqlite3.connect(":memory:")
    try:
        if hasattr(conn, "enable_load_extension"):
            mimomem.sqlite.load(conn)
            assert [("部署", 0, 6)] == tokens_via(conn, "部署")
            return
        with pytest.raises(LoadExtensionUnsupportedError, match=r"apsw.*another|pre-tokenized") as caught:
            mimomem.sqlite.load(conn)
        assert "enable_load_extension" in str(caught.value)
    finally:
        conn.close()


def test_a_connection_that_cannot_load_extensions_is_refused(extension_path: str) -> None:
    class NoExtensions:
        def execute(self, sql: str) -> None:
            raise AssertionError("never reached")

    with pytest.raises(LoadExtensionUnsupportedError, match="apsw"):
        mimomem.sqlite.load(NoExtensions())


def test_a_missing_library_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "_SUFFIX", ".not-built")
    with pytest.raises(ExtensionNotBuiltError, match="libsqlite3-dev"):
        mimomem.sqlite.loadable_path()


def test_the_sqlite3_cli_loads_it_by_its_path(extension_path: str) -> None:
    out = run_cli(extension_path, "SELECT mimomem_version(); SELECT mimomem_tokens('部署脚本 Crème');")
    version, tokens = out.splitlines()
    assert mimomem.sqlite.tokenizer_version() == version
    assert [["部署", 0, 6], ["署脚", 3, 9], ["脚本", 6, 12], ["creme", 13, 19]] == json.loads(tokens)


def test_the_cli_finds_the_entry_point_without_a_suffix(extension_path: str) -> None:
    """``.load <dir>/libmimomem``: SQLite adds the suffix and derives ``sqlite3_mimomem_init`` from the name."""
    stem = str(Path(extension_path).with_suffix(""))
    script = "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem'); INSERT INTO t VALUES ('端口5433');"
    script += "SELECT count(*) FROM t WHERE t MATCH '端口';"
    assert "1" == run_cli(stem, script).strip()


def test_an_index_written_by_the_cli_reads_the_same_from_apsw(extension_path: str, tmp_path: Path) -> None:
    apsw = pytest.importorskip("apsw", reason="apsw (the test extra) loads the extension on any Python build")
    db = tmp_path / "cli.db"
    script = "CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem'); INSERT INTO t VALUES ('部署脚本用 pnpm');"
    run_cli(extension_path, script, str(db))
    conn = apsw.Connection(str(db))
    try:
        mimomem.sqlite.load(conn)
        assert [(1,)] == list(conn.execute("SELECT rowid FROM t WHERE t MATCH mimomem_query('脚本')"))
        assert [("ok",)] == list(conn.execute("INSERT INTO t(t, rank) VALUES('integrity-check', 1); SELECT 'ok'"))
    finally:
        conn.close()


def test_loading_in_a_fresh_process_does_not_import_the_rest_of_mimomem(extension_path: str) -> None:
    code = "import sys, mimomem.sqlite; print(sorted(m for m in sys.modules if m.startswith('mimomem.search')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "[]" == out.strip()
