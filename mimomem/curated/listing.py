"""The memory files of a curated root as one directory walk sees them: names and stat keys.

A scan is what every open of a root costs, so it builds no ``Path`` objects and reads no
file: one ``scandir`` per category directory and one ``lstat`` per memory file.  Each file's
stamp (:mod:`mimomem.common.stamp`) changes with any edit, rename over, ``touch`` or ``chmod``
of it, so caches keyed by a listing (``curated.snapshot``, ``curated.recall_cache``) are never
used for a file that changed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from mimomem.common.stamp import Stamp, stamp_of
from mimomem.curated.memory import Problem

Files = list[tuple[str, "Stamp | None"]]
Listing = dict[str, Files]
"""Category -> its memory files' names (sorted) and stamps (``None``: not a regular file)."""


def scan_root(
    root: Path, categories: Sequence[str], *, temps: list[os.DirEntry[str]] | None = None
) -> tuple[Listing, list[Problem]]:
    """The listing of every existing category directory of ``root``, and what could not be listed.

    ``temps`` (when given) receives the temp files (``.*.tmp``) seen in those directories, so a
    reader cleaning up after dead writers does not list them again."""
    listing: Listing = {}
    problems: list[Problem] = []
    for category in categories:
        cdir = os.path.join(root, category)
        if os.path.islink(cdir):
            problems.append(Problem("skipped", cdir, "category directory is a symlink; not read"))
            continue
        try:
            listing[category] = _category_files(cdir, temps)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            problems.append(Problem("skipped", cdir, f"cannot list: {exc.strerror}"))
    return listing, problems


def _by_name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _category_files(cdir: str, temps: list[os.DirEntry[str]] | None) -> Files:
    found = []
    with os.scandir(cdir) as entries:
        for e in entries:
            name = e.name
            if name[0] == ".":
                if temps is not None and name.endswith(".tmp"):
                    temps.append(e)
            elif name.endswith(".md") and name != "index.md":
                found.append(e)
    found.sort(key=_by_name)
    files: Files = []
    append, is_regular = files.append, stat.S_ISREG
    for entry in found:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            append((entry.name, None))
            continue
        key = stamp_of(st) if is_regular(st.st_mode) else None
        append((entry.name, key))
    return files


def listed_key(listing: Listing | None, memory_id: str) -> Stamp | None:
    """The stamp the listing holds for ``memory_id``'s file (``None``: not listed or not regular)."""
    if not listing:
        return None
    category, _, slug = memory_id.partition("/")
    name = f"{slug}.md"
    for listed, key in listing.get(category, ()):
        if listed == name:
            return key
    return None


__all__ = ["Listing", "listed_key", "scan_root"]
