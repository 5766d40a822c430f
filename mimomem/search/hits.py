"""What a search returns: one engine-level hit and one memory-level hit, in one result list.

* ``BM25Index.search`` -> ``mimomem.text.bm25.Hit`` (document id and score): the
  in-memory index on its own, without the SQLite cache.
* ``DocumentIndex.search`` -> :class:`DocumentHit` (your document id, score, snippet if
  asked): the raw engine over ``(doc_id, text)`` documents in the SQLite cache.
* Every memory search -> :class:`Results` of :class:`Found` (a memory file or curated
  memory, where it lives, labelled for people, its score and a snippet):
  ``MemoryIndex.search`` (the tree's cache alone) and :func:`mimomem.memory.search.search`
  (the one search every front end calls).
* ``DocumentIndex.rank`` and a backend's ``rank`` -> :class:`RankedRow` (a cache row and
  its score, no floor and no snippet): the step the searches above are built on, not
  something a front end sees.

Scores are FTS5's ``bm25()`` negated everywhere, so higher is better.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from mimomem.search.params import Filters


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


@dataclass(frozen=True)
class Found:
    """A hit of a memory search (tree or curated): where the memory lives, why it ranks, a snippet.

    ``scope`` is ``global``, ``project``, ``session`` or ``claude-code`` (a curated memory:
    ``project`` or ``global``); ``scope_id`` the project id, session id or Claude Code project
    slug (``""`` for global); ``type`` the file's memory type (``memory``, ``checkpoint``,
    ``notes``, ``progress``, ``free``, a Claude Code ``type:``) or a curated memory's category.
    """

    source: str  # "tree" | "curated"
    path: str
    label: str  # e.g. "project shop-api (MEMORY.md)", "curated project: facts/db-port"
    scope: str
    scope_id: str
    type: str
    score: float  # fused score: comparable within one result list only
    source_score: float  # BM25 (tree) or recall score (curated)
    snippet: str


@dataclass(frozen=True)
class Emptied:
    """The filters that emptied a search, and how many matches there are without them (at least)."""

    dropped: tuple[str, ...]
    count: int


@dataclass(frozen=True)
class Results:
    """A memory search's hits best first; when there are none, ``hints`` (and ``emptied_by``) say what to try.

    Iterates, indexes and counts like its ``hits``; ``warnings`` says when the index could
    not be refreshed first (results then come from the last reconcile); ``filters`` are the
    ones the search was narrowed by.
    """

    query: str
    backend: str
    hits: tuple[Found, ...]
    hints: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    filters: Filters = field(default_factory=Filters)
    emptied_by: Emptied | None = None

    def __iter__(self) -> Iterator[Found]:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, i: int) -> Found:
        return self.hits[i]

    def __bool__(self) -> bool:
        return bool(self.hits)


__all__ = ["DocumentHit", "Emptied", "Found", "RankedRow", "Results"]
