"""The three retrieval backends over the ``memory_fts`` table, behind one ``Backend`` protocol.

``backend.rank(query, *, scope=None, scope_id=None, type=None, limit) -> list[RankedRow]``
returns the ``limit`` best rows, best first, score = ``-bm25`` (higher is better), ties
broken by path so every backend (and a rebuilt database) orders them the same way.

* ``fts5-unicode61`` - MiMo-Code's index and query builder, unchanged: the query's runs
  of letters / digits / ``_`` are each double-quoted and OR-joined; FTS5 ``snippet()``
  with ``<<``/``>>``, ``...`` and 32 tokens.  Kept as the fallback and the baseline
  that shows the CJK failure.
* ``fts5-bigram``    - FTS5 over the pre-tokenized shadow column, queried only with
  ``Query.to_fts5()``; snippets cut from the original body by token offsets.
* ``native-index``   - an in-memory inverted index (``BM25Index``) built from the shadow
  column (no re-tokenizing), saved beside the database and mapped back by new processes,
  caught up incrementally (``mimomem.search.native_index``); same documents, order and
  scores as ``fts5-bigram``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import regex

from mimomem.errors import UnknownBackendError
from mimomem.search import db, lazy_index
from mimomem.search.backend_common import filter_sql, read_snapshot
from mimomem.search.hits import RankedRow
from mimomem.search.native_index import NativeIndex
from mimomem.search.params import SEARCH_BACKENDS, check_backend, check_scope, public_scope
from mimomem.search.snippets import (
    SNIPPET_CLOSE,
    SNIPPET_ELLIPSIS,
    SNIPPET_OPEN,
    SNIPPET_TOKENS,
    body_snippets,
    cut_snippet,
)
from mimomem.text.query import Query

_MIMO_WORD = regex.compile(r"[\p{L}\p{N}_]+")

TWO_STEP_MAX_FETCH = 4096
"""Past this many candidates a filtered FTS5 ranking joins every match in one statement instead."""


@runtime_checkable
class Backend(Protocol):
    """A retrieval backend over the search cache's ``memory_fts`` rows.

    Every backend ranks the same parsed ``Query`` over the same rows and agrees on ties
    (path order), so callers (``DocumentIndex``) switch between them by name only.
    """

    @property
    def name(self) -> str:
        """The backend's name, one of ``SEARCH_BACKENDS``."""
        ...

    def rank(
        self,
        query: Query,
        *,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int,
    ) -> list[RankedRow]:
        """The ``limit`` best rows for ``query``, best first; empty filters are ignored."""
        ...

    def snippets(self, query: Query, hits: Sequence[RankedRow]) -> list[str]:
        """One snippet per hit, matches marked ``<<``/``>>``."""
        ...

    def size_bytes(self) -> int:
        """Bytes the index takes (on disk for FTS5, in memory for ``native-index``)."""
        ...

    def load(self) -> None:
        """Build whatever the backend keeps in memory now, not on the first query."""
        ...


def mimo_fts_query(text: str) -> str | None:
    """MiMo-Code's ``buildFtsQuery``: letter/digit/``_`` runs, each quoted, OR-joined."""
    words = _MIMO_WORD.findall(text)
    if not words:
        return None
    return " OR ".join('"' + w.replace('"', "") + '"' for w in words)


