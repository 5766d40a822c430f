"""Per-call latency of a warm ``mimomem mcp`` server, and the token cost of its tool list.

Builds (in a temporary MIMOMEM_HOME) a git project with 1,000 memory-tree files across
sessions, projects and global memory and 1,000 curated memories, starts ``python -m mimomem
mcp`` once, connects the MCP SDK's stdio client, warms the server up (the first search builds
the index), then times N round trips each of ``memory_search``, ``memory_recall`` and
``memory_note`` as the client sees them, and prints p50 / p90.  The second table is the
estimated token cost of each tool's ``tools/list`` entry (``estimate_tokens`` of its JSON):
what every session pays for having the tools available.

    python benchmarks/bench_mcp.py [--runs 50] [--servers 3] [--files 1000] [--memories 1000] [--record]

Every figure is wall-clock time as the client sees it (a round trip crosses two processes, so
CPU time of one would not be what a user waits for). The server is started ``--servers``
times; each start's first call (a new server's cold start: index build, curated load) is kept
apart, and every timed call of every server is kept: the figures are the median over servers of
each server's p50, with the lowest and highest. ``--record`` writes ``benchmarks/results/mcp.json``.
Needs the ``mcp`` extra.  No assertion: the numbers are printed for the README.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TOPICS = ["部署", "数据库", "端口", "缓存", "测试", "日志", "鉴权", "队列", "前端", "构建", "迁移", "监控"]
WORDS = ["pnpm", "postgres", "redis", "nginx", "docker", "pytest", "vite", "kafka", "grafana", "tauri"]
AFTER_WRITE = "memory_search after a note"
QUERIES = ["部署 pnpm", "数据库 端口", "redis 缓存", "kafka", "迁移 测试", "grafana 监控"]


def line(rng: random.Random, i: int) -> str:
    topic, other = rng.sample(TOPICS, 2)
    return f"- 第{i}条：{topic}相关，{other}要注意 {rng.choice(WORDS)} 的配置，端口 {5000 + i % 900}。\n"


def build(home: Path, files: int, memories: int) -> tuple[Path, int]:
    """The project directory (``files`` tree files, up to ``memories`` curated ones) and the curated count."""
    os.environ["MIMOMEM_HOME"] = str(home / "mimomem")
    os.environ["MIMOMEM_CACHE_DIR"] = str(home / "cache")  # curated snapshots: never the user's ~/.cache
    os.environ["XDG_CONFIG_HOME"] = str(home / ".config")
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.memory_tree import MemoryTree

    rng = random.Random(7)
    repo = home / "shop-api"
    (repo / ".git").mkdir(parents=True)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    for i in range(files):
        kind = i % 3
        if kind == 0:
            path = tree.root / "projects" / (pid if i % 6 == 0 else f"p{i % 13}") / f"memory-{i}.md"
        elif kind == 1:
            path = tree.root / "sessions" / f"s{i % 37}" / f"note-{i}.md"
        else:
            path = tree.root / "global" / f"topic-{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# 记录\n\n" + "".join(line(rng, i * 10 + k) for k in range(6)), encoding="utf-8")
    items = [
        {
            "category": rng.choice(["facts", "decisions", "pitfalls", "preferences"]),
            "summary": f"{rng.choice(TOPICS)}注意事项 {i} {rng.choice(WORDS)}",
            "body": line(rng, i),
        }
        for i in range(memories)
    ]
    result = CuratedMemory(project_root=repo).remember_many(items, author="user")
    print(f"built {files} tree files and {len(result.written)} curated memories in {home}", file=sys.stderr)
    return repo, len(result.written)


async def measure(repo: Path, runs: int) -> dict[str, list[float]]:
    """Round-trip seconds per call, after warm-up, for each measured tool."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {
        k: os.environ[k]
        for k in ("MIMOMEM_HOME", "MIMOMEM_CACHE_DIR", "XDG_CONFIG_HOME", "PATH", "HOME", "MIMOMEM_PURE")
        if k in os.environ
    }
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mimomem", "mcp", "--session", "bench"], env=env, cwd=str(repo)
    )
    calls: dict[str, Any] = {
        "memory_search": lambda i: {"query": QUERIES[i % len(QUERIES)]},
        "memory_recall": lambda i: {"query": QUERIES[i % len(QUERIES)]},
        "memory_note": lambda i: {"text": f"bench note {i}: {QUERIES[i % len(QUERIES)]}"},
    }
    times: dict[str, list[float]] = {name: [] for name in ("start + first search", *calls, AFTER_WRITE)}

    async def timed(name: str, args: dict[str, Any], label: str) -> None:
        start = time.perf_counter()
        result = await session.call_tool(name, args)
        times[label].append(time.perf_counter() - start)
        if result.is_error:
            raise SystemExit(f"{name} failed: {result.content}")

    start = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("memory_search", calls["memory_search"](0))
        times["start + first search"].append(time.perf_counter() - start)
        for name, args in calls.items():  # warm-up: curated load, first note
            await session.call_tool(name, args(0))
        for name, args in calls.items():
            for i in range(runs):
                await timed(name, args(i + 1), name)
        for i in range(runs):  # a search right after a write reconciles the index first
            await session.call_tool("memory_note", calls["memory_note"](runs + i + 1))
            await timed("memory_search", calls["memory_search"](i), AFTER_WRITE)
    return times


def token_table() -> list[tuple[str, int]]:
    from mimomem.mcp.state import MemoryState, Options
    from mimomem.mcp.tools import build_tools, token_costs

    costs = token_costs(build_tools(MemoryState(Options(session="bench"))))
    return list(costs.items())


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="timed calls per tool (default 50)")
    parser.add_argument("--servers", type=int, default=3, help="servers started, one after the other (default 3)")
    parser.add_argument("--files", type=int, default=1000, help="memory-tree files (default 1000)")
    parser.add_argument("--memories", type=int, default=1000, help="curated memories (default 1000)")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/mcp.json")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mimomem-bench-mcp-") as tmp:
        repo, stored = build(Path(tmp), args.files, args.memories)
        servers = [asyncio.run(measure(repo, args.runs)) for _ in range(args.servers)]
        tokens = token_table()
    print(f"\nwarm server, {args.files} tree files + {stored} curated memories, {args.runs} calls each, wall ms")
    print(f"{'tool':<28} {'p50 ms (per server)':>24} {'p90 ms (per server)':>24}")
    for name in servers[0]:
        p50s = " ".join(f"{statistics.median(s[name]) * 1000:.1f}" for s in servers)
        p90s = " ".join(f"{p90(s[name]) * 1000:.1f}" for s in servers)
        print(f"{name:<28} {p50s:>24} {p90s:>24}")
    print(f"\n{'tool list entry':<16} {'tokens':>8}")
    for name, count in tokens:
        print(f"{name:<16} {count:>8}")
    if args.record:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import record

        data = {
            "runs": args.runs,
            "files": args.files,
            "memories": stored,
            "wall_ms": [{name: [t * 1000 for t in values] for name, values in s.items()} for s in servers],
            "tokens": dict(tokens),
        }
        record.save("mcp", ["benchmarks/bench_mcp.py", *argv], data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
