"""Search indexes: ``DocumentIndex`` for any (id, text) documents, ``MemoryIndex`` for a tree.

Both store documents in the same SQLite cache (``mimomem.db``) and rank them with the
same three backends (``mimomem.backends``).  ``DocumentIndex`` is the raw engine (the
benchmark harness feeds it BEIR corpora); ``MemoryIndex`` adds what the memory tool
needs on top: reconcile from the files before searching, filters, the relative score
floor, validated limits, snippets and escalation hints when nothing matches.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from . import db
from .backends import BACKENDS, BackendHit, Fts5Backend, NativeScan, check_backend, make_backends
from .errors import MimomemError
from .query import Query, parse_query

DEFAULT_BACKEND = "fts5-bigram"
"""Used when neither the call nor ``MIMOMEM_BACKEND`` names one (see README, Search)."""

BACKEND_ENV = "MIMOMEM_BACKEND"
DEFAULT_LIMIT = 10
MAX_LIMIT = 200
MAX_FETCH = 50
DEFAULT_FLOOR = 0.15
SCOPES = ("global", "projects", "sessions", "cc")


class InvalidLimitError(MimomemError, ValueError):
    """``limit`` is not an integer in the allowed range."""


class InvalidFloorError(MimomemError, ValueError):
    """The relative score floor is not a number between 0 and 1."""


class InvalidScopeError(MimomemError, ValueError):
    """The scope filter is not one of ``SCOPES``."""


class DocumentHit(NamedTuple):
    """A ``DocumentIndex`` result: document id, score (higher is better), optional snippet."""

    doc_id: str
    score: float
    snippet: str | None = None


class MemoryHit(NamedTuple):
    """A ``MemoryIndex`` result: the memory file and where it sits, score and snippet."""

    path: str
    scope: str
    scope_id: str
    type: str
    score: float
    snippet: str


def check_limit(limit: object, *, maximum: int | None = None) -> int:
    """Return ``limit`` if it is an int in ``1..maximum``, else raise ``InvalidLimitError``."""
    top = f"..{maximum}" if maximum is not None else " or more"
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1 or (maximum is not None and limit > maximum):
        raise InvalidLimitError(f"limit must be an integer 1{top}, got {limit!r}")
    return limit


def check_floor(floor: object) -> float:
    """Return ``floor`` as a float in ``[0, 1]`` (0 or None disables it)."""
    if floor is None:
        return 0.0
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0.0 <= float(floor) <= 1.0:
        raise InvalidFloorError(f"floor must be a fraction of the top score between 0 and 1 (0 disables), got {floor!r}")
    return float(floor)


def apply_floor(hits: Sequence[BackendHit], ratio: float, limit: int) -> list[BackendHit]:
    """MiMo's relative floor: keep the top hit and every hit scoring >= ratio * top."""
    if not hits:
        return []
    if ratio <= 0:
        return list(hits[:limit])
    cutoff = hits[0].score * ratio
    return [hits[0], *(h for h in hits[1:] if h.score >= cutoff)][:limit]


def default_backend() -> str:
    """The backend from ``MIMOMEM_BACKEND`` if set (validated), else ``DEFAULT_BACKEND``."""
    name = os.environ.get(BACKEND_ENV, "").strip()
    return check_backend(name) if name else DEFAULT_BACKEND


class DocumentIndex:
    """(doc_id, text) documents in a SQLite cache, searchable with every backend.

    ``db_path=":memory:"`` keeps everything in memory; a file path persists it.  Adding
    a document id again replaces it.  Thread-safe (one lock around the connection).
    """

    def __init__(self, db_path: str | os.PathLike[str] = ":memory:") -> None:
        self.db_path = os.fspath(db_path)
        self._conn = db.connect(self.db_path)
        self._lock = threading.RLock()
        self._backends = make_backends(self._conn)

    # -- lifecycle -------------------------------------------------------------------
    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> DocumentIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The underlying connection (for inspection; write through the methods)."""
        return self._conn

    def backend(self, name: str) -> Fts5Backend | NativeScan:
        """The backend object called ``name``."""
        return self._backends[check_backend(name)]

    # -- writing ---------------------------------------------------------------------
    def add_documents(self, docs: Iterable[tuple[str, str]]) -> int:
        """Add or replace ``(doc_id, text)`` documents in one transaction; returns the count."""
        rows = (db.Row(str(doc_id), "", "", "", text, "") for doc_id, text in docs)
        with self._lock, db.transaction(self._conn):
            return db.put_rows(self._conn, rows)

    def remove_documents(self, doc_ids: Iterable[str]) -> int:
        """Remove documents by id; returns how many existed."""
        with self._lock, db.transaction(self._conn):
            return db.delete_paths(self._conn, (str(d) for d in doc_ids))

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0])

    # -- searching -------------------------------------------------------------------
    def parse(self, query: str | Query, backend: str, *, segment: bool = True, phrases: bool = True) -> Query:
        """The ``Query`` a backend evaluates (unicode61 only looks at the raw text)."""
        if isinstance(query, Query):
            return query
        if not isinstance(query, str):
            raise TypeError(f"query must be str or Query, got {type(query).__name__}")
        if backend == "fts5-unicode61":
            return Query(query, ())
        return parse_query(query, segment=segment, phrases=phrases)

    def rank(
        self,
        query: Query,
        backend: str,
        *,
        limit: int,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
    ) -> list[BackendHit]:
        """The ``limit`` best rows for an already parsed query (no floor, no snippets)."""
        with self._lock:
            return self.backend(backend).search(query, scope=scope, scope_id=scope_id, type=type, limit=limit)

    def snippets(self, query: Query, backend: str, hits: Sequence[BackendHit]) -> list[str]:
        """One snippet per hit, as the backend makes them."""
        with self._lock:
            return self.backend(backend).snippets(query, hits)

    def search(
        self,
        query: str | Query,
        *,
        backend: str,
        limit: int = 100,
        floor: float | None = None,
        segment: bool = True,
        phrases: bool = True,
        snippets: bool = False,
    ) -> list[DocumentHit]:
        """The ``limit`` best documents for ``query`` with ``backend``, best first.

        ``floor`` (a fraction of the top score) drops weak hits; by default the raw
        ranking is returned.  ``segment`` / ``phrases`` go to ``parse_query``
        (``phrases=False, segment=False`` is the naive OR-of-bigrams baseline).
        """
        check_backend(backend)
        check_limit(limit)
        ratio = check_floor(floor)
        parsed = self.parse(query, backend, segment=segment, phrases=phrases)
        hits = apply_floor(self.rank(parsed, backend, limit=limit), ratio, limit)
        texts: list[str | None] = list(self.snippets(parsed, backend, hits)) if snippets else [None] * len(hits)
        return [DocumentHit(h.path, h.score, s) for h, s in zip(hits, texts)]

    def size_bytes(self, backend: str) -> int:
        """Index size for ``backend``: FTS5 tables on disk/in the database, or RAM for native-scan."""
        with self._lock:
            return self.backend(backend).size_bytes()


__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "DocumentHit",
    "DocumentIndex",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidScopeError",
    "MemoryHit",
    "apply_floor",
    "check_limit",
]
