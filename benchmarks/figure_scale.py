"""Renderers of the scale figures: every user path at 1k / 10k / 100k (bench_scale.py), curated
memory's writes and opens (bench_scale.py's curated paths), the history store (bench_history.py)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from figure_defs import figure, md_table, med, num, source, spread

# -- helpers ---------------------------------------------------------------------------------------


def _sizes(data: dict[str, Any]) -> list[str]:
    return sorted(data["sizes"], key=int)


def _k(n: str | int) -> str:
    """``100000`` -> ``100k``, ``1000000`` -> ``1M``."""
    value = int(n)
    return f"{value // 1_000_000}M" if value >= 1_000_000 else f"{value // 1000}k"


def _digits(value: float) -> int:
    return 3 if value < 1 else 2 if value < 10 else 1 if value < 100 else 0


def _auto(samples: Sequence[float], unit: str = "") -> str:
    """``median (lowest–highest)`` with as many digits as the median's size calls for."""
    return spread(samples, _digits(med(samples)), unit)


def _growth(values: Sequence[float]) -> str:
    return ", ".join(f"{b / a:.1f}x" for a, b in itertools.pairwise(values) if a)


def _runs(data: dict[str, Any]) -> str:
    return f"median (lowest–highest) of {data['runs']} runs"


# -- search paths (bench_scale.py, results/scale.json) ----------------------------------------------


def _query_cell(row: dict[str, list[float]], prefix: str) -> str:
    return f"{_auto(row[f'{prefix}p50_ms'])} / {num(med(row[f'{prefix}p95_ms']), 2)}"


@figure("scale-query", "scale")
def scale_query(data: dict[str, Any]) -> str:
    head = [
        "memories",
        "backend",
        "tool p50 / p95 ms",
        "tool, options off p50 / p95 ms",
        "rank p50 / p95 ms",
        "new process, whole, default / off: CPU ms",
        "its open + query (in-process), default / off",
    ]
    rows = []
    for n in _sizes(data):
        size = data["sizes"][n]
        for backend in ("native-index", "fts5-bigram"):
            q = size["query"][backend]
            first = [size["first-query"][f"{backend}, {case}"] for case in ("default options", "options off")]
            rows.append(
                [
                    f"{int(n):,}",
                    backend,
                    _query_cell(q, ""),
                    _query_cell(q, "off_"),
                    _query_cell(q, "rank_"),
                    " / ".join(_auto(f["whole_ms"]) for f in first),
                    " / ".join(num(med(f["split_ms"]["open + query"]), 1) for f in first),
                ]
            )
    footer = (
        f"CPU time; p50 cells: {_runs(data)} of each run's p50 over the 200 queries, p95 the median of the "
        "runs' p95. The new-process columns are the whole process (interpreter start, imports, open, one "
        "query, exit: what `mimomem search` costs), and beside it the part measured inside the process "
        f"after its imports. {source(data)}."
    )
    return md_table(head, rows, footer, first="---:")


