"""One search over everything: the memory tree and the curated store, in one ranked list.

The tree is ranked by BM25 over the SQLite cache, the curated store by its own recall
score (BM25 x scope prior x decay x rehearsal); the two scales are not comparable, so the
lists are merged by reciprocal-rank fusion (each hit scores ``sum 1 / (K + rank)``), a
standard, parameter-light way to fuse rankings.  By default only this project, its
sessions and global memory are searched; hits name the project's directory, not only its
id.  Tree files whose match lies only in template boilerplate are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mimomem.search.memory_index import MemoryIndex
from mimomem.search.params import MAX_LIMIT, check_limit
from mimomem.text.tokens import tokenize
from mimomem.tree.boilerplate import content_only
from mimomem.tree.where import Where, header_cache, project_names, session_projects

if TYPE_CHECKING:
    from mimomem.curated.store import CuratedMemory

K = 60
"""Reciprocal-rank fusion constant (Cormack et al., SIGIR 2009 use 60)."""

FETCH = 50
"""Hits asked from each source before scoping and fusion."""


@dataclass(frozen=True)
class Found:
    """A hit of :func:`search_everything`: where the memory lives, why it ranks, a snippet."""

    source: str  # "tree" | "curated"
    path: str
    label: str  # e.g. "project shop-api (MEMORY.md)", "curated project: facts/db-port"
    scope: str
    scope_id: str
    type: str
    score: float  # fused score: comparable within one result list only
    source_score: float  # BM25 (tree) or recall score (curated)
    snippet: str


def search_everything(
    where: Where,
    query: str,
    *,
    limit: int = 10,
    all_projects: bool = False,
    curated: bool = True,
    index: MemoryIndex | None = None,
    store: CuratedMemory | None = None,
) -> list[Found]:
    """Tree and curated hits for ``query``, fused and scoped (see the module docstring).

    ``limit`` must be 1..``MAX_LIMIT`` (``InvalidLimitError`` otherwise).  A long-lived caller
    (the MCP server) passes its open ``index`` and curated ``store`` to skip reopening them.
    """
    check_limit(limit, maximum=MAX_LIMIT)
    tree_hits = _tree_hits(where, query, all_projects, index)
    curated_hits = _curated_hits(where, query, store) if curated else []
    fused: dict[str, tuple[float, Found]] = {}
    for ranked in (tree_hits, curated_hits):
        for rank, hit in enumerate(ranked, 1):
            score = fused.get(hit.path, (0.0, hit))[0] + 1.0 / (K + rank)
            fused[hit.path] = (score, hit)
    ordered = sorted(fused.values(), key=lambda item: (-item[0], item[1].path))
    return [_with_score(hit, score) for score, hit in ordered[:limit]]


def _with_score(hit: Found, score: float) -> Found:
    return Found(
        hit.source, hit.path, hit.label, hit.scope, hit.scope_id, hit.type, score, hit.source_score, hit.snippet
    )


def _tree_hits(where: Where, query: str, all_projects: bool, index: MemoryIndex | None) -> list[Found]:
    if not where.tree.root.is_dir():
        return []
    own = index is None
    index = index if index is not None else MemoryIndex(where.tree, progress=False)
    try:
        hits = index.search(query, limit=FETCH)
    finally:
        if own:
            index.close()
    names = project_names(where.tree)
    owners = session_projects(where.tree)
    terms = {t.text for t in tokenize(query)}
    out = []
    for h in hits:
        owner = owners.get(h.scope_id) if h.scope == "session" else h.scope_id
        if not all_projects and not _in_scope(where, h.scope, h.scope_id, owner):
            continue
        if not _matches_content(h.path, terms):
            continue
        label = _label(h.scope, h.scope_id, names, owner) + f" ({Path(h.path).name})"
        out.append(Found("tree", h.path, label, h.scope, h.scope_id, h.type, h.score, h.score, h.snippet))
    return out


def _in_scope(where: Where, scope: str, scope_id: str, owner: str | None) -> bool:
    if scope == "global":
        return True
    if scope == "project":
        return scope_id == where.project_id
    if scope == "session":
        return scope_id == where.session_id or owner == where.project_id
    return False


def _matches_content(path: str, terms: set[str]) -> bool:
    """False when the file's real content (boilerplate removed) holds none of the query's terms."""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    have = {t.text for t in tokenize(content_only(text))}
    return bool(terms & have) or not terms


def _label(scope: str, scope_id: str, names: dict[str, str], owner: str | None) -> str:
    if scope == "project":
        return f"project {names.get(scope_id, scope_id)}"
    if scope == "session":
        project = names.get(owner or "", "")
        return f"session {scope_id}" + (f" of {project}" if project else "")
    if scope == "global":
        return "global"
    return f"{scope} {scope_id}".strip()


def _curated_hits(where: Where, query: str, store: CuratedMemory | None) -> list[Found]:
    from mimomem.curated.store import CuratedMemory

    if store is not None:
        recalled = store.recall(query, limit=FETCH, count_hits=False)
    elif where.worktree is None:
        return []
    else:
        with header_cache(where):
            recalled = CuratedMemory(project_root=where.worktree).recall(query, limit=FETCH, count_hits=False)
    out = []
    for item in recalled:
        m = item.memory
        body = " ".join(m.body.split())
        snippet = m.summary + (f" — {body[:160]}" if body else "")
        label = f"curated {m.scope}: {m.id}"
        scope_id = where.project_id if m.scope == "project" else ""
        out.append(Found("curated", str(m.path), label, m.scope, scope_id, m.category, item.score, item.score, snippet))
    return out
