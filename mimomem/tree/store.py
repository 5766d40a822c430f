"""The memory tree on disk: where each layer lives, and the one gate every write passes.

``MemoryTree(root)`` knows the layer paths (global / project / session / task) and
changes files only through :meth:`MemoryTree.write`, :meth:`~MemoryTree.create`,
:meth:`~MemoryTree.append` and :meth:`~MemoryTree.delete`, which all call the same gate
(:meth:`MemoryTree.check_write`) and then refuse text holding a likely secret.

Case and Unicode policy: the verdict is taken on the exact resolved path, and any
spelling that differs from a protected name (the memory root, the worktree, ``sessions``,
``tasks``, ``MEMORY.md``, ``.git``…) only in letter case or Unicode compatibility form
is refused outright, because on case-insensitive or normalization-insensitive
filesystems (macOS, Windows) it would open the protected file itself.  Free-form names
are written exactly as given (no normalization), so what was judged is what is written.

Locking uses ``fcntl.flock``, so this module is POSIX-only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mimomem.tree import locations
from mimomem.tree import templates
from mimomem.errors import (
    BadMemoryPathError,
    InvalidMemoryIdError,
    NotInWriterAllowlistError,
    NotOwnerError,
    OutsideAllowedAreaError,
    ReservedTaskPathError,
    WritingDisabledError,
)
from mimomem.common.files import atomic_write
from mimomem.tree.layout import SCOPES, TASK_ID_RE, check_id, check_task_id
from mimomem.tree.project import DEFAULT_ID_FILES, MIMOCODE_ID_FILES, ProjectIdentity
from mimomem.tree.project import project_id as _project_id
from mimomem.common.secrets import ensure_no_secrets

CHECKPOINT_WRITER = "checkpoint-writer"
"""The background agent that writes checkpoints and project memory."""

SANDBOXED_AGENTS = frozenset({"dream", "distill"})
"""Consolidation agents: they may write only the memory tree and ``<worktree>/<dotdir>/``."""

_RESTRICTED_AGENTS = frozenset({CHECKPOINT_WRITER, *SANDBOXED_AGENTS})



class MemoryTree:
    """A memory tree rooted at ``root`` (default: ``<data>/memory``, see ``mimomem.tree.locations``).

    ``write_enabled``: only a literal ``False`` switches memory writing off (MiMo-Code's
    rule: anything else, including ``None`` or junk, leaves writing on).  Reading and
    the path methods are never affected.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        write_enabled: object = True,
        mimocode: bool = False,
    ) -> None:
        self.root = Path(os.path.abspath(os.fspath(root))) if root is not None else locations.memory_root()
        self.write_enabled = write_enabled is not False
        self.mimocode = mimocode
        self.worktree_dotdir = ".mimocode" if mimocode else ".mimomem"
        self.id_files = MIMOCODE_ID_FILES if mimocode else DEFAULT_ID_FILES

    @classmethod
    def from_mimocode(
        cls, data: str | os.PathLike[str] | None = None, *, write_enabled: object = True
    ) -> MemoryTree:
        """Open an existing MiMo-Code tree in place (``$MIMOCODE_HOME/data/memory`` or XDG).

        Project ids are then read from (and created as) MiMo-Code's own
        ``<.git>/mimocode-project-id`` file, so both tools use the same ``projects/<pid>/``.
        """
        return cls(locations.mimocode_memory_root(data), write_enabled=write_enabled, mimocode=True)

    def __repr__(self) -> str:
        flags = "" if self.write_enabled else ", write_enabled=False"
        return f"MemoryTree({str(self.root)!r}{flags})"

    @property
    def data_dir(self) -> Path:
        """The data directory that holds this tree (the root's parent)."""
        return self.root.parent

    # --- layer paths (ids are validated; nothing is created) ---

    def global_memory(self) -> Path:
        """``global/MEMORY.md``: user-level memory shared by every project."""
        return self.root / "global" / "MEMORY.md"

    def project_dir(self, project_id: str) -> Path:
        """``projects/<pid>/``."""
        return self.root / "projects" / check_id(project_id, kind="project")

    def project_memory(self, project_id: str) -> Path:
        """``projects/<pid>/MEMORY.md``: the project's durable memory."""
        return self.project_dir(project_id) / "MEMORY.md"

    def project_topic(self, project_id: str, topic: str) -> Path:
        """``projects/<pid>/memory-<topic>.md``: spill-over of the project memory."""
        return self.project_dir(project_id) / f"memory-{check_id(topic, kind='topic')}.md"

    def session_dir(self, session_id: str) -> Path:
        """``sessions/<sid>/``."""
        return self.root / "sessions" / check_id(session_id, kind="session")

    def checkpoint(self, session_id: str) -> Path:
        """``sessions/<sid>/checkpoint.md``: the session checkpoint."""
        return self.session_dir(session_id) / "checkpoint.md"

    def checkpoint_topic(self, session_id: str, topic: str) -> Path:
        """``sessions/<sid>/checkpoint-<topic>.md``: spill-over of the checkpoint."""
        return self.session_dir(session_id) / f"checkpoint-{check_id(topic, kind='topic')}.md"

    def notes(self, session_id: str) -> Path:
        """``sessions/<sid>/notes.md``: the main agent's notes inbox."""
        return self.session_dir(session_id) / "notes.md"

    def tasks_dir(self, session_id: str) -> Path:
        """``sessions/<sid>/tasks/``."""
        return self.session_dir(session_id) / "tasks"

    def task_dir(self, session_id: str, task_id: str) -> Path:
        """``sessions/<sid>/tasks/<TID>/``: writable only by the subagent bound to TID."""
        return self.tasks_dir(session_id) / check_task_id(task_id)

    def progress(self, session_id: str, task_id: str) -> Path:
        """``sessions/<sid>/tasks/<TID>/progress.md``: the task's progress journal."""
        return self.task_dir(session_id, task_id) / "progress.md"

    def project_id(self, path: str | os.PathLike[str] = ".") -> ProjectIdentity:
        """The identity of the project containing ``path`` (creating its id on first use).

        A MiMo-Code tree reads and creates MiMo's own id file, so ids agree with MiMo.
        """
        return _project_id(path, id_files=self.id_files)

    def layers(
        self, *, project_id: str | None = None, session_id: str | None = None, task_id: str | None = None
    ) -> dict[str, Path]:
        """Every layer path that applies to the given ids, by name (for display)."""
        out = {"root": self.root, "global": self.global_memory()}
        if project_id is not None:
            out["project"] = self.project_memory(project_id)
        if session_id is not None:
            out["checkpoint"] = self.checkpoint(session_id)
            out["notes"] = self.notes(session_id)
            out["tasks"] = self.tasks_dir(session_id)
            if task_id is not None:
                out["progress"] = self.progress(session_id, task_id)
        return out

    # --- templates ---

    def migrate_project_memory(self, project_id: str, **who: Any) -> bool:
        """Rename the project's legacy ``memory.md`` to ``MEMORY.md`` (idempotent); True if renamed.

        Passes the gate for ``MEMORY.md`` first (``who`` as for :meth:`check_write`);
        does nothing while writing is disabled.
        """
        if not self.write_enabled:
            return False
        path = self.check_write(self.project_memory(project_id), project_id=project_id, **who)
        return templates.migrate_legacy_memory(path.parent)

    def ensure_templates(
        self, *, agent: str, session_id: str | None = None, project_id: str | None = None, **who: Any
    ) -> list[Path]:
        """Create the missing templates for this caller; returns the paths created.

        With ``project_id``: the project ``MEMORY.md`` (after the legacy rename).  With
        ``session_id``: ``checkpoint.md`` and ``notes.md``.  Existing files are never
        touched, and nothing is written while writing is disabled.
        """
        if not self.write_enabled:
            return []
        ids = dict(who, agent=agent, session_id=session_id, project_id=project_id)
        wanted: list[tuple[Path, str]] = []
        if project_id is not None:
            self.migrate_project_memory(project_id, agent=agent, session_id=session_id, **who)
            wanted.append((self.project_memory(project_id), templates.memory_template()))
        if session_id is not None:
            wanted.append((self.checkpoint(session_id), templates.checkpoint_template()))
            wanted.append((self.notes(session_id), templates.notes_template()))
        return [path for path, text in wanted if self.create(path, text, **ids)]

    # --- the write gate: one entry point, used by every mutation below ---

    def check_write(
        self,
        target: str | os.PathLike[str],
        *,
        agent: str,
        session_id: str | None = None,
        project_id: str | None = None,
        task_id: str | None = None,
        worktree: str | os.PathLike[str] | None = None,
        allow_foreign: bool = False,
    ) -> Path:
        """Decide whether ``agent`` may write ``target``; return the real path to write to.

        Raises a ``WriteDeniedError`` subclass (whose message lists what the caller *may*
        write) or ``InvalidMemoryIdError`` for a malformed id argument.  The verdict is taken
        on the fully resolved real path (symlinks followed, ``..`` folded), so no
        spelling of a path can change it.  The rules, in order:

        1. A target with a NUL byte, or that names a case / Unicode-compatibility
           variant of the memory root, the worktree or a reserved name (``sessions``,
           ``tasks``, ``MEMORY.md``, ``checkpoint.md``, ``.git``…), is refused: on
           case-insensitive filesystems such a name is the protected file itself.
        2. Inside the memory tree:
           - writing disabled (``write_enabled=False``) refuses everything;
           - only ``global/<key>.md``, ``projects/<pid>/<key>.md`` and
             ``sessions/<sid>/<key>.md`` shapes, no hidden components;
           - ``sessions/<sid>/tasks/`` is reserved: the subagent bound to ``task_id``
             may write its own ``tasks/<TID>/**.md`` and the checkpoint writer
             ``tasks/<TID>/<file>.md``; nobody else writes there;
           - an agent bound to a task writes nothing else in the tree;
           - ``checkpoint-writer`` may write only its project's ``MEMORY.md`` /
             ``memory-<topic>.md`` and its session's ``checkpoint.md`` /
             ``checkpoint-<topic>.md`` / ``notes.md`` (plus the task files above);
           - ownership: ``sessions/<sid>/`` must be the caller's ``session_id`` and
             ``projects/<pid>/`` its ``project_id``.  ``allow_foreign=True`` lifts
             this one rule (for a user's own maintenance tools, never for agents).
        3. Outside the tree: ``checkpoint-writer`` writes nothing; ``dream`` and
           ``distill`` only ``<worktree>/.mimomem/`` (a memory area, refused too when
           writing is disabled); any other agent only inside ``worktree`` (never its
           ``.git``).  Everything else is refused.

        A relative ``target`` is taken relative to ``worktree`` (or the current
        directory when no worktree is given).
        """
        req = _Request(self, agent, session_id, project_id, task_id, worktree, allow_foreign)
        return req.judge(target)

    def write(self, target: str | os.PathLike[str], text: str, **who: Any) -> Path:
        """Replace ``target`` with ``text`` atomically, after the gate and the secret check.

        ``who`` takes the keyword arguments of :meth:`check_write`.  Parent directories
        are created.  Returns the real path written.
        """
        path = self.check_write(target, **who)
        _refuse_secrets(text, path)
        with _locked_dir(path) as dir_fd:
            atomic_write(path, text, dir_fd=dir_fd)
        return path

    def create(self, target: str | os.PathLike[str], text: str, **who: Any) -> bool:
        """Write ``text`` to ``target`` only if it does not exist yet; True if it was created."""
        path = self.check_write(target, **who)
        _refuse_secrets(text, path)
        with _locked_dir(path) as dir_fd:
            try:
                os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False)
                return False
            except FileNotFoundError:
                pass
            atomic_write(path, text, dir_fd=dir_fd)
        return True

    def append(self, target: str | os.PathLike[str], text: str, **who: Any) -> Path:
        """Append ``text`` to ``target`` (created if missing), on a line of its own.

        Concurrent appenders never lose entries: the read-modify-write runs under an
        exclusive ``flock`` on the parent directory and ends in an atomic rename.
        ``O_APPEND`` was not used because it writes through a hard link or a swapped-in
        symlink, lets a reader see half an entry, and cannot add the separating newline
        safely; the rename keeps every write all-or-nothing like :meth:`write`.
        """
        path = self.check_write(target, **who)
        _refuse_secrets(text, path)
        with _locked_dir(path) as dir_fd:
            try:
                old = _read_regular(path, dir_fd)
            except FileNotFoundError:
                old = b""
            sep = b"\n" if old and not old.endswith(b"\n") else b""
            atomic_write(path, old + sep + text.encode("utf-8"), dir_fd=dir_fd)
        return path

    def delete(self, target: str | os.PathLike[str], **who: Any) -> bool:
        """Delete the file ``target`` (the real file a symlink points at); False if absent."""
        path = self.check_write(target, **who)
        if not os.path.lexists(path):
            return False
        with _locked_dir(path) as dir_fd:
            try:
                os.unlink(path.name, dir_fd=dir_fd)
            except FileNotFoundError:
                return False
        return True


