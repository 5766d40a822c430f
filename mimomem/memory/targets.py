"""Where a write goes: the layer shortcuts every front end accepts, resolved to a path of the tree.

``mimomem write TARGET`` and the MCP ``memory_write`` tool take the same targets: ``project``,
``global``, ``checkpoint``, ``notes``, ``progress:TID`` (each resolved for the caller's
project and session), or a path the write gate allows.  A target that names a layer but is not
its shortcut (``MEMORY.md``, ``memory://project``) is refused here, before it could become a
file in the working directory.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from mimomem.errors import UsageError

if TYPE_CHECKING:
    from mimomem.tree.where import Where


def resolve_target(where: Where, target: str) -> str:
    """Layer shortcuts (``project``, ``global``, ``checkpoint``, ``notes``, ``progress:TID``) or a path."""
    tree = where.tree
    if target == "project":
        return str(tree.project_memory(where.project_id))
    if target == "global":
        return str(tree.global_memory())
    if target in ("checkpoint", "notes") or target.startswith("progress:"):
        if where.session_id is None:
            from mimomem.tree.where import NO_SESSION

            raise UsageError(f"target {target!r} needs a session; {NO_SESSION}")
        if target == "checkpoint":
            return str(tree.checkpoint(where.session_id))
        if target == "notes":
            return str(tree.notes(where.session_id))
        return str(tree.progress(where.session_id, target.split(":", 1)[1]))
    refuse_near_miss(target)
    return target


TARGETS = "project, global, checkpoint, notes, progress:TID, or a path the write gate allows"
"""What ``mimomem write`` and the MCP ``memory_write`` tool accept, as a refusal lists it."""

_LAYER_NAMES = frozenset(
    {"project", "global", "checkpoint", "notes", "progress", "memory", "memory.md", "notes.md", "checkpoint.md"}
    | {"progress.md", "global/memory.md", "project/memory.md", "session", "session/notes", "session/checkpoint"}
)


def refuse_near_miss(target: str) -> None:
    """Refuse a target that names a memory layer but is not its shortcut (``MEMORY.md``, ``Project``, ...).

    Taken as a path, ``MEMORY.md`` or ``memory://project`` would create that file in the working
    directory (the repository), not in memory, and exit 0: refuse it and list the valid targets.
    """
    name = target.strip().lower().replace("\\", "/")
    uri = "://" in name or name.startswith(("memory:", "progress:"))
    if uri or posixpath.normpath(name or ".") in _LAYER_NAMES:
        raise UsageError(f"unknown write target {target!r} (nothing was written); valid targets: {TARGETS}")
