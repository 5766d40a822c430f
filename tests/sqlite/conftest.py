"""Fixtures of the SQLite extension's tests: the built extension, apsw and the sqlite3 CLI with it loaded.

The extension must exist when ``MIMOMEM_REQUIRE_NATIVE=1`` (CI): a test needing it FAILS then
instead of skipping, so a green CI run always covered it.  apsw (in the test extra) is the
Python connection that can load it on every build; the stdlib ``sqlite3`` is tried too and
skipped, with the reason, where the Python build cannot load extensions.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

import mimomem.sqlite
from mimomem.errors import ExtensionNotBuiltError

CLI = shutil.which("sqlite3")


def required() -> bool:
    """True when the build had to make the extension (setup.py's rule: skipped only on purpose)."""
    return os.environ.get("MIMOMEM_REQUIRE_NATIVE") == "1" and os.environ.get("MIMOMEM_NO_SQLITE_EXTENSION") != "1"


@pytest.fixture(scope="session")
def extension_path() -> str:
    try:
        return mimomem.sqlite.loadable_path()
    except ExtensionNotBuiltError as exc:
        if required():
            pytest.fail(f"MIMOMEM_REQUIRE_NATIVE=1 but {exc}")
        pytest.skip(str(exc))


@pytest.fixture
def apsw_conn(extension_path: str) -> Iterator[Any]:
    apsw = pytest.importorskip("apsw", reason="apsw (the test extra) loads the extension on any Python build")
    conn = apsw.Connection(":memory:")
    mimomem.sqlite.load(conn)
    yield conn
    conn.close()


def tokens_via(conn: Any, text: str | bytes) -> list[tuple[str, int, int]]:
    """The extension's tokens of ``text`` (bytes are passed through as TEXT as they are)."""
    sql = "SELECT mimomem_tokens(CAST(? AS TEXT))" if isinstance(text, bytes) else "SELECT mimomem_tokens(?)"
    (out,) = next(iter(conn.execute(sql, (text,))))
    return [(t, s, e) for t, s, e in json.loads(out)]


def run_cli(extension_path: str, script: str, database: str = ":memory:") -> str:
    """Run ``script`` in the system sqlite3 CLI after ``.load``-ing the extension; its stdout."""
    if CLI is None:
        pytest.skip("no sqlite3 CLI on PATH")
    commands = f".bail on\n.load {extension_path}\n{script}\n"
    done = subprocess.run([CLI, "-batch", database], input=commands, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout
