"""Every user path at 1k / 10k / 100k items: CPU time, each measured in a fresh process.

The paths of issue 14 ("every user path stays fast from 1k to 1M items"):

* ``build``        - ``DocumentIndex.add_documents`` of N generated notes into a new database
  file (both FTS5 indexes; the native index file written too);
* ``query``        - the memory tool's query on that database (``search`` with limit 10,
  floor 0.15 and snippets): p50 / p95 over the 200 generated queries after 20 warm-ups,
  for ``fts5-bigram`` and ``native-index``;
* ``first-query``  - a new ``python -c`` process imports mimomem, opens the database and answers
  one query, per backend, with the default retrieval options and with ``retrieval="off"`` (for
  ``native-index`` this includes loading the index): the whole process's CPU, with the split
  (interpreter start / imports / open + query) it measures inside itself;
* ``remember``     - ``CuratedMemory.remember_many`` of N generated curated memories
  (``bench_curated.build_store``: chunks of 1000, 90 % project / 10 % global);
* ``open-recall``  - a new ``python -c`` process opens that store and recalls once (whole process
  and split): the first one right after each ``remember_many`` (``open-recall-first``: what the
  write left in the caches), then again;
* ``history-import`` - ``import_claude_code`` of N messages (Claude Code transcript lines
  made from the notes by ``mimomem.bench.paths.history_lines``) into a new history store;
* ``history-search`` - a new ``python -c`` process opens that store and searches it once (the
  first generated query), as ``mimomem history search`` does: whole process and split.

History at 1M messages (and its evidence queries) is ``bench_history.py``.

Every measurement runs in its own child process (``--worker``) and reports CPU time of that
process (``time.process_time``, or for the new-process paths the whole child's CPU from
``RUSAGE_CHILDREN``), which other load on a shared machine barely changes; the parent runs each
one ``--runs`` times, keeps every sample and prints medians, with the growth factor between
successive sizes (10x the items should cost about 10x for a build and much less for a query).
``--record [NAME]`` writes every sample to ``benchmarks/results/NAME.json`` (default ``scale``).

``python benchmarks/bench_scale.py [--sizes 1k,10k,100k] [--paths build,query,...] [--runs 3]
[--json out.json]``; ``--curated-sizes`` (default 1k,10k) bounds the slow curated writes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import corpus
from bench_process import CHILD

HERE = Path(__file__).resolve().parent
PATHS = ("build", "query", "first-query", "remember", "open-recall", "history-import", "history-search")
BACKENDS = ("fts5-bigram", "native-index")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- workers (run in a child process; print one JSON object) -------------------------------------


def work_build(n: int, workdir: Path) -> dict[str, Any]:
    from mimomem.search.document_index import DocumentIndex

    docs = corpus.documents(n)
    db = workdir / "bench.db"
    for suffix in ("", "-wal", "-shm", ".native"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    start, wall = time.process_time(), time.perf_counter()
    index = DocumentIndex(db)
    index.add_documents((str(i), text) for i, text in enumerate(docs))
    index.close()
    return {"cpu_s": time.process_time() - start, "wall_s": time.perf_counter() - wall}


def work_query(n: int, workdir: Path) -> dict[str, Any]:
    """The tool's query (default retrieval options), the same with ``retrieval="off"`` (mimomem
    0.1's query: one ranking), and the backend's ranking alone, per backend: p50 / p95 CPU ms."""
    import inspect

    from mimomem.search.document_index import DocumentIndex

    queries = corpus.queries()
    index = DocumentIndex(workdir / "bench.db")
    has_options = "retrieval" in inspect.signature(index.search).parameters
    cases: dict[str, Any] = {
        "": lambda q, b: index.search(q, backend=b, limit=10, floor=0.15, snippets=True),
        "off_": lambda q, b: index.search(
            q, backend=b, limit=10, floor=0.15, snippets=True, **({"retrieval": "off"} if has_options else {})
        ),
        "rank_": lambda q, b: index.rank(index.parse(q, b), b, limit=30),  # MemoryIndex fetches 30
    }
    out: dict[str, Any] = {}
    for backend in BACKENDS:
        for q in queries[:20]:
            for run in cases.values():
                run(q, backend)
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for q in queries:
            for name, run in cases.items():
                start = time.thread_time()
                run(q, backend)
                samples[name].append(time.thread_time() - start)
        out[backend] = {}
        for name, values in samples.items():
            out[backend][f"{name}p50_ms"] = statistics.median(values) * 1000
            out[backend][f"{name}p95_ms"] = _percentile(values, 0.95) * 1000
    index.close()
    return out


def work_remember(n: int, workdir: Path) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    import bench_curated

    # A new directory each run, the old one moved aside first and removed afterwards: creating
    # thousands of files right after deleting thousands makes ext4 spend seconds of system time in
    # the creates.  The store is written where open-recall reads it (the caches it leaves are kept
    # by path, so moving it afterwards would make open-recall start cold).
    store_dir = workdir / "curated"
    old = workdir / f"curated-old-{os.getpid()}"
    if store_dir.exists():
        store_dir.rename(old)
    store_dir.mkdir(parents=True)
    items = bench_curated.generate_items(n)  # generated outside the timing
    bench_curated.generate_items = lambda _n, seed=0: items  # build_store calls it
    start, wall = time.process_time(), time.perf_counter()
    bench_curated.build_store(n, store_dir)
    result = {"cpu_s": time.process_time() - start, "wall_s": time.perf_counter() - wall}
    shutil.rmtree(old, ignore_errors=True)
    return result


def work_history_import(n: int, workdir: Path) -> dict[str, Any]:
    from mimomem.bench.paths import _write_transcripts, history_lines
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.history_store import HistoryStore

    projects = workdir / "projects"
    if not projects.exists():  # generated outside the timing, once per size
        docs = corpus.documents(n)
        _write_transcripts(projects / "-work-app", history_lines([(str(i), t) for i, t in enumerate(docs)], n))
    for suffix in ("", "-wal", "-shm"):
        Path(f"{workdir / 'history.db'}{suffix}").unlink(missing_ok=True)
    start, wall = time.process_time(), time.perf_counter()
    with HistoryStore(workdir / "history.db") as store:
        import_claude_code(store, projects)
    return {"cpu_s": time.process_time() - start, "wall_s": time.perf_counter() - wall}


FIRST_QUERY = CHILD
"""The new-process first query is the one ``bench_process.py`` times: one script, both figures."""
HISTORY_SEARCH = """
import sys, time, json
t = time.process_time
start = t()
from mimomem.history.search import search_history
from mimomem.history.history_store import HistoryStore
imported = t()
with HistoryStore(sys.argv[1]) as store:
    search_history(store, sys.argv[2])
