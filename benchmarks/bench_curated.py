"""Curated-memory recall latency at 1k / 10k / 100k memories, against a full scan.

Memories are generated reproducibly (seed 20261130): a third Chinese, a third English,
a third mixed, summaries of 4-8 words and bodies of 15-60 words, drawn by frequency from
jieba's dictionary (top 3,000 words) and a list of software terms.  Queries (seed 7) are
1-3 such words.  Memory ages are spread over 60 days, 2 % are pinned, a tenth are global.

Two implementations of the same formula are timed on the same store:

* ``CuratedMemory.recall`` - candidates from ``BM25Index`` (native when built) in growing
  batches, exact top-k (``count_hits=False`` so the timing is ranking only; the hit
  counter's locked state write is timed separately as ``recall+hits``);
* ``FullScan`` (below) - what the plugin design does: for every query, walk every memory,
  compute FTS5's bm25 from per-memory token lists, multiply, sort.

Recall, recall+hits and the full scan are timed as CPU (``time.thread_time``) and wall clock,
``--runs`` passes over the queries, every pass's p50 / p95 kept; the open (``reload``, in-process)
and ``remember_many`` once per size.  ``--record [NAME]`` writes ``benchmarks/results/NAME.json``
(default ``curated``; run it with ``MIMOMEM_PURE=1`` and ``--record curated-pure`` for the pure twin).

``python benchmarks/bench_curated.py [--sizes 1k,10k,100k] [--queries 200] [--record]`` prints the table;
``pytest benchmarks/bench_curated.py`` runs 1k and 10k (100k with MIMOMEM_BENCH_100K=1).

``--fresh [--sizes 500,2k,10k] [--runs 7]`` times what a hook pays instead: a new process that
imports the store, opens it and recalls once (or reads the hard rules and the outline, what
SessionStart shows), after ``remember_many`` left the caches warm.  Each figure is the CPU
(user + sys, ``RUSAGE_CHILDREN``) of the whole child, the median of ``--runs`` with the cases
taking turns, and its ratio to ``python -c pass`` measured the same way in the same run.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import mimomem
from mimomem import CuratedMemory, tokenize
from mimomem.text._bm25_py import fts5_idf, fts5_term_score
from mimomem.text.query import parse_query

SEED = 20261130
QUERY_SEED = 7
NOW = dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc)
SIZES = {"500": 500, "1k": 1_000, "2k": 2_000, "10k": 10_000, "100k": 100_000}

EN_WORDS = [
    "api",
    "cache",
    "config",
    "deploy",
    "docker",
    "build",
    "test",
    "lint",
    "commit",
    "branch",
    "merge",
    "rebase",
    "release",
    "version",
    "tokenizer",
    "bigram",
    "index",
    "query",
    "search",
    "recall",
    "memory",
    "session",
    "checkpoint",
    "project",
    "global",
    "rule",
    "redis",
    "postgres",
    "sqlite",
    "kafka",
    "nginx",
    "vite",
    "webpack",
    "pnpm",
    "npm",
    "yarn",
    "pytest",
    "ruff",
    "mypy",
    "cython",
    "numpy",
    "port",
    "host",
    "timeout",
    "retry",
    "backoff",
    "latency",
    "throughput",
    "budget",
    "token",
    "context",
    "window",
    "prompt",
    "model",
    "agent",
    "tool",
    "hook",
    "plugin",
    "server",
    "client",
    "request",
    "response",
    "header",
    "cookie",
    "auth",
    "login",
    "logout",
    "user",
    "schema",
    "migration",
    "column",
    "table",
    "row",
    "transaction",
    "lock",
    "mutex",
    "thread",
    "process",
    "queue",
    "worker",
    "job",
    "cron",
    "schedule",
    "log",
    "trace",
    "metric",
    "alert",
    "dashboard",
    "grafana",
    "prometheus",
    "kubernetes",
    "helm",
    "chart",
    "pod",
    "node",
    "cluster",
    "shard",
    "replica",
    "leader",
    "follower",
    "snapshot",
    "backup",
    "restore",
    "vacuum",
    "analyze",
    "explain",
    "frontend",
    "backend",
    "monorepo",
    "workspace",
    "package",
    "module",
    "import",
    "export",
    "function",
    "class",
    "method",
    "error",
    "exception",
    "warning",
    "panic",
    "crash",
    "bug",
    "fix",
    "patch",
    "hotfix",
    "regression",
    "flaky",
    "slow",
    "fast",
    "cold",
    "warm",
    "unicode",
    "utf8",
    "ascii",
    "nfkc",
    "casefold",
    "jieba",
    "segment",
    "phrase",
    "term",
    "score",
    "rank",
    "idf",
    "bm25",
    "fts5",
    "trigram",
]


def _zh_words(n: int = 3000) -> tuple[list[str], list[float]]:
    import jieba

    rows = []
    with jieba.get_dict_file() as handle:  # jieba's own dict.txt, opened in binary mode
        for raw in handle:
            parts = raw.decode("utf-8").split()
            if len(parts) >= 2 and len(parts[0]) >= 2:
                rows.append((int(parts[1]), parts[0]))
    rows.sort(reverse=True)
    words = [w for _, w in rows[:n]]
    cum_weights = list(itertools.accumulate(1.0 / (rank + 10) for rank in range(len(words))))
    return words, cum_weights


def generate_items(n: int, seed: int = SEED) -> list[dict]:
    """``n`` memory items (category, summary, body, load_when, pinned), reproducibly."""
    rng = random.Random(seed)
    zh, zh_w = _zh_words()
    en_w = list(itertools.accumulate(1.0 / (rank + 5) for rank in range(len(EN_WORDS))))
    categories = ["facts", "decisions", "pitfalls", "preferences"]
    scenarios = ["deploy", "review", "debug", "release", "部署", "调试"]

    def words(k: int, lang: str) -> list[str]:
        if lang == "zh":
            return rng.choices(zh, cum_weights=zh_w, k=k)
        if lang == "en":
            return rng.choices(EN_WORDS, cum_weights=en_w, k=k)
        n_zh = sum(rng.random() < 0.5 for _ in range(k))
        mixed = rng.choices(zh, cum_weights=zh_w, k=n_zh) + rng.choices(EN_WORDS, cum_weights=en_w, k=k - n_zh)
        rng.shuffle(mixed)
        return mixed

    items = []
    for i in range(n):
        lang = ("zh", "en", "mix")[i % 3]
        sep = "" if lang == "zh" else " "
        summary = sep.join(words(rng.randint(4, 8), lang)) + f" #{i}"
        body = sep.join(words(rng.randint(15, 60), lang))
        items.append(
            {
                "category": categories[i % len(categories)],
                "summary": summary,
                "body": body,
                "slug": f"m{i:06d}",
                "load_when": [rng.choice(scenarios)] if rng.random() < 0.1 else [],
                "pinned": rng.random() < 0.02,
            }
        )
    return items


def generate_queries(count: int, seed: int = QUERY_SEED) -> list[str]:
    rng = random.Random(seed)
    zh, zh_w = _zh_words()
    out = []
    for i in range(count):
        k = rng.randint(1, 3)
        pool = rng.choices(zh, cum_weights=zh_w, k=k) if i % 2 else rng.choices(EN_WORDS, k=k)
        out.append(" ".join(pool))
    return out


def build_store(n: int, directory: Path) -> tuple[CuratedMemory, float]:
    """Write ``n`` generated memories with ``remember_many`` (ages spread by a moving clock); wall seconds."""
    items = generate_items(n)
    rng = random.Random(SEED + 1)
    clock_value = [NOW]
    store = CuratedMemory(directory / "project", directory / "global", now=lambda: clock_value[0])
    start = time.perf_counter()
    for scope, part in (("project", items[: n - n // 10]), ("global", items[n - n // 10 :])):
        for chunk_start in range(0, len(part), 1000):
            clock_value[0] = NOW - dt.timedelta(days=rng.uniform(0, 60))
            result = store.remember_many(part[chunk_start : chunk_start + 1000], author="user", scope=scope)
            assert not result.refused, result.refused[:3]
    elapsed = time.perf_counter() - start
    clock_value[0] = NOW
    return store, elapsed


class FullScan:
    """The straightforward implementation of the same score: every memory, every query."""

    def __init__(self, store: CuratedMemory) -> None:
        self.store = store
        self.rows = []
        for m in store.memories():
            if not store._is_eligible(m):
                continue
            toks = [t.text for t in tokenize(m.text)]
            self.rows.append((m, toks, Counter(toks)))
        self.avgdl = sum(len(t) for _, t, _ in self.rows) / max(1, len(self.rows))

    @staticmethod
    def _count(toks: list[str], counts: Counter, phrase: tuple[str, ...]) -> int:
        if len(phrase) == 1:
            return counts.get(phrase[0], 0)
        if any(t not in counts for t in phrase):
            return 0
        n = len(phrase)
        return sum(1 for i in range(len(toks) - n + 1) if tuple(toks[i : i + n]) == phrase)

    def recall(self, query: str, limit: int = 4) -> list[tuple[str, float]]:
        phrases = parse_query(query, segment=True).phrases()
        freqs = [[self._count(toks, counts, p) for _, toks, counts in self.rows] for p in phrases]
        n_docs = len(self.rows)
        idfs = [fts5_idf(n_docs, sum(1 for f in fs if f)) for fs in freqs]
        now = self.store.now()
        hits = {scope: root.read_hits() for scope, root in self.store._roots.items()}
        scored = []
        for i, (m, toks, _) in enumerate(self.rows):
            base = 0.0
            matched = False
            for idf, fs in zip(idfs, freqs, strict=False):
                if fs[i]:
                    matched = True
                    base += fts5_term_score(idf, float(fs[i]), float(len(toks)), self.avgdl)
            if not matched:
                continue
            prior = 1.0 if m.scope == "project" else 0.5
            decay = self.store._decay(m, now)
            rehearsal = CuratedMemory.rehearsal(hits[m.scope].get(m.id, 0))
            scored.append((base * prior * decay * rehearsal, m.scope != "project", m.id))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        return [(i, s) for s, _, i in scored[:limit]]


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return statistics.median(ordered), p95


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU, wall) seconds of one call."""
    c, w = time.thread_time(), time.perf_counter()
    fn()
    return time.thread_time() - c, time.perf_counter() - w


