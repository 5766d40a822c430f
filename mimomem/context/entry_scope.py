"""The entries a prompt is recalled from: the memory files in its scope, read through the entry cache.

The scope (see :mod:`mimomem.served.entry_recall`, which scores the entries): the project's memory
but its ``memory-history.md`` (superseded values are history, never current), global memory, every
session of the project, and the hosts' own memory files of the project (:mod:`mimomem.context.host_memory`).
This is the slow side: it walks the tree and reads files, once per plan; a served prompt scores the
index the plan keeps.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from mimomem.context.stale import HISTORY_FILE
from mimomem.served.entry_recall import MAX_ENTRIES, entries_text
from mimomem.served.prompt_terms import query_terms

if TYPE_CHECKING:
    from mimomem.served.entry_index import EntryIndex
    from mimomem.tree.where import Where

MAX_FILES = 2000
"""Memory files in a prompt's scope at most."""


def recall_files(where: Where) -> list[str]:
    """The memory files in this prompt's scope (see the module docstring), at most :data:`MAX_FILES`.

    Plain strings, not ``Path`` objects: the prompt hook lists a few hundred files per prompt.
    """
    out: list[str] = []
    join = os.path.join
    for top in recall_dirs(where):
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.endswith(".md") and not name.startswith(".") and name != HISTORY_FILE:
                    out.append(join(dirpath, name))
                    if len(out) >= MAX_FILES:
                        return out
    return out


def recall_dirs(where: Where) -> list[str]:
    """The directories whose memory files are in this prompt's scope: the project's, global memory,
    and every session of the project (this one included)."""
    from mimomem.tree.where import session_projects

    tree = where.tree
    dirs = [tree.project_dir(where.project_id), tree.root / "global"]
    owners = session_projects(tree)
    sids = sorted(sid for sid, pid in owners.items() if pid == where.project_id)
    if where.session_id is not None and where.session_id not in sids:
        sids.append(where.session_id)
    dirs += [tree.session_dir(sid) for sid in sids]
    return [str(d) for d in dirs]


def load_entries(where: Where, cwd: str | None = None) -> EntryIndex:
    """Every entry in scope with its words (paths relative to the memory root), through the cache;
    then the host memory files of ``cwd``'s project (default: the worktree), by their absolute path
    (:mod:`mimomem.context.host_memory`).  A sentence restating a value the project's ``memory-history.md``
    holds as superseded is shown as what superseded it (:mod:`mimomem.context.stale`)."""
    from mimomem.context.entry_cache import load_index
    from mimomem.context.host_memory import recall_files as host_files

    hosts = host_files(host_cwd(where, cwd))
    history = os.path.join(where.tree.project_dir(where.project_id), HISTORY_FILE)
    return load_index([*recall_files(where), *hosts], where.tree.root, where.tree.data_dir, hosts, history)


def host_cwd(where: Where, cwd: str | None) -> str | None:
    """The directory a host keys ``where``'s project memory by: ``cwd`` when given, else the worktree."""
    if cwd is not None:
        return cwd
    return str(where.worktree) if where.worktree is not None else None


def recall_text(where: Where, prompt: str, *, limit: int = MAX_ENTRIES, cwd: str | None = None) -> str:
    """The entries relevant to ``prompt`` as a Markdown block, ``""`` when none passes the gate."""
    if not query_terms(prompt[:2000]):
        return ""  # nothing to look for: the entries are not even loaded
    return entries_text(load_entries(where, cwd), prompt, limit=limit)
