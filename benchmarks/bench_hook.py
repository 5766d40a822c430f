"""CPU cost of one Claude Code hook process on a realistic memory: the per-prompt hot path.

Builds (in a temporary MIMOMEM_HOME) a git project with 1,000 memory-tree files across
sessions, projects and global memory, and 500 curated memories, then runs
``mimomem hook claude-code`` as a fresh process for a Chinese UserPromptSubmit and a
SessionStart, N times each, and reports the child CPU time (user + sys) as p50 / p90
next to ``python -c pass`` measured the same way.  A breakdown of one in-process run
(import, locate, curated, search, reminder) shows where the time goes.

    python benchmarks/bench_hook.py [--runs 15] [--files 1000] [--memories 500]

The goal (issue: "Memory that reaches the agent"): p50 <= 150 ms CPU for the prompt hook.
No assertion: the numbers are printed for the README and benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOPICS = ["部署", "数据库", "端口", "缓存", "测试", "日志", "鉴权", "队列", "前端", "构建", "迁移", "监控"]
WORDS = ["pnpm", "postgres", "redis", "nginx", "docker", "pytest", "vite", "kafka", "grafana", "tauri"]


def note(rng: random.Random, i: int) -> str:
    topic, other = rng.sample(TOPICS, 2)
    word = rng.choice(WORDS)
    return f"- 第{i}条：{topic}相关，{other}要注意 {word} 的配置，端口 {5000 + i % 900}，上次出错是因为没有先跑测试。\n"


def build(home: Path, files: int, memories: int) -> tuple[Path, str]:
    """The project directory and the session id, with the memory written through mimomem."""
    os.environ["MIMOMEM_HOME"] = str(home)
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.store import MemoryTree

    rng = random.Random(7)
    repo = home / "shop-api"
    (repo / ".git").mkdir(parents=True)
    tree = MemoryTree()
    pid = tree.project_id(repo).id
    sid = "bench-session"
    root = tree.root
    for i in range(files):
        kind = i % 4
        if kind == 0:
            path = root / "projects" / (pid if i % 8 == 0 else f"p{i % 13}") / f"memory-{i}.md"
        elif kind == 1:
            path = root / "sessions" / (sid if i % 20 == 1 else f"s{i % 37}") / f"note-{i}.md"
        elif kind == 2:
            path = root / "global" / f"topic-{i}.md"
        else:
            path = root / "sessions" / f"s{i % 41}" / "checkpoint.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# 记录\n\n" + "".join(note(rng, i * 10 + k) for k in range(6)), encoding="utf-8")
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n" + "".join(note(rng, k) for k in range(20)),
        agent="main",
        project_id=pid,
        worktree=repo,
    )
    store = CuratedMemory(project_root=repo)
    items = [
        {
            "category": rng.choice(["facts", "decisions", "pitfalls"]),
            "summary": f"{rng.choice(TOPICS)}注意事项 {i} {rng.choice(WORDS)}",
            "body": note(rng, i),
            "load_when": [f"{rng.choice(TOPICS)} {rng.choice(WORDS)}"],
        }
        for i in range(memories)
    ]
    store.remember_many(items, author="user")
    return repo, sid


def child_cpu(cmd: list[str], stdin: str, env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(cmd: list[str], stdin: str, env: dict[str, str], runs: int) -> tuple[float, float]:
    samples = sorted(child_cpu(cmd, stdin, env) for _ in range(runs))
    return statistics.median(samples) * 1000, samples[int(0.9 * (len(samples) - 1))] * 1000


def breakdown(repo: Path, sid: str, prompt: str) -> dict[str, float]:
    """CPU milliseconds of each stage of one prompt hook, in a fresh interpreter."""
    code = f"""
import time, json
t = time.process_time
s = t(); import mimomem.hooks.claude_code, mimomem.context.assemble, mimomem.context.relevant; imp = t() - s
from mimomem.context.where import locate
from mimomem.context import relevant, instructions
s = t(); w = locate({str(repo)!r}, session_id={sid!r}); loc = t() - s
s = t(); relevant.curated_prompt_text(w, {prompt!r}); cur = t() - s
s = t(); relevant.search_text(w, {prompt!r}, 3); sea = t() - s
s = t(); instructions.recall_reminder(w); rem = t() - s
print(json.dumps({{"imports": imp, "locate": loc, "curated": cur, "search": sea, "reminder": rem}}))
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    return {k: v * 1000 for k, v in json.loads(out).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--memories", type=int, default=500)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        repo, sid = build(Path(tmp), args.files, args.memories)
        print(f"built {args.files} tree files and {args.memories} curated memories in {time.perf_counter() - t0:.1f} s")
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure an installed package: bytecode cached, as pip leaves it
        hook = [sys.executable, "-m", "mimomem", "hook", "claude-code"]
        prompt = "部署前数据库端口要改成多少？上次 pnpm 构建失败是什么原因"
        payloads = {
            "UserPromptSubmit (Chinese)": {"hook_event_name": "UserPromptSubmit", "prompt": prompt},
            "SessionStart (startup)": {"hook_event_name": "SessionStart", "source": "startup"},
        }
        base = {"session_id": sid, "cwd": str(repo), "transcript_path": str(Path(tmp) / "none.jsonl")}
        subprocess.run(
            hook,
            input=json.dumps({**base, **payloads["UserPromptSubmit (Chinese)"]}),
            text=True,
            capture_output=True,
            env=env,
            check=True,
        )  # first run builds the search cache
        p50, p90 = measure([sys.executable, "-c", "pass"], "", env, args.runs)
        print("\n| process | CPU p50 (ms) | CPU p90 (ms) |\n| --- | ---: | ---: |")
        print(f"| python -c pass | {p50:.0f} | {p90:.0f} |")
        for name, extra in payloads.items():
            p50, p90 = measure(hook, json.dumps({**base, **extra}), env, args.runs)
            print(f"| mimomem hook claude-code, {name} | {p50:.0f} | {p90:.0f} |")
        parts = [breakdown(repo, sid, prompt) for _ in range(5)]
        print("\nbreakdown of the prompt hook (median of 5 fresh processes, CPU ms):")
        for key in parts[0]:
            print(f"  {key:<9} {statistics.median(p[key] for p in parts):6.1f}")


if __name__ == "__main__":
    main()
