"""Who writes: one identity, built once by a front end and judged whole by the write gate.

The CLI, the MCP server, the hooks and the passes each build a :class:`Writer` (most often with
:meth:`mimomem.tree.where.Where.writer`); the memory floor (:mod:`mimomem.memory.writes`) hands it
to :class:`~mimomem.tree.memory_tree.MemoryTree`, whose every change passes it to the gate
(:func:`mimomem.tree.gate.check_write`).  Nothing here is checked: the gate validates each field
when it judges a write, so a bad name is refused in one place with one message.
"""

# No ``from __future__ import annotations``: typing.NamedTuple would compile each string annotation
# (see mimomem.tree.layout); every hook process builds this class.
import os
from typing import NamedTuple

__all__ = ["Writer"]


class Writer(NamedTuple):
    """The caller of a write: the role it claims (``agent``), its session, project, task and worktree.

    ``delegated``: the host agent's own model worded the text of a pass or checkpoint write
    (:func:`mimomem.tree.agents.delegated`); global memory stays closed to it.
    ``allow_foreign``: may write other sessions' and projects' files (a user's maintenance
    tools, never an agent).  ``author``: who the curated store records (``user`` or ``model``:
    a model's rule becomes a proposal); the tree does not read it.
    """

    agent: str = "main"
    session_id: str | None = None
    project_id: str | None = None
    task_id: str | None = None
    worktree: str | os.PathLike[str] | None = None
    delegated: bool = False
    allow_foreign: bool = False
    author: str = "model"
