"""Run backends over datasets and collect one JSON-ready result.

Timing protocol (kept simple so a default run stays under two minutes on 2 cores):
each engine is built once (``build_s`` = raw text to a queryable index, tokenization
included); every query is run once as warm-up, then once more timed on its own
(``perf_counter`` around ``search(query, k=100)``); p50 / p95 are nearest-rank over
those single timings.  Quality metrics come from the timed pass.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from mimomem.bench.datasets import Dataset, load_dataset
from mimomem.bench.engines import (
    BENCH_BACKENDS,
    PLAIN,
    Engine,
    check_name,
    make_engine,
    remove_workdir,
    unavailable_reason,
)
from mimomem.bench.metrics import METRICS, mean, percentile, score_query
from mimomem.errors import BackendUnavailableError, DatasetError

if TYPE_CHECKING:
    from mimomem.bench.candidate import Candidate

TOP_K = 100
"""Documents fetched per query (Recall@100 needs them; run files keep them)."""

SCHEMA = 1
"""Version of the JSON result layout; bumped when a key changes meaning."""

TIMING_NOTE = (
    "one build per engine; each query run once as warm-up, then timed once (k=100); wall clock and thread CPU time"
)

Progress = Callable[[str], None]


def stderr_progress(message: str) -> None:
    """Default progress sink: one line on stderr."""
    print(message, file=sys.stderr, flush=True)


def quiet(message: str) -> None:
    """Progress sink that drops everything."""


def resolve_backends(names: Sequence[str] | None, progress: Progress = quiet) -> tuple[list[str], dict[str, str]]:
    """Backends to run and those skipped (name -> reason).

    Explicitly requested names must exist and be runnable; the default (every backend)
    silently skips what cannot run here and says why.
    """
    if names:
        wanted = list(dict.fromkeys(check_name(name) for name in names))  # an old name gives the new one
        for name in wanted:
            reason = unavailable_reason(name)
            if reason is not None:
                raise BackendUnavailableError(f"backend {name} cannot run: {reason}")
        return [b for b in BENCH_BACKENDS if b in wanted], {}
    run, skipped = [], {}
    for name in BENCH_BACKENDS:
        reason = unavailable_reason(name)
        if reason is None:
            run.append(name)
        else:
            skipped[name] = reason
            progress(f"skipping backend {name}: {reason}")
    return run, skipped


def machine_info() -> dict[str, Any]:
    """The facts a reader needs to compare numbers across machines."""
    from mimomem import __version__, native_available

    info: dict[str, Any] = {
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "platform": platform.platform(),
        "cpu_count": _cpu_count(),
        "memory_bytes": _total_memory(),
        "mimomem": __version__,
        "native": native_available(),
    }
    return info


def _cpu_count() -> int | None:
    return os.cpu_count()


def _total_memory() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def rss_bytes() -> int | None:
    """Current resident set size of this process (Linux), or None."""
    try:
        with open("/proc/self/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Timings(NamedTuple):
    """Per-query seconds of one timed pass: wall clock and this thread's CPU time."""

    wall: list[float]
    cpu: list[float]

    def summary(self) -> dict[str, dict[str, float]]:
        """``latency_ms`` (wall) and ``cpu_ms`` (CPU), each p50 / p95 in milliseconds."""
        return {
            "latency_ms": {"p50": percentile(self.wall, 50) * 1000, "p95": percentile(self.wall, 95) * 1000},
            "cpu_ms": {"p50": percentile(self.cpu, 50) * 1000, "p95": percentile(self.cpu, 95) * 1000},
        }


def time_queries(
    engine: Engine, queries: Sequence[str], k: int = TOP_K
) -> tuple[list[list[tuple[str, float]]], Timings]:
    """Warm-up pass, then each query timed once; returns (results, timings).

    CPU time is recorded next to wall time because on a shared machine the wall-clock
    tail is mostly scheduler preemption (slices of a few ms), not the engine.
    """
    for text in queries:
        engine.search(text, k)
    results, timings = [], Timings([], [])
    wall, cpu = time.perf_counter, time.thread_time
    for text in queries:
        start, start_cpu = wall(), cpu()
        hits = engine.search(text, k)
        timings.cpu.append(cpu() - start_cpu)
        timings.wall.append(wall() - start)
        results.append(hits)
    return results, timings