@figure("scale-build", "scale")
def scale_build(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    cpu = " / ".join(_auto(data["sizes"][n]["build"]["cpu_s"], " s") for n in sizes)
    wall = med(data["sizes"][sizes[-1]]["build"]["wall_s"])
    return (
        f"Building the database (both FTS5 indexes) took {cpu} of CPU for "
        f"{' / '.join(_k(n) for n in sizes)} notes ({_runs(data)}; {wall:.1f} s wall at {_k(sizes[-1])}, "
        f"`benchmarks/bench_scale.py`, {data['date'][:10]}, load {data['machine']['load_1min']})"
    )


@figure("scale-growth", "scale")
def scale_growth(data: dict[str, Any]) -> str:
    sizes = _sizes(data)

    def series(*keys: str) -> str:
        values = []
        for n in sizes:
            node: Any = data["sizes"][n]
            for key in keys:
                node = node[key]
            values.append(med(node))
        return _growth(values)

    return (
        f"Growth per 10x more items ({' -> '.join(_k(n) for n in sizes)}, medians of {data['runs']} runs, CPU): "
        f"build {series('build', 'cpu_s')}; tool query p50 on native-index "
        f"{series('query', 'native-index', 'p50_ms')}, on fts5-bigram {series('query', 'fts5-bigram', 'p50_ms')}; "
        f"native-index ranking alone {series('query', 'native-index', 'rank_p50_ms')}; a new process's first "
        f"native-index query, whole process {series('first-query', 'native-index, default options', 'whole_ms')} "
        f"(its open + query {series('first-query', 'native-index, default options', 'split_ms', 'open + query')}); "
        f"history import {series('history-import', 'cpu_s')}, a history search in a new process "
        f"{series('history-search', 'whole_ms')} (whole process). {source(data)}"
    )


@figure("scale-history", "scale")
def scale_history(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    imports = " / ".join(_auto(data["sizes"][n]["history-import"]["cpu_s"]) for n in sizes)
    search = " / ".join(_auto(data["sizes"][n]["history-search"]["whole_ms"]) for n in sizes)
    inner = " / ".join(num(med(data["sizes"][n]["history-search"]["split_ms"]["open + search"]), 1) for n in sizes)
    return (
        f"On these long Chinese messages (about 300 characters) the import costs {imports} s CPU at "
        f"{' / '.join(_k(n) for n in sizes)} messages, and a `history search` in a new process {search} ms "
        f"(whole process; {inner} ms of it opening the store and searching, in-process)"
    )


# -- curated memory's writes and opens (bench_scale.py --paths remember,open-recall) -----------------


def _curated_line(data: dict[str, Any], key: str) -> str:
    sizes = _sizes(data)
    whole = " / ".join(_auto(data["sizes"][n][key]["whole_ms"]) for n in sizes)
    inner = " / ".join(num(med(data["sizes"][n][key]["split_ms"]["open + recall"]), 1) for n in sizes)
    return f"{whole} ms whole process ({inner} ms of it opening and recalling, in-process)"


@figure("curated-open-recall", "scale-curated")
def curated_open_recall(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    return (
        f"Open + one recall in a new process (`benchmarks/bench_scale.py`, CPU, {_runs(data)}), at "
        f"{' / '.join(_k(n) for n in sizes)} memories: {_curated_line(data, 'open-recall')}; the first open "
        f"right after each `remember_many`: {_curated_line(data, 'open-recall-first')}. {source(data)}"
    )


@figure("curated-remember", "scale-curated")
def curated_remember(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    cpu = " / ".join(_auto(data["sizes"][n]["remember"]["cpu_s"], " s") for n in sizes)
    wall = " / ".join(_auto(data["sizes"][n]["remember"]["wall_s"], " s") for n in sizes)
    return (
        f"`remember_many` of {' / '.join(_k(n) for n in sizes)} memories (chunks of 1,000): {cpu} of CPU, "
        f"{wall} wall ({_runs(data)}, a new directory each run; `benchmarks/bench_scale.py`, "
        f"{data['date'][:10]}, load {data['machine']['load_1min']})"
    )


# -- the goals of issue 14, against the recorded runs ------------------------------------------------


def _verdict(ok: bool) -> str:
    return "met" if ok else "**missed**"


@figure("scale-goals", ("scale", "scale-curated", "history"))
def scale_goals(all_data: dict[str, Any]) -> str:
    scale, curated, history = all_data["scale"], all_data["scale-curated"], all_data["history"]
    top = _sizes(scale)[-1]
    big, at = scale["sizes"][top], _k(top)
    rows: list[list[str]] = []
    build = big["build"]["cpu_s"]
    rows.append(
        [
            f"build the SQLite cache, {at} (both FTS5 indexes), CPU",
            _auto(build, " s"),
            "20 s",
            _verdict(med(build) <= 20),
        ]
    )
    for backend, prefix, label in (
        ("native-index", "", f"tool query, {at}, default backend (`native-index`) and options"),
        ("fts5-bigram", "", f"`fts5-bigram` tool query, {at}, default options"),
        ("fts5-bigram", "off_", f"`fts5-bigram` tool query, {at}, options off"),
    ):
        q = big["query"][backend]
        p50, p95 = med(q[f"{prefix}p50_ms"]), med(q[f"{prefix}p95_ms"])
        ok = f"p50 {_verdict(p50 <= 3)}, p95 {_verdict(p95 <= 15)}"
        rows.append([f"{label}, p50 / p95, CPU", f"{_auto(q[f'{prefix}p50_ms'])} / {p95:.2f} ms", "3 / 15 ms", ok])
    first = big["first-query"]["native-index, default options"]
    whole = med(first["whole_ms"]) / 1000
    rows.append(
        [
            f"first native-index query in a new process, {at}, whole process CPU (in-process open + query)",
            f"{_auto([v / 1000 for v in first['whole_ms']], ' s')} ({med(first['split_ms']['open + query']):.0f} ms)",
            "0.3 s",
            _verdict(whole <= 0.3),
        ]
    )
    c_sizes = _sizes(curated)
    if "10000" in curated["sizes"]:
        remember = curated["sizes"]["10000"]["remember"]["cpu_s"]
        rows.append(
            ["`CuratedMemory.remember_many`, 10k, CPU", _auto(remember, " s"), "2 s", _verdict(med(remember) <= 2)]
        )
    for n, goal in (("10000", 0.2), ("100000", 1.0)):
        if n not in c_sizes:
            what = f"open a curated root and recall once, {_k(n)}"
            rows.append(
                [what, "not measured in this run (its `remember_many` takes many minutes here)", f"{goal} s", "-"]
            )
        else:
            o = curated["sizes"][n]["open-recall"]
            secs = [v / 1000 for v in o["whole_ms"]]
            inner = med(o["split_ms"]["open + recall"]) / 1000
            rows.append(
                [
                    f"open a curated root and recall once, {_k(n)}, whole process CPU (in-process)",
                    f"{_auto(secs, ' s')} ({inner:.3f} s)",
                    f"{goal} s",
                    _verdict(med(secs) <= goal),
                ]
            )
    h_top = max(history["sizes"], key=int)
    h = history["sizes"][h_top]
    rate = med(h["import messages per second"])
    at_million = int(h_top) >= 1_000_000
    rows.append(
        [
            f"history import, {_k(max(history['sizes'], key=int))} messages, CPU",
            f"{_auto(h['import_s'], ' s')} ({rate / 1000:.1f}k/s)",
            "50k/s",
            _verdict(rate >= 50_000),
        ]
    )
    rows.append(
        [
            f"`history search`, {_k(max(history['sizes'], key=int))} messages, p50 / p95 (in-process CPU)",
            f"{_auto(h['search_p50_ms'])} / {med(h['search_p95_ms']):.0f} ms",
            "10 ms p50 at 1M",
            _verdict(med(h["search_p50_ms"]) <= 10) if at_million else "- (not measured at 1M)",
        ]
    )
    footer = (
        f"Medians of each file's runs (lowest–highest). Search paths: {source(scale)}. Curated: {source(curated)}. "
        f"History: {source(history)}."
    )
    return md_table(["path", "now", "goal", ""], rows, footer)


# -- the history store (bench_history.py, results/history.json) --------------------------------------

HISTORY_ROWS = (
    ("import (first)", "import_s", "s"),
    ("import, messages/s", "import messages per second", "rate"),
    ("import (nothing new)", "import_nothing_new_s", "s"),
    ("history search p50, over 24 queries", "search_p50_ms", "ms"),
    ("history search p95, over 24 queries", "search_p95_ms", "ms"),
    ("load the 7-day window (dream's)", "load 7 days_s", "s"),
    ("one session's trace (`tool_trace`)", "tool_trace (one session)_s", "s"),
    ("dream --dry-run (7 days)", "dream --dry-run (7 days)_s", "s"),
    ("distill (30 days)", "distill (30 days)_s", "s"),
    ("whole-project window: load", "load project_s", "s"),
)
EVIDENCE = ("statements", "repeated commands", "failures and fixes", "repeated failures", "files touched")


def _history_cell(samples: Sequence[float], kind: str) -> str:
    if kind == "rate":
        return spread([v / 1000 for v in samples], 1, "k")
    if kind == "ms":
        return _auto(samples, " ms")
    return _auto(samples, " s") if med(samples) >= 1 else _auto([v * 1000 for v in samples], " ms")


def _evidence_range(size: dict[str, Any], window: str) -> str:
    values = [med(size[f"{name} ({window})_s"]) for name in EVIDENCE]
    lo, hi = min(values), max(values)
    if hi >= 1:
        return f"{lo:.2f}–{hi:.2f} s"
    return f"{lo * 1000:.1f}–{hi * 1000:.1f} ms"


@figure("history-table", "history")
def history_table(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    head = ["step, CPU, " + _runs(data), *(f"{_k(n)} messages" for n in sizes)]
    rows = [[label, *(_history_cell(data["sizes"][n][key], kind) for n in sizes)] for label, key, kind in HISTORY_ROWS]
    rows.insert(
        6,
        [
            "evidence queries, 7-day window (load + query), medians",
            *(_evidence_range(data["sizes"][n], "7 days") for n in sizes),
        ],
    )
    rows.append(
        [
            "whole-project window: each evidence query, medians",
            *(_evidence_range(data["sizes"][n], "project") for n in sizes),
        ]
    )
    rows.append(
        [
            "JSONL / store MB",
            *(f"{data['sizes'][n]['jsonl_mb']:,.0f} / {data['sizes'][n]['store_mb']:,.0f}" for n in sizes),
        ]
    )
    return md_table(head, rows, f"In-process CPU (`time.process_time`). {source(data)}.")


@figure("history-scale", "history")
def history_scale(data: dict[str, Any]) -> str:
    sizes = _sizes(data)
    top = data["sizes"][sizes[-1]]
    p50 = " / ".join(num(med(data["sizes"][n]["search_p50_ms"]), 1) for n in sizes)
    p95 = " / ".join(num(med(data["sizes"][n]["search_p95_ms"]), 1) for n in sizes)
    bounded = [med(data["sizes"][n][f"{name} (7 days)_s"]) * 1000 for n in sizes for name in EVIDENCE]
    return (
        f"On generated Claude Code transcripts (`benchmarks/bench_history.py`, in-process CPU, {_runs(data)}) "
        f"{_k(sizes[-1])} messages import in {_auto(top['import_s'], ' s')} (about "
        f"{num(med(top['import messages per second']))} a second); importing again with nothing new "
        f"takes {_history_cell(top['import_nothing_new_s'], 's')}. `mimomem history search` lets FTS5 rank its matches "
        f"alone before any part is read: {p50} ms at the median for {' / '.join(_k(n) for n in sizes)} messages "
        f"(p95 {p95} ms; the generated transcripts have a tiny vocabulary, so FTS5 scores many matches). The "
        f"evidence behind `dream`, `distill` and `checkpoint` reads a bounded window (7 or 30 days, or one "
        f"session): each evidence query on the 7-day window {min(bounded):.1f}–{max(bounded):.1f} ms from "
        f"{_k(sizes[0])} to {_k(sizes[-1])} messages. Only evidence over a whole project's history grows with it "
        f"({_evidence_range(top, 'project')} per query at {_k(sizes[-1])})"
    )


@figure("history-small", "history")
def history_small(data: dict[str, Any]) -> str:
    n = _sizes(data)[0]
    s = data["sizes"][n]
    return (
        f"`python benchmarks/bench_history.py` ({int(n):,} transcript lines in {int(n) // data['per_session']} "
        f"sessions, in-process CPU, {_runs(data)}): first import {_history_cell(s['import_s'], 's')}, a re-import "
        f"with nothing new {_history_cell(s['import_nothing_new_s'], 's')}, each evidence query with its load "
        f"{_evidence_range(s, '7 days')} on the 7-day window, a history search "
        f"{num(med(s['search_p50_ms']), 1)} ms at the median, `dream --dry-run` "
        f"{_history_cell(s['dream --dry-run (7 days)_s'], 's')}"
    )


# -- curated recall latency (bench_curated.py --record, results/curated.json and curated-pure.json) --


def _curated_rows(data: dict[str, Any], twin: str) -> list[list[str]]:
    rows = []
    for n in _sizes(data):
        r = data["sizes"][n]
        recall, scan = med(r["recall"]["cpu_p50_ms"]), med(r["full_scan"]["cpu_p50_ms"])
        rows.append(
            [
                _k(n),
                twin,
                f"{r['open']['cpu_s']:.2f} s",
                spread(r["recall"]["cpu_p50_ms"], 2),
                f"{med(r['recall']['cpu_p95_ms']):.2f}",
                f"{med(r['recall']['wall_p50_ms']):.2f}",
                f"{med(r['recall_hits']['cpu_p50_ms']):.2f}",
                f"{scan:.2f}",
                f"{med(r['full_scan']['cpu_p95_ms']):.2f}",
                f"{scan / recall:.0f}x",
            ]
        )
    return rows


CURATED_HEAD = [
    "memories",
    "twin",
    "open (`reload`, the process's first), CPU",
    "recall p50 ms CPU",
    "recall p95 ms CPU",
    "recall p50 ms wall",
    "recall+hits p50 ms CPU",
    "full scan p50 ms CPU",
    "full scan p95 ms CPU",
    "full scan / recall, p50",
]


def _curated_table(data: dict[str, Any], twin: str) -> str:
    first = data["sizes"][_sizes(data)[0]]
    footer = (
        f"In-process: {first['queries']} queries for recall, {first['hit_queries']} for recall+hits, "
        f"{first['full_scan_queries']} for the full scan; median (lowest–highest) over {data['runs']} passes of "
        f"each pass's p50, p95 the median of the passes'; the stores are the ones `bench_scale.py` wrote (its "
        f"`remember_many` figures are below). {source(data)}."
    )
    return md_table(CURATED_HEAD, _curated_rows(data, twin), footer, first="---:")


@figure("curated-latency", "curated")
def curated_latency(data: dict[str, Any]) -> str:
    return _curated_table(data, "native")


@figure("curated-latency-pure", "curated-pure")
def curated_latency_pure(data: dict[str, Any]) -> str:
    return _curated_table(data, "pure")
