"""CPU cost of one Claude Code hook process on a realistic memory: the per-prompt hot path.

Builds (in a temporary MIMOMEM_HOME) a git project with 1,000 memory-tree files across
sessions, projects and global memory, and 500 curated memories, then runs
``mimomem hook claude-code`` as a fresh process for a Chinese UserPromptSubmit and for
SessionStart, N times each, and reports the child CPU time (user + sys) next to ``python -c pass``
measured the same way.  ``SessionStart`` is what Claude Code sends at ``startup`` (and ``clear``): a
new session id every time; the ``resume`` of an existing session is its own row.

    python benchmarks/bench_hook.py [--runs 9] [--files 1000] [--memories 500] [--scenario both] [--record]

Two scenarios, each with its own table and ratios (``--scenario`` picks one): ``mixed``, tree
files sharing some of the prompt's words, and ``matching``, where every tree file's lines carry
them (most files are hits, the case that costs the most).

Every figure is the CPU of a whole process (interpreter start and imports included: what a
user pays per prompt), the median of ``--runs`` processes with the lowest and highest, the
cases taking turns; the in-process split of each context hook, stage by stage in the order the
hook runs them (``time.process_time`` inside a fresh interpreter),
is printed beside it, labelled. The bound is a ratio against ``python -c pass`` in the same
run (``--max-ratio``, generous: exit 1 above it), never a timing assertion in a unit test.
``--record`` writes ``benchmarks/results/hook.json`` for ``benchmarks/figures.py``.

Measure an installed mimomem (``pip install .``), not an editable one: an editable install's
import hook (a ``.pth`` file) makes every interpreter of that environment import ``pathlib``,
``re`` and more at start, ``python -c pass`` included, so the base doubles (about 11 -> 24 ms
here) and every ratio reads about half of what an installed mimomem costs.  The script says
which it measures, and ``--record`` refuses an editable install.
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
import uuid
from pathlib import Path

TOPICS = ["部署", "数据库", "端口", "缓存", "测试", "日志", "鉴权", "队列", "前端", "构建", "迁移", "监控"]
WORDS = ["pnpm", "postgres", "redis", "nginx", "docker", "pytest", "vite", "kafka", "grafana", "tauri"]


def note(rng: random.Random, i: int, *, matching: bool = False) -> str:
    topic, other = rng.sample(TOPICS, 2)
    word = rng.choice(WORDS)
    if matching:  # the prompt's own words in every line: most tree files are hits
        return f"- 第{i}条：部署前数据库端口是 {5000 + i % 900}，上次 pnpm 构建失败是因为{topic}的 {word} 配置没改。\n"
    return f"- 第{i}条：{topic}相关，{other}要注意 {word} 的配置，端口 {5000 + i % 900}，上次出错是因为没有先跑测试。\n"


def build(home: Path, files: int, memories: int, *, matching: bool = False) -> tuple[Path, str]:
    """The project directory and the session id, with the memory written through mimomem.

    ``matching``: every tree file's lines carry the prompt's words (the scenario where most
    tree files match the prompt); otherwise they share only some of them."""
    os.environ["MIMOMEM_HOME"] = str(home)
    os.environ["MIMOMEM_CACHE_DIR"] = str(home / "cache")  # curated snapshots: never the user's ~/.cache
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.writer import Writer

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
        lines = "".join(note(rng, i * 10 + k, matching=matching) for k in range(6))
        path.write_text("# 记录\n\n" + lines, encoding="utf-8")
    tree.write(
        tree.project_memory(pid),
        "# Project memory\n\n## Rules\n" + "".join(note(rng, k) for k in range(20)),
        Writer("main", project_id=pid, worktree=repo),
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


def editable_install() -> bool:
    """True when this interpreter starts with an editable install's import hook (see the module docstring)."""
    return any(
        "__editable__" in type(f).__module__ or "__editable__" in getattr(f, "__module__", "") for f in sys.meta_path
    )


def hook_launcher() -> list[str]:
    """What `mimomem install claude-code` writes for this environment (hooks/command.launcher): its
    `mimomem` entry point when the environment has one, else this interpreter with `-P -m mimomem`."""
    script = Path(sys.executable).with_name("mimomem")
    if script.is_file():
        return [str(script)]
    return [sys.executable, *(["-P"] if sys.version_info >= (3, 11) else []), "-m", "mimomem"]