def _timed_build(engine: Engine, docs: Sequence[tuple[str, str]]) -> float:
    start = time.perf_counter()
    engine.build(docs)
    return time.perf_counter() - start


def run_backend(
    engine: Engine,
    dataset: Dataset,
    *,
    run_dir: Path | None = None,
    progress: Progress = quiet,
) -> dict[str, Any]:
    """Build ``engine`` on ``dataset``, run its evaluated queries and score them."""
    queries = dataset.judged_queries
    progress(f"[{dataset.name}] {engine.name}: building over {len(dataset.docs)} documents")
    build_s = _timed_build(engine, dataset.docs)
    progress(f"[{dataset.name}] {engine.name}: built in {build_s:.2f} s; running {len(queries)} queries twice")
    results, timings = time_queries(engine, [q.text for q in queries])
    per_query: dict[str, dict[str, Any]] = {}
    for query, hits in zip(queries, results, strict=True):
        ranking = [d for d, _ in hits]
        qrel = dataset.qrels.get(query.qid, {})
        scores = score_query(ranking, qrel)
        per_query[query.qid] = {
            "text": query.text,
            "category": query.category,
            **scores,
            "returned": len(hits),
            "relevant_ranks": {d: r for r, d in enumerate(ranking, 1) if qrel.get(d, 0) > 0},
            "tokens": engine.query_tokens(query.text),
        }
    if run_dir is not None:
        write_run_file(run_dir / f"{dataset.name}.{engine.name}.trec", [q.qid for q in queries], results, engine.name)
    result: dict[str, Any] = {"backend": engine.name, "policy": str(getattr(engine, "policy", PLAIN))}
    result.update(_aggregate(list(per_query.values())))
    result.update(timings.summary())
    result["build_s"] = build_s
    result["index_bytes"] = {"disk": engine.size_bytes(), "memory": engine.memory_bytes()}
    categories: dict[str, dict[str, Any]] = {}
    for cat in dataset.categories():
        rows = [per_query[q.qid] for q in queries if q.category == cat]
        categories[cat] = {"queries": len(rows), **_aggregate(rows)}
    result["categories"] = categories
    result["queries"] = per_query
    return result


def _aggregate(rows: list[dict[str, Any]]) -> dict[str, float]:
    out = {m: mean([r[m] for r in rows]) for m in METRICS}
    out["zero_result_share"] = mean([1.0 if r["returned"] == 0 else 0.0 for r in rows])
    return out


def write_run_file(path: Path, qids: Sequence[str], results: Sequence[Sequence[tuple[str, float]]], tag: str) -> None:
    """Write a TREC run: ``qid Q0 docid rank score tag``, one line per retrieved document."""
    from mimomem.common.files import atomic_write

    lines = []
    for qid, hits in zip(qids, results, strict=True):
        for rank, (doc_id, score) in enumerate(hits[:TOP_K], 1):
            lines.append(f"{qid} Q0 {doc_id} {rank} {score!r} {tag}\n")
    path.parent.mkdir(exist_ok=True)  # the run directory itself; its parent must exist
    atomic_write(path, "".join(lines))


def run_dataset(
    dataset: Dataset,
    backends: Sequence[str],
    *,
    workroot: Path,
    run_dir: Path | None = None,
    progress: Progress = quiet,
) -> dict[str, Any]:
    """Every backend on one dataset, each in its own scratch directory."""
    out = []
    for name in backends:
        workdir = workroot / f"{dataset.name}-{name}"
        engine = make_engine(name, workdir)
        try:
            out.append(run_backend(engine, dataset, run_dir=run_dir, progress=progress))
        finally:
            engine.close()
            remove_workdir(workdir)
    return {
        "name": dataset.name,
        "path": str(dataset.path),
        "documents": len(dataset.docs),
        "queries": len(dataset.judged_queries),
        "categories": dataset.categories(),
        "judged_documents_missing": dataset.missing_docs,
        "backends": out,
    }


EXPECTED_COLUMNS = {
    "unicode61": ("fts5-unicode61",),
    "trigram": ("fts5-trigram",),
    "bigram": ("fts5-bigram", "native-index"),
}
"""Which backends each expectation column of ``cases.json`` applies to."""


