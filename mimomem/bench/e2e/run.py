"""One end-to-end run: replay every session, ask every question, score every system.

``run_e2e`` returns a JSON-ready result: the run's identity (commit, date, machine), one
summary per system for all questions and per split (``dev`` / ``heldout``), and each
question's outcome per system, so a reader can see exactly what was received.
"""

from __future__ import annotations

import platform
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import DevSet, load_devset
from mimomem.bench.e2e.pinned import pinned_root
from mimomem.bench.e2e.replay import (
    Clock,
    HookRunner,
    Sandbox,
    backdate_project,
    parse_time,
    replay_session,
    scheduled_passes,
)
from mimomem.bench.e2e.score import Outcome, delivered, extra_splits, over_cap, summarize
from mimomem.bench.e2e.systems import ask, every_note, mimo_style, no_memory

SYSTEMS = ("mimomem", "mimomem+passes", "none", "mimo-style", "every-note")
"""Every system a run can score; ``mimomem+passes`` switches the scheduled passes on."""

DEFAULT_SYSTEMS = SYSTEMS

PASSES_ENV = {"MIMOMEM_AUTO_DREAM": "1", "MIMOMEM_AUTO_DISTILL": "1"}
"""What ``mimomem+passes`` adds: the scheduled dream and distill passes, at their default intervals."""

Progress = Callable[[str], None]


def default_devset() -> Path:
    """``corpora/e2e-dev`` of this checkout, else of the current directory, else the copy a wheel carries."""
    package = Path(__file__).resolve().parents[2]
    candidates = (package.parent / "corpora", Path.cwd() / "corpora", package / "_corpora")
    found = [c / "e2e-dev" for c in candidates if (c / "e2e-dev" / "manifest.json").is_file()]
    return found[0] if found else candidates[0] / "e2e-dev"


def replay_all(devset: DevSet, sandbox: Sandbox, *, fresh_process: bool = False) -> tuple[HookRunner, list[str]]:
    """Replay every session in start order (projects interleaved by time); returns the hook log and passes run."""
    runner = HookRunner(sandbox, fresh_process=fresh_process)
    clock = Clock()
    seen: set[str] = set()
    with scheduled_passes(clock, sandbox.env()) as started:
        for spec in devset.sessions:
            replay_session(spec, sandbox, runner, clock)
            if spec.project not in seen:
                seen.add(spec.project)
                backdate_project(sandbox, spec.project, parse_time(spec.start) or clock.now)
    return runner, list(started)


def _mimomem(
    devset: DevSet, root: Path, extra: dict[str, str], *, checks: int, fresh_process: bool, progress: Progress
) -> tuple[list[Outcome], dict[str, Any], Sandbox]:
    sandbox = Sandbox(root, dict(extra))
    install_host_memory(devset, sandbox)
    t0 = time.perf_counter()
    runner, passes = replay_all(devset, sandbox, fresh_process=fresh_process)
    replay_s = time.perf_counter() - t0
    progress(f"replayed {len(devset.sessions)} sessions ({len(runner.log)} hook calls) in {replay_s:.1f} s")
    replay_over = sum(over_cap(delivered(c.stdout)) for c in runner.log)
    errors = sorted({c.stderr.strip() for c in runner.log if c.stderr.strip()})
    asked = HookRunner(sandbox, fresh_process=fresh_process)
    outcomes = [ask(q, sandbox, asked) for q in devset.questions]
    prompt_ms = [c.seconds * 1000 for c in asked.log if c.event == "UserPromptSubmit"]
    unrelated = [ask(q, sandbox, asked) for q in devset.extra]
    mismatches = _spot_check(devset, sandbox, outcomes, checks) if checks and not fresh_process else []
    splits = extra_splits(unrelated)
    info: dict[str, Any] = {
        "replay_hook_calls": len(runner.log),
        "replay_over_cap": replay_over,
        "replay_seconds": round(replay_s, 2),
        "hook_stderr": errors[:10],
        "passes_run": passes,
        "prompt_hook_ms_median": round(statistics.median(prompt_ms), 1) if prompt_ms else 0.0,
        "subprocess_checks": min(checks, len(outcomes)) if not fresh_process else 0,
        "subprocess_mismatches": mismatches,
        "extra_splits": splits,
        "new_distractors": splits.get("new-distractors", {"asked": 0}),
    }
    return outcomes, info, sandbox


