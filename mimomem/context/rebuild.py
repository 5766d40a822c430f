"""The rebuild context: the session's own memory, read back at session start (layer L1).

MiMo-Code's ``renderRebuildContext`` order - tasks ledger, checkpoint, recent user input,
project memory, (here: the project's recent sessions in brief, written by promotion),
global memory, session notes, memory keys index - with its gaps closed:
a session with only notes is not empty; notes are not listed twice; template
boilerplate is not injected; the caps are shares of one total budget (MiMo's add up to
~50k tokens) and every cut says what was left out and where to read it.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple would turn every string
# annotation into a ForwardRef, whose compile() costs a hook process ~2 ms (the AST types' set-up).

import os
import re
from collections.abc import Sequence
from pathlib import Path

from mimomem.common.nofollow import open_regular_nofollow
from mimomem.context.compact import compact_memory, drop_repeats
from mimomem.served.fitting import Block
from mimomem.served.session import fit_blocks
from mimomem.tree.boilerplate import content_only
from mimomem.tree.templates import parse_notes
from mimomem.tree.where import Where

MAX_FILE_BYTES = 4 * 1024 * 1024
"""A memory file larger than this is not read into context (its path is listed instead)."""


def rebuild_blocks(where: Where, budget: int, *, recent_user: Sequence[str] = ()) -> list[Block]:
    """The rebuild context as blocks within ``budget`` tokens in total ([] when empty).

    ``recent_user`` are the session's latest user messages, oldest first (a hook reads
    them from the transcript); they are kept newest first within their share.
    """
    return fit_blocks(raw_blocks(where, recent_user), budget)


def raw_blocks(where: Where, recent_user: Sequence[str] = ()) -> list[tuple[str, str, str, bool]]:
    """The rebuild blocks before fitting (:data:`~mimomem.served.session.Raw`), in order."""
    return [
        (name, text, source, sectioned) for name, (text, source, sectioned) in _raw_blocks(where, recent_user).items()
    ]


def _raw_blocks(where: Where, recent_user: Sequence[str]) -> dict[str, tuple[str, str, bool]]:
    """name -> (full text, where to read it, section-aware?) for every non-empty block."""
    tree = where.tree
    out: dict[str, tuple[str, str, bool]] = {}
    briefs = tree.project_topic(where.project_id, "sessions")
    pushed: list[Path] = [tree.project_memory(where.project_id), briefs, tree.global_memory()]
    if where.session_id is not None:
        sid = where.session_id
        pushed += [tree.checkpoint(sid), tree.notes(sid)]
        ledger = tasks_ledger(tree.tasks_dir(sid))
        if ledger:
            out["tasks"] = (ledger, str(tree.tasks_dir(sid)), False)
        _add_file(out, "checkpoint", tree.checkpoint(sid), sectioned=True)
    recent = _recent(recent_user)
    if recent:
        out["recent"] = (recent, "the conversation history", False)
    _add_file(out, "project", tree.project_memory(where.project_id), sectioned=True)
    _add_file(out, "sessions", briefs, sectioned=True)
    _add_file(out, "global", tree.global_memory(), sectioned=True)
    _densify(out)
    if where.session_id is not None:
        notes = notes_text(tree.notes(where.session_id))
        if notes:
            out["notes"] = (notes, str(tree.notes(where.session_id)), False)
    keys = keys_index(where, exclude=pushed)
    if keys and out:  # an index alone is not memory worth a block
        out["keys"] = (keys, str(tree.root), False)
    return out


def _add_file(out: dict[str, tuple[str, str, bool]], name: str, path: Path, *, sectioned: bool) -> None:
    text = read_memory_file(path)
    body = content_only(text) if text else ""
    if body:
        out[name] = (body, str(path), sectioned)


def _densify(out: dict[str, tuple[str, str, bool]]) -> None:
    """Memory blocks in fewer tokens (:mod:`mimomem.context.compact`): briefs without what project memory says."""
    if "sessions" in out and "project" in out:
        text, source, sectioned = out["sessions"]
        out["sessions"] = (drop_repeats(text, out["project"][0]), source, sectioned)
    for name in ("project", "sessions", "global"):
        if name in out:
            text, source, sectioned = out[name]
            out[name] = (compact_memory(text, source), source, sectioned)


def read_memory_file(path: str | Path) -> str:
    """The text of a memory file, or ``""`` if missing, not a regular file, too big or unreadable."""
    try:
        fd, st = open_regular_nofollow(path)
    except OSError:
        return ""
    try:
        if st.st_size > MAX_FILE_BYTES:
            return ""
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    return data.decode("utf-8", errors="replace").replace("\r\n", "\n")


def notes_text(path: Path) -> str:
    """The notes inbox entries (without the template header); ``""`` when there are none."""
    text = read_memory_file(path)
    entries = parse_notes(text)
    if not entries:
        rest = content_only(text)
        return rest
    return "\n".join(f"## [turn {e.turn} · {e.when}]\n{e.body.strip()}\n" for e in entries if e.body.strip())


_OUTCOME = re.compile(r"^- Outcome \(success/partial/failed\):\s*(\S.*)?$", re.M)
_STATUS_WORDS = ("success", "partial", "failed", "blocked")


def tasks_ledger(tasks_dir: Path) -> str:
    """One line per task journal under ``tasks_dir``: id, status and first real line."""
    try:
        names = sorted(p.name for p in tasks_dir.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return ""
    lines = []
    for tid in names:
        text = read_memory_file(tasks_dir / tid / "progress.md")
        lines.append(f"- {tid} {_task_status(text)} (progress: tasks/{tid}/progress.md)")
    return "\n".join(lines) + ("\n" if lines else "")


def _task_status(text: str) -> str:
    if not text:
        return "open"
    found = _OUTCOME.search(text)
    outcome = (found.group(1) or "").strip().lower() if found else ""
    for word in _STATUS_WORDS:
        if outcome.startswith(word):
            return word
    return "in progress"


def _recent(messages: Sequence[str]) -> str:
    """User messages, newest first within the block, each as a quote."""
    kept = [m.strip() for m in messages if m and m.strip()]
    return "\n\n".join("> " + m.replace("\n", "\n> ") for m in reversed(kept))


def keys_index(where: Where, *, exclude: Sequence[Path]) -> str:
    """Memory files of this session, project and global scope, relative to the root, sorted."""
    tree = where.tree
    dirs = [tree.root / "global", tree.project_dir(where.project_id)]
    if where.session_id is not None:
        dirs.append(tree.session_dir(where.session_id))
    skip = {str(p) for p in exclude}
    root = os.path.join(tree.root, "")  # every walked path starts with it: cut it off, no os.path.relpath
    found = [path[len(root) :] for top in dirs for path in _md_files(top) if path not in skip]
    return "".join(f"- {rel}\n" for rel in sorted(found))


def _md_files(top: Path, limit: int = 2000) -> list[str]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".md") and not name.startswith("."):
                out.append(os.path.join(dirpath, name))
                if len(out) >= limit:
                    return out
    return out
