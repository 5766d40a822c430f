"""BM25 index build time, query latency and peak memory: mimomem against its peers.

Engines, all fed the same generated documents and the same bigram tokens:

* ``native`` / ``pure`` - ``BM25Core.add_text`` per document (tokenizer inside);
  ``pure`` only at 1k and 10k;
* ``native+parse`` - the native index queried through ``parse_query`` (CJK phrases plus
  jieba segments, the product path) instead of a plain OR of tokens;
* ``sqlite-fts5`` - stdlib sqlite3 FTS5 over the space-joined tokens
  (``unicode61 remove_diacritics 1 tokenchars '_'``), in-memory DB, one transaction;
* ``tantivy`` - tantivy-py in-RAM index, ``whitespace`` tokenizer over the same joined
  tokens, positions indexed, 1 writer thread, commit + wait for merges;
* ``bm25s`` - bm25s (numpy backend, k1=1.2, b=0.75) fed token ids.

Query = OR of the query's distinct bigram tokens, top 10, over the 200 generated queries;
latency includes query tokenization and fetching the ids.  Peer engines tokenize with the
native tokenizer when it is built.  Latencies are CPU time of the process
(``time.process_time``), which the other tenants of a shared machine barely disturb;
build time is reported both as wall-clock and as CPU time (ratios use CPU time; for
tantivy it includes its merge thread).  Each engine x size runs in its own process; peak
memory is ``ru_maxrss`` after build and queries minus ``ru_maxrss`` after imports and
corpus load.  ``python benchmarks/bench_bm25.py [--sizes 1k,10k,100k]`` prints the table
and the ratios against tantivy and SQLite FTS5; ``pytest benchmarks/bench_bm25.py`` runs
pytest-benchmark cases at 1k documents (MIMOMEM_BENCH_DOCS to change).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import corpus
import pytest

ENGINES = ["native", "native+parse", "pure", "sqlite-fts5", "tantivy", "bm25s"]
PURE_MAX_DOCS = 10_000
K = 10


def _tokenizer() -> Callable[[str], list]:
    from mimomem.text import _accel

    return _accel.tokenize_bigram


def _distinct(tokens: list) -> list[str]:
    return list(dict.fromkeys(t.text for t in tokens))


class MimomemEngine:
    """mimomem's BM25Core (native or pure); plain OR-of-tokens or parse_query phrases."""

    def __init__(self, twin: str, parsed: bool = False) -> None:
        if twin == "native":
            from mimomem import _native

            self.core_cls, self.tokenize = _native.BM25Core, _native.tokenize_bigram
        else:
            from mimomem.text import _bm25_py, _tokenizer_py

            self.core_cls, self.tokenize = _bm25_py.BM25Core, _tokenizer_py.tokenize_bigram
        self.parsed = parsed
        if parsed:
            from mimomem.text.query import parse_query

            self.parse_query = parse_query
            parse_query("预热结巴分词")  # load jieba's dictionary before the timing

    def build(self, docs: list[str]) -> float | None:
        core = self.core_cls()
        for i, text in enumerate(docs):
            core.add_text(i, text)
        self.core = core
        return None  # tokenizing happens inside add_text

    def search(self, query: str) -> list[int]:
        phrases = self.parse_query(query).phrases() if self.parsed else [(t,) for t in _distinct(self.tokenize(query))]
        return [d for d, _ in self.core.search(phrases, K)]

    def index_bytes(self) -> int:
        return self.core.memory_bytes()


