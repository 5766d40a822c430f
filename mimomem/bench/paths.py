"""The user paths of ``mimomem bench --scale``: what each costs at each size, each in a new process.

* ``build``                  - ``DocumentIndex.add_documents`` of the generated notes into a new
  database file (both FTS5 indexes);
* ``first-query fts5-bigram`` / ``first-query native-index`` - a new process opens that database
  and answers one query the way the memory tool asks it (limit 10, floor, snippets); for
  ``native-index`` that includes mapping the saved index (one warm-up process builds it first);
* ``remember``               - ``CuratedMemory.remember_many`` of curated memories made from the
  notes (sizes up to ``CURATED_MAX`` unless asked for more: the writes are slow);
* ``open-recall``            - a new process opens that curated store and recalls once.

Each figure is the CPU time (``time.process_time``) of the child process for the path alone
(imports and reading the corpus excluded), the median of ``runs`` children after one warm-up
child: CPU time because a shared machine's load barely moves it, medians because it still does.
"""

from __future__ import annotations

import itertools
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

CURATED_MAX = 10_000
"""Largest size the curated paths run at by default (``remember_many`` of 100,000 takes minutes)."""

RUNS = 3
SLOWER = 1.5
"""``--compare`` notes a path whose CPU time grew by more than this factor (not a failure: timing is noisy)."""

CATEGORIES = ("facts", "decisions", "pitfalls", "preferences")