end = t()
print(json.dumps({"interpreter start": start, "imports": imported - start, "open + search": end - imported}))
"""
OPEN_RECALL = """
import sys, time, json, datetime as dt
t = time.process_time
start = t()
from mimomem import CuratedMemory
imported = t()
root, query = sys.argv[1:3]
now = dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc)  # bench_curated.NOW
CuratedMemory(root + "/project", root + "/global", now=now).recall(query, count_hits=False)
end = t()
print(json.dumps({"interpreter start": start, "imports": imported - start, "open + recall": end - imported}))
"""
"""New processes as a user starts them (``python -c``): their whole CPU is what a user pays."""


WORKERS = {
    "build": work_build,
    "query": work_query,
    "remember": work_remember,
    "history-import": work_history_import,
}


def worker(argv: list[str]) -> int:
    path, n, workdir = argv[0], int(argv[1]), Path(argv[2])
    os.environ["MIMOMEM_CACHE_DIR"] = str(workdir / "cache")  # snapshots and recall caches: never ~/.cache
    result = WORKERS[path](n, workdir)
    print(json.dumps(result))
    return 0


# -- parent ------------------------------------------------------------------------------------------


def run_child(*args: str) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE, check=False)
    if done.returncode != 0:
        raise SystemExit(f"worker {args} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def run_process(snippet: str, *args: str, cache: Path | None = None) -> tuple[float, dict[str, float]]:
    """CPU ms of one whole ``python -c`` process (``RUSAGE_CHILDREN``: interpreter start, imports,
    work, exit) and the in-process split it reports (ms). ``cache``: its MIMOMEM_CACHE_DIR."""
    env = {**os.environ, **({"MIMOMEM_CACHE_DIR": str(cache)} if cache else {})}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-c", snippet, *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"process {args} failed:\n{done.stderr}")
    whole = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return whole * 1000, {k: v * 1000 for k, v in json.loads(done.stdout.strip().splitlines()[-1]).items()}


def processes(runs: int, snippet: str, *args: str) -> dict[str, Any]:
    """``runs`` new processes after one warm-up (``native-index`` saves its file, the page cache holds the db)."""
    run_process(snippet, *args)
    return samples([run_process(snippet, *args) for _ in range(runs)])


def samples(rows: list[tuple[float, dict[str, float]]]) -> dict[str, Any]:
    return {"whole_ms": [w for w, _ in rows], "split_ms": {k: [s[k] for _, s in rows] for k in rows[0][1]}}


def column(rows: list[dict[str, Any]], *keys: str) -> list[float]:
    """One value per run: ``row[keys[0]][keys[1]]...`` of every row."""
    values = []
    for row in rows:
        for key in keys:
            row = row[key]
        values.append(float(row))  # type: ignore[arg-type]
    return values


def measure_size(n: int, paths: list[str], runs: int, curated: bool, workdir: Path) -> dict[str, Any]:
    """Every sample of every path at ``n`` items (one value per run)."""
    out: dict[str, Any] = {}
    query = corpus.queries()[0]
    db = str(workdir / "bench.db")
    if any(p in paths for p in ("build", "query", "first-query")):
        builds = [run_child("build", str(n), str(workdir)) for _ in range(runs if "build" in paths else 1)]
        if "build" in paths:
            out["build"] = {"cpu_s": column(builds, "cpu_s"), "wall_s": column(builds, "wall_s")}
    if "query" in paths:
        rows = [run_child("query", str(n), str(workdir)) for _ in range(runs)]
        out["query"] = {b: {k: column(rows, b, k) for k in rows[0][b]} for b in BACKENDS}
    if "first-query" in paths:
        out["first-query"] = {
            f"{b}, {'options off' if r else 'default options'}": processes(runs, FIRST_QUERY, db, b, r, query)
            for b in BACKENDS
            for r in ("", "off")
        }
    if curated and ("remember" in paths or "open-recall" in paths):
        import bench_curated

        recall = (str(workdir / "curated"), bench_curated.generate_queries(2)[0])
        rows, first = [], []
        for _ in range(runs):  # each write, then the first open after it (the caches it left)
            rows.append(run_child("remember", str(n), str(workdir)))
            if "open-recall" in paths:
                first.append(run_process(OPEN_RECALL, *recall, cache=workdir / "cache"))
        if "remember" in paths:
            out["remember"] = {"cpu_s": column(rows, "cpu_s"), "wall_s": column(rows, "wall_s")}
        if "open-recall" in paths:
            again = [run_process(OPEN_RECALL, *recall, cache=workdir / "cache") for _ in range(runs)]
            out["open-recall-first"] = samples(first)
            out["open-recall"] = samples(again)
    if "history-import" in paths or "history-search" in paths:
        rows = [
            run_child("history-import", str(n), str(workdir)) for _ in range(runs if "history-import" in paths else 1)
        ]
        if "history-import" in paths:
            out["history-import"] = {"cpu_s": column(rows, "cpu_s"), "wall_s": column(rows, "wall_s")}
        if "history-search" in paths:
            out["history-search"] = processes(runs, HISTORY_SEARCH, str(workdir / "history.db"), query)
    return out


def medians(samples: dict[str, Any]) -> dict[str, float]:
    """The median of every sample list in ``samples``, keyed by its path in the dict."""
    flat: dict[str, float] = {}
    for key, value in samples.items():
        if isinstance(value, dict):
            flat |= {f"{key} {k}": v for k, v in medians(value).items()}
        else:
            flat[key] = statistics.median(value)
    return flat


def print_table(results: dict[int, dict[str, Any]]) -> None:
    sizes = sorted(results)
    flat = {n: medians(results[n]) for n in sizes}
    keys = list(dict.fromkeys(k for n in sizes for k in flat[n]))
    print("\n| path (median of the runs) | " + " | ".join(f"{n:,}" for n in sizes) + " | growth per 10x |")
    print("|---|" + "---|" * len(sizes) + "---|")
    for key in keys:
        cells, growth = [], []
        for i, n in enumerate(sizes):
            value = flat[n].get(key)
            cells.append("-" if value is None else f"{value:.3f}" if value < 10 else f"{value:.1f}")
            prev = flat[sizes[i - 1]].get(key) if i else None
            if value is not None and prev:
                growth.append(f"{value / prev:.1f}x")
        print(f"| {key} | " + " | ".join(cells) + f" | {', '.join(growth) or '-'} |")


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--worker":
        return worker(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1k,10k,100k")
    parser.add_argument("--curated-sizes", default="1k,10k")
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", type=Path, help="work directory to keep (default: a temporary one)")
    parser.add_argument(
        "--record", nargs="?", const="scale", help="write benchmarks/results/NAME.json (default NAME: scale)"
    )
    args = parser.parse_args(argv)
    from mimomem import native_available

    paths = [p for p in args.paths.split(",") if p]
    sizes = [corpus.size_arg(s) for s in args.sizes.split(",")]
    curated_sizes = {corpus.size_arg(s) for s in args.curated_sizes.split(",") if s}
    print(f"native: {native_available()}; Python {sys.version.split()[0]}; CPU, median of {args.runs}")
    results: dict[int, dict[str, Any]] = {}
    base = args.keep or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    corpus.private_caches(base)
    try:
        for n in sizes:
            workdir = base / str(n)
            workdir.mkdir(parents=True, exist_ok=True)
            results[n] = measure_size(n, paths, args.runs, n in curated_sizes, workdir)
            print(f"{n}: {json.dumps(medians(results[n]))}", flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if args.record:
        import record

        data = {"runs": args.runs, "sizes": {str(n): r for n, r in results.items()}}
        record.save(args.record, ["benchmarks/bench_scale.py", *argv], data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
