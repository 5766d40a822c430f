"""Cost per prompt of mimomem in an Agent SDK harness's own process, beside the hook process.

The memory is ``bench_hook.py``'s (a git project, 1,000 memory-tree files, 500 curated memories,
built through mimomem in a temporary MIMOMEM_HOME).  The in-process rows call the callbacks of
``mimomem.integrations.claude_agent_sdk.memory_options`` exactly as the SDK does (awaited on an
event loop, the library work on a worker thread), with the payloads Claude Code sends:

- ``UserPromptSubmit`` (every later prompt of a session): both ``UserPromptSubmit`` callbacks,
  the per-prompt context served from its plan;
- ``first prompt of a new session``: the same two callbacks for a new session id, so the first
  one also gives what ``SessionStart`` would (that difference is what the first-prompt path adds);
- ``Stop``, one turn promoted (and the next prompt's plan built): a recorded-shape transcript of one turn (a typed
  rule and fact, a tool call) appended to the session's transcript, then the ``Stop`` callback
  and the wait for its thread (the wait for the host's write is skipped: the file is complete).

The hook rows run ``mimomem hook claude-code`` as a fresh process for the same payloads, as
``bench_hook.py`` does.  CPU milliseconds (in-process: ``time.process_time`` around the call;
the process: the child's user + sys), and wall milliseconds of the in-process calls; the median of
``--runs`` with the lowest and highest, the cases taking turns.

    python benchmarks/bench_sdk.py [--runs 9] [--files 1000] [--memories 500] [--hook-python PY]

The process rows should run an installed mimomem (``pip install .``), not an editable one (see
``bench_hook.py``): ``--hook-python`` names the interpreter of such an install, whose
``python -P -m mimomem hook claude-code`` is then the hook process (``python -c pass`` too).  The
in-process rows do not depend on it.  Needs the ``host`` extra (claude-agent-sdk).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_hook  # the same memory fixture and process measurement

TURN = [
    {"type": "user", "message": {"role": "user", "content": "{prompt}"}},
    {
        "type": "assistant",
        "message": {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_{n}", "name": "Bash", "input": {"command": "make lint"}}],
        },
    },
    {
        "type": "user",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_{n}", "content": "ok"}]},
    },
    {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}},
]
"""One turn as the transcript records it (the fields promotion reads; the host adds many more)."""

TURN_PROMPT = "Always run `make lint` before committing. The staging database port is {port}."


def append_turn(transcript: Path, sid: str, n: int) -> None:
    """Append turn ``n`` to ``transcript`` (a new rule-and-fact prompt each turn)."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    with transcript.open("a", encoding="utf-8") as out:
        for line in TURN:
            text = json.dumps(line).replace("{prompt}", TURN_PROMPT.format(port=5000 + n)).replace("{n}", str(n))
            entry = {**json.loads(text), "sessionId": sid, "uuid": str(uuid.uuid4()), "timestamp": stamp}
            out.write(json.dumps(entry) + "\n")


LOOP = asyncio.new_event_loop()
"""One event loop for every in-process call, as a harness keeps one."""


def timed(coro_fn: Any) -> tuple[float, float]:
    """(CPU ms, wall ms) of running ``coro_fn()`` to completion on the harness's event loop."""
    cpu, wall = time.process_time(), time.perf_counter()
    LOOP.run_until_complete(coro_fn())
    return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


SERVED = "UserPromptSubmit"
STOP = "Stop: the turn promoted, the next prompt's plan built"
FIRST = "first prompt of a new session"
CHANGED = "UserPromptSubmit after a memory edit"
"""A memory file edited since the last prompt: the plan is stale and built again (in-process, every
promotion at ``Stop`` is followed by that build, off the prompt's path)."""


