"""The three retrieval backends over the ``memory_fts`` table, behind one interface.

``backend.search(query, *, scope=None, scope_id=None, type=None, limit) -> list[BackendHit]``
returns the ``limit`` best rows, best first, score = ``-bm25`` (higher is better), ties
broken by path so every backend (and a rebuilt database) orders them the same way.

* ``fts5-unicode61`` - MiMo-Code's index and query builder, unchanged: the query's runs
  of letters / digits / ``_`` are each double-quoted and OR-joined; FTS5 ``snippet()``
  with ``<<``/``>>``, ``...`` and 32 tokens.  Kept as the fallback and the baseline
  that shows the CJK failure.
* ``fts5-bigram``    - FTS5 over the pre-tokenized shadow column, queried only with
  ``Query.to_fts5()``; snippets cut from the original body by token offsets.
* ``native-scan``    - ``BM25Index`` loaded lazily from the shadow column (no
  re-tokenizing) and caught up incrementally; same documents, order and scores as
  ``fts5-bigram``.
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Callable, Sequence
from typing import NamedTuple

import regex

from mimomem.search import db
from mimomem.text._accel import tokenize_bigram
from mimomem.text.bm25 import BM25Index
from mimomem.errors import MimomemError, UnknownBackendError
from mimomem.text.query import Query

BACKENDS = ("fts5-bigram", "native-scan", "fts5-unicode61")
"""Valid backend names."""

SNIPPET_OPEN = "<<"
SNIPPET_CLOSE = ">>"
SNIPPET_ELLIPSIS = "..."
SNIPPET_TOKENS = 32

_MIMO_WORD = regex.compile(r"[\p{L}\p{N}_]+")


def check_backend(name: str) -> str:
    """Return ``name`` if it is a backend, else raise ``UnknownBackendError`` listing them."""
    if name not in BACKENDS:
        raise UnknownBackendError(f"unknown backend {name!r}; valid backends: {', '.join(BACKENDS)}")
    return name


class BackendHit(NamedTuple):
    """One ranked row: its id, unique path (or document id), metadata and score."""

    id: int
    path: str
    scope: str
    scope_id: str
    type: str
    score: float


def mimo_fts_query(text: str) -> str | None:
    """MiMo-Code's ``buildFtsQuery``: letter/digit/``_`` runs, each quoted, OR-joined."""
    words = _MIMO_WORD.findall(text)
    if not words:
        return None
    return " OR ".join('"' + w.replace('"', "") + '"' for w in words)


def _filters(scope: str | None, scope_id: str | None, type: str | None) -> tuple[str, list[str]]:
    """SQL for MiMo's optional equality filters (an empty string means no filter)."""
    sql, params = "", []
    for column, value in (("scope", scope), ("scope_id", scope_id), ("type", type)):
        if value:
            sql += f" AND f.{column} = ?"
            params.append(value)
    return sql, params


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

    def search(
        self,
        query: Query,
        *,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int,
    ) -> list[BackendHit]:
        """The ``limit`` best rows for ``query``, best first."""
        match = self.match_string(query)
        if match is None or limit <= 0:
            return []
        t = self.spec.table
        where, params = _filters(scope, scope_id, type)
        sql = (
            f"SELECT f.id, f.path, f.scope, f.scope_id, f.type, bm25({t}) AS rank"
            f" FROM {t} JOIN memory_fts AS f ON f.id = {t}.rowid"
            f" WHERE {t} MATCH ?{where} ORDER BY rank, f.path LIMIT ?"
        )
        rows = self._conn.execute(sql, [match, *params, limit]).fetchall()
        return [BackendHit(i, p, s, sid, ty, -rank) for i, p, s, sid, ty, rank in rows]

    def snippets(self, query: Query, hits: Sequence[BackendHit]) -> list[str]:
        """A snippet per hit (``<<match>>``, ``...``, about 32 tokens of the original body)."""
        if not hits:
            return []
        if self.name == "fts5-unicode61":
            return self._fts_snippets(query, hits)
        return body_snippets(self._conn, query, hits)

    def _fts_snippets(self, query: Query, hits: Sequence[BackendHit]) -> list[str]:
        t = self.spec.table
        marks = ",".join("?" * len(hits))
        rows = self._conn.execute(
            f"SELECT rowid, snippet({t}, 0, ?, ?, ?, ?) FROM {t} WHERE {t} MATCH ? AND rowid IN ({marks})",
            [SNIPPET_OPEN, SNIPPET_CLOSE, SNIPPET_ELLIPSIS, SNIPPET_TOKENS, self.match_string(query), *[h.id for h in hits]],
        ).fetchall()
        found = dict(rows)
        return [found.get(h.id, "") for h in hits]

    def size_bytes(self) -> int:
        """Bytes used by this index's FTS5 tables (plus the shadow column for bigram)."""
        size = _tables_size(self._conn, self.spec.table)
        if self.name == "fts5-bigram":
            size += int(self._conn.execute("SELECT coalesce(sum(length(CAST(tokens AS BLOB))), 0) FROM memory_fts").fetchone()[0])
        return size


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