def curated_items(docs: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """Curated memories made from generated notes: a category, a one-line summary, the note as body."""
    items = []
    for n, (_, text) in enumerate(docs):
        first = text.strip().split("\n", 1)[0].strip("#- ")[:40] or "note"
        items.append({"category": CATEGORIES[n % len(CATEGORIES)], "summary": f"{first} #{n}", "body": text})
    return items


# -- children -------------------------------------------------------------------------------------


def _docs(workdir: Path) -> list[tuple[str, str]]:
    with (workdir / "docs.jsonl").open(encoding="utf-8") as handle:
        return [(str(doc_id), str(text)) for doc_id, text in map(json.loads, handle)]


def _child_build(workdir: Path, query: str) -> float:
    from mimomem.search.document_index import DocumentIndex

    docs = _docs(workdir)
    start = time.process_time()
    with DocumentIndex(workdir / "paths.db") as index:
        index.add_documents(docs)
    return time.process_time() - start


def _child_first_query(backend: str) -> Callable[[Path, str], float]:
    def run(workdir: Path, query: str) -> float:
        from mimomem.search.document_index import DocumentIndex

        start = time.process_time()
        with DocumentIndex(workdir / "paths.db") as index:
            index.search(query, backend=backend, limit=10, floor=0.15, snippets=True)
        return time.process_time() - start

    return run


def _child_remember(workdir: Path, query: str) -> float:
    import os

    from mimomem.curated.store import CuratedMemory

    items = curated_items(_docs(workdir))
    # a new directory each run, the last one renamed into place afterwards: creating thousands of
    # files right after deleting thousands costs ext4 seconds of system time
    fresh = workdir / f"run-{os.getpid()}"
    start = time.process_time()
    CuratedMemory(fresh / "project", fresh / "global").remember_many(items, author="user")
    seconds = time.process_time() - start
    for name in ("project", "global"):
        _remove_tree(workdir / name)
        if (fresh / name).exists():
            (fresh / name).rename(workdir / name)
    _remove_tree(fresh)
    return seconds


def _child_open_recall(workdir: Path, query: str) -> float:
    from mimomem.curated.store import CuratedMemory

    start = time.process_time()
    CuratedMemory(workdir / "project", workdir / "global").recall(query, count_hits=False)
    return time.process_time() - start


CHILDREN: dict[str, Callable[[Path, str], float]] = {
    "build": _child_build,
    "first-query fts5-bigram": _child_first_query("fts5-bigram"),
    "first-query native-index": _child_first_query("native-index"),
    "remember": _child_remember,
    "open-recall": _child_open_recall,
}
"""Path name -> what its child process times."""


def main(argv: Sequence[str]) -> int:
    """The child: ``main([path, workdir, query])`` prints the path's CPU seconds."""
    path, workdir, query = argv
    print(json.dumps(CHILDREN[path](Path(workdir), query)))
    return 0


# -- parent ---------------------------------------------------------------------------------------


def _run_child(path: str, workdir: Path, query: str) -> float:
    code = "import sys; from mimomem.bench.paths import main; sys.exit(main(sys.argv[1:]))"
    cmd = [sys.executable, "-c", code, path, str(workdir), query]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"mimomem bench: the {path!r} child failed:\n{done.stderr.strip()}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(path: str, workdir: Path, query: str, runs: int) -> float:
    """Median CPU seconds of ``runs`` children after one warm-up child (``build``/``remember``: no warm-up)."""
    if path in ("build", "remember"):  # each run starts from nothing: the last one leaves the data for the others
        times = []
        for _ in range(runs):
            for stale in workdir.glob("paths.db*"):
                stale.unlink()
            times.append(_run_child(path, workdir, query))
        return statistics.median(times)
    _run_child(path, workdir, query)  # warm-up: builds and saves what a second process reuses
    return statistics.median(_run_child(path, workdir, query) for _ in range(runs))


def _remove_tree(directory: Path) -> None:
    import shutil

    shutil.rmtree(directory, ignore_errors=True)


def run_paths(
    corpus: Sequence[tuple[str, str]],
    sizes: Sequence[int],
    query: str,
    *,
    workroot: Path,
    runs: int = RUNS,
    curated_max: int = CURATED_MAX,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """CPU seconds of every path at every size: ``{"runs", "paths": {path: {size: seconds}}}``."""
    out: dict[str, dict[str, float]] = {}
    for size in sizes:
        workdir = workroot / f"paths-{size}"
        workdir.mkdir(parents=True, exist_ok=True)
        with (workdir / "docs.jsonl").open("w", encoding="utf-8") as handle:
            for doc in corpus[:size]:
                handle.write(json.dumps(doc, ensure_ascii=False) + "\n")
        try:
            for path in CHILDREN:
                if path in ("remember", "open-recall") and size > curated_max:
                    continue
                if progress is not None:
                    progress(f"[scale] path {path}: {size} documents")
                out.setdefault(path, {})[str(size)] = measure(path, workdir, query, runs)
        finally:
            _remove_tree(workdir)
    return {"runs": runs, "query": query, "paths": out}


def growth(costs: dict[str, float]) -> list[float]:
    """How the cost grows between successive sizes, per 10x more items (1.0: flat, 10.0: linear)."""
    import math

    points = sorted((int(size), seconds) for size, seconds in costs.items())
    out = []
    for (n1, t1), (n2, t2) in itertools.pairwise(points):
        if t1 > 0 and t2 > 0 and n2 > n1:
            out.append((t2 / t1) ** (1 / math.log10(n2 / n1)))
    return out


def slower_paths(saved: dict[str, Any] | None, current: dict[str, Any] | None, factor: float = SLOWER) -> list[str]:
    """Paths whose CPU time grew by more than ``factor`` since ``saved`` (a ``run_paths`` result each)."""
    if not saved or not current:
        return []
    notes = []
    for path, costs in current.get("paths", {}).items():
        before = saved.get("paths", {}).get(path, {})
        for size, seconds in costs.items():
            old = before.get(size)
            if old and seconds > factor * old and seconds - old > 0.005:
                notes.append(f"{path} at {int(size):,}: {old:.3f} s -> {seconds:.3f} s CPU ({seconds / old:.1f}x)")
    return notes


__all__ = ["CHILDREN", "CURATED_MAX", "curated_items", "growth", "measure", "run_paths", "slower_paths"]
