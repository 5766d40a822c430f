"""Building the ``SessionStart`` plan: a project's session-start context for its next new session.

Claude Code starts every session (``startup``, ``clear``) under a new id, so a plan keyed by
the session would never be used twice.  What a *new* session's context depends on is the
project's state, not the session: a new session has no directory yet, hence no tasks,
checkpoint, notes or keys of its own, and the rebuild blocks are those of no session
(:func:`mimomem.context.rebuild.raw_blocks` with ``session_id=None`` reads exactly what a session
without a directory reads).  Only the instructions name the session; they are rendered when the
plan is answered (:func:`mimomem.served.session.new_session_answer`), from the paths kept here.

The plan holds the parts (:func:`start_plan`) with the stamp of every path they are read from,
taken *before* reading (see :mod:`mimomem.served.plans`): the project's and global memory
directories whole (memory files, the sessions' briefs, every file the keys index lists), both
curated roots whole, the project's identity (the ``.git`` chain, id files, registration) and the
installed package, and the hosts' own memory of the project (:mod:`mimomem.context.host_memory`: its
index may pass the host's cap).  Promotion's state is the hook's to add (a higher floor).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mimomem.common.stamp import Stamp, tree_stamps

if TYPE_CHECKING:
    from mimomem.tree.where import Where


def session_parts(
    where: Where, recent_user: Sequence[str] = (), *, curated: bool = True, cwd: str | None = None
) -> dict[str, Any]:
    """What :func:`~mimomem.served.session.session_answer` fits: the instructions, the curated
    rules and outline (``""``: none), the rebuild blocks before fitting, and the note on the host's
    memory index past its cap (``host``, ``""``: none; ``cwd``: where the session runs, default the worktree)."""
    from mimomem.context.entry_scope import host_cwd
    from mimomem.context.host_memory import cap_text
    from mimomem.context.rebuild import raw_blocks
    from mimomem.context.relevant import curated_session_text
    from mimomem.served.instructions import memory_instructions

    return {
        "instructions": memory_instructions(where),
        "curated": curated_session_text(where) if curated else "",
        "raw": raw_blocks(where, recent_user),
        "host": cap_text(host_cwd(where, cwd)),
    }


def start_plan(where: Where, cwd: str) -> tuple[list[tuple[str, Stamp | None]], dict[str, Any]]:
    """``(stamps, data)`` of the next new session of ``where``'s project (``cwd``: the directory the
    project was found from): the stamps first, then the parts they cover.

    ``data``: ``instructions``, what :func:`~mimomem.served.instructions.render_instructions` takes
    but the session (``sessions``: the directory a session's is made in; ``registry``: where
    ``locate`` registers a session) and ``notes_template`` (a new session's ``notes.md``), ``curated``
    and ``raw`` as :func:`session_parts` gives them."""
    from mimomem.context.host_memory import cap_text
    from mimomem.context.rebuild import raw_blocks
    from mimomem.context.relevant import curated_session_text
    from mimomem.served.instructions import global_memory_shown
    from mimomem.tree.layout import GLOBAL_ID
    from mimomem.tree.templates import notes_template
    from mimomem.tree.where import STATE

    stamps = inputs(where, cwd)
    tree = where.tree
    none = where._replace(session_id=None)
    data = {
        "instructions": {
            "project_memory": str(tree.project_memory(where.project_id)),
            "global_memory": global_memory_shown(tree.global_memory()),  # its directory is stamped
            "sessions": str(tree.root / "sessions"),
            "registry": os.path.join(tree.data_dir, STATE, "sessions"),
            "write_enabled": tree.write_enabled,
            "global_project": where.project_id == GLOBAL_ID,
            "notes_template": notes_template(),
        },
        "curated": curated_session_text(none),
        "raw": raw_blocks(none),
        "host": cap_text(cwd),
    }
    return stamps, data


def inputs(where: Where, cwd: str) -> list[tuple[str, Stamp | None]]:
    """The stamp of every path a new session's context of ``where`` depends on (the module docstring)."""
    from mimomem.context.host_memory import stamp_paths
    from mimomem.context.plan import identity_inputs, package_inputs
    from mimomem.context.relevant import curated_roots

    tree = where.tree
    out: list[tuple[str, Stamp | None]] = stamp_paths(cwd)
    for top in (str(tree.project_dir(where.project_id)), str(tree.root / "global"), *curated_roots(where)):
        out += tree_stamps(top)
    return out + identity_inputs(where, cwd) + package_inputs()
