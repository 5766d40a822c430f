"""Reading a host's own memory files (:mod:`mimomem.tree.host_paths`): read-only, bounded, never a crash.

Nothing here opens a file for writing, renames or removes one.  What is read is bounded:
at most :data:`MAX_FILES` files per folder (its top and one level of sub-folders, such as Claude
Code's ``team/``), each at most :data:`MAX_BYTES` (a longer one is cut there and says so).  What is
skipped has a reason (:func:`listing`): a symlink (never followed, so nothing outside the folder
is read), a name that is not UTF-8, a hidden or non-Markdown name, something not a regular file,
a file that vanished or changed kind while it was read.  A file's frontmatter that cannot be read
is no reason to skip it: its body is used and its name comes from the file name.

Every file here is written by the host's model (or by the host for its user), never typed by the
user into mimomem: its text is recalled as what it is, never a rule (see ``context.host_memory``).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator

from mimomem.common.light_typing import NamedTuple
from mimomem.common.nofollow import open_regular_nofollow
from mimomem.tree.names import NOT_UTF8, is_utf8, printable

MAX_FILES = 500
"""Memory files read per folder at most (Claude Code's own scan stops at 200)."""

MAX_BYTES = 64 * 1024
"""Bytes read of one memory file at most (the rest is left out, and the entry says so)."""

INDEX = "MEMORY.md"
INDEX_LINES = 200
INDEX_CHARS = 25_000
"""What Claude Code loads of ``MEMORY.md``: its first 200 lines, then at most 25,000 characters
(UTF-16 units, cut at a line end), as 2.1.337 does."""

GEMINI_SECTION = "## Gemini Added Memories"

_LINK = re.compile(r"\[([^\]]{1,300})\]\(([^)\s]{1,500})\)")


class HostFile(NamedTuple):
    """One host memory file as read: its facts' text and what its frontmatter says."""

    path: str
    name: str
    description: str
    type: str
    body: str
    line: int
    """1-based line of ``body``'s first line in the file."""
    problem: str
    """Why part of the file was not used (``""``: none): cut at the size limit, broken frontmatter."""


class Skipped(NamedTuple):
    path: str
    reason: str


def listing(folder: str, *, limit: int = MAX_FILES) -> tuple[list[str], list[Skipped]]:
    """The Markdown files of ``folder`` and of its sub-folders one level down, sorted, and what was
    skipped with why; ``([], [])`` when ``folder`` is missing or is itself a symlink."""
    try:
        if stat.S_ISLNK(os.lstat(folder).st_mode):
            return [], [Skipped(folder, "the memory folder is a symlink (never followed)")]
    except (OSError, ValueError):
        return [], []
    found: list[str] = []
    skipped: list[Skipped] = []
    for path, is_dir, reason in _entries(folder):
        if reason:
            skipped.append(Skipped(path, reason))
        elif is_dir:
            for sub, sub_dir, sub_reason in _entries(path):
                if sub_reason or sub_dir:
                    skipped.append(Skipped(sub, sub_reason or "a folder two levels down (not read)"))
                else:
                    found.append(sub)
        else:
            found.append(path)
    found.sort()
    if len(found) > limit:
        skipped += [Skipped(p, f"past the first {limit} files of the folder") for p in found[limit:]]
        found = found[:limit]
    return found, skipped


def _entries(folder: str) -> Iterator[tuple[str, bool, str]]:
    """``(path, is a folder, reason skipped or "")`` of each entry of ``folder``, sorted by name."""
    try:
        with os.scandir(folder) as found:
            entries = sorted(found, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        name, path = entry.name, entry.path
        if not is_utf8(name):
            yield printable(path), False, NOT_UTF8
            continue
        try:
            if entry.is_symlink():
                yield path, False, "symlink (never followed)"
            elif name.startswith("."):
                yield path, False, "hidden"
            elif entry.is_dir(follow_symlinks=False):
                yield path, True, ""
            elif not entry.is_file(follow_symlinks=False):
                yield path, False, "not a regular file"
            elif not name.endswith(".md"):
                yield path, False, "not Markdown"
            else:
                yield path, False, ""
        except OSError as exc:
            yield path, False, f"unreadable ({exc.strerror or exc})"


def read_text(path: str, *, limit: int = MAX_BYTES) -> tuple[str, str]:
    """``(text, problem)`` of ``path``: at most ``limit`` bytes, never through a symlink, invalid
    UTF-8 replaced; raises ``OSError`` (missing, a symlink, not a regular file) for the caller to skip."""
    fd, _ = open_regular_nofollow(path)
    try:
        data = os.read(fd, limit + 1)
    finally:
        os.close(fd)
    problem = ""
    if len(data) > limit:
        data = data[:limit]
        problem = f"longer than {limit // 1024} KB: only the first {limit // 1024} KB read"
    text = data.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return text, problem


def parse(path: str, text: str, problem: str = "") -> HostFile:
    """A host memory file's frontmatter (``name``, ``description``, ``type`` or ``metadata.type``)
    and body; a header that cannot be read leaves the whole text as the body."""
    from mimomem.common import frontmatter

    stem = os.path.basename(path)[: -len(".md")] if path.endswith(".md") else os.path.basename(path)
    if not text.lstrip("\ufeff").startswith(frontmatter.FENCE):
        return HostFile(path, stem, "", "", text, 1, problem)
    doc = frontmatter.parse(text)
    if doc.problem is not None:
        why = f"frontmatter not read ({doc.problem})"
        body, line = (doc.body, doc.body_line) if doc.problem.kind in ("yaml", "not-a-mapping") else (text, 1)
        return HostFile(path, stem, "", "", body, line, "; ".join(x for x in (problem, why) if x))
    meta = doc.meta
    meta_type = meta.get("metadata", {}).get("type") if isinstance(meta.get("metadata"), dict) else None
    kind = meta.get("type") or meta_type
    return HostFile(
        path,
        _one_line(meta.get("name")) or stem,
        _one_line(meta.get("description")),
        _one_line(kind),
        doc.body,
        doc.body_line,
        problem,
    )


def _one_line(value: object, limit: int = 200) -> str:
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        return ""
    flat = " ".join(str(value).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def gemini_saved(text: str) -> tuple[str, int]:
    """The ``## Gemini Added Memories`` section of a GEMINI.md (``save_memory`` writes there) and its
    first line; ``("", 0)`` when the file has none."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip() == GEMINI_SECTION:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("## ")), len(lines))
            return "\n".join(lines[i + 1 : end]), i + 2
    return "", 0


class IndexGauge(NamedTuple):
    """How much of a ``MEMORY.md`` index Claude Code loads, and the entries past it."""

    path: str
    lines: int
    chars: int
    loaded_lines: int
    past: tuple[tuple[int, str, str], ...]
    """``(line, title, file)`` of each index entry past what is loaded (``file``: ``""`` when it names none)."""

    @property
    def over(self) -> bool:
        return self.loaded_lines < self.lines


def index_gauge(path: str, text: str) -> IndexGauge:
    """What Claude Code loads of the index ``text``: the first :data:`INDEX_LINES` lines, then at most
    :data:`INDEX_CHARS` UTF-16 units cut at a line end; the entries past it (line, title, file)."""
    trimmed = text.strip()
    lines = trimmed.split("\n") if trimmed else []
    kept = lines[:INDEX_LINES]
    joined = "\n".join(kept)
    if _utf16(joined) > INDEX_CHARS:
        used, count = 0, 0
        for line in kept:
            used += _utf16(line) + 1
            if used - 1 > INDEX_CHARS:
                break
            count += 1
        kept = kept[:count]
    offset = len(text) - len(text.lstrip())
    first = text[:offset].count("\n")  # lines before the trimmed text
    past = []
    for n, line in enumerate(lines[len(kept) :], len(kept) + 1 + first):
        entry = _index_entry(line)
        if entry is not None:
            past.append((n, *entry))
    return IndexGauge(path, len(lines), _utf16(trimmed), len(kept), tuple(past))


def _index_entry(line: str) -> tuple[str, str] | None:
    """``(title, file)`` of an index line (``- [Title](file.md) — hook``); ``None`` for a blank or heading."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    link = _LINK.search(text)
    if link is not None:
        return _one_line(link.group(1), 120), link.group(2)
    return _one_line(text.lstrip("-*+ "), 120), ""


def _utf16(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2
