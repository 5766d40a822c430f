"""The memory tree on disk: where each layer lives, and how a write reaches the disk.

``MemoryTree(root)`` knows the layer paths (global / project / session / task) and
changes files only through :meth:`MemoryTree.write`, :meth:`~MemoryTree.create`,
:meth:`~MemoryTree.append` and :meth:`~MemoryTree.delete`.  Each first asks the write
gate (:mod:`mimomem.tree.gate`, via :meth:`MemoryTree.check_write`) whether the caller
may write the target, then refuses text holding a likely secret, then changes the file
under an exclusive lock on the parent directory it holds open, relative to that
directory's descriptor, so a parent swapped for a symlink after the verdict cannot
redirect the write.

Locking uses ``fcntl.flock``, so this module is POSIX-only.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from mimomem.common.files import atomic_write
from mimomem.common.nofollow import DIRECTORY, open_nofollow
from mimomem.common.private import tighten
from mimomem.errors import BadMemoryPathError
from mimomem.tree import gate, generation, locations, templates
from mimomem.tree.gate import CHECKPOINT_WRITER, SANDBOXED_AGENTS, fold
from mimomem.tree.layout import check_id, check_task_id
from mimomem.tree.project import DEFAULT_ID_FILES, MIMOCODE_ID_FILES, ProjectIdentity
from mimomem.tree.project import project_id as _project_id
from mimomem.tree.writer import Writer


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
    def from_mimocode(cls, data: str | os.PathLike[str] | None = None, *, write_enabled: object = True) -> MemoryTree:
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

    def migrate_project_memory(self, by: Writer) -> bool:
        """Rename ``by``'s project's legacy ``memory.md`` to ``MEMORY.md`` (idempotent); True if renamed.

        Passes the gate for ``MEMORY.md`` first; does nothing while writing is disabled.
        """
        if not self.write_enabled:
            return False
        path = self.check_write(self.project_memory(check_id(by.project_id, kind="project")), by)
        return templates.migrate_legacy_memory(path.parent)

    def ensure_templates(self, by: Writer) -> list[Path]:
        """Create the missing templates for ``by``; returns the paths created.

        With ``by.project_id``: the project ``MEMORY.md`` (after the legacy rename).  With
        ``by.session_id``: ``notes.md``, and ``checkpoint.md`` for its writers (the checkpoint
        writer, the user).  Existing files are never
        touched, and nothing is written while writing is disabled.
        """
        if not self.write_enabled:
            return []
        wanted: list[tuple[Path, str]] = []
        if by.project_id is not None:
            self.migrate_project_memory(by)
            wanted.append((self.project_memory(by.project_id), templates.memory_template()))
        if by.session_id is not None:
            if gate.role_of(by.agent, by.task_id) in ("user", "checkpoint writer"):  # the checkpoint's writers
                wanted.append((self.checkpoint(by.session_id), templates.checkpoint_template()))
            wanted.append((self.notes(by.session_id), templates.notes_template()))
        return [path for path, text in wanted if self.create(path, text, by)]

    # --- the write gate (mimomem.tree.gate): one entry point, used by every mutation below ---

    def _changed(self, path: Path) -> None:
        """Tell searches that the tree changed (only for files inside it; see ``tree.generation``)."""
        if str(path).startswith(str(self.root) + os.sep):
            generation.bump(self.data_dir)
            for directory in {self.data_dir, self.root, *path.parents[: len(path.relative_to(self.root).parts) - 1]}:
                tighten(directory)  # made 0755 by an older mimomem: private from its next write on

    def check_write(self, target: str | os.PathLike[str], by: Writer) -> Path:
        """Decide whether ``by`` may write ``target``; return the real path to write to.

        Raises a ``WriteDeniedError`` subclass (whose message lists what the caller *may*
        write) or ``InvalidMemoryIdError`` for a malformed id argument.  The rules are
        listed in :mod:`mimomem.tree.gate`; in short: only ``<scope>/<id>/<key>.md`` in the
        tree, ``tasks/<TID>/`` only for the subagent bound to that task (and the
        checkpoint writer), sessions and projects only your own (unless
        ``allow_foreign=True``, for maintenance tools), restricted agents only their
        allowlist, everything else only inside ``worktree`` (never ``.git``).

        A relative ``target`` is taken relative to ``by.worktree`` (or the current
        directory when no worktree is given).
        """
        return gate.check_write(self, target, by)

    def write(self, target: str | os.PathLike[str], text: str, by: Writer) -> Path:
        """Replace ``target`` with ``text`` atomically, after the gate (judging ``by``) and the secret check.

        Parent directories are created.  Returns the real path written.
        """
        path = self.check_write(target, by)
        _refuse_secrets(text, path)
        with _locked_dir(path) as dir_fd:
            atomic_write(path, text, dir_fd=dir_fd)
        self._changed(path)
        return path

    def create(self, target: str | os.PathLike[str], text: str, by: Writer) -> bool:
        """Write ``text`` to ``target`` only if it does not exist yet; True if it was created."""
        path = self.check_write(target, by)
        _refuse_secrets(text, path)
        with _locked_dir(path) as dir_fd:
            try:
                os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False)
                return False
            except FileNotFoundError:
                pass
            atomic_write(path, text, dir_fd=dir_fd)
        self._changed(path)
        return True

    def append(self, target: str | os.PathLike[str], text: str, by: Writer) -> Path:
        """Append ``text`` to ``target`` (created if missing), on a line of its own.

        Concurrent appenders never lose entries: the read-modify-write runs under an
        exclusive ``flock`` on the parent directory and ends in an atomic rename.
        ``O_APPEND`` was not used because it writes through a hard link or a swapped-in
        symlink, lets a reader see half an entry, and cannot add the separating newline
        safely; the rename keeps every write all-or-nothing like :meth:`write`.
        """
        path = self.check_write(target, by)
        _refuse_secrets(text, path)
        self._append(path, lambda _old: text, start=self._template_of(path))
        return path

    def _template_of(self, path: Path) -> str:
        """What a missing file starts from before an append: a project ``MEMORY.md`` its template (so an
        append to a new project keeps the section headings, as ``ensure_templates`` would have made it),
        any other file nothing (notes entries come through ``append_note``, which has its own)."""
        layer = path.parent.parent
        if path.name != "MEMORY.md" or layer.name != "projects" or layer.parent.resolve() != self.root.resolve():
            return ""
        return templates.memory_template()

    def append_note(self, text: str, by: Writer, *, turn: int | None = None) -> tuple[Path, int]:
        """Append ``text`` to ``by``'s session's notes inbox as entry ``turn``; returns path and turn.

        Without ``turn`` the entry gets the next number, counted from the file as it is under
        the append's lock: two notes written at the same moment never share a number.  A
        missing inbox is created from its template in the same write.
        """
        path = self.check_write(self.notes(check_id(by.session_id, kind="session")), by)
        numbers: list[int] = []

        def entry(old: str) -> str:
            numbers.append(turn if turn is not None else len(templates.parse_notes(old)) + 1)
            return "\n" + templates.notes_entry(numbers[-1], text)

        self._append(path, entry, start=templates.notes_template())
        return path, numbers[-1]

    def _append(self, path: Path, make: Callable[[str], str], *, start: str = "") -> None:
        """Append ``make(current text)`` to ``path`` (``start`` when missing) under the directory lock."""
        with _locked_dir(path) as dir_fd:
            try:
                old = _read_regular(path, dir_fd)
            except FileNotFoundError:
                old = start.encode("utf-8")
            text = make(old.decode("utf-8", "replace"))
            sep = b"\n" if old and not old.endswith(b"\n") else b""
            _refuse_secrets(text, path, (old + sep).decode("utf-8", "replace"))  # a secret split over appends
            atomic_write(path, old + sep + text.encode("utf-8"), dir_fd=dir_fd)
        self._changed(path)

    def update(
        self, target: str | os.PathLike[str], change: Callable[[str | None], str | None], by: Writer
    ) -> tuple[Path, bool]:
        """Read-modify-write ``target`` under the directory lock: ``change(live_text)`` gives the new text.

        ``change`` gets the file's text as it is now (None when missing), read under the
        same lock as the write, so a concurrent writer's change is never lost; returning
        None or the same text writes nothing.  Returns the real path and whether it changed.
        """
        path = self.check_write(target, by)
        with _locked_dir(path) as dir_fd:
            try:
                old: str | None = _read_regular(path, dir_fd).decode("utf-8")
            except FileNotFoundError:
                old = None
            new = change(old)
            if new is None or new == old:
                return path, False
            _refuse_secrets(new, path)
            atomic_write(path, new, dir_fd=dir_fd)
        self._changed(path)
        return path, True

    def delete(self, target: str | os.PathLike[str], by: Writer) -> bool:
        """Delete the file ``target`` (the real file a symlink points at); False if absent."""
        path = self.check_write(target, by)
        if not os.path.lexists(path):
            return False
        with _locked_dir(path) as dir_fd:
            try:
                os.unlink(path.name, dir_fd=dir_fd)
            except FileNotFoundError:
                return False
        self._changed(path)
        return True


# --- write mechanics ---


def _refuse_secrets(text: str, path: Path, before: str = "") -> None:
    """Refuse a likely secret in ``text``, in the file's name, or made by appending ``text`` to ``before``."""
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    from mimomem.common.secrets import ensure_no_secrets, ensure_no_secrets_appended  # the scanner: writes only

    ensure_no_secrets(str(path), where=str(path), field="file name")
    ensure_no_secrets_appended(before, text, where=str(path))