def run_failures(
    cases_path: Path, backends: Sequence[str], *, workroot: Path, progress: Progress = quiet
) -> dict[str, Any]:
    """The failures table: for each case, the hits of each backend on an index of its one document."""
    try:
        spec = json.loads(cases_path.read_text(encoding="utf-8"))
        cases = spec["cases"]
        for case in cases:
            for key in ("query", "document", "expected_hits"):
                if key not in case:
                    raise KeyError(key)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DatasetError(
            f"{cases_path}: not a failures case file ({exc}); "
            "expected {'cases': [{query, document, expected_hits}]}"
        ) from None
    documents = list(dict.fromkeys(c["document"] for c in cases))
    hits: dict[tuple[str, str], dict[str, int]] = {}
    for name in backends:
        progress(f"[failures] {name}: {len(cases)} cases")
        for number, document in enumerate(documents):
            workdir = workroot / f"failures-{name}-{number}"
            engine = make_engine(name, workdir)
            try:
                engine.build([("doc", document)])
                for case in cases:
                    if case["document"] == document:
                        hits.setdefault((document, case["query"]), {})[name] = len(engine.search(case["query"], TOP_K))
            finally:
                engine.close()
                remove_workdir(workdir)
    rows = []
    for number, case in enumerate(cases, 1):
        got = hits[(case["document"], case["query"])]
        checks = {}
        for column, expected in case["expected_hits"].items():
            for backend in EXPECTED_COLUMNS.get(column, ()):
                if backend in got:
                    checks[backend] = got[backend] == expected
        rows.append(
            {
                "row": case.get("row", number),
                "document": case["document"],
                "query": case["query"],
                "expected": dict(case["expected_hits"]),
                "hits": {b: got[b] for b in backends},
                "as_expected": checks,
            }
        )
    return {
        "source": str(cases_path),
        "rows": rows,
        "all_as_expected": all(all(r["as_expected"].values()) for r in rows),
    }


def find_cases(dataset_paths: Sequence[Path]) -> Path | None:
    """The first ``cases.json`` among the dataset directories, if any."""
    for path in dataset_paths:
        candidate = Path(path) / "cases.json"
        if candidate.is_file():
            return candidate
    return None


def run_bench(
    dataset_paths: Sequence[Path],
    backends: Sequence[str] | None = None,
    *,
    run_dir: Path | None = None,
    failures: bool = True,
    failures_only: bool = False,
    scale: Sequence[int] = (),
    progress: Progress = quiet,
    tokenizer: Candidate | None = None,
) -> dict[str, Any]:
    """The whole benchmark as one JSON-ready dict (see the README for its keys).

    ``tokenizer``: a candidate (``mimomem.bench.candidate.load_tokenizer``) whose runs and
    token diffs go under the ``candidate`` key, next to the shipped rows.
    """
    names, skipped = resolve_backends(backends, progress)
    datasets = [] if failures_only else [load_dataset(p) for p in dataset_paths]
    result: dict[str, Any] = {
        "schema": SCHEMA,
        "machine": machine_info(),
        "timing": TIMING_NOTE,
        "backends": names,
        "skipped_backends": skipped,
        "datasets": [],
        "failures": None,
        "scale": None,
    }
    with tempfile.TemporaryDirectory(prefix="mimomem-bench-") as tmp:
        workroot = Path(tmp)
        for dataset in datasets:
            result["datasets"].append(
                run_dataset(dataset, names, workroot=workroot, run_dir=run_dir, progress=progress)
            )
        cases = find_cases(dataset_paths) if (failures or failures_only) else None
        if failures_only and cases is None:
            raise DatasetError(
                "no cases.json in the given datasets; --failures needs corpora/failures (or a dataset with cases.json)"
            )
        if tokenizer is not None:
            from mimomem.bench.candidate_run import run_candidate

            result["candidate"] = run_candidate(
                datasets, names, tokenizer, workroot=workroot, progress=progress, shipped=result["datasets"]
            )
        if cases is not None:
            result["failures"] = run_failures(cases, names, workroot=workroot, progress=progress)
        if scale:
            from mimomem.bench.scale import run_scale

            result["scale"] = run_scale(scale, names, workroot=workroot, progress=progress, paths=True)
    return result
