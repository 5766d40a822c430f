"""One all-or-nothing curated write, and the repair after a writer was killed half-way.

``writing`` holds a root's lock around one write (``remember``, a whole ``remember_many``
batch, ``forget``, ``rules accept``, ``compile``): it notes the writer's pid in ``.lock``,
lets the caller change memory files (each change noted in an ``Undo``), recompiles every
outline and clears the note.  When anything fails the files are put back and the outlines
recompiled from them, so the caller sees nothing happened and a retry is not refused as a
duplicate; a full disk is raised as ``DiskFullError``.  Failure is chosen over "succeed and
recompile later" because the caller can then trust the result: kept means fully kept.

A note left in ``.lock`` means a writer died mid-write (kill -9, power loss): the next open
(``recover_root``) or write recompiles the outlines, and temp files of dead writers are
removed after a minute.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress

from mimomem.curated.render import write_compiled
from mimomem.curated.roots import CuratedRoot
from mimomem.curated.undo import Undo, disk_full_error, is_disk_full
from mimomem.errors import DiskFullError


@contextmanager
def writing(
    root: CuratedRoot,
    categories: Sequence[str],
    *,
    refresh: Callable[[], object],
    reset: Callable[[CuratedRoot], None],
) -> Iterator[Undo]:
    """Hold ``root``'s lock for one all-or-nothing write, then recompile every outline.

    ``refresh`` brings the caller's view up to date once the lock is held; ``reset`` drops
    what the caller derived from the files after a failed write put them back.
    """
    try:
        with root.write_lock():
            root.clean_stale_temps(locked=True)
            refresh()
            root.begin_write()
            undo = Undo()
            try:
                yield undo
                write_compiled(root, categories)  # every outline: also what a killed writer left stale
                root.written(bump=bool(undo))
            except BaseException as exc:
                undone = roll_back(root, categories, undo, reset)
                if isinstance(exc, OSError) and is_disk_full(exc) and not isinstance(exc, DiskFullError):
                    raise disk_full_error(exc, root.path, undone=undone) from exc
                raise
            root.end_write()
    except OSError as exc:  # before anything was written: the lock, .gitignore, the note in .lock
        if is_disk_full(exc) and not isinstance(exc, DiskFullError):
            raise disk_full_error(exc, root.path, undone=True) from exc
        raise


def roll_back(root: CuratedRoot, categories: Sequence[str], undo: Undo, reset: Callable[[CuratedRoot], None]) -> bool:
    """Put back the memory files of a failed write, reload and recompile; True when the files are as before.

    Outlines that cannot be recompiled now (the disk still full) keep the note in ``.lock``,
    so the next open or write recompiles them.
    """
    if not undo:  # nothing was written
        with suppress(OSError):
            root.end_write()
        return True
    complete = undo.undo()
    root.load()
    reset(root)
    try:
        write_compiled(root, categories)
        if complete:
            root.end_write()
    except OSError:
        pass  # the note in .lock stays: the next open or write recompiles
    return complete


def recover_root(root: CuratedRoot, categories: Sequence[str]) -> None:
    """On reading a root: remove dead writers' temp files, recompile what an interrupted write left stale.

    Best effort (a read-only root, a full disk): a warning says to run ``mimomem inspect --fix``.
    """
    root.clean_stale_temps(locked=False, scanned=True)  # the caller just scanned the root
    if not root.interrupted_write(locked=False):
        return
    try:
        with root.write_lock():
            if root.interrupted_write(locked=True):  # not finished by another process meanwhile
                root.load()
                write_compiled(root, categories)
                root.end_write()
                root.written(bump=False)
    except OSError as exc:
        reason = "disk is full" if is_disk_full(exc) else (exc.strerror or str(exc))
        message = f"outlines of {root.path} left stale by an interrupted write were not recompiled ({reason})"
        warnings.warn(message + "; run `mimomem inspect --fix`", RuntimeWarning, stacklevel=4)