class SqliteEngine:
    """Stdlib SQLite FTS5 over pre-tokenized text."""

    def __init__(self) -> None:
        self.tokenize = _tokenizer()

    def build(self, docs: list[str]) -> float:
        self.con = sqlite3.connect(":memory:")
        self.con.execute(
            "CREATE VIRTUAL TABLE t USING fts5(body, tokenize=\"unicode61 remove_diacritics 1 tokenchars '_'\")"
        )
        spent = [0.0]

        def rows():
            for i, text in enumerate(docs):
                start = time.process_time()
                body = " ".join(t.text for t in self.tokenize(text))
                spent[0] += time.process_time() - start
                yield i, body

        with self.con:
            self.con.executemany("INSERT INTO t(rowid, body) VALUES (?, ?)", rows())
        return spent[0]

    def search(self, query: str) -> list[int]:
        tokens = _distinct(self.tokenize(query))
        if not tokens:
            return []
        match = " OR ".join(f'"{t}"' for t in tokens)
        sql = "SELECT rowid FROM t WHERE t MATCH ? ORDER BY rank LIMIT ?"
        return [row[0] for row in self.con.execute(sql, (match, K))]

    def index_bytes(self) -> int:
        pages = self.con.execute("PRAGMA page_count").fetchone()[0]
        return pages * self.con.execute("PRAGMA page_size").fetchone()[0]

    def close(self) -> None:
        self.con.close()


class TantivyEngine:
    """tantivy-py, whitespace tokenizer over the space-joined bigram tokens."""

    def __init__(self) -> None:
        import tantivy

        self.tantivy = tantivy
        self.tokenize = _tokenizer()

    def build(self, docs: list[str]) -> float:
        tv = self.tantivy
        builder = tv.SchemaBuilder()
        builder.add_unsigned_field("id", stored=True)
        builder.add_text_field("body", stored=False, tokenizer_name="whitespace", index_option="position")
        self.schema = builder.build()
        self.index = tv.Index(self.schema)
        writer = self.index.writer(heap_size=128_000_000, num_threads=1)
        spent = 0.0
        for i, text in enumerate(docs):
            start = time.process_time()
            body = " ".join(t.text for t in self.tokenize(text))
            spent += time.process_time() - start
            writer.add_document(tv.Document(id=i, body=body))
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        return spent

    def search(self, query: str) -> list[int]:
        tv = self.tantivy
        tokens = _distinct(self.tokenize(query))
        if not tokens:
            return []
        q = tv.Query.boolean_query([(tv.Occur.Should, tv.Query.term_query(self.schema, "body", t)) for t in tokens])
        return [self.searcher.doc(addr)["id"][0] for _, addr in self.searcher.search(q, K).hits]

    def index_bytes(self) -> None:
        return None


class Bm25sEngine:
    """bm25s (numpy backend) built from token ids; top 10 by argpartition."""

    def __init__(self) -> None:
        import bm25s
        import numpy

        self.bm25s, self.np = bm25s, numpy
        self.tokenize = _tokenizer()

    def build(self, docs: list[str]) -> float:
        from bm25s.tokenization import Tokenized

        vocab: dict[str, int] = {}
        ids = []
        spent = 0.0
        for text in docs:
            start = time.process_time()
            tokens = self.tokenize(text)
            spent += time.process_time() - start
            ids.append([vocab.setdefault(t.text, len(vocab)) for t in tokens])
        self.vocab = vocab
        self.retriever = self.bm25s.BM25(k1=1.2, b=0.75)
        self.retriever.index(Tokenized(ids=ids, vocab=vocab), show_progress=False)
        return spent

    def search(self, query: str) -> list[int]:
        np = self.np
        ids = [self.vocab[t] for t in _distinct(self.tokenize(query)) if t in self.vocab]
        if not ids:
            return []
        scores = self.retriever.get_scores_from_ids(ids)
        top = np.argpartition(-scores, K)[:K] if len(scores) > K else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        return [int(i) for i in top if scores[i] > 0]

    def index_bytes(self) -> int:
        return sum(a.nbytes for a in self.retriever.scores.values() if hasattr(a, "nbytes"))


