"""The undo log of one curated write, and how a failed write is reported.

A curated write is all-or-nothing from the caller's view: every memory file it creates,
rewrites or deletes is noted here first, and when anything fails before the write is
complete (the disk fills up while compiling the outlines, say) the files are put back as
they were and the outlines recompiled.  A full disk is reported as such
(``DiskFullError``), not as a permissions problem.
"""

from __future__ import annotations

import errno
import os
from contextlib import suppress
from pathlib import Path

from mimomem.common.files import atomic_write
from mimomem.errors import DiskFullError

DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
"""``errno`` values that mean "no space left" (the disk, or the user's quota)."""


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, OSError) and exc.errno in DISK_FULL


def disk_full_error(exc: OSError, where: Path, *, undone: bool) -> DiskFullError:
    """``exc`` (ENOSPC/EDQUOT) as a ``DiskFullError`` saying what was kept and what to do."""
    what = "disk quota exceeded" if exc.errno == errno.EDQUOT else "no space left on the device"
    if undone:
        outcome = "nothing was kept; free some space and run it again"
    else:
        outcome = "the write could not be undone completely; free some space, then run `mimomem inspect --fix`"
    message = f"disk is full ({what}) while writing to {where}: {outcome}"
    return DiskFullError(message, exc.errno or errno.ENOSPC, exc.filename)


def hits_not_saved(where: Path, exc: OSError) -> str:
    """The warning when recall hit counts could not be saved (the results are unaffected)."""
    reason = "disk is full" if is_disk_full(exc) else (exc.strerror or str(exc))
    return f"recall hit counts not saved in {where} ({reason}); the results are unaffected"


class Undo:
    """Memory files one write changed, with what each held before, so a failure can put them back."""

    def __init__(self) -> None:
        self.before: dict[Path, bytes | None] = {}  # None: the file did not exist
        self.new_dirs: list[Path] = []
        self.written: dict[Path, str] = {}  # what this write left in each memory file (``curated.warm``)

    def __bool__(self) -> bool:
        return bool(self.before or self.new_dirs)

    def mkdir(self, directory: Path) -> None:
        """Create a category directory (noted, so an undone write removes it again)."""
        if not directory.is_dir():
            directory.mkdir(mode=0o700)
            self.new_dirs.append(directory)

    def note(self, path: Path) -> None:
        """Remember ``path``'s content before its first change in this write."""
        if path in self.before:
            return
        try:
            self.before[path] = path.read_bytes()
        except FileNotFoundError:
            self.before[path] = None

    def undo(self) -> bool:
        """Put every noted file back (created ones removed first, freeing space); True if all went back."""
        complete = True
        for path, old in sorted(self.before.items(), key=lambda item: item[1] is not None):
            try:
                if old is None:
                    os.unlink(path)
                else:
                    atomic_write(path, old)
            except FileNotFoundError:
                continue
            except OSError:
                complete = False
        for directory in reversed(self.new_dirs):  # with the outline compiled into it meanwhile
            with suppress(OSError):
                (directory / "index.md").unlink(missing_ok=True)
                directory.rmdir()
        self.before.clear()
        self.new_dirs.clear()
        self.written.clear()
        return complete
