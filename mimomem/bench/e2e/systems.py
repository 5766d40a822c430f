"""What each compared system hands a fresh session, for one question.

- ``mimomem``: the hooks themselves (SessionStart + that question's UserPromptSubmit);
- ``none``: no memory at all;
- ``mimo-style``: MiMo-Code's rebuild context as one hook output - project ``MEMORY.md``
  and the session notes (a fresh session has none of its own, so the project's latest
  session's notes), each cut at MiMo's ``chars / 4`` caps (10,000 and 6,000 "tokens");
- ``every-note``: every memory file of the project and its sessions, uncut and not
  subject to the host cap: the recall ceiling of the tree and what it would cost.

The baselines read the tree the ``mimomem`` replay wrote, so all systems see the same
sessions.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from mimomem.bench.e2e.dataset import DevSet, Question
from mimomem.bench.e2e.replay import HookRunner, Sandbox, isolated, payload
from mimomem.bench.e2e.score import Outcome, count_tokens, delivered, host_view, over_cap

MIMO_CAPS = {"project": 10_000, "notes": 6_000}
"""MiMo-Code's caps for these two blocks, in its ``chars / 4`` tokens."""

QUESTION_NAMESPACE = uuid.UUID("0d6b3f9e-51c4-4f0a-9a57-6e2b9c8d1f42")


def question_session(q: Question) -> str:
    """The fresh session id a question is asked from (stable across runs)."""
    return str(uuid.uuid5(QUESTION_NAMESPACE, q.id))


def ask(q: Question, sandbox: Sandbox, runner: HookRunner, *, fresh_process: bool | None = None) -> Outcome:
    """SessionStart of a new session of the question's project, then the question as its first prompt."""
    sid = question_session(q)
    cwd = sandbox.project_dir(q.project)
    path = sandbox.transcript_path(q.project, sid)
    start = runner.call(payload("SessionStart", sid, path, cwd, source="startup"), fresh_process=fresh_process)
    prompt = runner.call(payload("UserPromptSubmit", sid, path, cwd, prompt=q.question), fresh_process=fresh_process)
    ss, pr = delivered(start.stdout), delivered(prompt.stdout)
    received = host_view(ss) + "\n" + host_view(pr)
    return Outcome(q, ss, pr, count_tokens(received.strip()), int(over_cap(ss)) + int(over_cap(pr)))


def no_memory(q: Question) -> Outcome:
    """Nothing received."""
    return Outcome(q, "", "", 0, 0)


def _tree_paths(sandbox: Sandbox, devset: DevSet, project: str) -> tuple[Path, list[Path]]:
    """The project's MEMORY.md and its sessions' directories, oldest session first."""
    from mimomem.tree.memory_tree import MemoryTree

    with isolated(sandbox.env()):
        tree = MemoryTree()
        pid = tree.project_id(sandbox.project_dir(project)).id
        sessions = [tree.session_dir(s.session_id) for s in devset.sessions if s.project == project]
        return tree.project_memory(pid), [tree.project_dir(pid), *sessions]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _chars_cut(text: str, tokens: int) -> str:
    limit = tokens * 4
    return text if len(text) <= limit else text[:limit] + "\n[truncated]\n"


def mimo_style(q: Question, sandbox: Sandbox, devset: DevSet) -> Outcome:
    """Project memory + the latest session's notes, ``chars / 4`` caps, one output under the host rule."""
    memory, dirs = _tree_paths(sandbox, devset, q.project)
    sessions = [d for d in dirs[1:] if (d / "notes.md").is_file()]
    notes = _read(sessions[-1] / "notes.md") if sessions else ""
    parts = []
    if _read(memory).strip():
        parts.append("## Project memory\n" + _chars_cut(_read(memory), MIMO_CAPS["project"]))
    if notes.strip():
        parts.append("## Session notes\n" + _chars_cut(notes, MIMO_CAPS["notes"]))
    text = "\n".join(parts)
    return Outcome(q, text, "", count_tokens(host_view(text)), int(over_cap(text)))


def every_note(q: Question, sandbox: Sandbox, devset: DevSet) -> Outcome:
    """Every memory file of the project and its sessions, whole (the ceiling; no host cap applied)."""
    _, dirs = _tree_paths(sandbox, devset, q.project)
    texts = []
    for directory in dirs:
        for path in sorted(directory.rglob("*.md")) if directory.is_dir() else []:
            texts.append(f"## {path.name}\n{_read(path)}")
    text = "\n".join(texts)
    return Ceiling(q, text, "", count_tokens(text), int(over_cap(text)))


class Ceiling(Outcome):
    """An outcome scored on the whole text, as if the host had no cap."""

    @property
    def received(self) -> str:
        return self.session_start + "\n" + self.prompt
