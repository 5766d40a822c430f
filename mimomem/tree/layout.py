"""The shape of the memory tree: scopes, ids, file types, and classifying a path.

Paths relative to the memory root::

    global/MEMORY.md                               type memory
    projects/<pid>/MEMORY.md, memory-<topic>.md    type memory
    sessions/<sid>/checkpoint.md, checkpoint-<t>.md type checkpoint
    sessions/<sid>/notes.md                        type notes
    sessions/<sid>/tasks/<TID>/progress.md         type progress
    sessions/<sid>/tasks/<TID>/notes.md            type notes
    anything else ending in .md under a scope      type free

Type inference follows MiMo-Code's ``paths.ts`` with three deliberate changes:
the session ``notes.md`` is type ``notes`` (MiMo files it as ``free``);
``memory``/``checkpoint`` prefixes count only for a file directly in the scope
directory (not for a sub-directory named ``memory-x/``); and a ``global/`` path has no
id segment, so its key is everything after ``global/``, and task files (``tasks/<TID>/…``)
are recognised only in a session.  ``memory`` is matched
case-insensitively (legacy ``memory.md``), ``checkpoint`` case-sensitively.

Claude Code memory files (``~/.claude/projects/<slug>/memory/<key>.md``) classify as
scope ``cc`` with the slug as scope id; their type comes from YAML frontmatter,
either top-level ``type:`` or nested ``metadata: type:``.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple would turn every string
# annotation into a ForwardRef, whose compile() costs a hook process ~2 ms (the AST types' set-up).

import os
import re
from typing import NamedTuple

from mimomem.errors import InvalidMemoryIdError
from mimomem.tree.safe_ids import is_safe_id
from mimomem.tree.vocabulary import CC_DIR, CC_TYPES, LAYER_DIRS

GLOBAL_ID = "global"
"""The project id used outside any git repository (MiMo-Code's ``ProjectID.global``)."""

TASK_ID_RE = re.compile(r"T[0-9]+(?:\.[0-9]+)*")
"""Task ids: ``T`` + digits, then any number of ``.digits`` groups (``T3``, ``T3.1.2``)."""


_FRONTMATTER_LIMIT = 64 * 1024


class PathClass(NamedTuple):
    """Where a memory file sits: its scope, scope id ("" for global) and inferred type."""

    scope: str
    scope_id: str
    type: str


def check_id(value: str | None, *, kind: str) -> str:
    """Return ``value`` if it is a safe project/session id, else (None too) raise ``InvalidMemoryIdError``."""
    if not is_safe_id(value):
        raise InvalidMemoryIdError(
            f"invalid {kind} id {value!r}: use 1-128 characters from A-Z a-z 0-9 _ . - "
            f"starting with a letter or digit, with no '..'"
        )
    return value


def check_task_id(value: str) -> str:
    """Return ``value`` if it is a task id like ``T3`` or ``T3.1.2``, else raise ``InvalidMemoryIdError``."""
    if not isinstance(value, str) or not TASK_ID_RE.fullmatch(value):
        raise InvalidMemoryIdError(f"invalid task id {value!r}: task ids look like T3 or T3.1.2")
    return value


def infer_type(scope: str, key: str) -> str:
    """The memory type of ``key`` (the path under ``<scope>/<scope_id>/`` without ``.md``)."""
    parts = key.split("/")
    if len(parts) == 1:
        name = parts[0]
        low = name.lower()
        if low == "memory" or low.startswith("memory-"):
            return "memory"
        if name == "checkpoint" or name.startswith("checkpoint-"):
            return "checkpoint"
        if scope == "sessions" and name == "notes":
            return "notes"
    elif scope == "sessions" and len(parts) == 3 and parts[0] == "tasks" and parts[1]:
        if parts[2] == "progress":
            return "progress"
        if parts[2] == "notes":
            return "notes"
    return "free"


def split_memory_path(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> tuple[str, str, str] | None:
    """Split ``path`` into ``(scope, scope_id, key)`` if it is a memory file under ``root``.

    Lexical only (``..`` folded, no filesystem access).  ``None`` when the path is not a
    ``.md`` file in a scope directory, or any component is hidden (starts with ``.``).
    """
    rel = _relative(root, path)
    if rel is None:
        return None
    return _split_parts(rel)


def _relative(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> list[str] | None:
    base = os.path.abspath(os.fspath(root))
    target = os.path.abspath(os.fspath(path))
    if target == base or not target.startswith(base.rstrip(os.sep) + os.sep):
        return None
    return target[len(base.rstrip(os.sep)) + 1 :].split(os.sep)


def _split_parts(parts: list[str]) -> tuple[str, str, str] | None:
    if not parts or parts[0] not in LAYER_DIRS or any(p.startswith(".") or not p for p in parts):
        return None
    if not parts[-1].endswith(".md") or parts[-1] == ".md":
        return None
    if parts[0] == "global":
        rest, scope_id = parts[1:], ""
    else:
        rest, scope_id = parts[2:], parts[1] if len(parts) > 1 else ""
    if not rest:
        return None
    key = "/".join(rest)[: -len(".md")]
    return parts[0], scope_id, key


def _cc_parts(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """``(slug, key)`` for ``…/.claude/projects/<slug>/memory/<key>.md``, else ``None``."""
    parts = os.path.abspath(os.fspath(path)).split(os.sep)
    for i in range(len(parts) - 5, -1, -1):
        if parts[i] == ".claude" and parts[i + 1] == "projects" and parts[i + 3] == "memory":
            slug, rest = parts[i + 2], parts[i + 4 :]
            if not slug or not rest or any(not p or p.startswith(".") for p in rest):
                return None
            if not rest[-1].endswith(".md") or rest[-1] == ".md":
                return None
            return slug, "/".join(rest)[: -len(".md")]
    return None


def cc_frontmatter_type(text: str) -> str | None:
    """The Claude Code memory type named in ``text``'s YAML frontmatter, or ``None``.

    Accepts top-level ``type: feedback`` and nested ``metadata:\\n  type: feedback``
    (top level wins), LF or CRLF line ends, a leading BOM, and a closing ``---`` at
    the very end of the file.  Malformed YAML or an unknown value gives ``None``.
    """
    from mimomem.common import frontmatter  # YAML: only when a file is classified, never on import

    head = text[:_FRONTMATTER_LIMIT].lstrip("\ufeff")
    if head.split("\n", 1)[0].rstrip("\r") != frontmatter.FENCE:  # the opening fence exactly, no trailing blanks
        return None
    doc = frontmatter.parse(head)
    if doc.problem is not None:  # unclosed, invalid YAML or not a mapping
        return None
    data = doc.meta
    candidates = [data.get("type")]
    meta = data.get("metadata")
    if isinstance(meta, dict):
        candidates.append(meta.get("type"))
    for value in candidates:
        if isinstance(value, str) and value.strip().lower() in CC_TYPES:
            return value.strip().lower()
    return None


def classify_path(
    root: str | os.PathLike[str], path: str | os.PathLike[str], *, text: str | None = None
) -> PathClass | None:
    """Infer ``(scope, scope_id, type)`` for ``path``; ``None`` if it is not a memory file.

    Paths under ``root`` use the memory-tree rules above.  Claude Code memory files
    anywhere get scope ``cc``; their type is read from ``text`` (or, when ``text`` is
    ``None``, from the file's first 64 KiB; unreadable files count as ``free``).
    """
    split = split_memory_path(root, path)
    if split is None:
        # The root may be reached through a symlink (e.g. /tmp vs /private/tmp).
        real_root, real_path = os.path.realpath(root), os.path.realpath(path)
        if (real_root, real_path) != (os.path.abspath(root), os.path.abspath(path)):
            split = split_memory_path(real_root, real_path)
    if split is not None:
        scope, scope_id, key = split
        return PathClass(scope, scope_id, infer_type(scope, key))
    cc = _cc_parts(path)
    if cc is None:
        return None
    if text is None:
        text = _read_head(path)
    return PathClass(CC_DIR, cc[0], cc_frontmatter_type(text) or "free")


def _read_head(path: str | os.PathLike[str]) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(_FRONTMATTER_LIMIT).decode("utf-8", errors="replace")
    except OSError:
        return ""


__all__ = [
    "GLOBAL_ID",
    "TASK_ID_RE",
    "PathClass",
    "cc_frontmatter_type",
    "check_id",
    "check_task_id",
    "classify_path",
    "infer_type",
    "split_memory_path",
]
