"""Import of Claude Code transcripts into the history store, and the evidence queries over them, at scale.

For each size (default 10k, 100k and 1M messages) generates, in a temporary directory, a
project with one Claude Code transcript per PER_SESSION messages (JSONL lines of realistic
content: Chinese and English requests, standing instructions, shell commands with results,
failures followed by a fix, file edits), then measures CPU time (``time.process_time``),
every one of RUNS runs kept (``--record`` writes them to
``benchmarks/results/history.json``; the table prints medians):

- the first import into a new store (parse, store, bigram index): messages per second;
  and a second, incremental one (nothing new);
- history search: each query's median, then p50 / p95 over the queries;
- the evidence windows: the whole project, the last 7 days (what ``dream`` reads), one
  session (what ``checkpoint`` reads); each evidence query (load + query) on the whole
  project and on the 7-day window;
- a dream / distill plan (dry run) over their default windows (7 / 30 days).

    python benchmarks/bench_history.py [--sizes 10k,100k,1m] [--per-session 100] [--runs 3] [--json F] [--record]

No assertion: the numbers are printed for the README and benchmarks/README.md.  1M messages
are about 480 MB of JSONL and a 330 MB store in the temporary directory (removed afterwards).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

REQUESTS = [
    "把部署脚本改成用 pnpm，然后跑一下测试。",
    "Please fix the flaky cache test in src/cache.py.",
    "数据库迁移失败了，帮我看看日志。",
    "Add a retry to the queue consumer and run the linter.",
    "前端构建太慢，看看 vite 的配置。",
]
RULES = [
    "以后都用 pnpm，不要再用 npm。",
    "Always run ruff check before committing.",
    "记住：测试数据库端口是 5433。",
    "From now on, never push directly to main.",
    "我们决定用 SQLite 做缓存。",
]
COMMANDS = ["pnpm test", "ruff check .", "pnpm run build", "pytest -q tests/unit", "git status", "pnpm lint"]
FILES = ["src/cache.py", "src/queue.py", "package.json", "vite.config.ts", "migrations/0007.sql", "README.md"]


class Writer:
    """Lines of one transcript, with ids and timestamps."""

    def __init__(self, sid: str, cwd: str, start: datetime) -> None:
        self.sid, self.cwd, self.start, self.n, self.lines = sid, cwd, start, 0, []

    def base(self, kind: str) -> dict[str, Any]:
        self.n += 1
        when = (self.start + timedelta(seconds=7 * self.n)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        return {
            "type": kind,
            "uuid": f"{self.sid}-{self.n}",
            "sessionId": self.sid,
            "cwd": self.cwd,
            "timestamp": when,
            "isSidechain": False,
            "version": "2.0.14",
        }

    def user(self, text: str) -> None:
        self.lines.append(self.base("user") | {"message": {"role": "user", "content": text}})

    def call(self, name: str, data: dict[str, Any], result: str, ok: bool) -> None:
        cid = f"toolu_{self.sid}_{self.n}"
        use = {"type": "tool_use", "id": cid, "name": name, "input": data}
        self.lines.append(self.base("assistant") | {"message": {"role": "assistant", "content": [use]}})
        back = {"type": "tool_result", "tool_use_id": cid, "content": result, "is_error": not ok}
        self.lines.append(self.base("user") | {"message": {"role": "user", "content": [back]}})


def build(root: Path, lines: int, sessions: int) -> Path:
    """The project directory; transcripts under ``root/projects``."""
    rng = random.Random(11)
    project = root / "shop-api"
    (project / ".git").mkdir(parents=True)
    per = lines // sessions
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    for s in range(sessions):
        w = Writer(f"{s:08x}-0000-4000-8000-{s:012x}", str(project), start + timedelta(hours=5 * s))
        w.user(rng.choice(REQUESTS) + " " + rng.choice(RULES))
        while len(w.lines) < per - 1:
            roll = rng.random()
            if roll < 0.08:
                w.call("Bash", {"command": "pnpm run deploy:staging"}, "ERR_PNPM_NO_SCRIPT Missing script", False)
                w.call("Edit", {"file_path": f"{project}/package.json"}, "The file has been updated.", True)
            elif roll < 0.3:
                w.call("Edit", {"file_path": f"{project}/{rng.choice(FILES)}"}, "The file has been updated.", True)
            elif roll < 0.4:
                w.user(rng.choice(REQUESTS))
            else:
                w.call("Bash", {"command": rng.choice(COMMANDS)}, "ok " + "x" * rng.randint(10, 400), True)
        folder = root / "projects" / "-shop-api"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{w.sid}.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in w.lines))
    return project


QUERIES = [
    "数据库端口",
    "pnpm deploy",
    "ERR_PNPM_NO_SCRIPT",
    "缓存",
    "ruff check",
    "vite 配置",
    "部署脚本",
    "flaky cache test",
    "数据库迁移失败",
    "queue consumer retry",
    "前端构建太慢",
    "pytest -q tests/unit",
    "migrations/0007.sql",
    "package.json",
    "测试数据库端口是 5433",
    "never push directly to main",
    "SQLite 做缓存",
    "git status",
    "linter",
    "日志",
    "kubernetes",
    "pnpm lint",
    "vite.config.ts",
    "Missing script",
]
"""History search queries: words of the generated transcripts (common and rarer) and one that is absent."""

DAY_MS = 86_400_000


def size_arg(text: str) -> int:
    """``10k`` -> 10000, ``1m`` -> 1000000."""
    text = text.strip().lower().replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text.rstrip("km")) * scale)


def cpu(fn: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    """CPU seconds of each of ``runs`` runs (every sample kept), and the last result."""
    times, result = [], None
    for _ in range(runs):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return times, result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(n: int, per_session: int, runs: int) -> dict[str, Any]:
    """Every figure for one size (seconds unless the key says otherwise)."""
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.history_store import HistoryStore

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-history-") as tmp:
        root = Path(tmp)
        project = build(root, n, max(1, n // per_session))
        files = list((root / "projects").rglob("*.jsonl"))
        out["messages"] = sum(p.read_bytes().count(b"\n") for p in files)
        out["jsonl_mb"] = sum(p.stat().st_size for p in files) / 1e6
        imports = []
        for run in range(runs):
            store = HistoryStore(root / f"data-{run}" / "history.db")
            start = time.process_time()
            report = import_claude_code(store, root / "projects")
            imports.append(time.process_time() - start)
            if run < runs - 1:
                store.close()
                shutil.rmtree(root / f"data-{run}")
        out["import_s"] = imports
        out["import messages per second"] = [out["messages"] / s for s in imports]
        out["parts"] = report.parts
        out["store_mb"] = (root / f"data-{runs - 1}" / "history.db").stat().st_size / 1e6
        out["import_nothing_new_s"] = cpu(lambda: import_claude_code(store, root / "projects"), runs)[0]
        out.update(measure_queries(store, project, runs))
        store.close()
    return out


def measure_queries(store: Any, project: Path, runs: int) -> dict[str, Any]:
    from mimomem.history.evidence import Evidence, Window, tool_trace
    from mimomem.history.search import search_history
    from mimomem.passes.base import PassContext
    from mimomem.passes.distill import run_distill
    from mimomem.passes.dream import run_dream
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    out: dict[str, Any] = {}
    per_query = [cpu(lambda q=q: search_history(store, q), runs)[0] for q in QUERIES]
    by_run = [[samples[run] * 1000 for samples in per_query] for run in range(runs)]
    out["search_p50_ms"] = [statistics.median(v) for v in by_run]  # p50 over the queries, per run
    out["search_p95_ms"] = [percentile(v, 0.95) for v in by_run]
    last = store.conn.execute("SELECT max(time) FROM parts").fetchone()[0]
    newest = store.conn.execute("SELECT id FROM sessions ORDER BY started_at DESC LIMIT 1").fetchone()[0]
    windows = {
        "project": Window(project=str(project)),
        "7 days": Window(project=str(project), since=last - 7 * DAY_MS),
        "one session": Window(session_id=newest),
    }
    for name, window in windows.items():
        out[f"load {name}_s"], ev = cpu(lambda w=window: Evidence.gather(store, w), runs)
        out[f"load {name}_events"] = len(ev.events)
    queries: list[tuple[str, Callable[[Evidence], Any]]] = [
        ("statements", lambda e: e.statements()),
        ("repeated commands", lambda e: e.repeated_commands()),
        ("failures and fixes", lambda e: e.failures()),
        ("repeated failures", lambda e: e.repeated_failures()),
        ("files touched", lambda e: e.files_touched()),
        ("one session's trace", lambda e: e.trace(e.sessions()[-1])),
    ]
    for name, query in queries:
        for window_name in ("project", "7 days"):
            window = windows[window_name]
            out[f"{name} ({window_name})_s"] = cpu(lambda q=query, w=window: q(Evidence.gather(store, w)), runs)[0]
    out["tool_trace (one session)_s"] = cpu(lambda: tool_trace(store, newest), runs)[0]
    tree = MemoryTree(store.path.parent / "memory")
    where = locate(project, tree=tree, env={})
    out["dream --dry-run (7 days)_s"] = cpu(
        lambda: run_dream(PassContext.open(where, store, days=7, now=last), dry_run=True), runs
    )[0]
    out["distill (30 days)_s"] = cpu(
        lambda: run_distill(PassContext.open(where, store, days=30, now=last), home=store.path.parent), runs
    )[0]
    return out


def print_table(results: dict[int, dict[str, Any]]) -> None:
    sizes = sorted(results)
    print("| step | " + " | ".join(f"{n:,} messages" for n in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    keys = list(dict.fromkeys(k for n in sizes for k in results[n]))
    for key in keys:
        cells = []
        for n in sizes:
            value = results[n].get(key)
            if isinstance(value, list):
                value = statistics.median(value)
            if value is None:
                cells.append("-")
            elif key.endswith("_s"):
                cells.append(f"{value * 1000:,.1f} ms" if value < 1 else f"{value:,.2f} s")
            elif isinstance(value, float):
                cells.append(f"{value:,.1f}")
            else:
                cells.append(f"{value:,}")
        label = key.removesuffix("_s").replace("_", " ")
        print(f"| {label} | " + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10k,100k,1m", help="messages (transcript lines) per size")
    parser.add_argument("--per-session", type=int, default=100, help="messages per session (one transcript each)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/history.json")
    args = parser.parse_args(argv)

    import mimomem

    engine = "native" if mimomem.native_available() else "pure Python"
    print(f"# History store and evidence ({engine}, Python {sys.version.split()[0]}); CPU, median of {args.runs}\n")
    results: dict[int, dict[str, Any]] = {}
    for n in sorted(size_arg(s) for s in args.sizes.split(",") if s.strip()):
        results[n] = measure(n, args.per_session, args.runs)
        print(f"{n}: {json.dumps(results[n])}", file=sys.stderr, flush=True)
    print_table(results)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    if args.record:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import record

        command = ["benchmarks/bench_history.py", *(sys.argv[1:] if argv is None else argv)]
        data = {"runs": args.runs, "per_session": args.per_session, "sizes": {str(n): r for n, r in results.items()}}
        record.save("history", command, data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
