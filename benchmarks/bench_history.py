"""Import of Claude Code transcripts into the history store, and the evidence queries over them.

Generates (in a temporary directory) a project with SESSIONS Claude Code transcripts of
realistic lines (Chinese and English requests, standing instructions, shell commands with
results, failures followed by a fix, file edits) totalling LINES JSONL lines, then times:

- the first import (parse, store, bigram index) and a second, incremental one (nothing new);
- loading the evidence window and each evidence query (statements, repeated commands,
  failures and fixes, repeated failures, files touched, one session's trace);
- history search (median of the queries) and a dream / distill plan (dry run).

    python benchmarks/bench_history.py [--lines 10000] [--sessions 100] [--repeat 5]

No assertion: the numbers are printed for the README and benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import random
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


def timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    """Median wall time (ms) over ``repeat`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    import mimomem
    from mimomem.context.where import locate
    from mimomem.history.claude_code import import_claude_code
    from mimomem.history.evidence import Evidence, Window
    from mimomem.history.search import search_history
    from mimomem.history.store import HistoryStore
    from mimomem.passes.base import PassContext
    from mimomem.passes.distill import run_distill
    from mimomem.passes.dream import run_dream
    from mimomem.tree.store import MemoryTree

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        project = build(root, args.lines, args.sessions)
        total = sum(len(p.read_text().splitlines()) for p in (root / "projects").rglob("*.jsonl"))
        size = sum(p.stat().st_size for p in (root / "projects").rglob("*.jsonl"))
        store = HistoryStore(root / "data" / "history.db")
        rows: list[tuple[str, float, str]] = []
        ms, report = timed(lambda: import_claude_code(store, root / "projects"))
        rows.append(("import (first)", ms, f"{total:,} lines, {size / 1e6:.1f} MB, {report.parts:,} parts"))
        ms, report = timed(lambda: import_claude_code(store, root / "projects"), args.repeat)
        rows.append(("import (nothing new)", ms, f"{report.sources} files checked"))
        window = Window(project=str(project))
        ms, ev = timed(lambda: Evidence.gather(store, window), args.repeat)
        rows.append(("load evidence window", ms, f"{len(ev.events):,} events, {len(ev.sessions())} sessions"))
        queries: list[tuple[str, Callable[[Evidence], Any]]] = [
            ("statements", lambda e: e.statements()),
            ("repeated commands", lambda e: e.repeated_commands()),
            ("failures and fixes", lambda e: e.failures()),
            ("repeated failures", lambda e: e.repeated_failures()),
            ("files touched", lambda e: e.files_touched()),
            ("one session's trace", lambda e: e.trace(e.sessions()[0])),
        ]
        for name, query in queries:
            ms, result = timed(lambda q=query: q(Evidence.gather(store, window)), args.repeat)
            rows.append((f"{name} (load + query)", ms, f"{len(result)} items"))
        words = ["数据库端口", "pnpm deploy", "ERR_PNPM_NO_SCRIPT", "缓存", "ruff check", "vite 配置"]
        per_query = [timed(lambda w=w: search_history(store, w), args.repeat)[0] for w in words]
        rows.append(("history search (median query)", statistics.median(per_query), f"{len(words)} queries"))
        tree = MemoryTree(root / "data" / "memory")
        ctx = PassContext.open(locate(project, tree=tree, env={}), store)
        ms, dream = timed(lambda: run_dream(PassContext.open(ctx.where, store), dry_run=True), args.repeat)
        rows.append(("dream --dry-run", ms, f"{len(dream.sections.get('Consolidated', []))} lines proposed"))
        ms, distill = timed(lambda: run_distill(PassContext.open(ctx.where, store), home=root), args.repeat)
        rows.append(("distill (shortlist)", ms, f"{len(distill.sections.get('Shortlist', []))} workflows"))
        store.close()
    engine = "native" if mimomem.native_available() else "pure Python"
    print(f"# History store and evidence ({engine}, Python {sys.version.split()[0]})\n")
    print("| step | ms | notes |\n|---|---:|---|")
    for name, ms, notes in rows:
        print(f"| {name} | {ms:,.1f} | {notes} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
