"""The user paths of ``mimomem bench --scale``: what each costs at each size, each in a new process.

* ``build``                  - ``DocumentIndex.add_documents`` of the generated notes into a new
  database file (both FTS5 indexes);
* ``first-query fts5-bigram`` / ``first-query native-index`` - a new process opens that database
  and answers one query the way the memory tool asks it (limit 10, floor, snippets); for
  ``native-index`` that includes mapping the saved index (one warm-up process builds it first);
* ``remember``               - ``CuratedMemory.remember_many`` of curated memories made from the
  notes (sizes up to ``CURATED_MAX`` unless asked for more: the writes are slow);
* ``open-recall``            - a new process opens that curated store and recalls once;
* ``history-import``         - ``import_claude_code`` of N messages (Claude Code transcript lines
  made from the notes: a request, a shell call, its result; 99 per session) into a new store;
* ``history-search``         - a new process opens that store and searches it once
  (``mimomem history search``).

Each figure is the CPU time (``time.process_time``) of the child process for the path alone
(imports and reading the corpus excluded), the median of ``runs`` children after one warm-up
child: CPU time because a shared machine's load barely moves it, medians because it still does.
"""

from __future__ import annotations

import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CURATED_MAX = 10_000
"""Largest size the curated paths run at by default (``remember_many`` of 100,000 takes minutes)."""

RUNS = 3
SLOWER = 1.5
"""``--compare`` fails on a path whose CPU time grew by more than this factor (``--time-tolerance``)..."""
SLOWER_FLOOR = 0.05
"""... and by more than this many seconds (``--time-floor``): a few ms more of a fast path is noise."""
HISTORY_SESSION = 99
"""Messages per generated transcript of the history paths (33 request, call, result triples)."""

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


def history_lines(docs: Sequence[tuple[str, str]], count: int) -> list[list[dict[str, Any]]]:
    """``count`` Claude Code transcript lines made from the notes, as transcripts of ``HISTORY_SESSION`` lines."""
    sessions: list[list[dict[str, Any]]] = []
    for n in range(count):
        if n % HISTORY_SESSION == 0:
            sessions.append([])
        sid = f"{len(sessions):08x}-0000-4000-8000-{0:012x}"
        doc_id, text = docs[(n // 3) % len(docs)]
        base = {"sessionId": sid, "uuid": f"{sid}-{n}", "cwd": "/work/app", "timestamp": 1_767_000_000 + 7 * n}
        call = f"toolu_{n - n % 3}"
        if n % 3 == 0:
            line = {"type": "user", "message": {"role": "user", "content": text}}
        elif n % 3 == 1:
            use = {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": f"grep -rn {doc_id} notes/"}}
            line = {"type": "assistant", "message": {"role": "assistant", "content": [use]}}
        else:
            back = {"type": "tool_result", "tool_use_id": call, "content": text[:200], "is_error": n % 30 == 2}
            line = {"type": "user", "message": {"role": "user", "content": [back]}}
        sessions[-1].append(base | line)
    return sessions


def _child_history_import(workdir: Path, query: str) -> float:
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.history_store import HistoryStore

    start = time.process_time()
    with HistoryStore(workdir / "history.db") as store:
        import_claude_code(store, workdir / "projects")
    return time.process_time() - start


def _child_history_search(workdir: Path, query: str) -> float:
    from mimomem.history.history_store import HistoryStore
    from mimomem.history.search import search_history

    start = time.process_time()
    with HistoryStore(workdir / "history.db") as store:
        search_history(store, query)
    return time.process_time() - start


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
    "history-import": _child_history_import,
    "history-search": _child_history_search,
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
    env = {**os.environ, "MIMOMEM_CACHE_DIR": str(workdir / "cache")}  # curated snapshots stay in the work tree
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"mimomem bench: the {path!r} child failed:\n{done.stderr.strip()}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


FROM_NOTHING = {"build": "paths.db*", "remember": "paths.db*", "history-import": "history.db*"}
"""Paths whose every run starts from nothing, and the files each run removes first."""


def measure(path: str, workdir: Path, query: str, runs: int) -> float:
    """Median CPU seconds of ``runs`` children after one warm-up child (``FROM_NOTHING``: no warm-up)."""
    if path in FROM_NOTHING:  # each run starts from nothing: the last one leaves the data for the others
        times = []
        for _ in range(runs):
            for stale in workdir.glob(FROM_NOTHING[path]):
                stale.unlink()
            times.append(_run_child(path, workdir, query))
        return statistics.median(times)
    _run_child(path, workdir, query)  # warm-up: builds and saves what a second process reuses
    return statistics.median(_run_child(path, workdir, query) for _ in range(runs))


def _write_transcripts(folder: Path, sessions: list[list[dict[str, Any]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for lines in sessions:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (folder / f"{lines[0]['sessionId']}.jsonl").write_text(text, encoding="utf-8")


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
        _write_transcripts(workdir / "projects" / "-work-app", history_lines(corpus[:size], size))
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


@dataclass(frozen=True)
class SlowerPath:
    """A user path whose CPU time grew beyond the tolerance since the saved run."""

    path: str
    size: int
    saved: float
    current: float

    @property
    def ratio(self) -> float:
        return self.current / self.saved

    def describe(self) -> str:
        return (
            f"{self.path} at {self.size:,}: {self.saved:.3f} s -> {self.current:.3f} s CPU "
            f"({self.ratio:.2f}x, +{self.current - self.saved:.3f} s)"
        )


def slower_paths(
    saved: dict[str, Any] | None,
    current: dict[str, Any] | None,
    factor: float = SLOWER,
    floor: float = SLOWER_FLOOR,
) -> list[SlowerPath]:
    """Paths whose CPU time grew by more than ``factor`` *and* by more than ``floor`` seconds
    since ``saved`` (a ``run_paths`` result each; medians of runs already)."""
    if factor < 1 or floor < 0:
        raise ValueError(f"the time tolerance needs a factor >= 1 and a floor >= 0, got {factor} and {floor}")
    if not saved or not current:
        return []
    out = []
    for path, costs in current.get("paths", {}).items():
        before = saved.get("paths", {}).get(path, {})
        for size, seconds in costs.items():
            old = before.get(size)
            if old and seconds > factor * old and seconds - old > floor:
                out.append(SlowerPath(path, int(size), float(old), float(seconds)))
    return out


def unmatched_paths(saved: dict[str, Any] | None, current: dict[str, Any] | None) -> list[str]:
    """Path / size pairs timed in only one of the two runs (not compared)."""
    if not saved or not current:
        return []
    old = {(p, s) for p, costs in saved.get("paths", {}).items() for s in costs}
    new = {(p, s) for p, costs in current.get("paths", {}).items() for s in costs}
    return [
        f"user path {p} at {int(s):,}: in the {'saved' if (p, s) in old else 'current'} result only"
        for p, s in sorted(old ^ new)
    ]


__all__ = [
    "CHILDREN",
    "CURATED_MAX",
    "SlowerPath",
    "curated_items",
    "growth",
    "history_lines",
    "measure",
    "run_paths",
    "slower_paths",
    "unmatched_paths",
]