def make_engine(name: str):
    if name == "native":
        return MimomemEngine("native")
    if name == "native+parse":
        return MimomemEngine("native", parsed=True)
    if name == "pure":
        return MimomemEngine("pure")
    if name == "sqlite-fts5":
        return SqliteEngine()
    if name == "tantivy":
        return TantivyEngine()
    if name == "bm25s":
        return Bm25sEngine()
    raise SystemExit(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")


def _maxrss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux


def run_worker(name: str, n: int, passes: int) -> dict:
    """Build ``name`` over the first ``n`` documents and time the query passes."""
    docs = corpus.documents(n)
    queries = corpus.queries()
    engine = make_engine(name)
    gc.collect()
    baseline = _maxrss_bytes()
    start, cpu_start = time.perf_counter(), time.process_time()
    tokenize_s = engine.build(docs)
    build_s, build_cpu_s = time.perf_counter() - start, time.process_time() - cpu_start
    results = [engine.search(q) for q in queries]  # warm-up pass, also the results
    latencies = []  # CPU seconds: other processes on a shared machine barely disturb them
    for _ in range(passes):
        for q in queries:
            t0 = time.process_time()
            engine.search(q)
            latencies.append(time.process_time() - t0)
    peak = _maxrss_bytes() - baseline
    latencies.sort()
    out = {
        "engine": name,
        "docs": n,
        "mb": corpus.megabytes(docs),
        "build_s": build_s,
        "build_cpu_s": build_cpu_s,
        "tokenize_s": tokenize_s,
        "p50_ms": statistics.median(latencies) * 1e3,
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))] * 1e3,
        "qps": len(latencies) / sum(latencies),
        "peak_mib": peak / 2**20,
        "index_mib": (engine.index_bytes() or 0) / 2**20 or None,
        "with_hits": sum(1 for r in results if r),
        "results": results,
    }
    if hasattr(engine, "close"):
        engine.close()
    return out


def _subprocess(name: str, n: int, passes: int) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name, "--docs", str(n), "--passes", str(passes)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{name} at {n} docs failed:\n{proc.stderr}")
    return json.loads(proc.stdout.splitlines()[-1])


def _jaccard(a: list[int], b: list[int]) -> float:
    if not a and not b:
        return 1.0
    return len(set(a) & set(b)) / len(set(a) | set(b))


def _fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if not a or not b else f"{a / b:.2f}"