def child_cpu(cmd: list[str], stdin: str, env: dict[str, str]) -> float:
    """CPU seconds (user + sys) of one whole child process: interpreter start, imports, work, exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


BREAKDOWN = """
import json, os, sys, time
t = time.process_time
start = t()
payload = json.loads({payload!r})
if {prompt!r}:  # the served path (hooks.entry): the plan saved by the first prompt, checked and answered
    s = t(); from mimomem.hooks import entry; from mimomem.served import plans; imp = t() - s
    s = t(); key = plans.plan_key("UserPromptSubmit", payload, os.environ)
    plan = plans.load_plan(plans.plan_file(key, os.environ), key); check = t() - s
    assert plan is not None, "no current plan: the first prompt builds it"
    from mimomem.common.stamp import STAMP_BYTES  # imported by plans already
    s = t(); from mimomem.served import entry_index, entry_recall, fitting; import mimomem.served.prompt; from mimomem.curated import scoring
    from mimomem.text import bm25, query, xlang; imp2 = t() - s
    s = t(); text = entry.served_text(plan, {prompt!r}); ans = t() - s
    stages = {{"interpreter start": start, "import the hook's entry": imp,
              f"read the plan, check its {{len(plan['stamps']) // STAMP_BYTES}} stamps": check,
              "import the scoring code": imp2, "answer (curated, entries, fit and redact)": ans}}
else:  # a new session's SessionStart served from its project's plan (hooks.entry_session)
    s = t(); from mimomem.hooks import entry, entry_session; from mimomem.served import plans; imp = t() - s
    s = t(); key = entry_session.start_key(payload["cwd"], os.environ)
    new = lambda p: entry_session.is_new(p["instructions"], payload["session_id"]) and not entry_session.promotes(p["markers"], payload)
    plan = plans.load_plan(plans.plan_file(key, os.environ), key, first=new); check = t() - s
    assert plan is not None, "no current plan: a new session's first start builds it"
    from mimomem.common.stamp import STAMP_BYTES  # imported by plans already
    s = t(); from mimomem.served import session, fitting, instructions; from mimomem.common import secrets; imp2 = t() - s
    s = t(); ctx = session.new_session_answer(plan, payload["session_id"], budget=4000, char_cap=9000)
    text = entry.hook_output("SessionStart", ctx.text); ans = t() - s
    stages = {{"interpreter start": start, "import the hook's entry": imp,
              f"read the plan, check its {{len(plan['stamps']) // STAMP_BYTES}} stamps": check,
              "import the fitting code": imp2, "answer (instructions, fit the blocks, redact)": ans}}
print(json.dumps(stages))
"""
"""One hook's stages in the order the hook runs them, timed in a fresh interpreter: the served
prompt (``hooks.entry``) and a new session's served SessionStart (``hooks.entry_session``)."""


def breakdown(repo: Path, sid: str, payload: dict[str, object], env: dict[str, str]) -> dict[str, float]:
    """CPU milliseconds of each stage of one context hook, measured inside a fresh interpreter."""
    prompt = str(payload.get("prompt", ""))
    if not prompt:
        sid = new_session_id()
    full = {"session_id": sid, "cwd": str(repo), "transcript_path": str(repo.parent / "none.jsonl"), **payload}
    code = BREAKDOWN.format(payload=json.dumps(full), prompt=prompt)
    # cwd: `python -c` puts its working directory first on sys.path; run from a checkout's root (as
    # benchmarks/README.md says), it would import the source tree instead of the mimomem being measured
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env, cwd=repo)
    out = done.stdout
    return {k: v * 1000 for k, v in json.loads(out).items()}


PROMPT = "部署前数据库端口要改成多少？上次 pnpm 构建失败是什么原因"
EDITED = "UserPromptSubmit, a memory file just edited"
"""The first prompt after memory changed: its plan is stale, so the hook reads the memory and builds a new
one (``mimomem.context.plan``); the plain ``UserPromptSubmit`` case is every other prompt (served from it)."""
AFTER_EDIT = "SessionStart, new session after a memory edit"
"""A new session's start after memory changed: its project's plan is stale, so the hook answers and saves a
new one (``mimomem.context.session_plan``); the plain ``SessionStart`` case is every other new session
(``startup`` or ``clear`` with a fresh id: served from it).  The file is edited just before this case, and
the prompt after an edit (``EDITED``) follows it: the new session's registration makes a prompt plan stale too."""
RESUMED = "SessionStart, resume of an existing session"
"""``resume`` of the session that wrote the bench's session notes: the hook reads the session's own memory."""
CASES = {
    "python -c pass": None,
    "UserPromptSubmit": {"hook_event_name": "UserPromptSubmit", "prompt": PROMPT},
    "SessionStart": {"hook_event_name": "SessionStart", "source": "startup"},
    RESUMED: {"hook_event_name": "SessionStart", "source": "resume"},
    AFTER_EDIT: {"hook_event_name": "SessionStart", "source": "startup"},
    EDITED: {"hook_event_name": "UserPromptSubmit", "prompt": PROMPT},
}
NEW_SESSIONS = ("SessionStart", AFTER_EDIT)
"""Cases that start a new session: each run gets a fresh session id, as Claude Code gives every
``startup`` and ``clear``."""


def new_session_id() -> str:
    return str(uuid.uuid4())