def measure(repo: Path, tmp: Path, runs: int, python: str) -> dict[str, list[float]]:
    from mimomem.integrations import claude_agent_sdk as sdk

    memory = sdk.SessionMemory(repo)
    transcripts = tmp / "transcripts"
    transcripts.mkdir()

    def payload(sid: str, event: str, **more: Any) -> dict[str, Any]:
        path = transcripts / f"{sid}.jsonl"
        return {"session_id": sid, "cwd": str(repo), "transcript_path": str(path), "hook_event_name": event, **more}

    async def prompt(data: dict[str, Any]) -> None:
        await asyncio.gather(memory.start_context(data, None, {}), memory.prompt_context(data, None, {}))

    async def stop(data: dict[str, Any]) -> None:
        await memory.turn_ended(data, None, {})
        await asyncio.to_thread(sdk.settle, 60)

    sdk.SETTLE_SECONDS = 0.0  # the transcript is complete when Stop comes here: no wait for the host's write
    steady = str(uuid.uuid4())
    asks = payload(steady, "UserPromptSubmit", prompt=bench_hook.PROMPT)
    timed(lambda: prompt(asks))  # the session's first prompt: starts it, builds the plans
    timed(lambda: prompt(asks))
    hook = [python, "-P", "-m", "mimomem", "hook", "claude-code"] if python != sys.executable else []
    hook = hook or [*bench_hook.hook_launcher(), "hook", "claude-code"]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    samples: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        samples.setdefault(name, []).append(value)

    def add_timed(name: str, cpu_wall: tuple[float, float]) -> None:
        add(name + " (CPU)", cpu_wall[0])
        add(name + " (wall)", cpu_wall[1])

    from mimomem.tree.memory_tree import MemoryTree

    tree = MemoryTree()
    edited = min(tree.project_dir(tree.project_id(repo).id).glob("memory-*.md"))  # in the prompt's scope

    def edit() -> None:  # a new mtime, as an editor's save gives: the prompt plans are stale
        st = edited.stat()
        os.utime(edited, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))

    for n in range(runs):
        new = payload(str(uuid.uuid4()), "UserPromptSubmit", prompt=bench_hook.PROMPT)
        add_timed(FIRST, timed(lambda: prompt(new)))  # noqa: B023 (run here, once)
        start = payload(str(uuid.uuid4()), "SessionStart", source="startup")
        add("hook process: SessionStart of a new session", bench_hook.child_cpu(hook, json.dumps(start), env) * 1000)
        append_turn(Path(asks["transcript_path"]), steady, n)
        add_timed(STOP, timed(lambda: stop(payload(steady, "Stop"))))
        add_timed(SERVED, timed(lambda: prompt(asks)))
        add("hook process: " + SERVED, bench_hook.child_cpu(hook, json.dumps(asks), env) * 1000)
        edit()
        add_timed(CHANGED, timed(lambda: prompt(asks)))
        edit()
        add("hook process: " + CHANGED, bench_hook.child_cpu(hook, json.dumps(asks), env) * 1000)
        add("python -c pass", bench_hook.child_cpu([python, "-c", "pass"], "", env) * 1000)
    return samples


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="runs per case (median and spread)")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--memories", type=int, default=500)
    ap.add_argument("--hook-python", default=sys.executable, help="the interpreter of an installed mimomem")
    ap.add_argument("--record", action="store_true", help="write benchmarks/results/sdk.json")
    args = ap.parse_args(argv)
    if args.record and args.hook_python == sys.executable and bench_hook.editable_install():
        print("bench_sdk: --record needs --hook-python of an installed (not editable) mimomem", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        repo, _ = bench_hook.build(Path(tmp), args.files, args.memories)
        print(f"built {args.files} tree files and {args.memories} curated memories in {time.perf_counter() - t0:.1f} s")
        if args.hook_python == sys.executable:
            how = "an editable install" if bench_hook.editable_install() else "an installed package"
            print(f"hook process: {' '.join(bench_hook.hook_launcher())} hook claude-code ({how})")
        else:
            print(f"hook process: {args.hook_python} -P -m mimomem hook claude-code")
        samples = measure(repo, Path(tmp), args.runs, args.hook_python)
    print(f"\n| case (ms, {args.runs} runs) | median | min | max |\n| --- | ---: | ---: | ---: |")
    for case, values in samples.items():
        name = case if case.startswith(("hook process", "python")) else f"in-process: {case}"
        unit = "" if "(" in case else " (CPU)"
        print(f"| {name}{unit} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} |")
    inproc = statistics.median(samples[SERVED + " (CPU)"])
    process = statistics.median(samples["hook process: " + SERVED])
    first = statistics.median(samples[FIRST + " (CPU)"])
    if args.record:
        import record

        data = {"runs": args.runs, "files": args.files, "memories": args.memories, "samples_ms": samples}
        if args.hook_python != sys.executable:
            data["hook_python"] = args.hook_python
        record.save("sdk", ["benchmarks/bench_sdk.py", *argv], data)
    print(
        f"\nper prompt: in-process {inproc:.1f} ms CPU vs hook process {process:.1f} ms ({process / inproc:.1f}x);"
        f" a session's first prompt adds {first - inproc:.1f} ms (what SessionStart would give)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
