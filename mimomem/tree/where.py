"""Which memory a caller is in: the tree, the project (from a directory) and the session.

Every agent-facing entry point (``mimomem context``, ``note``, ``write``, the hooks) starts
here, so they all agree on the project and session: the project comes from the working
directory's git repository (``global`` outside git), the session from an explicit id,
else ``MIMOMEM_SESSION``.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple compiles every string
# annotation (a compile() per field), which a hook process would pay on every prompt.

import os
from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import NamedTuple

from mimomem.tree.layout import check_id
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.safe_ids import is_safe_id
from mimomem.tree.writer import Writer

SESSION_VARIABLE = "MIMOMEM_SESSION"
"""Environment variable naming the current session when no ``--session`` is given."""

SESSION_VARIABLES = (SESSION_VARIABLE, "CLAUDE_CODE_SESSION_ID", "CODEX_THREAD_ID")
"""Where the session comes from when no id is given, first set wins: mimomem's own variable, then
what hosts export to their agent's shell.  Claude Code (2.1.132 on) sets ``CLAUDE_CODE_SESSION_ID``
to the ``session_id`` its hooks receive; Codex sets ``CODEX_THREAD_ID`` to its thread (session) id.
OpenCode (``OPENCODE=1``, ``OPENCODE_PID``) and Gemini CLI (``GEMINI_CLI=1``) export no session id
as of late 2026: there ``MIMOMEM_SESSION`` or ``--session`` names it."""

NO_SESSION = (
    "no session: pass --session SID or set MIMOMEM_SESSION "
    "(Claude Code's shell sets CLAUDE_CODE_SESSION_ID, Codex's CODEX_THREAD_ID; both are read)"
)
"""What a command that needs a session says when none was given nor found in the environment."""


def session_from_env(env: Mapping[str, str]) -> str | None:
    """The session id the environment names (:data:`SESSION_VARIABLES`, the first set), checked:
    an unsafe one is refused (``InvalidMemoryIdError`` naming the variable), never used as a path."""
    for variable in SESSION_VARIABLES:
        value = env.get(variable)
        if value:
            if not is_safe_id(value):
                from mimomem.errors import InvalidMemoryIdError

                raise InvalidMemoryIdError(
                    f"{variable}={value[:80]!r} is not a usable session id (1-128 characters from A-Z a-z 0-9 "
                    f"_ . - starting with a letter or digit, no '..'): pass --session SID, or set "
                    f"MIMOMEM_SESSION to a safe id"
                )
            return value
    return None


class Where(NamedTuple):
    """The tree, project and (optional) session a call works in."""

    tree: MemoryTree
    project_id: str
    project_name: str
    worktree: Path | None
    session_id: str | None

    def writer(
        self, agent: str = "main", *, task_id: str | None = None, delegated: bool = False, author: str = "model"
    ) -> Writer:
        """This caller writing as ``agent``: its session, project and worktree, with the role's task and wording."""
        return Writer(agent, self.session_id, self.project_id, task_id, self.worktree, delegated, author=author)


def locate(
    cwd: str | os.PathLike[str] | None = None,
    *,
    session_id: str | None = None,
    tree: MemoryTree | None = None,
    env: Mapping[str, str] | None = None,
) -> Where:
    """Resolve the project of ``cwd`` (default: the current directory) and the session.

    ``session_id`` wins over the environment (:func:`session_from_env`); either must be a safe
    path component (``InvalidMemoryIdError`` otherwise).  The project id is created on first use, as
    MiMo-Code does, inside the repository's git directory.
    """
    env = os.environ if env is None else env
    tree = tree if tree is not None else MemoryTree()
    here = Path(os.path.abspath(os.fspath(cwd if cwd is not None else os.getcwd())))
    identity = tree.project_id(here)
    sid = check_id(session_id, kind="session") if session_id is not None else session_from_env(env)
    name = identity.root.name if identity.root is not None else "global"
    _remember(tree, "projects", identity.id, str(identity.root or ""))
    if sid is not None:
        sid = _session_of(tree, sid, identity.id)
    return Where(tree, identity.id, name, identity.root, sid)


def _session_of(tree: MemoryTree, sid: str, project_id: str) -> str:
    """``sid`` for the project it was first used in; in any other project ``<sid>.<project id, 8>``.

    One id given in two projects (``MIMOMEM_SESSION=my-session`` in both) would otherwise share one
    ``sessions/<sid>/`` - one ``notes.md``, one checkpoint - across the projects.  The first project
    keeps the plain id (its record is never overwritten); each other project gets its own directory.
    """
    path = tree.data_dir / STATE / "sessions" / sid
    try:
        owner = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        owner = ""
    if owner == project_id:
        return sid
    if owner:
        sid = check_id(f"{sid[:119]}.{project_id[:8]}", kind="session")
    _remember(tree, "sessions", sid, project_id)
    return sid


STATE = "state"
"""Directory beside the memory root (``<data>/state``) for what mimomem learns while running."""


def _remember(tree: MemoryTree, kind: str, key: str, value: str) -> None:
    """Record ``key -> value`` (project directory, or a session's project); best effort."""
    path = tree.data_dir / STATE / kind / key
    try:
        if path.read_text(encoding="utf-8") == value:
            return
    except (OSError, UnicodeDecodeError):
        pass
    try:
        from mimomem.common.files import atomic_write
        from mimomem.common.private import private_dir

        private_dir(path.parent)
        atomic_write(path, value, durable=False)
    except OSError:
        pass


def _recorded(tree: MemoryTree, kind: str) -> dict[str, str]:
    directory = tree.data_dir / STATE / kind
    out: dict[str, str] = {}
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return out
    for entry in entries:
        try:
            if entry.is_file(follow_symlinks=False):
                out[entry.name] = Path(entry.path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            continue
    return out


def project_names(tree: MemoryTree) -> dict[str, str]:
    """Project id -> the directory name of its repository, for every project seen so far."""
    return {pid: (Path(root).name if root else pid) for pid, root in _recorded(tree, "projects").items()}


def session_projects(tree: MemoryTree) -> dict[str, str]:
    """Session id -> the project id it ran in, for every session seen so far."""
    return _recorded(tree, "sessions")


def header_cache(where: Where) -> AbstractContextManager[object]:
    """Parse curated frontmatter through ``<data>/state/frontmatter.cache`` (see ``HeaderCache``)."""
    from mimomem.common.frontmatter import header_cache as cache

    return cache(where.tree.data_dir / STATE / "frontmatter.cache")