class Fts5Backend:
    """An FTS5 index over ``memory_fts`` (``fts5-unicode61`` or ``fts5-bigram``)."""

    def __init__(self, conn: sqlite3.Connection, name: str) -> None:
        self.name = name
        self.spec = db.INDEXES[name]
        self._conn = conn

    def match_string(self, query: Query) -> str | None:
        """The FTS5 MATCH string for ``query``, or None when nothing is searchable."""
        if self.name == "fts5-unicode61":
            return mimo_fts_query(query.text)
        return query.to_fts5()

    def rank(
        self,
        query: Query,
        *,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int,
    ) -> list[RankedRow]:
        """The ``limit`` best rows for ``query``, best first.

        Two steps: FTS5 ranks its matches alone (``ORDER BY bm25 LIMIT k``), then only the
        rows that can make the cut are read from ``memory_fts`` for their path (the tie
        order) and the filters; ``k`` grows while rows beyond it could still tie or, with
        filters, while too few pass them.  Joining every match to its row first, as one
        statement, cost 7x more for a common bigram in 100,000 notes.  A very selective
        filter ends in that one statement after all.
        """
        scope = check_scope(scope)
        match = self.match_string(query)
        if match is None or limit <= 0:
            return []
        where, params = filter_sql(scope, scope_id, type)
        self.load()
        with read_snapshot(self._conn):
            return self._rank(match, where, params, limit)

    def _rank(self, match: str, where: str, params: list[str], limit: int) -> list[RankedRow]:
        k = (limit + 1) * (4 if where else 1)
        while k <= TWO_STEP_MAX_FETCH:
            top = self._top(match, k)
            cut = top[limit - 1][1] if len(top) >= limit and not where else float("inf")
            rows = self._rows([i for i, r in top if r <= cut], where, params)
            kept = [(i, r) for i, r in top if i in rows]
            if len(top) < k or (len(kept) >= limit and top[-1][1] > kept[limit - 1][1]):
                if len(kept) > limit:
                    kept = [(i, r) for i, r in kept if r <= kept[limit - 1][1]]
                kept.sort(key=lambda item: (item[1], rows[item[0]][0]))
                return [RankedRow(i, *rows[i], -r) for i, r in kept[:limit]]
            k *= 4
        return self._rank_joined(match, where, params, limit)

    def _top(self, match: str, k: int) -> list[tuple[int, float]]:
        """The ``k`` best ``(rowid, bm25)`` of the index alone (bm25: lower is better)."""
        t = self.spec.table
        sql = f"SELECT rowid, bm25({t}) AS r FROM {t} WHERE {t} MATCH ? ORDER BY r LIMIT ?"
        return [(int(i), float(r)) for i, r in self._conn.execute(sql, (match, k))]

    def _rows(self, ids: list[int], where: str, params: list[str]) -> dict[int, tuple[str, str, str, str]]:
        """id -> (path, public scope, scope id, type) of those ``ids`` that pass the filters."""
        rows: dict[int, tuple[str, str, str, str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            sql = (
                "SELECT f.id, f.path, f.scope, f.scope_id, f.type FROM memory_fts AS f"
                f" WHERE f.id IN ({','.join('?' * len(chunk))}){where}"
            )
            for i, path, scope, scope_id, type_ in self._conn.execute(sql, [*chunk, *params]):
                rows[i] = (path, public_scope(scope), scope_id, type_)
        return rows

    def _rank_joined(self, match: str, where: str, params: list[str], limit: int) -> list[RankedRow]:
        """Every match joined to its row, filtered and sorted in one statement."""
        t = self.spec.table
        sql = (
            f"SELECT f.id, f.path, f.scope, f.scope_id, f.type, bm25({t}) AS rank"
            f" FROM {t} JOIN memory_fts AS f ON f.id = {t}.rowid"
            f" WHERE {t} MATCH ?{where} ORDER BY rank, f.path LIMIT ?"
        )
        rows = self._conn.execute(sql, [match, *params, limit]).fetchall()
        return [RankedRow(i, p, public_scope(s), sid, ty, -rank) for i, p, s, sid, ty, rank in rows]

    def snippets(self, query: Query, hits: Sequence[RankedRow]) -> list[str]:
        """A snippet per hit (``<<match>>``, ``...``, about 32 tokens of the original body)."""
        if not hits:
            return []
        if self.name == "fts5-unicode61":
            self.load()
            return self._fts_snippets(query, hits)
        return body_snippets(self._conn, query, hits)

    def _fts_snippets(self, query: Query, hits: Sequence[RankedRow]) -> list[str]:
        t = self.spec.table
        marks = ",".join("?" * len(hits))
        rows = self._conn.execute(
            f"SELECT rowid, snippet({t}, 0, ?, ?, ?, ?) FROM {t} WHERE {t} MATCH ? AND rowid IN ({marks})",
            [
                SNIPPET_OPEN,
                SNIPPET_CLOSE,
                SNIPPET_ELLIPSIS,
                SNIPPET_TOKENS,
                self.match_string(query),
                *[h.id for h in hits],
            ],
        ).fetchall()
        found = dict(rows)
        return [found.get(h.id, "") for h in hits]

    def size_bytes(self) -> int:
        """Bytes used by this index's FTS5 tables (plus the shadow column for bigram)."""
        if not lazy_index.is_built(self._conn, self.name):
            return 0  # a lazy index never queried
        size = _tables_size(self._conn, self.spec.table)
        if self.name == "fts5-bigram":
            shadow = "SELECT coalesce(sum(length(CAST(tokens AS BLOB))), 0) FROM memory_fts"
            size += int(self._conn.execute(shadow).fetchone()[0])
        return size

    def load(self) -> None:
        """Build a lazy index (``fts5-unicode61``) if it does not exist yet; FTS5 reads the rest as it goes."""
        lazy_index.ensure_index(self._conn, self.name)


def _tables_size(conn: sqlite3.Connection, table: str) -> int:
    """Bytes in the FTS5 shadow tables of ``table`` (dbstat when compiled in, else payloads)."""
    names = [f"{table}_{suffix}" for suffix in ("data", "idx", "docsize", "config")]
    try:
        marks = ",".join("?" * len(names))
        row = conn.execute(f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({marks})", names).fetchone()
        return int(row[0] or 0)
    except sqlite3.OperationalError:  # no dbstat: count stored payload bytes instead
        data = conn.execute(f"SELECT coalesce(sum(length(block)), 0) FROM {table}_data").fetchone()[0]
        docsize = conn.execute(f"SELECT coalesce(sum(length(sz)), 0) FROM {table}_docsize").fetchone()[0]
        idx = conn.execute(f"SELECT coalesce(sum(length(term)), 0) + 16 * count(*) FROM {table}_idx").fetchone()[0]
        return int(data) + int(docsize) + int(idx)


def make_backends(conn: sqlite3.Connection) -> dict[str, Backend]:
    """One object per backend name, all over ``conn``."""
    return {
        "fts5-bigram": Fts5Backend(conn, "fts5-bigram"),
        "native-index": NativeIndex(conn),
        "fts5-unicode61": Fts5Backend(conn, "fts5-unicode61"),
    }


__all__ = [
    "SEARCH_BACKENDS",
    "Backend",
    "Fts5Backend",
    "NativeIndex",
    "RankedRow",
    "UnknownBackendError",
    "check_backend",
    "cut_snippet",
    "make_backends",
    "mimo_fts_query",
]
