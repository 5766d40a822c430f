"""The FTS5 tokenizer ``mimomem`` (the loadable extension) against the shadow column and the builtins.

Every index is built in the same process, on the same documents, through the same SQLite
(apsw's, since this machine's stdlib ``sqlite3`` cannot load extensions), each in its own
database file in a temporary directory:

* ``unicode61`` / ``trigram`` - FTS5's builtin tokenizers on the raw text (the baselines; they
  miss two-character Chinese words);
* ``shadow column`` - what mimomem's ``fts5-bigram`` backend does today: the Cython tokenizer
  (``tokenize_many``) writes space-joined bigrams, read by ``ascii tokenchars '_'``;
* ``mimomem tokenizer`` - the raw text into ``tokenize='mimomem'``: the same tokens, made
  inside SQLite by the extension.

Build = inserting every document in one transaction, then ``optimize``; insert MB/s = UTF-8 MB
of the original text per CPU second of the insert.  File = the database after ``optimize`` and
``VACUUM``.  Query p50 over the corpus's queries: ``MATCH`` with the shadow column's string made
by ``parse_query`` in Python (timed with and without that step) against ``MATCH
mimomem_query(?)`` on the tokenizer's table.  CPU seconds (``time.process_time``), median of
``--runs`` runs, every run kept (``--record`` writes them to ``benchmarks/results/fts5-tokenizer.json``).
Run ``python benchmarks/bench_fts5_tokenizer.py [--docs 10k] [--runs 5] [--record]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("MIMOMEM_CACHE_DIR", tempfile.mkdtemp(prefix="mimomem-bench-"))  # never ~/.cache

import corpus
import pytest

import mimomem
import mimomem.sqlite
from mimomem.search.db import BIGRAM_SPEC, shadow_tokens_many
from mimomem.text.query import parse_query

CASES = ("unicode61", "trigram", "shadow column", "mimomem tokenizer")
SPECS = {
    "unicode61": ("body", "unicode61 remove_diacritics 1"),
    "trigram": ("body", "trigram"),
    "shadow column": ("tokens", BIGRAM_SPEC),
    "mimomem tokenizer": ("body", "mimomem"),
}


def connect(path: Path) -> Any:
    import apsw

    conn = apsw.Connection(str(path))
    mimomem.sqlite.load(conn)
    return conn


def build(case: str, docs: list[str], path: Path) -> tuple[float, float, int, int]:
    """(insert CPU s, build CPU s incl. optimize, file bytes, token instances) of one index."""
    column, spec = SPECS[case]
    path.unlink(missing_ok=True)
    conn = connect(path)
    conn.execute(f'CREATE VIRTUAL TABLE t USING fts5({column}, tokenize="{spec}")')
    start = time.process_time()
    rows = shadow_tokens_many(docs) if case == "shadow column" else iter(docs)
    with conn:
        conn.executemany(f"INSERT INTO t(rowid, {column}) VALUES (?, ?)", enumerate(rows, 1))
    inserted = time.process_time()
    conn.execute("INSERT INTO t(t) VALUES('optimize')")
    built = time.process_time()
    conn.execute("VACUUM")
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, t, 'row')")
    ((tokens,),) = list(conn.execute("SELECT sum(cnt) FROM temp.v"))
    conn.close()
    return inserted - start, built - start, path.stat().st_size, int(tokens)


def p50_ms(run: Callable[[str], object], queries: list[str]) -> float:
    times = []
    for text in queries:
        start = time.process_time()
        run(text)
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


def query_times(directory: Path, queries: list[str]) -> dict[str, float]:
    shadow, native = connect(directory / "shadow column.db"), connect(directory / "mimomem tokenizer.db")
    sql = "SELECT rowid, bm25(t) FROM t WHERE t MATCH {} ORDER BY rank LIMIT 10"
    strings = {q: parse_query(q).to_fts5() or '""' for q in queries}
    made = {q: next(iter(native.execute("SELECT mimomem_query(?, 'full')", (q,))))[0] for q in queries}
    out = {
        "shadow MATCH (string ready)": p50_ms(lambda q: list(shadow.execute(sql.format("?"), (strings[q],))), queries),
        "shadow MATCH + parse_query": p50_ms(
            lambda q: list(shadow.execute(sql.format("?"), (parse_query(q).to_fts5() or '""',))), queries
        ),
        "MATCH mimomem_query(?)": p50_ms(
            lambda q: list(native.execute(sql.format("mimomem_query(?, 'full')"), (q,))), queries
        ),
        "tokenizer table MATCH (string ready)": p50_ms(
            lambda q: list(native.execute(sql.format("?"), (made[q],))), queries
        ),
    }
    shadow.close()
    native.close()
    return out


def measure(
    docs: list[str], queries: list[str], runs: int
) -> tuple[dict[str, list[tuple[float, float, int, int]]], dict[str, list[float]]]:
    builds: dict[str, list[tuple[float, float, int, int]]] = {case: [] for case in CASES}
    queried: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="mimomem-fts5-bench-") as tmp:
        for _ in range(runs):
            for case in CASES:
                builds[case].append(build(case, docs, Path(tmp) / f"{case}.db"))
            for name, ms in query_times(Path(tmp), queries).items():
                queried.setdefault(name, []).append(ms)
    return builds, queried


def report(
    docs: list[str], builds: dict[str, list[tuple[float, float, int, int]]], queried: dict[str, list[float]]
) -> None:
    mb = corpus.megabytes(docs)
    insert = {case: statistics.median(r[0] for r in rows) for case, rows in builds.items()}
    print(f"{len(docs):,} documents, {mb:.2f} MB UTF-8, median of {len(builds['unicode61'])} runs (CPU seconds)\n")
    print("| index | build s | insert MB/s | vs unicode61 | vs shadow column | file MB | tokens |")
    print("|---|---|---|---|---|---|---|")
    for case, rows in builds.items():
        build_s = statistics.median(r[1] for r in rows)
        size = statistics.median(r[2] for r in rows) / 1e6
        rate = mb / insert[case]
        print(
            f"| {case} | {build_s:.2f} | {rate:.1f} | {insert['unicode61'] / insert[case]:.0%} "
            f"| {insert['shadow column'] / insert[case]:.0%} | {size:.1f} | {rows[0][3] / 1e6:.2f} M |"
        )
    base = statistics.median(queried["shadow MATCH (string ready)"])
    print("\n| query (top 10 by bm25) | p50 ms | vs shadow MATCH |\n|---|---|---|")
    for name, values in queried.items():
        print(f"| {name} | {statistics.median(values):.3f} | {statistics.median(values) / base:.2f}x |")


@pytest.mark.parametrize("case", CASES)
def test_build(benchmark: Any, case: str, tmp_path: Path) -> None:
    """pytest-benchmark entry point: one index build (1k documents unless MIMOMEM_BENCH_DOCS is set)."""
    pytest.importorskip("apsw")
    try:
        mimomem.sqlite.loadable_path()
    except mimomem.errors.SqliteExtensionError as exc:
        pytest.skip(str(exc))
    docs = corpus.documents(corpus.size_arg(os.environ.get("MIMOMEM_BENCH_DOCS", "1k")))
    benchmark.pedantic(build, args=(case, docs, tmp_path / "index.db"), rounds=3)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=corpus.size_arg, default=corpus.size_arg("10k"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/fts5-tokenizer.json")
    args = parser.parse_args(argv)
    try:
        mimomem.sqlite.loadable_path()
        import apsw  # noqa: F401
    except (ImportError, mimomem.errors.SqliteExtensionError) as exc:
        print(f"cannot run: {exc}", file=sys.stderr)
        return 1
    docs, queries = corpus.documents(args.docs), corpus.queries()
    builds, queried = measure(docs, queries, args.runs)
    report(docs, builds, queried)
    if args.record:
        import record

        data = {
            "runs": args.runs,
            "docs": len(docs),
            "mb": corpus.megabytes(docs),
            "apsw_sqlite": apsw_sqlite(),
            "builds": {
                case: {
                    "insert_s": [r[0] for r in rows],
                    "build_s": [r[1] for r in rows],
                    "file_bytes": [r[2] for r in rows],
                    "tokens": rows[0][3],
                }
                for case, rows in builds.items()
            },
            "query_p50_ms": queried,
        }
        record.save("fts5-tokenizer", ["benchmarks/bench_fts5_tokenizer.py", *argv], data)
    return 0


def apsw_sqlite() -> str:
    import apsw

    return str(apsw.sqlitelibversion())


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
