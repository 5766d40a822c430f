"""One writer API for every front end: ``note``, ``write``, ``remember``, ``forget`` (and the curated store's
``accept_rule``, ``reject_rule``, ``import_dir``), each by a :class:`Writer`.

The CLI, the MCP server and the hooks each used to spell the writer out (seven keywords for
the tree's gate, a ``delegated`` flag, an ``author`` for the curated store) and to repeat the
note append.  Here the writer is one object (:class:`mimomem.tree.writer.Writer`, most often
``where.writer(agent)``) handed whole to the tree and its gate, and each write is one function;
the gate, the secret scanner and the curated store's checks run beneath, unchanged.
``note`` and ``write`` go to the tree of ``where``; the others to the curated store (the one
given, else the one of ``by.worktree``).  Accepting a rule proposal is a person's decision: only
a writer whose ``author`` is ``user`` may make it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mimomem.errors import ReservedForRoleError, UsageError
from mimomem.tree.writer import Writer

if TYPE_CHECKING:
    from mimomem.curated.memory import BulkResult, ForgetResult, Memory
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.where import Where

__all__ = [
    "Noted",
    "Writer",
    "Written",
    "accept_rule",
    "forget",
    "import_dir",
    "note",
    "reject_rule",
    "remember",
    "write",
]


@dataclass(frozen=True)
class Noted:
    """Where a note went and its entry number."""

    path: Path
    turn: int


@dataclass(frozen=True)
class Written:
    """What a write changed: the path, whether it appended, and the undo copy a checkpoint rewrite kept."""

    path: Path
    appended: bool
    checkpoint: bool = False
    undo: Path | None = None


def note(where: Where, by: Writer, text: str, *, turn: int | None = None) -> Noted:
    """Append ``text`` to ``by``'s session's notes inbox as entry ``turn`` (the next number when None)."""
    if not text.strip():
        raise UsageError("the note is empty; pass the text to keep")
    if by.session_id is None:
        from mimomem.tree.where import NO_SESSION

        raise UsageError(NO_SESSION)
    path, number = where.tree.append_note(text, by, turn=turn)
    return Noted(Path(path), number)


def write(where: Where, by: Writer, target: str, text: str, *, append: bool = False) -> Written:
    """Replace (or ``append`` to) ``target`` (a layer shortcut or a path, :mod:`mimomem.memory.targets`).

    A whole checkpoint is the checkpoint writer's checked write (the gate first, then
    :func:`mimomem.passes.checkpoint.write_checkpoint`: no filled section dropped or emptied, an
    undo copy kept); everything else goes through the gate as it is.
    """
    from mimomem.memory.targets import resolve_target

    if not text.strip():
        raise UsageError("text is empty; to clear a file write its template headings instead")
    tree = where.tree
    path = resolve_target(where, target)
    if where.session_id is not None and path == str(tree.checkpoint(where.session_id)) and not append:
        return _checkpoint(where, by, where.session_id, text)
    written = tree.append(path, text, by) if append else tree.write(path, text, by)
    return Written(Path(written), append)


def _checkpoint(where: Where, by: Writer, session_id: str, text: str) -> Written:
    from mimomem.passes.checkpoint import write_checkpoint

    tree = where.tree
    tree.check_write(tree.checkpoint(session_id), by)
    written, undo = write_checkpoint(where, session_id, text, delegated=by.delegated)
    return Written(Path(written or tree.checkpoint(session_id)), False, True, undo)


def remember(
    by: Writer,
    category: str,
    summary: str,
    body: str = "",
    *,
    highlight: str = "",
    load_when: Sequence[str] = (),
    pinned: bool = False,
    supersedes: str | None = None,
    scope: str = "project",
    slug: str | None = None,
    store: CuratedMemory | None = None,
) -> Memory:
    """One curated memory, written as ``by.author`` (secrets and near-duplicates refused by the store)."""
    return _store(by, store).remember(
        category,
        summary,
        body,
        author=by.author,
        highlight=highlight,
        load_when=tuple(load_when),
        pinned=pinned,
        supersedes=supersedes,
        scope=scope,
        slug=slug,
    )


def forget(by: Writer, memory_id: str, *, scope: str | None = None, store: CuratedMemory | None = None) -> ForgetResult:
    """Remove one curated memory; the result names memories still linking to it."""
    return _store(by, store).forget(memory_id, scope=scope)


def accept_rule(by: Writer, memory_id: str, *, scope: str | None = None, store: CuratedMemory | None = None) -> Memory:
    """Make the rule proposal ``memory_id`` a hard rule; refused unless ``by.author`` is ``user``."""
    if by.author != "user":
        raise ReservedForRoleError(
            f"only a person accepts a rule proposal ({memory_id}); the user runs `mimomem rules accept {memory_id}`"
        )
    return _store(by, store).accept_rule(memory_id, scope=scope)


def reject_rule(
    by: Writer, memory_id: str, *, scope: str | None = None, store: CuratedMemory | None = None
) -> ForgetResult:
    """Delete the rule proposal ``memory_id`` (anything else is refused by the store)."""
    return _store(by, store).reject_rule(memory_id, scope=scope)


def import_dir(
    by: Writer, directory: str | os.PathLike[str], *, scope: str = "project", store: CuratedMemory | None = None
) -> BulkResult:
    """Import the ``*.md`` notes under ``directory`` as memories written as ``by.author``; refusals are reported."""
    return _store(by, store).import_dir(directory, author=by.author, scope=scope)


def _store(by: Writer, store: CuratedMemory | None) -> CuratedMemory:
    from mimomem.curated.store import CuratedMemory

    return store if store is not None else CuratedMemory(project_root=by.worktree)
