"""Does a prompt cost more after many sessions?  State and caches of one project over N sessions.

Runs ``--sessions`` sessions of one git project in a temporary ``MIMOMEM_HOME`` and cache, each
as Claude Code drives the hook: ``SessionStart`` (startup), two ``UserPromptSubmit`` (through
``mimomem.hooks.entry``, the hook command's own entry: the second is served from the plan when
nothing changed), then ``SessionEnd`` with its digest and promotion (the detached workers run
in-process, untimed).  Each session's synthetic transcript has a few user turns: a rule, a
decision with its reason, a fact whose value changes from session to session (so ``MEMORY.md``
is rewritten and superseded), a command, a tool failure and its fix.

Reported: the CPU time (``time.process_time``, in-process: no interpreter start) of the second
prompt hook and of ``SessionEnd``, median over the first and the last ``--window`` sessions and
their ratio; the same prompt once more as its own process (``python -m mimomem hook claude-code``,
child CPU) in those sessions; the number of files and bytes under the data directory's ``state/`` and ``undo/``
and the cache directory, every ``--every`` sessions.

    python benchmarks/bench_growth.py [--sessions 500] [--window 20] [--every 50] [--json FILE] [--record [NAME]]

``--record`` writes ``benchmarks/results/growth.json`` (or ``NAME.json``) with every session's
timings, for ``benchmarks/figures.py``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any


def transcript(path: Path, repo: Path, sid: str, n: int) -> None:
    stamp = f"2026-11-{1 + n // 100 % 28:02d}T{n % 24:02d}:00:00.000Z"

    def line(kind: str, uid: str, content: Any) -> dict[str, Any]:
        message = {"role": kind, "content": content}
        return {
            "type": kind,
            "sessionId": sid,
            "cwd": str(repo),
            "uuid": f"{sid}-{uid}",
            "timestamp": stamp,
            "message": message,
        }

    call = {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": f"pnpm test --filter pkg{n % 7}"}}
    result = {
        "tool_use_id": f"t{n}",
        "type": "tool_result",
        "content": f"FAIL pkg{n % 7}: port {5000 + n} in use",
        "is_error": True,
    }
    lines = [
        line("user", "u1", f"以后提交前都先跑 make lint-{n % 5}。"),
        line("user", "u2", f"我们决定用 Redis 做第 {n % 9} 层缓存，因为 Memcached 不支持持久化。"),
        line("user", "u3", f"staging 数据库端口现在是 {5400 + n}。"),
        line("assistant", "a1", [{"type": "text", "text": "先跑测试。"}, call]),
        line("user", "u4", [result]),
        line("assistant", "a2", [{"type": "text", "text": f"端口 {5000 + n} 被占用了，改用 {6000 + n} 后测试通过。"}]),
        line("user", "u5", "好的，继续部署。"),
    ]
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")


def tree_size(top: Path) -> tuple[int, int]:
    files = size = 0
    for dirpath, _, names in os.walk(top):
        for name in names:
            try:
                size += os.lstat(os.path.join(dirpath, name)).st_size
                files += 1
            except OSError:
                pass
    return files, size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=500)
    parser.add_argument("--window", type=int, default=20)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--record", nargs="?", const="growth", metavar="NAME")
    args = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="mimomem-growth-"))
    repo = base / "shop-api"
    (repo / ".git").mkdir(parents=True)
    os.environ.update(
        MIMOMEM_HOME=str(base / "home"), MIMOMEM_CACHE_DIR=str(base / "cache"), XDG_CONFIG_HOME=str(base / "config")
    )
    os.environ.pop("MIMOMEM_SESSION", None)
    os.chdir(repo)

    from mimomem.common import detach
    from mimomem.hooks import claude_code, entry
    from mimomem.memory import carry
    from mimomem.passes import promote

    spawned: list[list[str]] = []
    detach.spawn_detached = lambda argv, log: spawned.append(list(argv))  # type: ignore[assignment]

    def drain() -> None:
        for argv in spawned:
            if argv[2] == "mimomem.memory.carry":
                carry.run_background(*argv[3:])
            elif argv[2] == "mimomem.passes.promote":
                promote.run_background(*argv[3:])
        spawned.clear()

    def process(raw: dict[str, Any]) -> float:
        """CPU ms (user + sys) of the hook as its own process: ``python -m mimomem hook claude-code``."""
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [sys.executable, "-m", "mimomem", "hook", "claude-code"]
        subprocess.run(command, input=json.dumps(raw, ensure_ascii=False).encode(), capture_output=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000

    def hook(raw: dict[str, Any], *, served: bool) -> float:
        data = json.dumps(raw, ensure_ascii=False)
        out, err = io.StringIO(), io.StringIO()
        start = time.process_time()
        if served:
            entry.run(io.StringIO(data), out, err)
        else:
            claude_code.run(io.StringIO(data), out, err)
        spent = time.process_time() - start
        if err.getvalue().strip():
            print("stderr:", err.getvalue().strip()[:200], file=sys.stderr)
        return spent * 1000

    data_dir = base / "home" / "data"
    prompt_ms: list[float] = []
    process_ms: list[float] = []
    end_ms: list[float] = []
    growth: list[dict[str, Any]] = []
    wall = time.perf_counter()
    for n in range(1, args.sessions + 1):
        sid = str(uuid.UUID(int=n))
        path = base / "transcripts" / f"{sid}.jsonl"
        path.parent.mkdir(exist_ok=True)
        transcript(path, repo, sid, n)
        common = {"session_id": sid, "transcript_path": str(path), "cwd": str(repo)}
        hook({**common, "hook_event_name": "SessionStart", "source": "startup"}, served=True)
        drain()
        prompt = {
            **common,
            "hook_event_name": "UserPromptSubmit",
            "prompt": "staging 数据库端口是多少？提交前要跑什么？",
        }
        hook(prompt, served=True)
        prompt_ms.append(hook(prompt, served=True))
        if n <= args.window or n > args.sessions - args.window:
            process_ms.append(process(prompt))
        end_ms.append(hook({**common, "hook_event_name": "SessionEnd", "reason": "exit"}, served=False))
        drain()
        if n % args.every == 0 or n == args.sessions:
            row = {"sessions": n}
            for name, top in (("state", data_dir / "state"), ("undo", data_dir / "undo"), ("cache", base / "cache")):
                row[f"{name}_files"], row[f"{name}_bytes"] = tree_size(top)
            growth.append(row)
            print(json.dumps(row), f"({time.perf_counter() - wall:.0f} s)", flush=True)

    w = min(args.window, len(prompt_ms) // 2)
    first_p, last_p = statistics.median(prompt_ms[:w]), statistics.median(prompt_ms[-w:])
    first_e, last_e = statistics.median(end_ms[:w]), statistics.median(end_ms[-w:])
    summary = {
        "sessions": args.sessions,
        "window": w,
        "prompt_ms": {"first": round(first_p, 2), "last": round(last_p, 2), "ratio": round(last_p / first_p, 3)},
        "session_end_ms": {"first": round(first_e, 2), "last": round(last_e, 2), "ratio": round(last_e / first_e, 3)},
        "prompt_process_ms": {
            "first": round(statistics.median(process_ms[:w]), 2),
            "last": round(statistics.median(process_ms[-w:]), 2),
        },
        "growth": growth,
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.record:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import record

        raw = {
            "prompt_ms": [round(x, 3) for x in prompt_ms],
            "session_end_ms": [round(x, 3) for x in end_ms],
            "prompt_process_ms": [round(x, 3) for x in process_ms],
        }
        record.save(args.record, sys.argv, {**summary, **raw})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