def report(rows: list[dict]) -> None:
    print(
        "\n| engine | docs | build s (wall) | build s (CPU) | …tokenize s (CPU) | p50 ms | p95 ms | queries/s | peak RSS Δ MiB | index MiB | queries with hits | J@10 vs FTS5 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    by_key = {(r["engine"], r["docs"]): r for r in rows}
    for r in rows:
        ref = by_key.get(("sqlite-fts5", r["docs"]))
        jac = statistics.mean(map(_jaccard, r["results"], ref["results"])) if ref else None
        print(
            f"| {r['engine']} | {r['docs']:,} | {r['build_s']:.2f} | {r['build_cpu_s']:.2f} | {_fmt(r['tokenize_s'])} | "
            f"{r['p50_ms']:.3f} | "
            f"{r['p95_ms']:.3f} | {r['qps']:,.0f} | {r['peak_mib']:.0f} | {_fmt(r['index_mib'], 1)} | "
            f"{r['with_hits']}/{len(r['results'])} | {_fmt(jac)} |"
        )
    for peer in ["tantivy", "sqlite-fts5"]:
        print(f"\nratios vs {peer} (engine / {peer}; lower is better)\n")
        print("| engine | docs | build (CPU) | p50 | p95 | peak RSS Δ |\n|---|---|---|---|---|---|")
        for r in rows:
            ref = by_key.get((peer, r["docs"]))
            if ref and r["engine"] != peer:
                print(
                    f"| {r['engine']} | {r['docs']:,} | {_ratio(r['build_cpu_s'], ref['build_cpu_s'])} | "
                    f"{_ratio(r['p50_ms'], ref['p50_ms'])} | {_ratio(r['p95_ms'], ref['p95_ms'])} | "
                    f"{_ratio(r['peak_mib'], ref['peak_mib'])} |"
                )
    largest = max(r["docs"] for r in rows)
    native = by_key.get(("native", largest))
    if native:
        print(f"\ntargets at {largest:,} documents:")
        checks = [
            ("p50 within 2x of tantivy", "tantivy", lambda n, p: n["p50_ms"] <= 2 * p["p50_ms"], "p50_ms"),
            ("p50 faster than SQLite FTS5", "sqlite-fts5", lambda n, p: n["p50_ms"] < p["p50_ms"], "p50_ms"),
            ("p50 faster than bm25s", "bm25s", lambda n, p: n["p50_ms"] < p["p50_ms"], "p50_ms"),
            ("peak memory <= SQLite FTS5", "sqlite-fts5", lambda n, p: n["peak_mib"] <= p["peak_mib"], "peak_mib"),
        ]
        for label, peer, ok, field in checks:
            ref = by_key.get((peer, largest))
            if ref:
                verdict = "met" if ok(native, ref) else "MISSED"
                print(
                    f"  {label}: {native[field]:.3f} vs {ref[field]:.3f} ({native[field] / ref[field]:.2f}x) {verdict}"
                )
        verdict = "met" if native["build_cpu_s"] < 5 else "MISSED"
        print(f"  build under 5 s: {native['build_cpu_s']:.2f} s CPU ({native['build_s']:.2f} s wall) {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1k,10k,100k", help="comma-separated corpus sizes")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated engines")
    parser.add_argument("--passes", type=int, default=0, help="timed query passes (default 3, 1 at 100k)")
    parser.add_argument("--json", help="also write the raw rows (with results) to this file")
    parser.add_argument("--repeat", type=int, default=1, help="independent runs of everything (medians, spread)")
    parser.add_argument(
        "--record", nargs="?", const="bm25", help="write benchmarks/results/NAME.json, no top-10 ids (default: bm25)"
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--docs", type=corpus.size_arg, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(run_worker(args.worker, args.docs, args.passes or 3)))
        return 0

    native_ok = subprocess.run([sys.executable, "-c", "import mimomem._native"], capture_output=True).returncode == 0
    rows = []
    for repetition in range(args.repeat):
        for n in [corpus.size_arg(s) for s in args.sizes.split(",")]:
            corpus.documents(n)  # generate and cache outside the measured processes
            for name in args.engines.split(","):
                if name == "pure" and n > PURE_MAX_DOCS:
                    continue
                if name.startswith("native") and not native_ok:
                    print(f"skip {name}: mimomem._native is not built", file=sys.stderr)
                    continue
                passes = args.passes or (1 if n >= 100_000 else 3)
                print(f"[{name} @ {n:,}, run {repetition + 1} of {args.repeat}]", file=sys.stderr, flush=True)
                rows.append({**_subprocess(name, n, passes), "run": repetition})
    if args.json:
        Path(args.json).write_text(json.dumps(rows), encoding="utf-8")
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")
    for repetition in range(args.repeat):
        report([r for r in rows if r["run"] == repetition])
    if args.record:
        import record

        kept = [{k: v for k, v in r.items() if k != "results"} for r in rows]
        record.save(
            args.record,
            ["benchmarks/bench_bm25.py", *(sys.argv[1:] if argv is None else argv)],
            {"repeat": args.repeat, "rows": kept},
        )
    return 0


# -- pytest-benchmark ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def bench_docs() -> list[str]:
    return corpus.documents(corpus.size_arg(os.environ.get("MIMOMEM_BENCH_DOCS", "1k")))


def _engine_or_skip(name: str):
    if name.startswith("native"):
        pytest.importorskip("mimomem._native")
    if name in ("tantivy", "bm25s"):
        pytest.importorskip(name)
    return make_engine(name)


@pytest.mark.parametrize("name", ENGINES)
def test_build(benchmark, bench_docs, name):
    engine = _engine_or_skip(name)
    benchmark.group = "bm25 build"
    benchmark.pedantic(engine.build, args=(bench_docs,), rounds=3, iterations=1)


@pytest.mark.parametrize("name", ENGINES)
def test_query_pass(benchmark, bench_docs, name):
    engine = _engine_or_skip(name)
    engine.build(bench_docs)
    queries = corpus.queries()
    benchmark.group = "bm25 200 queries"
    results = benchmark.pedantic(lambda: [engine.search(q) for q in queries], rounds=3, iterations=1, warmup_rounds=1)
    assert sum(1 for r in results if r) > len(queries) // 2


if __name__ == "__main__":
    sys.exit(main())
