"""``mimomem hook claude-code``: Claude Code hook events in, documented hook JSON out.

- ``SessionStart`` (startup, resume, clear, compact): memory instructions + rebuild context (the
  session's directory and notes.md made first, so the agent can append as told); a new
  session's from the project's plan, saved for the next one (:mod:`mimomem.hooks.session_start`),
  which ``SessionEnd`` saves again after its promotion;
- ``UserPromptSubmit``: curated memories and whole memory entries relevant to the prompt, plus the
  recall reminder - nothing at all when nothing is relevant;
- ``PreCompact`` and ``SessionEnd``: a deterministic digest of the transcript since the
  last digest, appended to the session's notes through the write gate, so what
  compaction drops comes back at the next ``SessionStart``; then the session is promoted
  into project memory (:mod:`mimomem.passes.promote`) within the host's time budget
  (:mod:`mimomem.served.hosts`), the rest detached.  ``SessionStart`` first promotes
  what earlier sessions of the project left pending (those that never ended too).

Claude Code's ``session_id`` is the session, ``cwd`` gives the project.  The hook never
blocks the agent: on any problem it prints nothing on stdout, one line on stderr, and
exits 0.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from mimomem.errors import HookInputError, TranscriptReadError
from mimomem.hooks.entry import MAX_PAYLOAD_BYTES, hook_output, read_payload, served_text
from mimomem.served.hosts import CLAUDE_CODE

if TYPE_CHECKING:
    from mimomem.tree.where import Where

PRE_COMPACT_SECONDS = 5.0
"""Promotion done inside a PreCompact hook before the rest is detached (it has no 1.5 s limit)."""

CONTEXT_EVENTS = ("SessionStart", "UserPromptSubmit")
DIGEST_EVENTS = ("PreCompact", "SessionEnd")


def run(
    stdin: TextIO | None,
    stdout: TextIO | None,
    stderr: TextIO | None,
    *,
    env: Mapping[str, str] | None = None,
    raw: str | bytes | None = None,
    plan_checked: bool = False,
) -> int:
    """Handle one hook invocation; always returns 0 (a hook must never block the agent).

    Any stream may be closed (``None``) or go away mid-write: nothing is then said, nothing raised,
    and an error line never lands on stdout (where the host would hand it to the model).
    ``raw``: the payload already read from ``stdin``, ``plan_checked``: its saved plan was found
    stale or missing just now (both by :mod:`mimomem.hooks.entry`).
    """
    try:
        payload = parse_payload(read_payload(stdin) if raw is None else raw)
        out = handle(payload, env=os.environ if env is None else env, plan_checked=plan_checked)
    except Exception as exc:  # fail open: the agent goes on without memory, the user sees why
        say(f"mimomem hook: {_reason(exc)}", stderr)
        return 0
    if out and stdout is not None:
        with suppress(OSError, ValueError):  # stdout closed, or the host stopped reading: nobody to tell
            stdout.write(out)
            stdout.flush()
    return 0


def say(line: str, stderr: TextIO | None) -> None:
    """One line on ``stderr`` for the user, if there is a stderr to say it on (never on stdout)."""
    if stderr is not None:
        with suppress(OSError, ValueError):
            print(line, file=stderr)


_UNWRITABLE = {28: "the disk is full", 122: "the disk quota is used up", 30: "the file system is read-only"}
_UNWRITABLE |= {13: "permission denied", 1: "permission denied"}
"""errno (ENOSPC, EDQUOT, EROFS, EACCES, EPERM) -> what a user is told when mimomem cannot write."""


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno in _UNWRITABLE:
        where = os.path.dirname(exc.filename) if isinstance(exc.filename, str) else "mimomem's data directory"
        text = (
            f"cannot write to {where}: {_UNWRITABLE[exc.errno]}; memory was not updated this time and nothing "
            "it keeps was changed (free some space or make that directory writable)"
        )
    else:
        text = " ".join(str(exc).split()) or type(exc).__name__
    if len(text) > 300:
        text = text[:299] + "…"
    from mimomem.common.redaction import redact

    return redact(text, before="")


def parse_payload(raw: str | bytes) -> dict[str, Any]:
    """The hook's JSON object, or ``HookInputError`` saying what is wrong with it."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        raise HookInputError(f"payload larger than {MAX_PAYLOAD_BYTES} bytes; ignored")
    if not raw.strip():
        raise HookInputError("no JSON on stdin; Claude Code sends one object per hook call")
    try:
        payload = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise HookInputError(f"stdin is not valid JSON ({exc.msg} at character {exc.pos}); ignored") from None
    except ValueError as exc:  # e.g. a number too long to convert
        raise HookInputError(f"stdin is not usable JSON ({exc}); ignored") from None
    if not isinstance(payload, dict):
        raise HookInputError("stdin JSON is not an object; ignored")
    return payload


