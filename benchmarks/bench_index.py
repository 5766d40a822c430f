"""Index benchmarks: reconcile cost on a tree of Markdown files, query latency per backend.

Documents and queries come from ``corpus.py`` (generated agent-memory notes, the same
for every engine and size).

* ``python benchmarks/bench_index.py reconcile [--files 10000] [--record]`` - a tree of N memory
  files: first (cold) reconcile, then 5 reconciles with nothing changed, 3 after rewriting 1 %
  of the files, and 3 after ``touch``-ing 1 % (new mtime, same content); CPU and wall time of
  every one (``--record``: ``benchmarks/results/reconcile.json``).
* ``python benchmarks/bench_index.py query [--sizes 1k,10k,100k] [--runs 1]`` - per size:
  build time, native-index load time, and per backend the median and p95 latency of the
  200 queries as the memory tool runs them (limit 10, floor 0.15, snippets) and of the
  bare ranking (limit 10, no snippets).  Twenty warm-up queries first (jieba loads).
* ``pytest benchmarks/bench_index.py`` - pytest-benchmark versions at 1k (set
  ``MIMOMEM_BENCH_FILES`` / ``MIMOMEM_BENCH_DOCS`` for more).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import corpus
import pytest

BACKENDS = ("fts5-bigram", "native-index", "fts5-unicode61")


def make_tree(root: Path, n: int) -> list[Path]:
    """``n`` memory files spread over 50 projects and 50 sessions."""
    docs = corpus.documents(n)
    paths = []
    for i, text in enumerate(docs):
        if i % 2:
            path = root / "projects" / f"p{i % 50:02d}" / f"memory-n{i:06d}.md"
        else:
            path = root / "sessions" / f"s{i % 50:02d}" / f"note-{i:06d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def bench_reconcile(n: int) -> dict[str, dict[str, list[float]]]:
    """Cold, unchanged, 1 %-modified and 1 %-touched reconciles: CPU and wall seconds of every one."""
    from mimomem import MemoryIndex

    out: dict[str, dict[str, list[float]]] = {
        k: {"cpu_s": [], "wall_s": []} for k in ("cold", "unchanged", "modified_1pct", "touched_1pct")
    }

    def timed(kind: str, index: MemoryIndex) -> Any:
        t, c = time.perf_counter(), time.process_time()
        report = index.reconcile()
        out[kind]["cpu_s"].append(time.process_time() - c)
        out[kind]["wall_s"].append(time.perf_counter() - t)
        return report

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "memory"
        paths = make_tree(root, n)
        index = MemoryIndex(root, Path(tmp) / "mimomem.db", reconcile_on_search=False, progress=False)
        report = timed("cold", index)
        assert report.indexed == n, report
        for _ in range(5):
            report = timed("unchanged", index)
            assert report.unchanged == n and report.indexed == 0
        step = 100
        for r in range(3):
            chosen = paths[r::step][: max(1, n // 100)]
            for p in chosen:
                p.write_text(p.read_text(encoding="utf-8") + f"\nedit {r}\n", encoding="utf-8")
            report = timed("modified_1pct", index)
            assert report.indexed == len(chosen), report
            for p in chosen:
                st = p.stat()
                os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
            report = timed("touched_1pct", index)
            assert report.touched == len(chosen), report
        index.close()
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_query(n: int, runs: int = 1) -> dict[str, dict[str, float]]:
    """Build time, native load and per-backend latencies for ``n`` documents (seconds)."""
    from mimomem.search.document_index import DocumentIndex

    docs = corpus.documents(n)
    queries = corpus.queries()
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        index = DocumentIndex(Path(tmp) / "bench.db")
        t = time.perf_counter()
        index.add_documents((str(i), text) for i, text in enumerate(docs))
        out["build"] = {"seconds": time.perf_counter() - t}
        t = time.perf_counter()
        index.backend("native-index").load()
        out["native_load"] = {"seconds": time.perf_counter() - t}
        for q in queries[:20]:
            for backend in BACKENDS:
                index.search(q, backend=backend, limit=10, floor=0.15, snippets=True)
        for backend in BACKENDS:
            tool, rank = [], []
            for _ in range(runs):
                for q in queries:
                    t = time.perf_counter()
                    index.search(q, backend=backend, limit=10, floor=0.15, snippets=True)
                    t1 = time.perf_counter()
                    index.search(q, backend=backend, limit=10)
                    t2 = time.perf_counter()
                    tool.append(t1 - t)
                    rank.append(t2 - t1)
            out[backend] = {
                "tool_p50": statistics.median(tool),
                "tool_p95": _percentile(tool, 0.95),
                "rank_p50": statistics.median(rank),
                "rank_p95": _percentile(rank, 0.95),
                "size_bytes": index.size_bytes(backend),
            }
        index.close()
    return out


def main(argv: list[str]) -> int:
    from mimomem import native_available

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("reconcile")
    p.add_argument("--files", default="10k")
    p.add_argument("--record", action="store_true", help="write benchmarks/results/reconcile.json")
    p = sub.add_parser("query")
    p.add_argument("--sizes", default="1k,10k")
    p.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"engine: {'native' if native_available() else 'pure Python'}; Python {sys.version.split()[0]}")
    if args.what == "reconcile":
        n = corpus.size_arg(args.files)
        r = bench_reconcile(n)
        print(f"reconcile, {n} files (median; CPU, wall):")
        for key, value in r.items():
            print(f"  {key:<14}{_ms(statistics.median(value['cpu_s']))}{_ms(statistics.median(value['wall_s']))}")
        if args.record:
            import record

            record.save("reconcile", ["benchmarks/bench_index.py", *argv], {"files": n, "runs": r})
        return 0
    for size in args.sizes.split(","):
        n = corpus.size_arg(size)
        r = bench_query(n, args.runs)
        print(
            f"{n} documents: build {r['build']['seconds']:.1f} s, native-index load {r['native_load']['seconds']:.2f} s"
        )
        print(f"  {'backend':<16}{'tool p50':>12}{'tool p95':>12}{'rank p50':>12}{'rank p95':>12}{'size':>12}")
        for backend in BACKENDS:
            b = r[backend]
            print(
                f"  {backend:<16}{_ms(b['tool_p50'])}{_ms(b['tool_p95'])}{_ms(b['rank_p50'])}{_ms(b['rank_p95'])}"
                f"{b['size_bytes'] / 1e6:9.1f} MB"
            )
    return 0


# -- pytest-benchmark ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def reconciled_tree(tmp_path_factory):
    from mimomem import MemoryIndex

    n = corpus.size_arg(os.environ.get("MIMOMEM_BENCH_FILES", "1k"))
    tmp = tmp_path_factory.mktemp("tree")
    make_tree(tmp / "memory", n)
    index = MemoryIndex(tmp / "memory", tmp / "mimomem.db", reconcile_on_search=False, progress=False)
    index.reconcile()
    yield index, n
    index.close()


def test_reconcile_unchanged(benchmark, reconciled_tree):
    index, n = reconciled_tree
    report = benchmark(index.reconcile)
    assert report.unchanged == n


@pytest.fixture(scope="module")
def document_index():
    from mimomem.search.document_index import DocumentIndex

    n = corpus.size_arg(os.environ.get("MIMOMEM_BENCH_DOCS", "1k"))
    index = DocumentIndex()
    index.add_documents((str(i), text) for i, text in enumerate(corpus.documents(n)))
    for q in corpus.queries()[:5]:
        index.search(q, backend="native-index", limit=10)
    yield index
    index.close()


@pytest.mark.parametrize("backend", BACKENDS)
def test_query_latency(benchmark, document_index, backend):
    queries = corpus.queries()

    def run() -> int:
        return sum(
            len(document_index.search(q, backend=backend, limit=10, floor=0.15, snippets=True)) for q in queries[:50]
        )

    assert benchmark(run) > 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