class NativeScan:
    """``BM25Index`` over the shadow column, loaded on first use and kept in step.

    Catching up reads ``(epoch, generation)`` from ``meta``: an unchanged pair means
    nothing to do; a new generation removes rows that are gone and adds rows with ids
    above the last one seen (changed documents always get new ids, see ``db.put_rows``);
    a new epoch (the tokenizer changed) reloads everything.  Tokens come from the
    database, so unchanged files are never re-tokenized.
    """

    name = "native-scan"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._index: BM25Index | None = None
        self._state: tuple[int, int] = (-1, -1)
        self._rows: dict[int, tuple[str, str, str, str]] = {}  # id -> (path, scope, scope_id, type)
        self._max_id = 0

    @property
    def loaded(self) -> bool:
        """Whether the in-memory index has been built."""
        return self._index is not None

    def sync(self) -> BM25Index:
        """Bring the in-memory index up to date with the table; returns it."""
        conn = self._conn
        conn.execute("BEGIN")  # one read snapshot for the state and the rows
        try:
            state = db.generation(conn)
            if self._index is not None and state == self._state:
                return self._index
            if self._index is None or state[0] != self._state[0]:
                self._index, self._rows, self._max_id = BM25Index(), {}, 0
            else:
                live = {i for (i,) in conn.execute("SELECT id FROM memory_fts")}
                for gone in [i for i in self._rows if i not in live]:
                    self._index.remove(gone)
                    del self._rows[gone]
            index, rows = self._index, self._rows
            cursor = conn.execute(
                "SELECT id, path, scope, scope_id, type, tokens FROM memory_fts WHERE id > ? ORDER BY id",
                (self._max_id,),
            )
            for i, path, scope, scope_id, type_, tokens in cursor:
                index.add_joined(i, tokens)
                rows[i] = (path, scope, scope_id, type_)
                self._max_id = i
            self._state = state
            return index
        finally:
            conn.execute("COMMIT")

    def search(
        self,
        query: Query,
        *,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int,
    ) -> list[BackendHit]:
        """The ``limit`` best rows for ``query``, best first (same as ``fts5-bigram``)."""
        index = self.sync()
        if not query or limit <= 0 or len(index) == 0:
            return []
        rows = self._rows
        wanted = [(pos, value) for pos, value in ((1, scope), (2, scope_id), (3, type)) if value]

        def keep(doc_id: object) -> bool:
            row = rows[doc_id]  # type: ignore[index]
            return all(row[pos] == value for pos, value in wanted)

        k = limit
        while True:
            hits = index.search(query, k)
            kept = [h for h in hits if keep(h.doc_id)] if wanted else hits
            if len(hits) < k or k >= len(index):
                break  # every matching document is in hand
            if len(kept) >= limit and hits[-1].score < kept[limit - 1].score:
                break  # nothing unseen can tie with or beat the last kept hit
            k = min(k * 4, len(index))
        kept = sorted(kept, key=lambda h: (-h.score, rows[h.doc_id][0]))[:limit]  # type: ignore[index]
        return [BackendHit(h.doc_id, *rows[h.doc_id], h.score) for h in kept]  # type: ignore[index, misc]

    def snippets(self, query: Query, hits: Sequence[BackendHit]) -> list[str]:
        """Snippets cut from the original bodies, as ``fts5-bigram`` does."""
        return body_snippets(self._conn, query, hits)

    def size_bytes(self) -> int:
        """Bytes held in memory by the index (loads it if needed)."""
        return self.sync().memory_bytes()


