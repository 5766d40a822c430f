"""Project identity: a random id kept inside the repository's main ``.git`` directory.

Every worktree of a repository shares the main ``.git`` directory, so they share one id;
a fresh clone gets a new one.  Outside git the id is ``global`` (all such directories
share ``projects/global/``), as in MiMo-Code.  Git itself is not run: the ``.git`` entry
is read directly.

Differences from MiMo-Code's ``project-id.ts`` (its documented gaps): a relative
``gitdir:`` is resolved against the ``.git`` file's own directory, not the process cwd;
the main git directory is found through git's ``commondir`` file, so a submodule (no
``commondir``) gets its own id instead of sharing the superproject's; and an id file
holding anything but a safe single path component is refused, since the id becomes a
directory name in the memory tree.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple would turn every string
# annotation into a ForwardRef, whose compile() costs a hook process ~2 ms (the AST types' set-up).

import contextlib
import os
import stat
import time
from pathlib import Path
from typing import NamedTuple

from mimomem.common.files import atomic_write, file_lock
from mimomem.errors import InvalidMemoryIdError, ProjectIdError
from mimomem.tree.layout import GLOBAL_ID, check_id

ID_FILE = "mimomem-project-id"
"""The id file mimomem creates in the main ``.git`` directory."""

MIMOCODE_ID_FILE = "mimocode-project-id"
"""MiMo-Code's id file; read when present so both tools agree on a repository's id."""

DEFAULT_ID_FILES: tuple[str, ...] = (ID_FILE, MIMOCODE_ID_FILE)
MIMOCODE_ID_FILES: tuple[str, ...] = (MIMOCODE_ID_FILE, ID_FILE)

_SMALL_FILE_LIMIT = 64 * 1024
"""The most read from a git bookkeeping file (an id, ``commondir``, a ``.git`` file): all are one line."""


class ProjectIdentity(NamedTuple):
    """A project's id, the top of its working tree and its main git directory.

    ``root`` is the directory holding the ``.git`` entry (for a linked worktree, the
    worktree's own top); ``git_dir`` is the main (common) git directory that holds the
    id file.  Both are ``None`` outside git, where ``id`` is ``"global"``.
    """

    id: str
    root: Path | None
    git_dir: Path | None


def find_git(start: str | os.PathLike[str]) -> tuple[Path, Path] | None:
    """``(repo_root, main_git_dir)`` for the repository enclosing ``start``, else ``None``.

    Like MiMo-Code, a ``.git`` found in the home directory or at a filesystem root does
    not make a project (a dotfiles repository must not swallow every directory below).
    """
    here = Path(os.path.realpath(start))
    if not here.is_dir():
        here = here.parent
    home = os.path.realpath(os.path.expanduser("~"))
    for directory in (here, *here.parents):
        dot_git = directory / ".git"
        if dot_git.is_dir():
            git_dir = dot_git
        elif dot_git.is_file():
            git_dir = _follow_gitdir_file(dot_git)
        else:
            continue
        if str(directory) == home or directory.parent == directory:
            return None
        return directory, _common_dir(git_dir)
    return None


def _read_small(file: Path) -> bytes | None:
    """The first 64 KiB of the regular file ``file`` (symlinks followed), never blocking.

    ``None`` when ``file`` is a FIFO, device or directory: it is opened non-blocking and
    not read, so a FIFO cannot hang the caller.  Raises ``FileNotFoundError`` when it is
    missing and any other ``OSError`` of the open or read.
    """
    fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= _SMALL_FILE_LIMIT and (chunk := os.read(fd, _SMALL_FILE_LIMIT + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _follow_gitdir_file(dot_git: Path) -> Path:
    try:
        raw = _read_small(dot_git)
    except OSError as exc:
        raise ProjectIdError(f"cannot read {dot_git}: {exc}; fix its permissions or remove it") from exc
    if raw is None:
        raise ProjectIdError(f"{dot_git} is not a regular file (a FIFO or device?); remove it or repair the worktree")
    text = raw.decode("utf-8", errors="replace")
    for line in text.splitlines():
        if line.startswith("gitdir:"):
            target = line[len("gitdir:") :].strip()
            break
    else:
        raise ProjectIdError(f"{dot_git} has no 'gitdir: <path>' line; repair the worktree (git worktree repair)")
    # Relative gitdir is relative to the .git file's directory (git's own rule).
    git_dir = Path(os.path.realpath(dot_git.parent / target))
    if not git_dir.is_dir():
        raise ProjectIdError(
            f"{dot_git} points at {git_dir}, which does not exist; "
            f"run 'git worktree repair' or 'git worktree prune' in the main repository"
        )
    return git_dir


def _common_dir(git_dir: Path) -> Path:
    """The main git directory: ``commondir`` (linked worktrees) or ``git_dir`` itself."""
    try:
        raw = _read_small(git_dir / "commondir")
        common = "" if raw is None else raw.decode("utf-8").strip()
    except (OSError, UnicodeDecodeError):  # missing or unreadable: this is the main git dir
        return git_dir
    if not common:
        return git_dir
    resolved = Path(os.path.realpath(git_dir / common))
    return resolved if resolved.is_dir() else git_dir


def project_id(path: str | os.PathLike[str] = ".", *, id_files: tuple[str, ...] = DEFAULT_ID_FILES) -> ProjectIdentity:
    """The identity of the project containing ``path``; creates the id on first use.

    ``id_files`` are looked up in order inside the main ``.git`` directory and the first
    non-blank one wins; when none exists a new UUID4 is written to ``id_files[0]``
    atomically: the value goes to a temp file that is hard-linked into place, so two
    racing processes agree on one id and no reader ever sees a partial file.
    """
    found = find_git(path)
    if found is None:
        return ProjectIdentity(GLOBAL_ID, None, None)
    root, git_dir = found
    return ProjectIdentity(_ensure_id(git_dir, id_files), root, git_dir)


def _read_id(file: Path) -> str | None:
    """The trimmed content of ``file``; ``None`` if missing, ``""`` if blank."""
    try:
        raw = _read_small(file)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ProjectIdError(f"cannot read project id file {file}: {exc}") from exc
    if raw is None:
        raise ProjectIdError(
            f"project id file {file} is not a regular file (a FIFO or device?); delete it and a new id will be created"
        )
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise ProjectIdError(f"project id file {file} is not UTF-8; delete it and a new id will be created") from None


def _valid(value: str, file: Path) -> str:
    try:
        return check_id(value, kind="project")
    except InvalidMemoryIdError:
        raise ProjectIdError(
            f"project id file {file} holds {value[:80]!r}, which is not a safe id; "
            f"delete the file (a new id will be created) or put a UUID in it"
        ) from None


def _ensure_id(git_dir: Path, id_files: tuple[str, ...]) -> str:
    for name in id_files:
        value = _read_id(git_dir / name)
        if value:
            return _valid(value, git_dir / name)
    import uuid  # only when an id is created: never on the per-prompt path

    target = git_dir / id_files[0]
    if _read_id(target) is None:
        created = _create_exclusive(target, str(uuid.uuid4()))
        if created is not None:
            return created
    # The file exists but is blank: another writer (perhaps a non-atomic one) may be
    # mid-write.  Give it a moment, then repair under a lock so only one id wins.
    for _ in range(20):
        value = _read_id(target)
        if value:
            return _valid(value, target)
        time.sleep(0.025)
    with file_lock(git_dir / f".{id_files[0]}.lock", symlink_error=ProjectIdError):
        value = _read_id(target)
        if value:
            return _valid(value, target)
        fresh = str(uuid.uuid4())
        atomic_write(target, fresh)
        return fresh


def _create_exclusive(target: Path, value: str) -> str | None:
    """Create ``target`` holding ``value`` unless it exists; return the value now in it.

    ``None`` means the file exists but is still blank.
    """
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(value.encode("ascii"))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, target)  # atomic, fails if target exists
            return value
        except FileExistsError:
            pass
        except OSError:  # filesystem without hard links: O_EXCL create + write
            try:
                excl = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                pass
            else:
                with os.fdopen(excl, "wb") as handle:
                    handle.write(value.encode("ascii"))
                    handle.flush()
                    os.fsync(handle.fileno())
                return value
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    existing = _read_id(target)
    return _valid(existing, target) if existing else None