@contextlib.contextmanager
def _locked_dir(path: Path) -> Iterator[int]:
    """Create ``path``'s parent, open it, check it is still the judged one, hold its flock.

    Yields the directory's descriptor: every change is then made relative to it, so a
    parent swapped for a symlink after this check cannot redirect the write.  The parent
    is opened (and created) one component at a time without following symlinks
    (:func:`_open_directory`), so nothing is created outside the judged path either.  A
    directory where the file should be is refused (``BadMemoryPathError``).
    """
    parent = path.parent
    fd = _open_directory(parent)
    try:
        held = _fd_path(fd)
        if held is None:  # no way to ask the OS: a (racy) check by path
            same = os.path.realpath(parent) == str(parent) and os.path.samestat(os.fstat(fd), os.stat(parent))
        else:  # macOS may report the stored case / normalization form of the same path
            same = held == str(parent) or (_FD_PATH_FOLDS and fold(held) == fold(str(parent)))
        if not same:  # swapped for a symlink or moved after the verdict
            raise BadMemoryPathError(
                f"{parent} is not the directory that was judged (it changed into a symlink or was moved "
                f"while writing, now {held or 'unknown'}); nothing was written"
            )
        fcntl.flock(fd, fcntl.LOCK_EX)
        _refuse_directory(path, fd)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def _open_directory(directory: Path) -> int:
    """Open ``directory`` one component at a time from ``/``, creating missing ones, following no symlink.

    The gate judged the fully resolved path, so none of its components is a symlink; one
    that is now was swapped in after the verdict and is refused before anything is
    created or opened through it.  Missing components are created inside the directory
    just opened, never by path.
    """
    fd = open_nofollow(os.sep, DIRECTORY)
    for name in directory.parts[1:]:
        fd = _open_child(fd, name, directory)  # closes the parent, also on error
    return fd


