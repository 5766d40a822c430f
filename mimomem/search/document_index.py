"""``DocumentIndex``: (doc_id, text) documents in the SQLite cache, ranked by any backend.

The raw engine under ``MemoryIndex`` (which adds reconcile, filters, the relative floor
and hints); the benchmark harness feeds it BEIR corpora directly.  Ranking is
:meth:`DocumentIndex.rank` (a backend's rows, optionally widened by the synonym
glossary); :meth:`DocumentIndex.search` adds validation, the floor and snippets.

Any query answers in milliseconds: ``parse_query`` caps the text and the terms, and
``fts5-unicode61`` (which reads the raw text, MiMo-Code's way) gets at most ``MAX_TERMS``
distinct words once a query has more words than that (``Query.truncated`` is then set).
A damaged database raises ``CorruptDatabaseError`` (see ``mimomem.search.db``).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence

import regex

from mimomem.search import db
from mimomem.search.backends import Backend, make_backends
from mimomem.search.hits import DocumentHit, RankedRow
from mimomem.search.params import (
    apply_floor,
    check_backend,
    check_floor,
    check_limit,
    check_scope,
    check_type,
    stored_scope,
)
from mimomem.search.rerank import Retrieval, rank_with_options, resolve
from mimomem.search.rows import Row, delete_paths, put_rows
from mimomem.text.query import MAX_TERMS, Query, clip_query_text, parse_query
from mimomem.text.synonyms import DEFAULT_WEIGHT, Glossary

_MIMO_WORD = regex.compile(r"[\p{L}\p{N}_]+")
"""The words ``backends.mimo_fts_query`` quotes for ``fts5-unicode61`` (MiMo-Code's rule)."""


def mimo_query(text: str) -> Query:
    """The ``Query`` ``fts5-unicode61`` evaluates: the user's text, capped.

    Up to ``MAX_TERMS`` words the text is kept as given (MiMo-Code's scores, repeated
    words included); past that, or past ``MAX_QUERY_CHARS``, only the first ``MAX_TERMS``
    distinct words are kept and the query is marked ``truncated``.
    """
    head, clipped = clip_query_text(text)
    words = _MIMO_WORD.findall(head)
    if not clipped and len(words) <= MAX_TERMS:
        return Query(text, ())
    return Query(" ".join(list(dict.fromkeys(words))[:MAX_TERMS]), (), True)


class DocumentIndex:
    """(doc_id, text) documents in a SQLite cache, searchable with every backend.

    ``db_path=":memory:"`` keeps everything in memory; a file path persists it.  Adding
    a document id again replaces it.  Thread-safe (one lock around the connection).
    """

    def __init__(self, db_path: str | os.PathLike[str] = ":memory:", *, glossary: Glossary | None = None) -> None:
        self.db_path = os.fspath(db_path)
        self._conn = db.connect(self.db_path)
        self._lock = threading.RLock()
        self._backends = make_backends(self._conn)
        self._glossary = glossary

    @property
    def glossary(self) -> Glossary:
        """Synonym groups used by ``expand=True`` (the shipped glossary unless one was given)."""
        if self._glossary is None:
            self._glossary = Glossary.load()
        return self._glossary

    # -- lifecycle -------------------------------------------------------------------
    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._conn.close()

    def __del__(self) -> None:
        # An index dropped without close() still releases its database (no ResourceWarning).
        conn = getattr(self, "_conn", None)
        if conn is not None:
            with contextlib.suppress(Exception):  # pragma: no cover - interpreter shutdown
                conn.close()

    def __enter__(self) -> DocumentIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The underlying connection (for inspection; write through the methods)."""
        return self._conn

    def backend(self, name: str) -> Backend:
        """The backend object called ``name`` (an old name gives the new one, with a warning)."""
        return self._backends[check_backend(name)]

    # -- writing ---------------------------------------------------------------------
    def add_documents(self, docs: Iterable[tuple[str, str]]) -> int:
        """Add or replace ``(doc_id, text)`` documents in one transaction; returns the count."""
        rows = (Row(str(doc_id), "", "", "", text, "") for doc_id, text in docs)
        with self._lock, db.reporting_corruption(self._conn), db.transaction(self._conn):
            return put_rows(self._conn, rows)

    def remove_documents(self, doc_ids: Iterable[str]) -> int:
        """Remove documents by id; returns how many existed."""
        with self._lock, db.reporting_corruption(self._conn), db.transaction(self._conn):
            return delete_paths(self._conn, (str(d) for d in doc_ids))

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0])

    # -- searching -------------------------------------------------------------------
    def parse(
        self, query: str | Query, backend: str, *, segment: bool | None = None, phrases: bool | None = None
    ) -> Query:
        """The ``Query`` a backend evaluates (unicode61 only looks at the raw text).

        ``segment`` / ``phrases`` go to ``parse_query`` when given; None keeps its defaults.  A ``Query``
        is evaluated as given, except by ``fts5-unicode61``: it reads the words of the text that was
        parsed (``mimo_query`` of ``Query.text``, the text up to ``MAX_QUERY_CHARS``).
        """
        if isinstance(query, Query):
            return mimo_query(query.text) if backend == "fts5-unicode61" else query
        if not isinstance(query, str):
            raise TypeError(f"query must be str or Query, got {type(query).__name__}")
        if backend == "fts5-unicode61":
            return mimo_query(query)
        options = {k: v for k, v in (("segment", segment), ("phrases", phrases)) if v is not None}
        return parse_query(query, **options)

    def rank(
        self,
        query: Query,
        backend: str,
        *,
        limit: int,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
    ) -> list[RankedRow]:
        """The ``limit`` best rows for an already parsed query (no floor, no snippets).

        ``scope`` is one of ``SCOPES`` (an old name gives the new one, with a warning) and
        ``type`` one of ``TYPES`` (else ``InvalidTypeError``); empty filters are ignored.
        """
        backend = check_backend(backend)
        scope = check_scope(scope)
        type = check_type(type)
        with self._lock, db.reporting_corruption(self._conn):
            return self._backends[backend].rank(query, scope=scope, scope_id=scope_id, type=type, limit=limit)

    def rank_expanded(
        self,
        query: Query,
        backend: str,
        *,
        limit: int,
        weight: float = DEFAULT_WEIGHT,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
    ) -> tuple[list[RankedRow], Query]:
        """Rank ``query`` plus its glossary expansion, expanded terms scaled by ``weight``.

        BM25 sums per phrase, so the score is ``bm25(user terms) + weight * bm25(expanded
        terms)``, computed from the two rankings over a pool of ``max(4 * limit, 100)``
        documents each (exact for documents inside both pools).  Returns the hits and the
        query whose phrases the snippets should mark.  ``fts5-unicode61`` is never expanded.
        """
        backend = check_backend(backend)
        scope = check_scope(scope)
        extra = self.glossary.expand(query) if backend != "fts5-unicode61" else Query(query.text, (), query.truncated)
        if not extra.terms:
            return self.rank(query, backend, limit=limit, scope=scope, scope_id=scope_id, type=type), query
        pool = max(4 * limit, 100)
        filters = {"scope": scope, "scope_id": scope_id, "type": type}
        base = self.rank(query, backend, limit=pool, **filters)
        more = self.rank(extra, backend, limit=pool, **filters)
        rows = {h.id: h for h in more}
        rows.update((h.id, h) for h in base)
        scores = {h.id: h.score for h in base}
        for h in more:
            scores[h.id] = scores.get(h.id, 0.0) + weight * h.score
        ranked = sorted(rows.values(), key=lambda h: (-scores[h.id], h.path))[:limit]
        combined = Query(query.text, query.terms + extra.terms, query.truncated)
        return [h._replace(score=scores[h.id]) for h in ranked], combined

    def snippets(self, query: Query, backend: str, hits: Sequence[RankedRow]) -> list[str]:
        """One snippet per hit, as the backend makes them."""
        with self._lock, db.reporting_corruption(self._conn):
            return self.backend(backend).snippets(query, hits)

    def search(
        self,
        query: str | Query,
        *,
        backend: str,
        limit: int = 100,
        floor: float | None = None,
        segment: bool | None = None,
        phrases: bool | None = None,
        snippets: bool = False,
        expand: bool = False,
        expand_weight: float = DEFAULT_WEIGHT,
        retrieval: Retrieval = None,
    ) -> list[DocumentHit]:
        """The ``limit`` best documents for ``query`` with ``backend``, best first.

        ``floor`` (a fraction of the top score) drops weak hits; by default the raw
        ranking is returned.  ``segment`` / ``phrases``, when given, go to ``parse_query``
        (``phrases=False, segment=False`` is the naive OR-of-bigrams baseline).
        ``expand=True`` adds glossary synonyms weighted by ``expand_weight`` (see
        ``rank_expanded``).  ``retrieval`` picks the options of ``mimomem.search.rerank``
        (feedback, cross-language, proximity): None / ``"auto"`` = the default policy for the
        query's kind, ``"off"`` = none, or ``RetrievalOptions``; not combined with ``expand``.
        """
        backend = check_backend(backend)
        check_limit(limit)
        ratio = check_floor(floor)
        parsed = self.parse(query, backend, segment=segment, phrases=phrases)
        if expand:
            ranked, parsed = self.rank_expanded(parsed, backend, limit=limit, weight=expand_weight)
        else:
            options = resolve(retrieval, parsed.text)
            ranked, parsed = rank_with_options(self, parsed, backend, options, limit=limit)
        hits = apply_floor(ranked, ratio, limit)
        texts: list[str | None] = list(self.snippets(parsed, backend, hits)) if snippets else [None] * len(hits)
        return [DocumentHit(h.path, h.score, s) for h, s in zip(hits, texts, strict=True)]

    def has_scope_id(self, scope_id: str, scope: str | None = None) -> bool:
        """Whether any stored document has ``scope_id`` (within ``scope`` when given).

        Lets a caller tell "no hits" from "that scope id names nothing" (a typo).
        """
        scope = check_scope(scope)
        sql, params = "SELECT 1 FROM memory_fts WHERE scope_id = ?", [scope_id]
        if scope:
            sql, params = sql + " AND scope = ?", [*params, stored_scope(scope)]
        with self._lock, db.reporting_corruption(self._conn):
            return self._conn.execute(sql + " LIMIT 1", params).fetchone() is not None

    def size_bytes(self, backend: str) -> int:
        """Index size for ``backend``: FTS5 tables on disk/in the database, or RAM for native-index."""
        with self._lock:
            return self.backend(backend).size_bytes()


__all__ = ["DocumentHit", "DocumentIndex"]