def measure(repo: Path, sid: str, tmp: Path, runs: int) -> dict[str, list[float]]:
    """CPU ms of ``runs`` whole processes per case; the cases take turns, so load hits all alike."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # measure an installed package: bytecode cached, as pip leaves it
    hook = [*hook_launcher(), "hook", "claude-code"]
    base = {"session_id": sid, "cwd": str(repo), "transcript_path": str(tmp / "none.jsonl")}
    prompt = json.dumps({**base, **CASES["UserPromptSubmit"]})
    child_cpu(hook, prompt, env)  # builds the caches, registers the session and its promotion marker
    new_session = {**base, **CASES["SessionStart"], "session_id": new_session_id()}
    child_cpu(hook, json.dumps(new_session), env)  # a new session's first start: builds its project's plan
    child_cpu(hook, prompt, env)  # builds the prompt's plan (the new session's registration made it stale)
    from mimomem.tree.memory_tree import MemoryTree

    tree = MemoryTree()
    edited = min(tree.project_dir(tree.project_id(repo).id).glob("*.md"))  # in the prompt's scope
    samples: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(runs):
        for name, payload in CASES.items():
            if payload is None:
                samples[name].append(child_cpu([sys.executable, "-c", "pass"], "", env) * 1000)
                continue
            if name == AFTER_EDIT:  # a new mtime, as an editor's save gives: both plans are stale
                st = edited.stat()
                os.utime(edited, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
            fresh = {"session_id": new_session_id()} if name in NEW_SESSIONS else {}
            samples[name].append(child_cpu(hook, json.dumps({**base, **payload, **fresh}), env) * 1000)
    for event in ("UserPromptSubmit", "SessionStart"):
        payload = CASES[event]
        assert payload is not None
        parts = [breakdown(repo, sid, payload, env) for _ in range(runs)]
        samples.update({f"in-process {event}: {k}": [p[k] for p in parts] for k in parts[0]})
    return samples


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9, help="processes per case (median and spread; at least 5)")
    ap.add_argument("--files", type=int, default=1000)
    ap.add_argument("--memories", type=int, default=500)
    ap.add_argument(
        "--max-ratio",
        type=float,
        default=40.0,
        help="exit 1 when the prompt hook costs more than this many times `python -c pass` (median CPU, same run)",
    )
    ap.add_argument("--record", action="store_true", help="write benchmarks/results/hook.json")
    ap.add_argument(
        "--scenario",
        choices=(*SCENARIOS, "both"),
        default="both",
        help="tree files sharing some of the prompt's words (mixed), most of them matching it (matching), or both",
    )
    args = ap.parse_args(argv)
    if editable_install():
        print(
            "bench_hook: mimomem is an editable install here: every interpreter of this environment imports"
            " pathlib and re at start, so `python -c pass` costs about twice an installed one's and the ratios"
            " read about half the real ones; install with `pip install .` to measure what a user pays",
            file=sys.stderr,
        )
        if args.record:
            print("bench_hook: --record refused for an editable install", file=sys.stderr)
            return 2
    print(
        f"measuring `{' '.join(hook_launcher())} hook claude-code`, mimomem from {'an editable install' if editable_install() else 'an installed package'}"
    )
    names = list(SCENARIOS) if args.scenario == "both" else [args.scenario]
    results = {name: run_scenario(name, args) for name in names}
    worst = max(ratio for _, ratio in results.values())
    if args.record:
        import record

        data = {"runs": args.runs, "files": args.files, "memories": args.memories, "install": "installed"}
        data.update({("samples_ms" if n == "mixed" else f"{n}_samples_ms"): s for n, (s, _) in results.items()})
        record.save("hook", ["benchmarks/bench_hook.py", *argv], data)
    return 0 if worst <= args.max_ratio else 1


SCENARIOS = {"mixed": False, "matching": True}
"""Scenario name -> whether most tree files match the prompt."""


def run_scenario(name: str, args: argparse.Namespace) -> tuple[dict[str, list[float]], float]:
    """Build one scenario's memory, measure it, print its table; its samples and prompt-hook ratio."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        repo, sid = build(Path(tmp), args.files, args.memories, matching=SCENARIOS[name])
        took = time.perf_counter() - t0
        print(f"\n## {name}: built {args.files} tree files and {args.memories} curated memories in {took:.1f} s")
        samples = measure(repo, sid, Path(tmp), args.runs)
    print(f"\n| process (CPU ms, {args.runs} runs) | median | min | max |\n| --- | ---: | ---: | ---: |")
    for case, values in samples.items():
        print(f"| {case} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} |")
    base = statistics.median(samples["python -c pass"])
    ratio = statistics.median(samples["UserPromptSubmit"]) / base
    start = statistics.median(samples["SessionStart"]) / base
    resume = statistics.median(samples[RESUMED]) / base
    print(
        f"\n{name}: prompt hook / python -c pass = {ratio:.1f}x, SessionStart of a new session {start:.1f}x,"
        f" resume {resume:.1f}x (bound {args.max_ratio:g}x)"
    )
    return samples, ratio


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