# --- gate internals ---

_TREE_RESERVED = ("global", "projects", "sessions", "tasks", "MEMORY.md", "checkpoint.md", "notes.md", "progress.md")
_TREE_RESERVED_PREFIXES = ("memory-", "checkpoint-")
_WORKTREE_RESERVED = (".git", ".mimomem", ".mimocode")


def _fold(text: str) -> str:
    """The spelling a forgiving filesystem sees: NFKC, case folded, without format
    characters (HFS+ ignores U+200C, U+FEFF…) and, per component, without trailing
    dots and spaces (NTFS drops them)."""
    kept = "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) != "Cf")
    return os.sep.join(part.rstrip(". ") for part in kept.casefold().split(os.sep))


_FOLDED_TREE = {_fold(name): name for name in _TREE_RESERVED}
_FOLDED_WORKTREE = {_fold(name): name for name in _WORKTREE_RESERVED}


def _refuse_secrets(text: str, path: Path) -> None:
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    ensure_no_secrets(text, where=str(path))


@contextlib.contextmanager
def _locked_dir(path: Path) -> Iterator[int]:
    """Create ``path``'s parent, open it, check it is still the judged one, hold its flock.

    Yields the directory's descriptor: every change is then made relative to it, so a
    parent swapped for a symlink after this check cannot redirect the write.
    """
    parent = path.parent
    os.makedirs(parent, exist_ok=True)
    fd = os.open(parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        held = _fd_path(fd)
        if held is None:  # no way to ask the OS: a (racy) check by path
            same = os.path.realpath(parent) == str(parent) and os.path.samestat(os.fstat(fd), os.stat(parent))
        else:  # macOS may report the stored case / normalization form of the same path
            same = held == str(parent) or (_FD_PATH_FOLDS and _fold(held) == _fold(str(parent)))
        if not same:  # swapped for a symlink or moved after the verdict
            raise BadMemoryPathError(
                f"{parent} is not the directory that was judged (it changed into a symlink or was moved "
                f"while writing, now {held or 'unknown'}); nothing was written"
            )
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


_FD_PATH_FOLDS = hasattr(fcntl, "F_GETPATH")


def _fd_path(fd: int) -> str | None:
    """Where the open directory ``fd`` is now, as the kernel sees it; None if it cannot say."""
    get_path = getattr(fcntl, "F_GETPATH", None)
    if get_path is not None:  # macOS
        try:
            return os.fsdecode(fcntl.fcntl(fd, get_path, bytes(1024)).split(b"\0", 1)[0])
        except OSError:
            return None
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def _read_regular(path: Path, dir_fd: int) -> bytes:
    """The bytes of ``path``'s file in ``dir_fd``; refuses symlinks, FIFOs and devices (no blocking)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path.name, flags, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise BadMemoryPathError(f"{path} cannot be opened as a regular file ({exc.strerror}); nothing was written") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise BadMemoryPathError(f"{path} is not a regular file (a FIFO or device?); nothing was written")
        return handle.read()


def _under(base: str, target: str) -> bool:
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def _strictly_under(base: str, target: str) -> bool:
    return target != base and _under(base, target)


def _rel(base: str, target: str) -> list[str]:
    return target[len(base.rstrip(os.sep)) + 1 :].split(os.sep)


class _Request:
    """One gate decision: the caller's identity and the resolved areas it is judged against."""

    def __init__(
        self,
        tree: MemoryTree,
        agent: str,
        session_id: str | None,
        project_id: str | None,
        task_id: str | None,
        worktree: str | os.PathLike[str] | None,
        allow_foreign: bool,
    ) -> None:
        if not isinstance(agent, str) or not agent.strip():
            raise ValueError("agent must be a non-empty name such as 'main', 'checkpoint-writer' or 'dream'")
        near = _fold(agent).strip().replace("_", "-")
        if agent not in _RESTRICTED_AGENTS and near in _RESTRICTED_AGENTS:
            raise ValueError(f"agent {agent!r} looks like {near!r}; spell a restricted agent exactly as {near!r}")
        self.tree = tree
        self.agent = agent
        self.sid = None if session_id is None else check_id(session_id, kind="session")
        self.pid = None if project_id is None else check_id(project_id, kind="project")
        self.tid = None if task_id is None else check_task_id(task_id)
        self.allow_foreign = allow_foreign is True
        self.root = os.path.realpath(tree.root)
        self.worktree: str | None = None
        if worktree is not None:
            if not os.fspath(worktree):
                raise ValueError("worktree is empty; pass the worktree directory, or None (or '/') when there is none")
            wt = os.path.realpath(os.fspath(worktree))
            if "\x00" in wt:
                raise BadMemoryPathError("worktree path contains a NUL byte")
            self.worktree = None if wt == os.sep else wt  # MiMo: "/" means "not in git"
        self.dotdir = None if self.worktree is None else os.path.join(self.worktree, tree.worktree_dotdir)

    # -- resolving --

    def resolve(self, target: str | os.PathLike[str]) -> str:
        raw = os.fspath(target)
        if not isinstance(raw, str):
            raise BadMemoryPathError(f"target must be a str path, not {type(raw).__name__}")
        if "\x00" in raw:
            raise BadMemoryPathError(f"target {raw!r} contains a NUL byte; nothing was written. {self.allowed()}")
        if not raw:
            raise BadMemoryPathError(f"target is empty. {self.allowed()}")
        if not os.path.isabs(raw):
            raw = os.path.join(self.worktree or os.getcwd(), raw)
        real = os.path.realpath(raw)
        # realpath stops at a symlink loop and returns a path that still holds a link.
        existing = real
        while not os.path.lexists(existing):
            existing = os.path.dirname(existing)
        if os.path.islink(existing) or os.path.realpath(existing) != existing:
            raise BadMemoryPathError(f"target {raw!r} goes through a symlink loop; nothing was written")
        return real

    # -- the verdict --

    def judge(self, target: str | os.PathLike[str]) -> Path:
        real = self.resolve(target)
        shown = f"{os.fspath(target)!s}" + ("" if real == os.fspath(target) else f" (resolves to {real})")
        self.refuse_variants(real, shown)
        if _strictly_under(self.root, real):
            self.judge_memory(real, shown)
        elif real == self.root or _under(real, self.root):
            raise OutsideAllowedAreaError(f"{shown} is the memory root or one of its parents, not a file. {self.allowed()}")
        else:
            self.judge_outside(real, shown)
        return Path(real)

    def refuse_variants(self, real: str, shown: str) -> None:
        folded = _fold(real)
        for area in filter(None, (self.root, self.dotdir, self.worktree)):
            if _under(_fold(area), folded) and not _under(area, real):
                raise BadMemoryPathError(
                    f"{shown} differs from {area} only in letter case or Unicode form; "
                    f"use the exact spelling. {self.allowed()}"
                )
        if _strictly_under(self.root, real):
            parts, reserved, prefixes = _rel(self.root, real), _FOLDED_TREE, _TREE_RESERVED_PREFIXES
        elif self.worktree is not None and _strictly_under(self.worktree, real):
            parts, reserved, prefixes = _rel(self.worktree, real), _FOLDED_WORKTREE, ()
        else:
            return
        for part in parts:
            canonical = reserved.get(_fold(part))
            if canonical is not None and part != canonical:
                raise BadMemoryPathError(f"{shown}: name {part!r} is a variant of the reserved {canonical!r}. {self.allowed()}")
            for prefix in prefixes:
                if _fold(part).startswith(prefix) and not part.startswith(prefix):
                    raise BadMemoryPathError(
                        f"{shown}: name {part!r} must start with lower-case {prefix!r}. {self.allowed()}"
                    )

    def judge_memory(self, real: str, shown: str) -> None:
        if not self.tree.write_enabled:
            raise WritingDisabledError(self.disabled_message(shown))
        parts = _rel(self.root, real)
        self.check_shape(parts, shown)
        scope = parts[0]
        if scope == "sessions" and len(parts) >= 4 and parts[2] == "tasks":
            self.judge_task_path(parts, shown)
            return
        if self.tid is not None:
            raise ReservedTaskPathError(
                f"{shown}: an agent bound to task {self.tid} may write only its own task directory. {self.allowed()}"
            )
        if self.agent == CHECKPOINT_WRITER:
            self.judge_writer(parts, shown)
        self.judge_owner(parts, shown)

    def check_shape(self, parts: list[str], shown: str) -> None:
        scope = parts[0]
        if scope not in SCOPES:
            raise BadMemoryPathError(f"{shown}: memory files live under global/, projects/<pid>/ or sessions/<sid>/. {self.allowed()}")
        if len(parts) < (2 if scope == "global" else 3):
            raise BadMemoryPathError(f"{shown} is not a <scope>/<scope_id>/<key>.md path. {self.allowed()}")
        if not parts[-1].endswith(".md") or parts[-1] == ".md":
            raise BadMemoryPathError(f"{shown}: memory files must be Markdown ending in .md. {self.allowed()}")
        for part in parts:
            if part.startswith(".") or any(ord(ch) < 32 or ord(ch) == 127 for ch in part):
                raise BadMemoryPathError(f"{shown}: hidden names and control characters are not allowed. {self.allowed()}")
        if scope != "global":
            try:
                check_id(parts[1], kind="scope")
            except InvalidMemoryIdError as exc:
                raise BadMemoryPathError(f"{shown}: {exc}. {self.allowed()}") from None

    def judge_task_path(self, parts: list[str], shown: str) -> None:
        own_task = self.tid is not None and parts[3] == self.tid and len(parts) >= 5
        writer_task = self.agent == CHECKPOINT_WRITER and len(parts) == 5 and TASK_ID_RE.fullmatch(parts[3])
        if not (own_task or writer_task):
            raise ReservedTaskPathError(
                f"{shown} is reserved: tasks/<TID>/ is written only by the subagent bound to that task "
                f"(pass task_id) and by the checkpoint-writer. {self.allowed()}"
            )
        self.judge_owner(parts, shown)

    def judge_writer(self, parts: list[str], shown: str) -> None:
        name = parts[-1]
        ok = len(parts) == 3 and (
            (parts[0] == "projects" and (name == "MEMORY.md" or name.startswith("memory-")))
            or (parts[0] == "sessions" and (name in ("checkpoint.md", "notes.md") or name.startswith("checkpoint-")))
        )
        if not ok:
            raise NotInWriterAllowlistError(f"{shown} is not in the checkpoint-writer allowlist. {self.allowed()}")

    def judge_owner(self, parts: list[str], shown: str) -> None:
        if self.allow_foreign or parts[0] == "global":
            return
        own = self.sid if parts[0] == "sessions" else self.pid
        kind = "session" if parts[0] == "sessions" else "project"
        if own is None:
            raise NotOwnerError(
                f"{shown} is in {kind} {parts[1]!r} but no {kind}_id was given; pass {kind}_id= "
                f"to write your own {kind}'s files (allow_foreign=True is for maintenance tools). {self.allowed()}"
            )
        if parts[1] != own:
            raise NotOwnerError(f"{shown} belongs to another {kind} ({parts[1]!r}, yours is {own!r}). {self.allowed()}")

    def judge_outside(self, real: str, shown: str) -> None:
        if self.agent == CHECKPOINT_WRITER:
            raise OutsideAllowedAreaError(f"agent {self.agent!r} may only write under the memory tree; refused {shown}. {self.allowed()}")
        if self.agent in SANDBOXED_AGENTS:
            if self.dotdir is not None and _strictly_under(self.dotdir, real):
                if not self.tree.write_enabled:
                    raise WritingDisabledError(self.disabled_message(shown))
                return
            raise OutsideAllowedAreaError(
                f"agent {self.agent!r} may only write under the memory tree or <worktree>/{self.tree.worktree_dotdir}/; "
                f"refused {shown}. {self.allowed()}"
            )
        if self.worktree is not None and _strictly_under(self.worktree, real):
            if ".git" in _rel(self.worktree, real):
                raise OutsideAllowedAreaError(f"{shown} is inside a .git directory. {self.allowed()}")
            if self.dotdir is not None and _under(self.dotdir, real) and not self.tree.write_enabled:
                raise WritingDisabledError(self.disabled_message(shown))
            return
        raise OutsideAllowedAreaError(f"{shown} is outside the memory tree and outside the worktree. {self.allowed()}")

    # -- messages --

    def allowed(self) -> str:
        """What this caller may write, as canonical paths."""
        tree = self.tree
        if not tree.write_enabled:
            return "Memory writing is disabled; no memory path is writable."
        lines: list[str] = []
        sid, pid = self.sid or "<your session_id>", self.pid or "<your project_id>"
        sdir = os.path.join(self.root, "sessions", sid)
        pdir = os.path.join(self.root, "projects", pid)
        if self.tid is not None:
            lines.append(f"{sdir}/tasks/{self.tid}/<name>.md (your task's files, e.g. progress.md)")
        elif self.agent == CHECKPOINT_WRITER:
            lines += [
                f"{pdir}/MEMORY.md or {pdir}/memory-<topic>.md",
                f"{sdir}/checkpoint.md, {sdir}/checkpoint-<topic>.md or {sdir}/notes.md",
                f"{sdir}/tasks/<TID>/<name>.md",
            ]
        else:
            lines += [
                f"{pdir}/MEMORY.md (edit Rules / Architecture decisions / Discovered durable knowledge)",
                f"{sdir}/notes.md (append '## [turn N · YYYY-MM-DDTHH:MM:SSZ]' entries)",
                f"other <key>.md files under {sdir}/ (not tasks/), {pdir}/ or {self.root}/global/",
            ]
            if self.agent in SANDBOXED_AGENTS:
                lines.append(f"{self.dotdir or '<worktree>/' + tree.worktree_dotdir}/...")
            elif self.worktree is not None:
                lines.append(f"files inside the worktree {self.worktree}/ (not .git)")
        return "Allowed: " + "; ".join(lines) + "."

    def disabled_message(self, shown: str) -> str:
        return (
            f"Memory WRITING is disabled (MemoryTree(write_enabled=False)); refused {shown}. "
            "Do NOT retry with another memory path: every memory write is refused while writing is off. "
            "Existing memory is still READABLE: search it (mimomem search) or read the files explicitly. "
            "To re-enable, open the tree with write_enabled=True."
        )
