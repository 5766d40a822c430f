"""One search over everything: the memory tree and the curated store, in one ranked list.

The tree is ranked by BM25 over the SQLite cache, the curated store by its own recall
score (BM25 x scope prior x decay x rehearsal); the two scales are not comparable, so the
lists are merged by reciprocal-rank fusion (each hit scores ``sum 1 / (K + rank)``), a
standard, parameter-light way to fuse rankings.  By default only this project, its
sessions and global memory are searched; hits name the project's directory, not only its
id.  Tree files whose match lies only in template boilerplate are dropped.

The filters (:class:`~mimomem.search.params.Filters`) hold for both sources alike: ``scope`` (a curated memory is
``project`` or ``global``), ``scope_id``, ``type`` (a curated memory's category).  An
explicit ``scope_id`` or ``all_projects`` lifts the narrowing to this project, and so does
asking for a scope that belongs to no project (``claude-code``).

The hosts' own memory of this project (Claude Code's auto-memory, Codex's and Gemini CLI's saved
memories: :mod:`mimomem.search.host_hits`) is a third list, scope ``host``; ``MIMOMEM_HOST_MEMORY=0``
leaves it out.

The query comes parsed (:func:`mimomem.memory.search.search` parses it once), and that parse goes to
the three sources, to the check that a tree hit's match is not only boilerplate, and to the wider
search that explains an empty result: no source parses or tokenizes the query again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from mimomem.search.hits import Emptied, Found, Results
from mimomem.search.host_hits import host_hits
from mimomem.search.memory_index import MemoryIndex
from mimomem.search.params import MAX_LIMIT, SEARCH_TYPES, TYPES, Filters, check_limit, check_type
from mimomem.text.query import Query
from mimomem.text.tokens import tokenize
from mimomem.tree.boilerplate import content_only
from mimomem.tree.where import Where, header_cache, session_projects

if TYPE_CHECKING:
    from mimomem.curated.store import CuratedMemory

K = 60
"""Reciprocal-rank fusion constant (Cormack et al., SIGIR 2009 use 60)."""

FETCH = 50
"""Hits asked from each source before scoping and fusion (more when the caller asks for more)."""


def fuse(
    where: Where,
    parsed: Query,
    filters: Filters,
    *,
    limit: int = 10,
    backend: str | None = None,
    index: MemoryIndex | None = None,
    store: CuratedMemory | None = None,
) -> Results:
    """The search of :func:`mimomem.memory.search.search` for a parsed query: the ``limit`` best hits of the
    three sources under ``filters``, and for an empty result the filters that emptied it (``emptied_by``).

    ``limit`` must be 1..``MAX_LIMIT`` (``InvalidLimitError`` otherwise).  A long-lived caller (the MCP
    server) passes its open ``index`` and curated ``store`` to skip reopening them.
    """
    check_limit(limit, maximum=MAX_LIMIT)
    hits, tree = _fused(where, parsed, filters, limit, backend, index, store)
    emptied = None if hits else _emptied_by(where, parsed, filters, backend, index, store)
    if tree is None:
        used = backend or (index.backend_name if index is not None else "")
        return Results(parsed.text, used, hits, filters=filters, emptied_by=emptied)
    return Results(parsed.text, tree.backend, hits, tree.hints, tree.warnings, filters, emptied)


def _fused(
    where: Where,
    parsed: Query,
    filters: Filters,
    limit: int,
    backend: str | None,
    index: MemoryIndex | None,
    store: CuratedMemory | None,
) -> tuple[tuple[Found, ...], Results | None]:
    """The ``limit`` best hits by reciprocal rank, and the tree's own results (None: the tree was not searched)."""
    fetch = max(FETCH, limit)
    tree: list[tuple[Found, str]] = []
    ranked: Results | None = None
    if _tree_type(filters.type):
        tree, ranked = _tree_hits(where, parsed, filters, fetch, backend, index)
    curated = _curated_hits(where, parsed, filters, fetch, store)
    cwd = str(where.worktree) if where.worktree is not None else None
    hosts = host_hits(cwd, parsed, filters, fetch, [text for _, text in (*tree, *curated)])
    fused: dict[str, tuple[float, Found]] = {}
    for source in ([hit for hit, _ in tree], [hit for hit, _ in curated], hosts):
        for rank, hit in enumerate(source, 1):
            score = fused.get(hit.path, (0.0, hit))[0] + 1.0 / (K + rank)
            fused[hit.path] = (score, hit)
    ordered = sorted(fused.values(), key=lambda item: (-item[0], item[1].path))
    return tuple(replace(hit, score=score) for score, hit in ordered[:limit]), ranked


