"""A change counter for the memory tree, so a search right after a write sees it.

Every write through mimomem (``MemoryTree`` and the curated store) bumps a small file next
to the memory root; a search compares it with the value its last reconcile saw and
reconciles at once when they differ, instead of waiting for the reconcile interval.
Edits made outside mimomem (an editor, ``git pull``) are still found by the interval.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from mimomem.common.nofollow import open_nofollow
from mimomem.common.stamp import stamp_text

FILE = Path("state") / "generation"
"""Where the counter lives, relative to the data directory (the memory root's parent)."""


def marker(data_dir: str | os.PathLike[str]) -> Path:
    """The counter file for the tree whose data directory is ``data_dir``."""
    return Path(data_dir) / FILE


def bump(data_dir: str | os.PathLike[str]) -> None:
    """Record that the tree changed; best effort (a read-only data directory only delays search)."""
    path = marker(data_dir)
    try:
        from mimomem.common.private import private_dir

        private_dir(path.parent)
        fd = open_nofollow(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        try:
            os.write(fd, f"{time.time_ns()} {os.getpid()}\n".encode())
        finally:
            os.close(fd)
    except OSError:
        pass


def current(data_dir: str | os.PathLike[str]) -> str:
    """An opaque value that changes whenever :func:`bump` runs; ``""`` before the first bump."""
    try:
        st = os.stat(marker(data_dir), follow_symlinks=False)
        with open(marker(data_dir), "rb") as handle:
            return f"{stamp_text(st)}:{handle.read(64).decode('ascii', 'replace').strip()}"
    except OSError:
        return ""
