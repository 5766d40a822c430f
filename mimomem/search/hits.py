"""What a search returns, by entry point.

* ``MemoryIndex.search`` -> :class:`SearchResults` of :class:`MemoryHit` (a memory file,
  where it sits, score, snippet): what the memory tool and the CLI show.
* ``DocumentIndex.search`` -> :class:`DocumentHit` (your document id, score, snippet if
  asked): the raw engine over ``(doc_id, text)`` documents.
* ``DocumentIndex.rank`` and a backend's ``rank`` -> :class:`RankedRow` (a cache row and
  its score, no floor and no snippet): the step both searches above are built on.
* :func:`mimomem.memory.search.search` (the one search every front end calls) and
  ``search_everything`` -> :class:`Found`: a memory file or curated memory, where it lives
  (labelled for people), its fused score and the source's own, and a snippet.
* ``BM25Index.search`` -> ``mimomem.text.bm25.Hit`` (document id and score): the
  in-memory index on its own, without the SQLite cache.

Scores are FTS5's ``bm25()`` negated everywhere, so higher is better.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple


class RankedRow(NamedTuple):
    """One row of the search cache as a backend ranked it (``DocumentIndex.rank``).

    ``id`` is the cache's row id (it changes whenever the file does), ``path`` the file
    path or document id, ``scope`` one of ``SCOPES`` (``""`` for plain documents).
    """

    id: int
    path: str
    scope: str
    scope_id: str
    type: str
    score: float


class DocumentHit(NamedTuple):
    """A ``DocumentIndex.search`` result: document id, score (higher is better), optional snippet."""

    doc_id: str
    score: float
    snippet: str | None = None


class MemoryHit(NamedTuple):
    """A ``MemoryIndex.search`` result: the memory file, where it sits, score and snippet.

    ``scope`` is ``global``, ``project``, ``session`` or ``claude-code``; ``scope_id`` the
    project id, session id or Claude Code project slug (``""`` for global); ``type`` the
    file's memory type (``memory``, ``checkpoint``, ``notes``, ``progress``, ``free``, or a
    Claude Code ``type:``).
    """

    path: str
    scope: str
    scope_id: str
    type: str
    score: float
    snippet: str


@dataclass(frozen=True)
class SearchResults:
    """What ``MemoryIndex.search`` returns: its hits best first, and ``hints`` when there are none.

    Iterates, indexes and counts like its ``hits``; ``warnings`` says when the index could
    not be refreshed first (results then come from the last reconcile).
    """

    query: str
    backend: str
    hits: tuple[MemoryHit, ...]
    hints: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def __iter__(self) -> Iterator[MemoryHit]:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, i: int) -> MemoryHit:
        return self.hits[i]

    def __bool__(self) -> bool:
        return bool(self.hits)


@dataclass(frozen=True)
class Found:
    """A hit of the memory search (tree or curated): where the memory lives, why it ranks, a snippet."""

    source: str  # "tree" | "curated"
    path: str
    label: str  # e.g. "project shop-api (MEMORY.md)", "curated project: facts/db-port"
    scope: str
    scope_id: str
    type: str
    score: float  # fused score: comparable within one result list only
    source_score: float  # BM25 (tree) or recall score (curated)
    snippet: str


__all__ = ["DocumentHit", "Found", "MemoryHit", "RankedRow", "SearchResults"]