def _emptied_by(
    where: Where,
    parsed: Query,
    filters: Filters,
    backend: str | None,
    index: MemoryIndex | None,
    store: CuratedMemory | None,
) -> Emptied | None:
    """Which filters emptied the result, and how many matches there are without them.

    One search with every filter dropped and every project searched; its hits are then held to
    each smaller set of filters (each given filter dropped on its own first, the others kept, then
    all of them together), as that search would have narrowed them.  The counts are of that one
    search's best ``MAX_LIMIT`` over its relative score floor, so a filter that keeps only weak
    matches beside strong ones elsewhere can read as emptying nothing."""
    given = list(filters.named())
    if not given:
        return None
    widest = Filters(all_projects=True, curated=filters.curated)
    hits = _fused(where, parsed, widest, MAX_LIMIT, backend, index, store)[0]
    owners = session_projects(where.tree) if any(h.scope == "session" for h in hits) else {}
    tries = [(name,) for name in given] + ([tuple(given)] if len(given) > 1 else [])
    for dropped in tries:
        wider = filters.without(dropped)
        found = sum(1 for h in hits if _kept(where, h, wider, owners))
        if found:
            return Emptied(dropped, found)
    return None


def _kept(where: Where, hit: Found, filters: Filters, owners: dict[str, str]) -> bool:
    """Whether the search under ``filters`` keeps ``hit`` (the rules of the sources below, applied afterwards)."""
    wanted = ((filters.scope, hit.scope), (filters.scope_id, hit.scope_id), (filters.type, hit.type))
    if any(asked and asked != have for asked, have in wanted):
        return False
    if hit.source != "tree" or filters.all_projects or filters.scope_id:
        return True
    return of_this_project(where, hit, owners, filters.scope)


def _tree_hits(
    where: Where, parsed: Query, filters: Filters, fetch: int, backend: str | None, index: MemoryIndex | None
) -> tuple[list[tuple[Found, str]], Results | None]:
    """The tree's hits of this project (unless the filters widen it) whose match is not only boilerplate, each
    with the text the index holds for it; and the tree's own results (None: there is no tree)."""
    if not where.tree.root.is_dir():
        return [], None
    own = index is None
    index = index if index is not None else MemoryIndex(where.tree, progress=False)
    try:
        ranked = index.search(
            parsed, backend=backend, scope=filters.scope, scope_id=filters.scope_id, type=filters.type, limit=fetch
        )
        bodies = index.bodies([h.path for h in ranked])  # as ranked: the search reconciled the index first
    finally:
        if own:
            index.close()
    wide = filters.all_projects or bool(filters.scope_id)
    owners = session_projects(where.tree) if not wide and any(h.scope == "session" for h in ranked) else {}
    kept = [h for h in ranked if wide or of_this_project(where, h, owners, filters.scope)]
    return [
        (h, text) for h in kept if (text := bodies.get(h.path)) is not None and _matches_content(text, parsed)
    ], ranked


def _tree_type(type: str | None) -> bool:
    """True when ``type`` is no filter or a tree file's type; False for a curated category; else refused."""
    type = check_type(type, SEARCH_TYPES)
    return type is None or type in TYPES


def of_this_project(where: Where, hit: Found, owners: dict[str, str], asked: str | None) -> bool:
    """Whether a tree hit is this project's (its sessions', global memory's), or of the scope asked for by name
    (``owners``: session id -> its project id, from :func:`mimomem.tree.where.session_projects`)."""
    scope, scope_id = hit.scope, hit.scope_id
    owner = owners.get(scope_id) if scope == "session" else scope_id
    if scope == "global":
        return True
    if scope == "project":
        return scope_id == where.project_id
    if scope == "session":
        return scope_id == where.session_id or owner == where.project_id
    return scope == asked  # a scope of no project (claude-code): only when asked for by name


def _matches_content(text: str, parsed: Query) -> bool:
    """False when the file's real content (boilerplate removed) holds none of the query's terms, a term
    held when all its tokens are (``text``: the file as the index holds it)."""
    have = {t.text for t in tokenize(content_only(text))}
    return any(have.issuperset(term.tokens) for term in parsed.terms) or not parsed.terms


def _curated_hits(
    where: Where, parsed: Query, filters: Filters, fetch: int, store: CuratedMemory | None
) -> list[tuple[Found, str]]:
    """The curated memories recalled for ``parsed`` under ``filters``, each with its text (summary, highlight,
    body: what recall reads)."""
    from mimomem.curated.memory import CURATED_SCOPES
    from mimomem.curated.store import CuratedMemory

    if not filters.curated or (filters.scope and filters.scope not in CURATED_SCOPES):
        return []
    if store is not None:
        recalled = store.recall(parsed, limit=fetch, count_hits=False)
    elif where.worktree is None:
        return []
    else:
        with header_cache(where):
            recalled = CuratedMemory(project_root=where.worktree).recall(parsed, limit=fetch, count_hits=False)
    out = []
    for item in recalled:
        m = item.memory
        scope_id = where.project_id if m.scope == "project" else ""
        if (filters.scope and filters.scope != m.scope) or (filters.type and filters.type != m.category):
            continue
        if filters.scope_id and filters.scope_id != scope_id:
            continue
        body = " ".join(m.body.split())
        snippet = m.summary + (f" — {body[:160]}" if body else "")
        label = f"curated {m.scope}: {m.id}"
        found = Found("curated", str(m.path), label, m.scope, scope_id, m.category, item.score, item.score, snippet)
        out.append((found, m.text))
    return out
