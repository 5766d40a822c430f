"""The documented failure cases (corpora/failures) pass on a plain ``tokenize='mimomem'`` table.

From every client that can load the extension: apsw, the system sqlite3 CLI, and the stdlib
``sqlite3`` where this Python build can load extensions (skipped, with the reason, where not).
Each case's index holds only its document, queried with the double-quoted phrase (MiMo-Code's
query builder) and with ``mimomem_query``.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
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
    """The side-by-side table of docs/tokenizer.md, checked: the builtin tokenizers give the documented misses."""
    for case in CASES:
        phrase = '"' + case["query"].replace('"', '""') + '"'
        for tokenizer in ("unicode61", "trigram"):
            apsw_conn.execute(
                f"DROP TABLE IF EXISTS b; CREATE VIRTUAL TABLE b USING fts5(body, tokenize='{tokenizer}')"
            )
            apsw_conn.execute("INSERT INTO b(body) VALUES (?)", (case["document"],))
            (found,) = next(iter(apsw_conn.execute("SELECT count(*) FROM b WHERE b MATCH ?", (phrase,))))
            assert case["expected_hits"][tokenizer] == found, (tokenizer, case["query"])


OTHER_PYTHON_SCRIPT = """
import json, sqlite3, sys
path, cases = json.load(sys.stdin)
conn = sqlite3.connect(":memory:")
conn.enable_load_extension(True)
conn.load_extension(path)
out = []
for case in cases:
    conn.execute("DROP TABLE IF EXISTS t")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='mimomem')")
    conn.execute("INSERT INTO t(body) VALUES (?)", (case["document"],))
    phrase = '"' + case["query"].replace('"', '""') + '"'
    plain = conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (phrase,)).fetchone()[0]
    ours = conn.execute("SELECT count(*) FROM t WHERE t MATCH mimomem_query(?)", (case["query"],)).fetchone()[0]
    out.append([plain, ours])
print(json.dumps(out))
"""


def other_pythons() -> list[str]:
    """Interpreters on this machine, other than this one, whose stdlib sqlite3 can load extensions."""
    found = []
    for name in ("/usr/bin/python3", shutil.which("python3"), shutil.which("python3.11"), shutil.which("python3.12")):
        if not name or not Path(name).exists() or Path(name).resolve() == Path(sys.executable).resolve():
            continue
        probe = "import sqlite3; raise SystemExit(0 if hasattr(sqlite3.Connection, 'enable_load_extension') else 1)"
        if subprocess.run([name, "-c", probe], capture_output=True, timeout=60).returncode == 0:
            found.append(str(Path(name).resolve()))
    return sorted(set(found))


def test_failure_cases_from_another_pythons_stdlib_sqlite3(extension_path: str) -> None:
    """The stdlib route, for real: a Python built with loadable extensions (e.g. Debian's) loads the file."""
    pythons = other_pythons()
    if not pythons:
        pytest.skip("no other Python here whose sqlite3 can load extensions")
    for python in pythons:
        done = subprocess.run(
            [python, "-I", "-c", OTHER_PYTHON_SCRIPT],
            input=json.dumps([extension_path, CASES]),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        want = [[c["expected_hits"]["bigram"]] * 2 for c in CASES]
        assert want == json.loads(done.stdout), python