def _passes(run: Callable[[str], object], queries: list[str], runs: int) -> dict[str, list[float]]:
    """Per run over ``queries``: p50 / p95 of CPU and wall ms."""
    out: dict[str, list[float]] = {}
    for _ in range(runs):
        cpu, wall = [], []
        for q in queries:
            c, w = _timed(lambda q=q: run(q))
            cpu.append(c * 1000)
            wall.append(w * 1000)
        for name, values in (("cpu", cpu), ("wall", wall)):
            p50, p95 = _percentiles(values)
            out.setdefault(f"{name}_p50_ms", []).append(p50)
            out.setdefault(f"{name}_p95_ms", []).append(p95)
    return out


def _open_build(n: int, directory: Path, kept: bool) -> dict[str, float | None]:
    if kept:
        for state in (directory / "project" / ".memory" / ".state.json", directory / "global" / ".state.json"):
            state.unlink(missing_ok=True)  # hit counts of an earlier run would change the scores
        return {"cpu_s": None, "wall_s": None}
    directory.mkdir(parents=True, exist_ok=True)
    c = time.process_time()
    _, wall = build_store(n, directory)
    return {"cpu_s": time.process_time() - c, "wall_s": wall}


def measure(n: int, n_queries: int, full_scan_queries: int, runs: int, reuse: Path | None = None) -> dict:
    """Build (or reuse) a store of ``n`` memories and time recall and the full scan on it: every run kept."""
    kept = reuse is not None and (reuse / str(n) / "project").is_dir()
    directory = reuse / str(n) if reuse is not None else Path(tempfile.mkdtemp(prefix=f"bench-curated-{n}-"))
    try:
        build = _open_build(n, directory, kept)
        fresh = CuratedMemory(directory / "project", directory / "global", now=NOW)
        open_cpu, open_wall = _timed(fresh.reload)
        queries = generate_queries(n_queries)
        fresh.recall("工作他们第一次测试部署", count_hits=False)  # load jieba's dictionary
        for q in queries[:20]:  # warm up caches
            fresh.recall(q, count_hits=False)
        recall = _passes(lambda q: fresh.recall(q, limit=4, count_hits=False), queries, runs)
        with_hits = _passes(lambda q: fresh.recall(q, limit=4, count_hits=True), queries[:50], runs)
        scan = FullScan(fresh)
        for q in queries[:full_scan_queries]:
            want = scan.recall(q, 4)
            got = [(r.id, r.score) for r in fresh.recall(q, limit=4, count_hits=False)]
            assert [i for i, _ in want] == [i for i, _ in got], (q, want, got)  # same formula, same answer
        full = _passes(lambda q: scan.recall(q, 4), queries[:full_scan_queries], runs)
        return {
            "n": n,
            "build": build,
            "open": {"cpu_s": open_cpu, "wall_s": open_wall},
            "recall": recall,
            "recall_hits": with_hits,
            "full_scan": full,
            "queries": len(queries),
            "hit_queries": min(50, len(queries)),
            "full_scan_queries": full_scan_queries,
        }
    finally:
        if reuse is None:
            shutil.rmtree(directory, ignore_errors=True)