def handle(payload: Mapping[str, Any], *, env: Mapping[str, str], plan_checked: bool = False) -> str:
    """The stdout text for one event (``""`` for none); ``plan_checked``: see :func:`run`."""
    event = payload.get("hook_event_name")
    if event not in CONTEXT_EVENTS + DIGEST_EVENTS:
        return ""
    started = time.monotonic()
    where = _where(payload, env)
    if event == "SessionStart":
        promote(where, payload, deadline=started + CLAUDE_CODE.inline_seconds)
        text = _session_start(where, payload, env)
    elif event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise HookInputError("UserPromptSubmit without a string 'prompt'; nothing injected")
        promote(where, payload, deadline=None)
        text = _prompt(where, prompt, payload, env, plan_checked=plan_checked)
    else:
        trigger = str(payload.get("trigger") or payload.get("reason") or event)
        if event == "PreCompact" or not defer_digest(where, payload, trigger=trigger):
            append_digest(where, payload, trigger=trigger)
            budget = CLAUDE_CODE.inline_seconds if event == "SessionEnd" else PRE_COMPACT_SECONDS
            promote(where, payload, deadline=started + budget, only_this=True)
            if event == "SessionEnd":
                from mimomem.hooks.session_start import plan_next_session

                plan_next_session(where, payload, env, deadline=started + budget)
        if event == "SessionEnd":
            from mimomem.passes.schedule import start_due_passes

            start_due_passes(where, env=env)
        return ""
    return hook_output(str(event), text)


def _where(payload: Mapping[str, Any], env: Mapping[str, str]) -> Where:
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    sid = payload.get("session_id")
    if not isinstance(sid, str) or not sid:
        raise HookInputError("payload has no 'session_id'; nothing to do")
    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or not os.path.isdir(cwd):
        raise HookInputError(f"payload 'cwd' {cwd!r} is not an existing absolute directory; nothing to do")
    return locate(cwd, session_id=sid, tree=MemoryTree(), env=env)


def promote(where: Where, payload: Mapping[str, Any], *, deadline: float | None, only_this: bool = False) -> None:
    """This session's promotion (:func:`mimomem.memory.carry.promote`) for the payload's transcript.

    Never raises: promotion failing must not cost the session its context (one stderr line).
    """
    from mimomem.memory import carry

    path = payload.get("transcript_path")
    if not isinstance(path, str) or not os.path.isabs(path) or where.session_id is None:
        return
    try:
        carry.promote(where, path, deadline=deadline, only_this=only_this)
    except Exception as exc:  # fail open, but say why
        say(f"mimomem hook: promotion skipped: {_reason(exc)}", sys.stderr)


def _session_start(where: Where, payload: Mapping[str, Any], env: Mapping[str, str]) -> str:
    from mimomem.context.assemble import session_context
    from mimomem.hooks.entry_session import BUDGET_DEFAULT, BUDGET_VARIABLE, budget_from
    from mimomem.hooks.session_start import new_session_text

    budget = budget_from(env, BUDGET_VARIABLE, BUDGET_DEFAULT)
    if where.tree.write_enabled:  # the project memory the instructions tell the agent to write exists (a template)
        from mimomem.tree.writer import Writer

        where.tree.ensure_templates(Writer("main", None, where.project_id, worktree=where.worktree))
    text = new_session_text(where, payload, env, budget=budget)  # a new session: from a plan, saved for the next
    if text is None:
        recent = _recent_prompts(payload) if payload.get("source") in ("compact", "resume") else []
        context = session_context(
            where, budget=budget, recent_user=recent, char_cap=CLAUDE_CODE.safe_chars, cwd=str(payload["cwd"])
        )
        text = str(context.text)
    # the notes the instructions name exist before the agent is told to append
    if where.tree.write_enabled and where.session_id:
        from mimomem.hooks.entry_session import open_session
        from mimomem.tree.templates import notes_template

        open_session(str(where.tree.session_dir(where.session_id)), notes_template())
    return text