def install_host_memory(devset: DevSet, sandbox: Sandbox) -> None:
    """Each project's host memory files (``host-memory/<project>/``) into the sandbox's Claude Code
    auto-memory folder of that project, where the host's model would have saved them."""
    for project in devset.projects():
        place_host_memory(devset, project, sandbox.project_dir(project), sandbox.env())


def place_host_memory(devset: DevSet, project: str, cwd: Path, env: dict[str, str]) -> int:
    """``host-memory/<project>/`` into Claude Code's auto-memory folder for a session started in ``cwd``
    with ``env`` (the replay's sandbox and the real host's alike); how many files were placed."""
    from mimomem.tree.host_paths import claude_memory_dir

    files = devset.host_memory(project)
    if not files:
        return 0
    folder = Path(claude_memory_dir(str(cwd), env) or "")
    folder.mkdir(parents=True, exist_ok=True)
    for file in files:
        (folder / file.name).write_bytes(file.read_bytes())
    return len(files)


def _spot_check(devset: DevSet, sandbox: Sandbox, outcomes: list[Outcome], checks: int) -> list[str]:
    """Ask the first ``checks`` questions again through a fresh hook process; ids whose text differs."""
    runner = HookRunner(sandbox, fresh_process=True)
    bad = []
    for outcome in outcomes[:checks]:
        again = ask(outcome.question, sandbox, runner)
        if (again.session_start, again.prompt) != (outcome.session_start, outcome.prompt):
            bad.append(outcome.question.id)
    return bad


def run_e2e(
    path: Path | None = None,
    *,
    systems: Sequence[str] = DEFAULT_SYSTEMS,
    workdir: Path | None = None,
    checks: int = 4,
    fresh_process: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Run the benchmark on the dev set in ``path`` (default: ``corpora/e2e-dev``)."""
    say = progress or (lambda _msg: None)
    devset = load_devset(path or default_devset())
    with pinned_root("mimomem-e2e-", workdir) as tmp:  # the same paths every run
        results: dict[str, list[Outcome]] = {}
        info: dict[str, Any] = {}
        base: Sandbox | None = None
        for name, extra in (("mimomem", {}), ("mimomem+passes", PASSES_ENV)):
            if name in systems or (base is None and {"mimo-style", "every-note"} & set(systems)):
                say(f"{name}: replaying")
                outcomes, info[name], sandbox = _mimomem(
                    devset, Path(tmp) / name, extra, checks=checks, fresh_process=fresh_process, progress=say
                )
                base = base or sandbox
                if name in systems:
                    results[name] = outcomes
        if "none" in systems:
            results["none"] = [no_memory(q) for q in devset.questions]
        if base is not None and "mimo-style" in systems:
            results["mimo-style"] = [mimo_style(q, base, devset) for q in devset.questions]
        if base is not None and "every-note" in systems:
            results["every-note"] = [every_note(q, base, devset) for q in devset.questions]
    return _result(devset, results, info)


def _result(devset: DevSet, results: dict[str, list[Outcome]], info: dict[str, Any]) -> dict[str, Any]:
    summaries: dict[str, Any] = {}
    for name, outcomes in results.items():
        replay_over = int(info.get(name, {}).get("replay_over_cap", 0))
        summaries[name] = {
            "all": summarize(outcomes, extra_over_cap=replay_over).as_dict(),
            **{
                split: summarize([o for o in outcomes if o.question.split == split]).as_dict()
                for split in ("dev", "heldout")
            },
        }
    return {
        "identity": identity(),
        "devset": {
            "path": devset.path.name,
            "projects": devset.projects(),
            "sessions": len(devset.sessions),
            "questions": len(devset.questions),
        },
        "systems": summaries,
        "runs": info,
        "questions": [_question_row(i, devset, results) for i in range(len(devset.questions))],
    }


def _question_row(i: int, devset: DevSet, results: dict[str, list[Outcome]]) -> dict[str, Any]:
    q = devset.questions[i]
    row: dict[str, Any] = {"id": q.id, "kind": q.kind, "split": q.split, "question": q.question}
    for name, outcomes in results.items():
        o = outcomes[i]
        row[name] = {"hit": o.hit, "stale_only": o.stale_only, "tokens": o.tokens, "prompt_chars": len(o.prompt)}
    return row


def identity() -> dict[str, str]:
    """Commit, date and machine of this run."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parent,
            check=False,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "commit": commit or "unknown",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": f"{platform.machine()} {platform.processor() or ''} {platform.system()}".strip(),
        "python": platform.python_version(),
    }