FRESH_CASES = {
    "python -c pass": "pass",
    "import the store": "import mimomem.curated.store",
    "open + recall": "from mimomem import CuratedMemory as C; C({p!r}, {g!r}).recall({q!r}, limit=4, count_hits=False)",
    "open + hard rules + outline": "from mimomem import CuratedMemory as C; c = C({p!r}, {g!r}); c.hard_rules(); c.outline()",
}


def child_cpu(code: str, env: dict[str, str]) -> float:
    """CPU milliseconds (user + sys) of one whole ``python -c code`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def fresh(n: int, runs: int, reuse: Path | None) -> dict[str, list[float]]:
    """CPU ms of ``runs`` new processes per case of ``FRESH_CASES`` on a store of ``n`` memories."""
    directory = reuse / f"fresh-{n}" if reuse else Path(tempfile.mkdtemp(prefix="bench-curated-fresh-"))
    if not (directory / "project").is_dir():
        build_store(n, directory)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    query = generate_queries(1)[0]
    codes = {
        name: code.format(p=str(directory / "project"), g=str(directory / "global"), q=query)
        for name, code in FRESH_CASES.items()
    }
    for code in codes.values():
        child_cpu(code, env)  # warm-up: bytecode written, caches current
    samples: dict[str, list[float]] = {name: [] for name in codes}
    for _ in range(runs):
        for name, code in codes.items():
            samples[name].append(child_cpu(code, env))
    if reuse is None:
        shutil.rmtree(directory, ignore_errors=True)
    return samples


def main_fresh(sizes: list[str], runs: int, reuse: Path | None) -> int:
    print(f"native: {mimomem.native_available()}  python {sys.version.split()[0]}  load {os.getloadavg()[0]:.1f}")
    print("| memories | case | CPU p50 | min - max | x python -c pass |")
    print("| ---: | --- | ---: | ---: | ---: |")
    for label in sizes:
        samples = fresh(SIZES[label], runs, reuse)
        base = statistics.median(samples["python -c pass"])
        for name, values in samples.items():
            p50 = statistics.median(values)
            print(f"| {label} | {name} | {p50:.1f} ms | {min(values):.0f} - {max(values):.0f} | {p50 / base:.2f} |")
    print(f"(load {os.getloadavg()[0]:.1f} at the end)", flush=True)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="1k,10k,100k (--fresh: 500,2k,10k)")
    parser.add_argument("--fresh", action="store_true", help="time new processes: import, open, one recall")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--full-scan-queries", type=int, default=20)
    parser.add_argument(
        "--runs", type=int, default=None, help="passes over the queries, every one kept: default 3 (--fresh: 7)"
    )
    parser.add_argument("--reuse", type=Path, metavar="DIR", help="keep built stores in DIR/<n> and reuse them")
    parser.add_argument("--record", nargs="?", const="curated", help="write benchmarks/results/NAME.json")
    args = parser.parse_args(argv)
    caches = args.reuse or Path(tempfile.mkdtemp(prefix="bench-curated-cache-"))
    os.environ["MIMOMEM_CACHE_DIR"] = str(caches / "cache")  # snapshots: never the user's ~/.cache
    if args.fresh:
        return main_fresh((args.sizes or "500,2k,10k").split(","), args.runs or 7, args.reuse)
    args.sizes, args.runs = args.sizes or "1k,10k,100k", args.runs or 3
    print(f"native: {mimomem.native_available()}  python {sys.version.split()[0]}  cpus {os.cpu_count()}")
    print(
        "| memories | remember_many CPU | open CPU | recall p50 / p95 CPU | recall+hits p50 | full scan p50 | speed-up |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    sizes = {}
    for label in args.sizes.split(","):
        r = sizes[str(SIZES[label])] = measure(
            SIZES[label], args.queries, args.full_scan_queries, args.runs, args.reuse
        )
        med = statistics.median
        build = "(reused)" if r["build"]["cpu_s"] is None else f"{r['build']['cpu_s']:.1f} s"
        recall, scan = med(r["recall"]["cpu_p50_ms"]), med(r["full_scan"]["cpu_p50_ms"])
        print(
            f"| {label} | {build} | {r['open']['cpu_s']:.2f} s | {recall:.2f} / {med(r['recall']['cpu_p95_ms']):.2f} ms "
            f"| {med(r['recall_hits']['cpu_p50_ms']):.2f} ms | {scan:.2f} ms | {scan / recall:.0f}x |",
            flush=True,
        )
    if args.record:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import record

        record.save(args.record, ["benchmarks/bench_curated.py", *argv], {"runs": args.runs, "sizes": sizes})
    return 0


# -- pytest-benchmark ----------------------------------------------------------------------------
_PYTEST_SIZES = [1_000, 10_000] + ([100_000] if os.environ.get("MIMOMEM_BENCH_100K") else [])


@pytest.fixture(scope="module", params=_PYTEST_SIZES, ids=lambda n: f"{n // 1000}k")
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> CuratedMemory:
    store, _ = build_store(request.param, tmp_path_factory.mktemp("curated"))
    store.recall("warm up 部署", count_hits=False)
    return store


def test_recall(benchmark, built: CuratedMemory) -> None:  # type: ignore[no-untyped-def]
    queries = iter(generate_queries(10_000))
    benchmark(lambda: built.recall(next(queries), limit=4, count_hits=False))


def test_full_scan(benchmark, built: CuratedMemory) -> None:  # type: ignore[no-untyped-def]
    scan = FullScan(built)
    queries = iter(generate_queries(10_000))
    benchmark.pedantic(lambda: scan.recall(next(queries), 4), rounds=5, iterations=1)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
