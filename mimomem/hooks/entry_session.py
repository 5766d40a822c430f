"""A new session's ``SessionStart`` answered from its project's plan, without the library.

Claude Code gives every ``startup`` and ``clear`` a new session id, and a new session's context
depends on its project, not on the session (:mod:`mimomem.context.session_plan`): the plan saved
for the project's next new session (keyed by the working directory and mimomem's environment,
built by the hook's slow path at such a start and at every ``SessionEnd``) answers it, with the
instructions rendered for this session.  :func:`served_start` answers only when the slow path
would give the same text and do nothing else that matters:

- ``source`` is ``startup`` or ``clear`` (``resume`` and ``compact`` read the transcript's recent
  prompts and the session's own memory: the hook answers them);
- the session is new: a safe id, its directory and its registration absent;
- every path the plan was built from has its stamp (:func:`mimomem.served.plans.load_plan`);
- the hook would promote nothing: no session marker the plan recorded (the project's promotion
  state is stamped whole) has a transcript whose size differs from its promoted offset, and this
  session's transcript is absent or empty (what ``Marker.pending`` decides after ``register``).

Both paths make the session's directory (0700) and its ``notes.md`` (0600, the inbox template)
before answering (:func:`open_session`): the instructions tell the agent to append to that file.

What the served path skips is the registration of the session (``state/sessions/<sid>``) and of
its promotion marker, both written by ``locate`` and ``carry.promote`` in the hook.  Nothing is
lost: the session has no transcript yet, so its marker has nothing to promote; its first
``UserPromptSubmit`` is never served (no prompt plan exists for a new session) and its hook
registers both, as does ``SessionEnd``; a session that ends before either wrote no transcript
worth promoting.  Not writing them also keeps the plan current: the promotion state it stamps
changes only when the session has something for promotion.
"""

from __future__ import annotations

import contextlib
import os

from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.common.nofollow import open_nofollow

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

SOURCES = ("startup", "clear")
"""The ``SessionStart`` sources that begin a new session (the only ones served)."""

BUDGET_VARIABLE = "MIMOMEM_SESSION_BUDGET"
BUDGET_DEFAULT = 4000


def served_start(payload: Mapping[str, Any], env: Mapping[str, str]) -> str | None:
    """The hook's stdout for a new session's ``SessionStart`` (the module docstring); ``None`` when
    the hook must answer."""
    from mimomem.tree.safe_ids import is_safe_id

    sid, cwd = payload.get("session_id"), payload.get("cwd")
    if payload.get("source") not in SOURCES or not is_safe_id(sid):
        return None
    if not isinstance(cwd, str) or not os.path.isabs(cwd) or not os.path.isdir(cwd):
        return None
    from mimomem.served import plans

    key = start_key(cwd, env)

    def new_and_nothing_to_promote(plan: dict[str, Any]) -> bool:  # a few stats: before the plan's hundreds
        return is_new(plan["instructions"], str(sid)) and not promotes(plan["markers"], payload)

    plan = plans.load_plan(plans.plan_file(key, env), key, first=new_and_nothing_to_promote)
    if plan is None:
        return None
    from mimomem.hooks.entry import hook_output
    from mimomem.served.hosts import CLAUDE_CODE
    from mimomem.served.session import new_session_answer

    budget = budget_from(env, BUDGET_VARIABLE, BUDGET_DEFAULT)
    context = new_session_answer(plan, str(sid), budget=budget, char_cap=CLAUDE_CODE.safe_chars)
    fields = plan["instructions"]
    if fields["write_enabled"]:
        open_session(os.path.join(fields["sessions"], str(sid)), fields["notes_template"])
    return hook_output("SessionStart", str(context.text))


def open_session(directory: str, notes_template: str) -> None:
    """Make a session's ``directory`` (0700) and its ``notes.md`` (0600, ``notes_template``) when
    missing, so the agent can append to the notes the instructions name from its first turn.
    Best effort (a hook never fails on it), never through a symlink, never over an existing file."""
    try:
        os.makedirs(directory, 0o700, exist_ok=True)  # the mode is the new leaf's
        fd = open_nofollow(os.path.join(directory, "notes.md"), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except OSError:  # there already, or not writable: the notes' own writers say why when it matters
        return
    path = os.path.join(directory, "notes.md")
    data = notes_template.encode("utf-8")
    try:
        while data:  # a short write (a disk filling up) is carried on, not left half
            data = data[os.write(fd, data) :]
    except OSError:  # the disk filled: a half template is no file at all, the next start makes it again
        with contextlib.suppress(OSError):
            os.unlink(path)
    finally:
        os.close(fd)


def start_key(cwd: str, env: Mapping[str, str]) -> tuple[Any, ...]:
    """The key of the plan for the next new session started in ``cwd`` (no session in it)."""
    from mimomem.served.plans import plan_key

    return plan_key("SessionStart", {"cwd": cwd}, env)


def is_new(fields: Mapping[str, Any], session_id: str) -> bool:
    """Whether ``session_id`` has neither a session directory nor a registration."""
    return not any(os.path.lexists(os.path.join(fields[d], session_id)) for d in ("sessions", "registry"))


def promotes(markers: list[tuple[str, int]], payload: Mapping[str, Any]) -> bool:
    """Whether the hook's promotion would find something pending: a recorded marker's transcript
    whose size is not its promoted offset, or this session's own transcript not empty (its new
    marker starts at 0).  The test of ``mimomem.passes.promote_state.Marker.pending``."""
    own = payload.get("transcript_path")
    mine = [(own, 0)] if isinstance(own, str) and os.path.isabs(own) else []
    for path, offset in [*markers, *mine]:
        try:
            if os.stat(path, follow_symlinks=False).st_size != offset:
                return True
        except OSError:
            continue  # missing: nothing to promote
    return False


def budget_from(env: Mapping[str, str], variable: str, default: int) -> int:
    """``variable`` of the hook's environment as a token budget (200..50,000), else ``default``."""
    raw = env.get(variable)
    try:
        value = int(raw) if raw else default
    except ValueError:
        value = default
    return max(200, min(value, 50_000))