def make_backends(conn: sqlite3.Connection) -> dict[str, Fts5Backend | NativeScan]:
    """One object per backend name, all over ``conn``."""
    return {
        "fts5-bigram": Fts5Backend(conn, "fts5-bigram"),
        "native-scan": NativeScan(conn),
        "fts5-unicode61": Fts5Backend(conn, "fts5-unicode61"),
    }


# --- snippets ------------------------------------------------------------------------


def body_snippets(conn: sqlite3.Connection, query: Query, hits: Sequence[BackendHit]) -> list[str]:
    """Snippets for ``hits`` cut from their original bodies."""
    if not hits:
        return []
    marks = ",".join("?" * len(hits))
    bodies = dict(conn.execute(f"SELECT id, body FROM memory_fts WHERE id IN ({marks})", [h.id for h in hits]))
    phrases = query.phrases()
    return [cut_snippet(bodies.get(h.id, ""), phrases) for h in hits]


def cut_snippet(
    text: str,
    phrases: Sequence[Sequence[str]],
    *,
    size: int = SNIPPET_TOKENS,
    open_mark: str = SNIPPET_OPEN,
    close_mark: str = SNIPPET_CLOSE,
    ellipsis: str = SNIPPET_ELLIPSIS,
    tokenizer: Callable[[str], list] = tokenize_bigram,
) -> str:
    """A window of ``size`` tokens of ``text`` around the best matches, matches marked.

    Follows FTS5's ``snippet()`` idea - the window covering the most distinct phrases
    (then the most instances) wins and is centred on its matches - but copies the
    user's original characters, and merges overlapping bigram matches into one span
    (``<<部署脚本>>``, never FTS5 3.40's garbled overlap output).
    """
    tokens = tokenizer(text)
    if not tokens:
        return text[:200]
    texts = [t.text for t in tokens]
    first_of: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for p, phrase in enumerate(phrases):
        if phrase:
            first_of.setdefault(phrase[0], []).append((p, tuple(phrase)))
    instances: list[tuple[int, int, int]] = []  # (first token, last token, phrase number)
    for j, tok in enumerate(texts):
        for p, phrase in first_of.get(tok, ()):
            n = len(phrase)
            if tuple(texts[j : j + n]) == phrase:
                instances.append((j, j + n - 1, p))
    total = len(tokens)
    start, end = 0, min(size, total)
    if instances:
        starts = [a for a, _, _ in instances]  # already sorted
        best = None
        for k, j in enumerate(starts):
            stop = bisect.bisect_left(starts, j + size, lo=k)
            inside = [(a, b, p) for a, b, p in instances[k:stop] if b < j + size] or [instances[k]]
            distinct = len({p for _, _, p in inside})
            score = 1000 * distinct + len(inside) - distinct
            if best is None or score > best[0]:
                best = (score, inside)
        assert best is not None
        inside = best[1]
        lo = min(a for a, _, _ in inside)
        hi = min(max(b for _, b, _ in inside), lo + size - 1)
        start = max(0, lo - (size - (hi - lo + 1)) // 2)
        end = min(total, start + size)
        start = max(0, end - size)
        spans = sorted((tokens[a].start, tokens[b].end) for a, b, _ in instances if a >= start and b < end)
    else:
        spans = []
    merged: list[list[int]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    lo_char = 0 if start == 0 else tokens[start].start
    hi_char = len(text) if end == total else tokens[end - 1].end
    out = [ellipsis] if start > 0 else []
    pos = lo_char
    for s, e in merged:
        out += [text[pos:s], open_mark, text[s:e], close_mark]
        pos = e
    out.append(text[pos:hi_char])
    if end < total:
        out.append(ellipsis)
    return "".join(out)


__all__ = [
    "BACKENDS",
    "BackendHit",
    "Fts5Backend",
    "NativeScan",
    "UnknownBackendError",
    "check_backend",
    "cut_snippet",
    "make_backends",
    "mimo_fts_query",
]
