"""Which memory a caller is in: the tree, the project (from a directory) and the session.

Every agent-facing entry point (``mimomem context``, ``note``, ``write``, the hooks) starts
here, so they all agree on the project and session: the project comes from the working
directory's git repository (``global`` outside git), the session from an explicit id,
else ``MIMOMEM_SESSION``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from mimomem.tree.layout import check_id
from mimomem.tree.store import MemoryTree

SESSION_VARIABLE = "MIMOMEM_SESSION"
"""Environment variable naming the current session when no ``--session`` is given."""


@dataclass(frozen=True)
class Where:
    """The tree, project and (optional) session a call works in."""

    tree: MemoryTree
    project_id: str
    project_name: str
    worktree: Path | None
    session_id: str | None

    def who(self, agent: str = "main", task_id: str | None = None) -> dict[str, object]:
        """Keyword arguments for ``MemoryTree.write`` and friends: this caller, as ``agent``."""
        return {
            "agent": agent,
            "session_id": self.session_id,
            "project_id": self.project_id,
            "task_id": task_id,
            "worktree": self.worktree,
        }


def locate(
    cwd: str | os.PathLike[str] | None = None,
    *,
    session_id: str | None = None,
    tree: MemoryTree | None = None,
    env: Mapping[str, str] | None = None,
) -> Where:
    """Resolve the project of ``cwd`` (default: the current directory) and the session.

    ``session_id`` wins over ``MIMOMEM_SESSION``; either must be a safe path component
    (``InvalidMemoryIdError`` otherwise).  The project id is created on first use, as
    MiMo-Code does, inside the repository's git directory.
    """
    env = os.environ if env is None else env
    tree = tree if tree is not None else MemoryTree()
    here = Path(os.path.abspath(os.fspath(cwd if cwd is not None else os.getcwd())))
    identity = tree.project_id(here)
    sid = session_id if session_id is not None else (env.get(SESSION_VARIABLE) or None)
    if sid is not None:
        sid = check_id(sid, kind="session")
    name = identity.root.name if identity.root is not None else "global"
    return Where(tree, identity.id, name, identity.root, sid)