def _open_child(fd: int, name: str, directory: Path) -> int:
    """The sub-directory ``name`` of ``fd`` opened (created if missing); ``fd`` is closed in every case."""
    try:
        try:
            return open_nofollow(name, DIRECTORY, dir_fd=fd)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o700, dir_fd=fd)  # private whatever the umask (mimomem.common.private)
            child = open_nofollow(name, DIRECTORY, dir_fd=fd)
            with contextlib.suppress(OSError):
                os.fchmod(child, 0o700)
            return child
    except OSError as exc:
        try:
            mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
        except OSError:
            raise exc from None
        if stat.S_ISLNK(mode):
            what = "a symlink now (swapped for one after the verdict?)"
        elif not stat.S_ISDIR(mode):
            what = "not a directory"
        else:
            raise
        raise BadMemoryPathError(f"{directory}: its component {name!r} is {what}; nothing was written") from None
    finally:
        os.close(fd)


def _refuse_directory(path: Path, dir_fd: int) -> None:
    """Raise ``BadMemoryPathError`` when ``path`` names a directory (writing or deleting it must fail clearly)."""
    try:
        mode = os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        raise BadMemoryPathError(f"{path} is a directory, not a memory file; nothing was written or deleted")


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
    try:
        fd = open_nofollow(path.name, dir_fd=dir_fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise BadMemoryPathError(
            f"{path} cannot be opened as a regular file ({exc.strerror}); nothing was written"
        ) from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise BadMemoryPathError(f"{path} is not a regular file (a FIFO or device?); nothing was written")
        return handle.read()


__all__ = ["CHECKPOINT_WRITER", "SANDBOXED_AGENTS", "MemoryTree"]
