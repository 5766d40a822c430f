"""The hook's side of the ``SessionStart`` plan: a new session answered from a plan built now, and
the plan built again when a session ends, so the project's next new session is served.

:mod:`mimomem.hooks.entry_session` serves the plan and says when; the plan's parts and stamps
come from :func:`mimomem.context.session_plan.start_plan`; this module adds promotion's state
(a higher floor than context): the stamps of the project's promotion directory, taken before its
markers are read, and each marker's transcript and promoted offset.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mimomem.hooks.entry_session import SOURCES, start_key

if TYPE_CHECKING:
    from mimomem.tree.where import Where


def new_session_text(where: Where, payload: Mapping[str, Any], env: Mapping[str, str], *, budget: int) -> str | None:
    """A new session's context (``startup`` or ``clear``, its directory absent) from the project's
    plan, built now and saved for the next new session; ``None`` for any other ``SessionStart``."""
    from mimomem.served.hosts import CLAUDE_CODE
    from mimomem.served.session import new_session_answer

    if payload.get("source") not in SOURCES or where.session_id is None:
        return None
    if os.path.lexists(where.tree.session_dir(where.session_id)):
        return None
    data = save_start_plan(where, str(payload["cwd"]), env)
    return str(new_session_answer(data, where.session_id, budget=budget, char_cap=CLAUDE_CODE.safe_chars).text)


def save_start_plan(where: Where, cwd: str, env: Mapping[str, str]) -> dict[str, Any]:
    """Build and save the plan for the next new session of ``where``'s project started in ``cwd``;
    its data (saving is best effort: :func:`mimomem.served.plans.save_plan`)."""
    from mimomem.common.stamp import tree_stamps
    from mimomem.context.session_plan import start_plan
    from mimomem.passes.promote_state import markers, state_dir
    from mimomem.served.plans import plan_file, save_plan

    promotion = tree_stamps(str(state_dir(where)))  # before the markers are read
    stamps, data = start_plan(where, cwd)
    data["markers"] = [(m.transcript, m.offset) for m in markers(where)]
    key = start_key(cwd, env)
    save_plan(plan_file(key, env), key, [*promotion, *stamps], data)
    return data


def plan_next_session(where: Where, payload: Mapping[str, Any], env: Mapping[str, str], *, deadline: float) -> None:
    """At ``SessionEnd``, after the digest and the promotion: the plan for the project's next new
    session, unless the saved one is still current or ``deadline`` (monotonic) has passed.  Never
    raises: a plan is a cache, and the next ``SessionStart`` builds one anyway."""
    from mimomem.served.plans import load_plan, plan_file

    cwd = payload.get("cwd")
    if not isinstance(cwd, str) or time.monotonic() >= deadline:
        return
    try:
        key = start_key(cwd, env)
        if load_plan(plan_file(key, env), key) is None:
            save_start_plan(where, cwd, env)
    except Exception:  # a plan not saved costs the next session start time, never an answer
        pass
