"""The one memory search: ``search(where, query, filters)``, called alike by the CLI, the MCP server and the hooks.

It parses the query once and ranks the memory tree, the curated store and the hosts' own memory
together (:mod:`mimomem.memory.fusion`: reciprocal-rank fusion, narrowed to the caller's project
unless the filters widen it) and returns one result type, :class:`~mimomem.search.hits.Results`
of :class:`~mimomem.search.hits.Found`.  An empty result says why: which filter emptied it and
how many matches there are without it (:class:`Emptied`), that only this project was searched,
and the escalation advice.  :func:`explain` words that in a
front end's own spelling (``--scope`` for the CLI, ``scope=`` for MCP).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from mimomem.search.hits import Emptied, Found, Results
from mimomem.search.params import Filters

if TYPE_CHECKING:
    from mimomem.curated.store import CuratedMemory
    from mimomem.search.memory_index import MemoryIndex
    from mimomem.tree.where import Where

__all__ = ["Emptied", "Filters", "Found", "Results", "explain", "search"]


def search(
    where: Where,
    query: str,
    filters: Filters | None = None,
    *,
    limit: int = 10,
    backend: str | None = None,
    index: MemoryIndex | None = None,
    store: CuratedMemory | None = None,
) -> Results:
    """Tree and curated hits for ``query`` under ``filters`` (see the module docstring).

    ``limit`` must be 1..200; ``backend`` names the tree index's backend (its default when None).
    A long-lived caller (the MCP server) passes its open ``index`` and curated ``store``.
    """
    from mimomem.memory.fusion import fuse
    from mimomem.search.memory_index import ESCALATION_HINTS
    from mimomem.text.query import TRUNCATED_HINT, parse_query

    filters = filters if filters is not None else Filters()
    parsed = parse_query(query)  # once: every source and the explanation take this parse
    fused = fuse(where, parsed, filters, limit=limit, backend=backend, index=index, store=store)
    hints = tuple(h for h in fused.hints if h == TRUNCATED_HINT)
    if not fused.hits:
        hints += tuple(line.format(root=where.tree.root) for line in ESCALATION_HINTS)
    return replace(fused, query=query, hints=hints)


def explain(results: Results, spell: Mapping[str, str]) -> list[str]:
    """What to try after an empty search, each filter written as ``spell`` words it (``{"scope": "--scope {}"}``).

    ``spell["all_projects"]`` is how this front end widens the search to every project.
    """
    from mimomem.search.params import MAX_LIMIT

    if results:
        return list(results.hints)
    lines = []
    if results.emptied_by is not None:
        named = results.filters.named()
        gone = results.emptied_by
        given = " ".join(spell.get(name, name + " {}").format(named[name]) for name in gone.dropped)
        there = "is 1 match" if gone.count == 1 else f"are {gone.count}{'+' if gone.count == MAX_LIMIT else ''} matches"
        lines.append(f"no matches with {given} (there {there} without {'it' if len(gone.dropped) == 1 else 'them'})")
    if not results.filters.all_projects:
        lines.append(f"Only this project, its sessions and global memory were searched; add {spell['all_projects']}.")
    return lines + list(results.hints)