def _prompt(
    where: Where, prompt: str, payload: Mapping[str, Any], env: Mapping[str, str], *, plan_checked: bool = False
) -> str:
    """The prompt's context from its saved plan when current, else from a new plan, saved for the
    next prompts (:mod:`mimomem.served.plans`)."""
    return served_text(prompt_plan(where, payload, env, plan_checked=plan_checked), prompt)


def prompt_plan(
    where: Where, payload: Mapping[str, Any], env: Mapping[str, str], *, plan_checked: bool = False
) -> dict[str, Any]:
    """The plan for the prompts of ``payload``'s session: the saved one when current (unless
    ``plan_checked``: it was found stale just now), else a new one, saved for the next prompts."""
    from mimomem.served import plans

    key = plans.plan_key("UserPromptSubmit", payload, env)
    path = plans.plan_file(key, env)
    plan = None if plan_checked else plans.load_plan(path, key)
    if plan is None:
        from mimomem.context.plan import prompt_plan as build
        from mimomem.passes.promote_state import marker_path

        # the promotion marker too: a prompt registers its session there when the marker is missing
        marker = [str(marker_path(where, where.session_id))] if where.session_id is not None else []
        stamps, plan = build(where, cwd=str(payload["cwd"]), also=marker)
        plans.save_plan(path, key, stamps, plan)
    return plan


def _recent_prompts(payload: Mapping[str, Any], keep: int = 5) -> list[str]:
    """The last user prompts of the transcript (for resume / compact), or [] if unreadable."""
    from mimomem.history.digest import digest_transcript

    path = payload.get("transcript_path")
    if not isinstance(path, str):
        return []
    try:
        return digest_transcript(path).requests[-keep:]
    except OSError:
        return []


def append_digest(where: Where, payload: Mapping[str, Any], *, trigger: str) -> Path | None:
    """The transcript's digest since the last one, into the notes (:func:`mimomem.memory.carry.append_digest`)."""
    from mimomem.memory import carry

    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        raise HookInputError("payload has no 'transcript_path'; no digest written")
    try:
        return carry.append_digest(where, path, trigger=trigger)
    except TranscriptReadError as exc:
        raise HookInputError(str(exc)) from None


def defer_digest(where: Where, payload: Mapping[str, Any], *, trigger: str) -> bool:
    """True when the unread transcript is too large for ``SessionEnd``'s time limit: the digest and
    the promotion then go on in one background process (:func:`mimomem.memory.carry.detach_digest`),
    and one stderr line says so.  ``PreCompact`` never defers: the digest must be in the notes
    before the compacted session starts again, and that hook has no such limit."""
    from mimomem.memory import carry

    path = payload.get("transcript_path")
    if not isinstance(path, str) or not os.path.isabs(path) or where.session_id is None:
        return False  # the inline digest says what is wrong
    unread = carry.unread_bytes(where, path)
    if unread <= carry.INLINE_BYTES:
        return False
    log = carry.detach_digest(where, path, trigger=trigger, cwd=str(payload["cwd"]))
    say(
        f"mimomem hook: {unread / 1e6:.1f} MB of transcript is too much to digest before SessionEnd's time"
        f" limit; the digest and the promotion go on in the background (log: {log})",
        sys.stderr,
    )
    return True


def main() -> int:
    """Entry point for ``mimomem hook claude-code`` (the served path first: :func:`mimomem.hooks.entry.main`)."""
    from mimomem.hooks.entry import main as entry_main

    return entry_main()
