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
import stat
from collections.abc import Sequence
from pathlib import Path

from mimomem.context.budgeted import Budgeted, read_budgeted, read_section_aware
from mimomem.context.compact import compact_memory, drop_repeats
from mimomem.context.estimate import estimate_tokens
from mimomem.context.fitting import Block
from mimomem.tree.boilerplate import content_only
from mimomem.tree.templates import parse_notes
from mimomem.tree.where import Where

CAPS: dict[str, int] = {
    "tasks": 500,
    "checkpoint": 11000,
    "recent": 16000,
    "project": 10000,
    "sessions": 4000,
    "global": 6000,
    "notes": 6000,
    "keys": 500,
}
"""MiMo-Code's per-block caps in tokens (its ``push_caps``); used as relative shares."""

MAX_FILE_BYTES = 4 * 1024 * 1024
"""A memory file larger than this is not read into context (its path is listed instead)."""


def rebuild_blocks(where: Where, budget: int, *, recent_user: Sequence[str] = ()) -> list[Block]:
    """The rebuild context as blocks within ``budget`` tokens in total ([] when empty).

    ``recent_user`` are the session's latest user messages, oldest first (a hook reads
    them from the transcript); they are kept newest first within their share.
    """
    raw = _raw_blocks(where, recent_user)
    if not raw:
        return []
    sizes = {name: estimate_tokens(f"## {_TITLES[name]}\n" + text) for name, (text, _, _) in raw.items()}
    shares = allocate(sizes, budget)
    out: list[Block] = []
    for name, (text, source, sectioned) in raw.items():
        cut = _fit(name, text, shares[name], source, sectioned)
        if cut.text.strip():
            out.append(Block(name, cut.text, cut.tokens, cut.total_tokens, cut.truncated, source))
        else:
            out.append(Block(name, "", 0, cut.total_tokens, True, source))
    return out


def allocate(sizes: dict[str, int], budget: int) -> dict[str, int]:
    """Split ``budget`` over blocks: small blocks get all they need, big ones share the rest.

    Water-filling weighted by ``CAPS``: a block never gets more than its size, and the
    shares add up to at most ``budget``.
    """
    shares = dict.fromkeys(sizes, 0)
    left = dict(sizes)
    room = max(0, budget)
    while left and room > 0:
        weight = sum(CAPS.get(name, 1000) for name in left)
        fair = {name: room * CAPS.get(name, 1000) // weight for name in left}
        small = [name for name in left if left[name] <= fair[name]]
        if not small:
            for name in left:
                shares[name] += fair[name]
            break
        for name in small:
            shares[name] += left[name]
            room -= left[name]
            del left[name]
    return shares


def _fit(name: str, text: str, budget: int, source: str, sectioned: bool) -> Budgeted:
    heading = f"## {_TITLES[name]}\n"
    room = budget - estimate_tokens(heading)
    if room <= 0:
        return Budgeted("", 0, estimate_tokens(text), True)
    reader = read_section_aware if sectioned else read_budgeted
    cut = reader(text, room, source=source)
    if not cut.text.strip():
        return Budgeted("", 0, cut.total_tokens, True)
    body = heading + nest_headings(cut.text)
    return Budgeted(body, estimate_tokens(body), cut.total_tokens, cut.truncated)


def nest_headings(text: str) -> str:
    """The file's text under a block heading: its own ``# Title`` dropped, other headings one level down.

    Keeps the injected context a well-formed outline (``## Project memory`` then ``### Rules``)
    instead of repeating the title and restarting at ``##`` inside every block.
    """
    lines = text.split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
        while lines and not lines[0].strip():
            lines = lines[1:]
    return "\n".join(
        "#" + line if line.startswith("#") and line.lstrip("#").startswith(" ") else line for line in lines
    )


_TITLES = {
    "tasks": "Tasks ledger",
    "checkpoint": "Session checkpoint",
    "recent": "Recent user input (verbatim)",
    "project": "Project memory",
    "sessions": "Recent sessions of this project",
    "global": "Global memory",
    "notes": "Session notes",
    "keys": "Memory keys index",
}


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
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return ""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
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
