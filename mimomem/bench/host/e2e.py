"""``mimomem bench --e2e --host claude-code``: the e2e dev set played through the real Claude Code.

Each session of the dev set runs as a real session (``mimomem.bench.host.scenario``) in one
sandbox ``HOME`` holding both projects, mimomem installed by the chosen route and off the
agent's ``PATH``.  Then each question is asked from a fresh session of its project (killed after
its answer, as the replay never ends a question session) and scored, with the replay's own
rules (``mimomem.bench.e2e.score``), on what mimomem injected as the model received it: the
``SessionStart`` and ``UserPromptSubmit`` context in that session's requests.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import DevSet, Question, load_devset
from mimomem.bench.e2e.pinned import pinned_root
from mimomem.bench.e2e.score import Outcome, count_tokens, extra_lines, extra_splits, summarize
from mimomem.bench.host.binary import Host, find_host
from mimomem.bench.host.extract import PERSISTED
from mimomem.bench.host.sandbox import Sandbox
from mimomem.bench.host.scenario import (
    ScenarioSession,
    install_stubs,
    load_scenarios,
    made_executable,
    programs_of,
    repository_files,
)
from mimomem.bench.host.script import Script, Turn
from mimomem.bench.host.session import Session, run_session
from mimomem.bench.host.standin import StandIn
from mimomem.errors import HostSessionError

Progress = Callable[[str], None]
HOSTS = ("claude-code",)


def prepare_projects(root: Path, host: Host, route: str, devset: DevSet) -> dict[str, Sandbox]:
    """One sandbox per project, sharing ``root/home``: repositories generated, mimomem installed once per
    project (settings) or once for the user (plugin), the recorded programs stubbed in the agent's shell,
    and the project's host memory files (``host-memory/<project>/``) in the folder where Claude Code keeps
    its auto-memory for that project, as the replay places them."""
    from mimomem.bench.e2e.run import place_host_memory

    boxes: dict[str, Sandbox] = {}
    home = root / "home"
    home.mkdir(parents=True, exist_ok=True)
    install_stubs(home, programs_of(devset.path))
    for number, project in enumerate(devset.projects()):
        box = Sandbox(root, host, route=route, project_name=project, extra_env={"SHELL": "/bin/bash"})
        box.prepare(repository_files(devset.path, project), install=route == "settings" or number == 0)
        keep_off = made_executable(devset.path, project)
        for rel in repository_files(devset.path, project):
            if rel != "README.md" and rel not in keep_off:
                (box.project / rel).chmod(0o755)
        place_host_memory(devset, project, box.project, box.env())
        boxes[project] = box
    return boxes


def play_sessions(
    boxes: dict[str, Sandbox],
    scenarios: Sequence[ScenarioSession],
    model: StandIn,
    say: Progress,
    played: list[tuple[ScenarioSession, Session]] | None = None,
) -> dict[str, Any]:
    """Run every scenario session in order; what happened (errors, seconds, tool outputs that differ).
    ``played`` gets each scenario with its session."""
    errors: list[str] = []
    seconds = 0.0
    differ = 0
    calls = 0
    for scenario in scenarios:
        box = boxes[scenario.project]
        try:
            session = run_session(box, model, scenario.script, extra_args=scenario.extra_args(), end=scenario.ends)
        except HostSessionError as exc:
            errors.append(f"{scenario.project}/{scenario.name}: {exc}")
            say(f"  {scenario.name}: FAILED {exc}")
            continue
        box.settle()
        if played is not None:
            played.append((scenario, session))
        seconds += session.seconds
        results = [r for r in session.tool_results() if r.name == "Bash" and r.command not in scenario.disallowed]
        calls += len(scenario.expected)
        for result, (command, out, error) in zip(results, scenario.expected, strict=False):
            if not same_output(result.command, result.printed, result.exit_code, command, out, error):
                differ += 1
                say(f"    differs: {command!r} -> exit {result.exit_code} {result.printed.strip()[:120]!r}")
        differ += max(0, len(scenario.expected) - len(results))
        say(f"  {scenario.project}/{scenario.name}: {len(scenario.script.turns)} turns, {session.seconds:.1f} s")
    return {
        "session_errors": errors,
        "session_seconds": round(seconds, 1),
        "bash_calls": calls,
        "bash_output_differs": differ,
    }


NO_OUTPUT = "(Bash completed with no output)"


def keep(home: Path) -> Path:
    """A copy of ``home`` (memory, caches, the host's state) as the played sessions left it."""
    saved = home.with_name(home.name + ".played")
    shutil.copytree(home, saved, symlinks=True)
    return saved


def restore(saved: Path, home: Path) -> None:
    """``home`` as :func:`keep` saved it: each question is asked of the same memory, as in the replay,
    where a question session leaves no transcript behind for the next one to promote."""
    shutil.rmtree(home)
    shutil.copytree(saved, home, symlinks=True)


def same_output(command: str, printed: str, code: int, want_command: str, want: str, error: bool) -> bool:
    """The host ran the recorded command and it showed what the recording did (its last line, the status)."""
    shown = "" if printed.strip() == NO_OUTPUT else printed
    last = next((ln.strip() for ln in reversed(want.splitlines()) if ln.strip()), "")
    return command == want_command and (code != 0) == error and last in shown


def ask_host(q: Question, box: Sandbox, model: StandIn) -> Outcome:
    """The question as the first prompt of a fresh session; scored on what the model received."""
    session = run_session(box, model, Script([Turn(q.question)]), end=False)
    start, prompt = session.injected_text("SessionStart"), session.injected_text("UserPromptSubmit")
    over = int(PERSISTED in start) + int(PERSISTED in prompt)
    return Outcome(q, start, prompt, count_tokens((start + "\n" + prompt).strip()), over)


def run_host_e2e(
    path: Path | None = None,
    *,
    route: str = "settings",
    workdir: Path | None = None,
    progress: Progress | None = None,
    limit: int | None = None,
    sessions: Sequence[str] | None = None,
    question_ids: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The dev set through the real host; a smoke run takes part of it: ``limit`` (the first N questions),
    ``sessions`` (only these sessions, by name), ``question_ids`` (only these questions)."""
    from mimomem.bench.e2e.run import _result, default_devset

    say = progress or (lambda _msg: None)
    devset = load_devset(path or default_devset())
    host = find_host()
    questions = [q for q in devset.questions if question_ids is None or q.id in question_ids][:limit]
    with pinned_root("mimomem-host-e2e-", workdir) as tmp:
        root = Path(tmp)
        boxes = prepare_projects(root, host, route, devset)
        scenarios = [s for s in load_scenarios(devset.path, root, root / "home") if not sessions or s.name in sessions]
        t0 = time.perf_counter()
        with StandIn() as model:
            say(f"claude-code {host.version} ({route}): {len(scenarios)} sessions")
            info = play_sessions(boxes, scenarios, model, say)
            saved = keep(root / "home")
            outcomes = []
            for q in questions:
                outcomes.append(ask_host(q, boxes[q.project], model))
                restore(saved, root / "home")
            unrelated = []
            for q in devset.extra if limit is None and question_ids is None else ():
                unrelated.append(ask_host(q, boxes[q.project], model))
                restore(saved, root / "home")
        info.update({"route": route, "host_version": host.version, "seconds": round(time.perf_counter() - t0, 1)})
        info["extra_splits"] = extra_splits(unrelated)
        info["new_distractors"] = info["extra_splits"].get("new-distractors", {"asked": 0})
    shown = DevSet(devset.path, devset.sessions, tuple(questions))
    result = _result(shown, {"mimomem (host)": outcomes}, {"mimomem (host)": info})
    result["summary"] = summarize(outcomes).as_dict()
    return result


def comparison(host: dict[str, Any], replay: dict[str, Any], split: str = "all") -> dict[str, dict[str, int]]:
    """Per kind, over the questions the host run asked: {kind: {questions, replay, host}}; ``answerable`` too."""
    replayed = {row["id"]: row["mimomem"]["hit"] for row in replay["questions"]}
    out: dict[str, dict[str, int]] = {}
    for row in host["questions"]:
        if split != "all" and row["split"] != split:
            continue
        for key in (row["kind"], *(("answerable",) if row["kind"] != "distractor" else ())):
            cell = out.setdefault(key, {"questions": 0, "replay": 0, "host": 0})
            cell["questions"] += 1
            cell["replay"] += int(bool(replayed.get(row["id"])))
            cell["host"] += int(bool(row["mimomem (host)"]["hit"]))
    if "answerable" in out:
        out["answerable"] = out.pop("answerable")  # last
    return out


def format_comparison(host: dict[str, Any], replay: dict[str, Any]) -> str:
    """Markdown tables: per kind, hits in the replay and through the real host (all questions, then dev)."""
    lines = []
    for split in ("all", "dev"):
        lines += [f"| kind ({split} questions) | questions | replay | real host |", "| --- | ---: | ---: | ---: |"]
        for kind, cell in comparison(host, replay, split).items():
            n = cell["questions"]
            shown = [
                f"{cell[k]} ({cell[k] / n:.1%})" if kind == "answerable" and n else str(cell[k])
                for k in ("replay", "host")
            ]
            lines.append(f"| {'**answerable**' if kind == 'answerable' else kind} | {n} | {shown[0]} | {shown[1]} |")
        lines.append("")
    info = host["runs"]["mimomem (host)"]
    lines += [line[0].upper() + line[1:] + "." for line in extra_lines(info, " through the host")]
    lines.append(
        f"Real host: Claude Code {info['host_version']} ({info['route']} route), {info['seconds']} s; "
        f"{info['bash_calls']} scripted Bash calls, {info['bash_output_differs']} showed other than the recording; "
        f"session errors: {len(info['session_errors'])}."
    )
    return "\n".join(lines) + "\n"
