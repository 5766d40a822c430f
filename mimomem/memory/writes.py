"""One writer API for every front end: ``note``, ``write``, ``remember``, ``forget``, each by a :class:`Writer`.

The CLI, the MCP server and the hooks each used to spell the writer out (seven keywords for
the tree's gate, a ``delegated`` flag, an ``author`` for the curated store) and to repeat the
note append.  Here the writer is one object and each write is one function; the gate, the
secret scanner and the curated store's checks run beneath, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mimomem.errors import UsageError

if TYPE_CHECKING:
    from mimomem.curated.memory import ForgetResult, Memory
    from mimomem.curated.store import CuratedMemory
    from mimomem.tree.where import Where

__all__ = ["Noted", "Writer", "Written", "forget", "note", "remember", "write"]


@dataclass(frozen=True)
class Writer:
    """Who writes: the caller's place, the role it claims (``agent``), its task, and who worded the text.

    ``delegated`` is True when the host agent's model worded a pass or checkpoint write
    (:func:`mimomem.tree.agents.delegated`); ``author`` is the curated store's author
    (``user`` or ``model``: a model's rule becomes a proposal).
    """

    where: Where
    agent: str = "main"
    task_id: str | None = None
    delegated: bool = False
    author: str = "model"

    def keywords(self) -> dict[str, Any]:
        """This writer as the tree's write gate takes it (``MemoryTree.write(..., **writer.keywords())``)."""
        return self.where.who(self.agent, task_id=self.task_id) | {"delegated": self.delegated}


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


def note(by: Writer, text: str, *, turn: int | None = None) -> Noted:
    """Append ``text`` to the session's notes inbox as entry ``turn`` (the next number when None)."""
    if not text.strip():
        raise UsageError("the note is empty; pass the text to keep")
    if by.where.session_id is None:
        raise UsageError("no session: pass --session SID or set MIMOMEM_SESSION")
    path, number = by.where.tree.append_note(text, turn=turn, **by.keywords())
    return Noted(Path(path), number)


def write(by: Writer, target: str, text: str, *, append: bool = False) -> Written:
    """Replace (or ``append`` to) ``target`` (a layer shortcut or a path, :mod:`mimomem.memory.targets`).

    A whole checkpoint is the checkpoint writer's checked write (the gate first, then
    :func:`mimomem.passes.checkpoint.write_checkpoint`: no filled section dropped or emptied, an
    undo copy kept); everything else goes through the gate as it is.
    """
    from mimomem.memory.targets import resolve_target

    if not text.strip():
        raise UsageError("text is empty; to clear a file write its template headings instead")
    where, tree = by.where, by.where.tree
    path = resolve_target(where, target)
    if where.session_id is not None and path == str(tree.checkpoint(where.session_id)) and not append:
        return _checkpoint(by, where.session_id, text)
    written = tree.append(path, text, **by.keywords()) if append else tree.write(path, text, **by.keywords())
    return Written(Path(written), append)


def _checkpoint(by: Writer, session_id: str, text: str) -> Written:
    from mimomem.passes.checkpoint import write_checkpoint

    tree = by.where.tree
    tree.check_write(tree.checkpoint(session_id), **by.keywords())
    written, undo = write_checkpoint(by.where, session_id, text, delegated=by.delegated)
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


def _store(by: Writer, store: CuratedMemory | None) -> CuratedMemory:
    from mimomem.curated.store import CuratedMemory

    return store if store is not None else CuratedMemory(project_root=by.where.worktree)
