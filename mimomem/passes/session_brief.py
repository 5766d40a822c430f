"""A session's brief for the next session: what it was about, what it did, what is still open.

The brief is shown to every new session of the project (``memory-sessions.md``, the "Recent
sessions" block), so it must not carry the user's questions and requests: shown there, "帮我看看
config/app.yaml 里 worker_count 现在是多少" reads as what the project knows, and "Bump the timeout and
rerun the tests" as an order for the new session.  Each line comes from what the session established
or did, never from a turn that asked or ordered:

- ``Goal``: the user's own statements in the first turn that makes any (a sentence typed by its
  grammar, :func:`mimomem.history.sentence.sentence_type`: a question or a request to act now is
  left out, whatever it is about);
- ``Changed``: the files the agent's successful edits and writes changed (a tool's record of what
  the session did, whoever asked for it);
- ``Decided`` / ``Fixed``: the decisions and fixes promotion kept of the session;
- ``Open``: a command still failing when the session ended - unresolved, and a to-do by itself.
  A question the session answered is never open, and a request is not either: whether it was done
  is not in the transcript, and quoting it would hand the order to the next session.
"""

from __future__ import annotations

import os
from typing import Any

from mimomem.history.episode import Episode, clip
from mimomem.history.sentence import QUESTION, REQUEST, sentence_type
from mimomem.history.shell import text_runs_fetched_code
from mimomem.passes.promote_items import DECISIONS, FAILURES, Item, clean_text, sentences

BRIEF_CHARS = 100
"""Characters of one line of a session brief (the full items are in MEMORY.md)."""
CHANGED_FILES = 3
"""Files named on a brief's ``Changed`` line."""


def asks(text: str) -> bool:
    """Whether ``text`` holds a question or a request to act now (any of its sentences)."""
    return any(sentence_type(clean_text(s) or s) in (QUESTION, REQUEST) for s in sentences(text) or [text])


def statements(text: str) -> str:
    """The sentences of ``text`` that state something (neither a question nor a request), as typed."""
    kept = [s for s in sentences(text) if clean_text(s) and sentence_type(clean_text(s)) not in (QUESTION, REQUEST)]
    joined = ""
    for s in kept:  # a space after a Latin sentence, none after a CJK one (its punctuation ends it)
        joined += s if not joined or not joined[-1].isascii() else " " + s
    return clean_text(joined)


def brief_of(episode: Episode, items: list[Item], worktree: Any = None) -> dict[str, list[str]]:
    """Goal, files changed, decisions, fixes and open failures of one stretch of a session (none
    running fetched code); see the module docstring."""
    typed = [s.text for s in episode.typed() if not text_runs_fetched_code(s.text)]
    goal = next((g for g in (statements(t) for t in typed) if g), "")
    fixes = episode.finish()
    unfixed = [
        f"`{clip(f.call.summary, 80)}` still failing"
        for f in fixes
        if not f.fix and f.call.command and not f.call.unsafe and not text_runs_fetched_code(f.call.command)
    ]
    changed = changed_files(episode, worktree)
    return {
        "goal": [clip(goal, BRIEF_CHARS)] if goal else [],
        "changed": [clip(", ".join(changed), BRIEF_CHARS)] if changed else [],
        "decided": [clip(i.text, BRIEF_CHARS) for i in items if i.section == DECISIONS][:2],
        "fixed": [clip(i.text, BRIEF_CHARS) for i in items if i.section == FAILURES and " is flaky: " not in i.text][
            :2
        ],
        "open": unfixed[:1],
    }


def changed_files(episode: Episode, worktree: Any = None) -> list[str]:
    """The project's files the session's successful edits and writes changed, first change first
    (relative to ``worktree``; a file outside it by its name only), at most :data:`CHANGED_FILES`."""
    root = f"{worktree}{os.sep}" if worktree is not None else ""
    out: list[str] = []
    for call in episode.calls:
        if call.status != "ok" or call.command is not None:
            continue
        for path in call.files:
            shown = path[len(root) :] if root and path.startswith(root) else os.path.basename(path)
            if shown and shown not in out:
                out.append(shown)
    return out[:CHANGED_FILES] + ([f"+{len(out) - CHANGED_FILES} more"] if len(out) > CHANGED_FILES else [])


def shown_line(name: str, line: str) -> bool:
    """Whether a brief line is shown: a ``goal`` or ``open`` line that asks or orders is not (briefs an
    older version wrote hold the first and last typed turns verbatim)."""
    return name not in ("goal", "open") or line.endswith(" still failing") or not asks(line)
