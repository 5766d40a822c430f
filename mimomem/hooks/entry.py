"""The ``mimomem hook claude-code`` process: a prompt served from its plan, everything else by the hook.

A ``UserPromptSubmit`` whose plan is saved and current (:mod:`mimomem.served.plans`: every
memory file, curated memory and registration it was built from is unchanged) is answered
here, importing only the scoring code.  Anything else - another event, no plan yet, a plan
that any change made stale, a payload this module does not like - goes to
:mod:`mimomem.hooks.claude_code`, which answers it, saves a new plan, and reports problems.
Both give the same text for the same memory (one ``answer`` function; tests compare them).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from contextlib import suppress

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, TextIO

MAX_PAYLOAD_BYTES = 8 * 1024 * 1024
"""A hook payload larger than this is refused (Claude Code's are a few kilobytes)."""

PROMPT_CHARS = 4000
"""The most of a prompt its context is computed from."""


def main() -> int:
    """Entry point for ``mimomem hook claude-code``."""
    return run(sys.stdin, sys.stdout, sys.stderr)


def run(
    stdin: TextIO | None, stdout: TextIO | None, stderr: TextIO | None, *, env: Mapping[str, str] | None = None
) -> int:
    """Handle one hook invocation (see the module docstring); always returns 0."""
    env = os.environ if env is None else env
    try:
        raw = read_payload(stdin)
    except Exception:  # closed or unreadable: the hook says why
        return _hook(stdin, stdout, stderr, env, None)
    try:
        out = served(raw, env)
    except Exception:  # a damaged plan, say: the hook answers, and saves a new one
        out = None
    if out is None:
        return _hook(stdin, stdout, stderr, env, raw, plan_checked=True)
    if out and stdout is not None:
        with suppress(OSError, ValueError):  # stdout closed, or the host stopped reading: nobody to tell
            stdout.write(out)
            stdout.flush()
    return 0


def _hook(
    stdin: TextIO | None,
    stdout: TextIO | None,
    stderr: TextIO | None,
    env: Mapping[str, str],
    raw: Any,
    *,
    plan_checked: bool = False,
) -> int:
    """The payload to :mod:`mimomem.hooks.claude_code` (``plan_checked``: a prompt's plan is not current)."""
    from mimomem.hooks import claude_code

    return claude_code.run(stdin, stdout, stderr, env=env, raw=raw, plan_checked=plan_checked)


def read_payload(stdin: TextIO | None) -> str | bytes:
    """At most ``MAX_PAYLOAD_BYTES`` + 1 bytes of the payload (characters, for a text-only stream)."""
    if stdin is None:
        raise ValueError("stdin is closed; Claude Code sends one JSON object per hook call")
    raw = getattr(stdin, "buffer", None)
    data: str | bytes = raw.read(MAX_PAYLOAD_BYTES + 1) if raw is not None else stdin.read(MAX_PAYLOAD_BYTES + 1)
    return data


def served(raw: str | bytes, env: Mapping[str, str]) -> str | None:
    """The hook's stdout for a ``UserPromptSubmit`` answered from its current plan, or a new session's
    ``SessionStart`` (:mod:`mimomem.hooks.entry_session`); ``None`` when this payload is neither (the
    hook then handles it)."""
    if len(raw) > MAX_PAYLOAD_BYTES:
        return None
    try:
        payload = json.loads(raw)
    except ValueError:
        return None
    if isinstance(payload, dict) and payload.get("hook_event_name") == "SessionStart":
        from mimomem.hooks.entry_session import served_start

        return served_start(payload, env)
    if not isinstance(payload, dict) or payload.get("hook_event_name") != "UserPromptSubmit":
        return None
    prompt, sid, cwd = payload.get("prompt"), payload.get("session_id"), payload.get("cwd")
    if not isinstance(prompt, str) or not isinstance(sid, str) or not sid:
        return None
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or not os.path.isdir(cwd):
        return None
    from mimomem.served import plans

    key = plans.plan_key("UserPromptSubmit", payload, env)
    plan = plans.load_plan(plans.plan_file(key, env), key)
    if plan is None:
        return None
    return hook_output("UserPromptSubmit", served_text(plan, prompt))


def served_text(plan: Mapping[str, Any], prompt: str) -> str:
    """The context text of ``plan`` for ``prompt``, within the prompt budget and the host's cap."""
    from mimomem.served.fitting import PROMPT_BUDGET
    from mimomem.served.hosts import CLAUDE_CODE
    from mimomem.served.prompt import answer

    return str(answer(plan, prompt[:PROMPT_CHARS], budget=PROMPT_BUDGET, char_cap=CLAUDE_CODE.safe_chars).text)


def hook_output(event: str, text: str) -> str:
    """The hook's stdout for ``text`` of ``event``: Claude Code's JSON, or ``""`` for nothing."""
    if not text:
        return ""
    return (
        json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}, ensure_ascii=False)
        + "\n"
    )


def exit_now(status: int) -> None:
    """End a hook process at once, its output flushed, without the interpreter's teardown.

    Freeing every module and object at exit costs a hook process ~25M instructions (~6 ms, a
    quarter of ``python -c pass``) on every prompt.  Nothing is lost: stdout and stderr are
    flushed here, every file the hook writes is closed (and atomic) before this point, locks
    are released by the kernel, and the hook registers no ``atexit`` work.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:  # None: the host closed it
            with suppress(OSError, ValueError):  # a broken pipe: the host went away; nothing to save
                stream.flush()
    os._exit(status)
