"""``distill``: find workflows the history repeats, and package the solid ones as skills.

Without a model the evidence decides everything:

- a *workflow* is a run of successful, non-trivial shell commands that appears, in the
  same order with the same normalised inputs, in two or more sessions (or one such
  command of three or more words, like ``pnpm run deploy:staging``); these make the
  **Shortlist**;
- the same thing repeated only inside one session **Needs more evidence**;
- a workflow an existing skill already covers (its commands appear in a ``SKILL.md``
  under ``.claude/skills``, ``.mimomem/skills``, ``.mimocode/skills`` or
  ``~/.claude/skills``), or whose skill directory exists, is **Skipped**.

With ``write=True`` each shortlisted workflow becomes ``<skills dir>/<name>/SKILL.md``
(frontmatter ``name`` and ``description``, then the steps, the failures seen with their
fixes, and the sessions it was seen in), written through the gate as ``distill``; an
existing file is never overwritten.  A model can do better naming and merging: use
``--emit-prompt``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mimomem.common.secrets import redact_secrets, scan_secrets
from mimomem.history.evidence import Evidence
from mimomem.history.evidence_items import FailureFix, Provenance, Step, short_id
from mimomem.history.signals import command_family, is_trivial
from mimomem.passes.base import Change, PassContext, PassReport, apply_changes
from mimomem.passes.wording import quote, without_secrets

AGENT = "distill"
HEADINGS = ("Shortlist", "Created", "Skipped", "Needs more evidence")
MAX_STEPS = 4
MAX_SHORTLIST = 10
"""Workflows shortlisted per run at most (most sessions first); the rest are counted under Skipped."""
MIN_SINGLE_WORDS = 3
SKILL_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
SKILL_ROOTS = (".claude/skills", ".mimomem/skills", ".mimocode/skills")


@dataclass(frozen=True)
class Workflow:
    """Commands run in this order in ``sessions`` (``runs`` times in all)."""

    name: str
    steps: tuple[str, ...]
    sessions: tuple[str, ...]
    runs: int
    first: Provenance
    last: Provenance

    def label(self) -> str:
        """``ruff check . → pnpm test`` (for reports)."""
        return " → ".join(f"`{s}`" for s in self.steps)


def _runs(ev: Evidence) -> dict[str, list[Step]]:
    """Per session, its successful non-trivial shell steps, consecutive repeats collapsed."""
    out: dict[str, list[Step]] = {}
    for step in ev.trace():
        if step.command is None or step.status != "completed" or is_trivial(step.command):
            continue
        steps = out.setdefault(step.provenance.session_id, [])
        if not steps or steps[-1].command != step.command:
            steps.append(step)
    return out


def find_workflows(ev: Evidence) -> tuple[list[Workflow], list[Workflow]]:
    """(shortlist, needs more evidence), most sessions first."""
    seen: dict[tuple[str, ...], list[tuple[str, Provenance]]] = {}
    for sid, steps in _runs(ev).items():
        commands = [s.command or "" for s in steps]
        for n in range(1, MAX_STEPS + 1):
            for i in range(len(commands) - n + 1):
                seen.setdefault(tuple(commands[i : i + n]), []).append((sid, steps[i].provenance))
    solid: list[Workflow] = []
    weak: list[Workflow] = []
    for commands_run, where in seen.items():
        sessions = tuple(dict.fromkeys(sid for sid, _ in where))
        if (len(commands_run) == 1 and len(commands_run[0].split()) < MIN_SINGLE_WORDS) or len(where) < 2:
            continue
        flow = Workflow(_name(commands_run), commands_run, sessions, len(where), where[0][1], where[-1][1])
        (solid if len(sessions) >= 2 else weak).append(flow)
    return _maximal(solid), _maximal(weak)


def _maximal(flows: list[Workflow]) -> list[Workflow]:
    """Drop a workflow that is part of a longer one seen in at least the same sessions."""
    kept = []
    for flow in flows:
        inside = any(
            other is not flow
            and len(other.steps) > len(flow.steps)
            and _contains(other.steps, flow.steps)
            and set(flow.sessions) <= set(other.sessions)
            for other in flows
        )
        if not inside:
            kept.append(flow)
    kept.sort(key=lambda f: (-len(f.sessions), -len(f.steps), f.name))
    return kept


def _contains(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def _name(steps: tuple[str, ...]) -> str:
    """A skill name from the commands: ``ruff check .`` + ``pnpm test`` -> ``ruff-check-pnpm-test``."""
    words: list[str] = []
    for step in steps:
        family = command_family(step)
        rest = step[len(family) :].split() if step.startswith(family) else []
        picked = family.split() + [w for w in rest[:1] if not w.startswith(("-", "<", "."))]
        words += picked if len(steps) == 1 else family.split()
    slug = re.sub(r"[^a-z0-9]+", "-", " ".join(words).casefold()).strip("-")
    return slug[:48].rstrip("-") or "workflow"


def existing_skills(worktree: Path | None, home: Path | None = None) -> dict[str, str]:
    """Every ``SKILL.md`` the project and the user already have: path -> text (first 64 KB)."""
    roots = [worktree / r for r in SKILL_ROOTS] if worktree is not None else []
    roots.append((home or Path(os.path.expanduser("~"))) / ".claude" / "skills")
    found: dict[str, str] = {}
    for root in roots:
        for path in sorted(root.glob("*/SKILL.md")) if root.is_dir() else []:
            try:
                with path.open(encoding="utf-8", errors="replace") as handle:
                    found[str(path)] = handle.read(64 * 1024)
            except OSError:
                continue
    return found


def skill_text(flow: Workflow, failures: list[FailureFix], project: str) -> str:
    """The ``SKILL.md`` of ``flow``: frontmatter, steps, known failures, evidence."""
    steps = " then ".join(f"`{s}`" for s in flow.steps)
    description = (
        f"The {project} workflow {steps}, as run in {len(flow.sessions)} sessions "
        f"({flow.first.day} to {flow.last.day}). Use it when that job comes up again."
    )
    out = ["---", f"name: {flow.name}", f"description: {_yaml_string(quote(description, 1000))}", "---", ""]
    out += [f"# {' → '.join(flow.steps)}", "", "Distilled by mimomem from this project's history, without a model:"]
    out += ["the same commands, in this order, succeeded in every session listed below.", "", "## Steps", ""]
    out += [f"{i}. `{step}`" for i, step in enumerate(flow.steps, 1)]
    mine = [f for f in failures if f.fix and command_family(f.call) in {command_family(s) for s in flow.steps}]
    if mine:
        out += ["", "## Known failures", ""]
        out += [f'- `{quote(f.call, 120)}` failed with "{quote(f.error, 120)}"; {f.fix}.' for f in mine[:5]]
    out += ["", "## Evidence", ""]
    out += [f"- [session {short_id(s)}]" for s in flow.sessions[:10]]
    return "\n".join(out) + "\n"


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def run_distill(
    ctx: PassContext,
    *,
    write: bool = False,
    dry_run: bool = False,
    skills_dir: str | os.PathLike[str] | None = None,
    home: Path | None = None,
) -> PassReport:
    """Shortlist repeated workflows for ``ctx``; with ``write``, create their ``SKILL.md`` files."""
    report = PassReport("distill", HEADINGS)
    ev = ctx.evidence()
    shortlist, weak = find_workflows(ev)
    worktree = ctx.where.worktree
    target = Path(skills_dir) if skills_dir is not None else (worktree / ".claude" / "skills" if worktree else None)
    skills = existing_skills(worktree, home)
    failures = ev.failures()
    if len(shortlist) > MAX_SHORTLIST:
        report.add("Skipped", f"{len(shortlist) - MAX_SHORTLIST} more repeated workflows, seen in fewer sessions")
        shortlist = shortlist[:MAX_SHORTLIST]
    for flow in weak[:MAX_SHORTLIST]:
        report.add(
            "Needs more evidence", f"{flow.label()}: {flow.runs} runs, all in [session {short_id(flow.sessions[0])}]"
        )
    for flow in shortlist:
        covered = _covered_by(flow, skills, target)
        if covered:
            report.add("Skipped", f"{flow.label()}: {covered}")
            continue
        if scan_secrets(" ".join(flow.steps)):  # a skill of commands holding a token would hand it to every session
            report.add("Skipped", f"{redact_secrets(flow.label())}: a step holds a likely secret; not packaged")
            continue
        report.add("Shortlist", f"{flow.name}: {flow.label()} ({len(flow.sessions)} sessions, {flow.runs} runs)")
        if write and target is not None:
            path = target / flow.name / "SKILL.md"
            lines, redacted = without_secrets(skill_text(flow, failures, ctx.where.project_name).split("\n"))
            text = "\n".join(lines)
            if redacted:
                report.add("Skipped", f"{flow.name}: {redacted} known-failure line(s) held a likely secret; redacted")
            report.changes.append(Change(path, None, text, create_only(text)))
            report.add("Created", f"{path}")
    if not shortlist:
        report.add("Created", "nothing - no workflow repeated across sessions yet")
    elif not write:
        report.add("Created", "nothing (shortlist only; pass --write to create the skills)")
    elif target is None:
        report.add("Created", "nothing: not in a git worktree; pass --skills-dir")
    if not ev.sessions():
        report.add("Skipped", "no history for this project in the window; run `mimomem history import` first")
    apply_changes(ctx, report, AGENT, dry_run=dry_run)
    return report


def _covered_by(flow: Workflow, skills: dict[str, str], target: Path | None) -> str | None:
    if target is not None and (target / flow.name).exists():
        return f"a skill named {flow.name} exists ({target / flow.name})"
    for path, text in skills.items():
        if all(step in text for step in flow.steps):
            return f"already covered by {path}"
    return None


def create_only(text: str) -> Callable[[str | None], str | None]:
    def apply(old: str | None) -> str | None:
        return text if old is None else None

    return apply
