"""Search the imported history with the same bigram engine as the memory search.

Parts are indexed as bigram tokens in a contentless FTS5 table (see
:mod:`mimomem.history.history_store`); a query goes through :func:`mimomem.text.query.parse_query`,
so Chinese is matched by bigrams, identifiers as a unit, and user text never reaches FTS5
syntax.  Ranked by FTS5's bm25 (higher is better; ties by part id), FTS5 ranking its
matches alone before any part is read (see ``_ranked``); snippets are cut from the
original text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mimomem.history.history_db import searchable_text
from mimomem.history.history_store import HistoryStore
from mimomem.history.records import iso_time
from mimomem.search.snippets import cut_snippet
from mimomem.text.query import parse_query

TWO_STEP_MAX_FETCH = 4096
"""Past this many candidates a filtered ranking joins every match in one statement instead."""


@dataclass(frozen=True)
class HistoryHit:
    """One matching part: where it was said or run, when, and a snippet with the match marked."""

    session_id: str
    message_id: str
    role: str
    agent: str
    kind: str
    tool: str | None
    time: int | None
    project: str | None
    score: float
    snippet: str

    def as_dict(self) -> dict[str, Any]:
        """The hit as JSON-ready data (time as ISO 8601 UTC)."""
        out = dict(self.__dict__)
        out["time"] = iso_time(self.time) if self.time is not None else None
        return out


def search_history(
    store: HistoryStore,
    query: str,
    *,
    limit: int = 10,
    project: str | None = None,
    session_id: str | None = None,
    since: int | None = None,
    include_synthetic: bool = False,
) -> list[HistoryHit]:
    """The ``limit`` best parts for ``query``, optionally only one project (its root path),
    one session, or parts at or after ``since`` (ms); injected text is left out unless asked."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    parsed = parse_query(query)
    match = parsed.to_fts5()
    if match is None:
        return []
    where: list[str] = []
    args: list[str | int] = []
    if project is not None:
        where.append("s.project = ?")
        args.append(project)
    if session_id is not None:
        where.append("p.session_id = ?")
        args.append(session_id)
    if since is not None:
        where.append("p.time >= ?")
        args.append(since)
    if not include_synthetic:
        where.append("p.synthetic = 0")
    phrases = parsed.phrases()
    hits = []
    for row in _ranked(store, match, " AND ".join(where), args, limit):
        sid, mid, role, agent, kind, tool, when, proj, score, text, raw_input, output, error = row
        body = searchable_text(kind, text, tool, raw_input, output, error)
        hits.append(HistoryHit(sid, mid, role, agent, kind, tool, when, proj, float(score), cut_snippet(body, phrases)))
    return hits


_COLUMNS = (
    "p.session_id, p.message_id, coalesce(m.role, ''), coalesce(m.agent, 'main'), p.kind, p.tool, p.time,"
    " s.project, {score}, p.text, p.input, p.output, p.error"
)
_FROM = " LEFT JOIN messages m ON m.id = p.message_id LEFT JOIN sessions s ON s.id = p.session_id"


def _ranked(store: HistoryStore, match: str, where: str, args: list[str | int], limit: int) -> list[tuple[Any, ...]]:
    """The ``limit`` best rows, best first (bm25, then part id), in two steps.

    FTS5 ranks its matches alone (``ORDER BY bm25, rowid LIMIT k``: the rowid is the part id,
    so the order is final), then only those parts are read and filtered; ``k`` grows while
    too few passed the filters.  Joining every match to its part first, as one statement,
    read every part that matched a common bigram (200,000 of a million).  A very selective
    filter (one session) ends in that one statement after all.
    """
    k = (limit + 1) * (4 if where else 1)
    while k <= TWO_STEP_MAX_FETCH:
        top = store.conn.execute(
            "SELECT rowid, bm25(part_fts) AS r FROM part_fts WHERE part_fts MATCH ? ORDER BY r, rowid LIMIT ?",
            (match, k),
        ).fetchall()
        rows = _parts(store, [i for i, _ in top], where, args)
        kept = [(i, r) for i, r in top if i in rows][:limit]
        if len(kept) == limit or len(top) < k:
            return [(*rows[i][:8], -r, *rows[i][8:]) for i, r in kept]
        k *= 4
    sql = (
        f"SELECT {_COLUMNS.format(score='-bm25(part_fts)')} FROM part_fts JOIN parts p ON p.id = part_fts.rowid{_FROM}"
        f" WHERE part_fts MATCH ?{' AND ' + where if where else ''} ORDER BY bm25(part_fts), p.id LIMIT ?"
    )
    return store.conn.execute(sql, [match, *args, limit]).fetchall()


def _parts(store: HistoryStore, ids: list[int], where: str, args: list[str | int]) -> dict[int, tuple[Any, ...]]:
    """Part id -> its columns (without the score) for those of ``ids`` that pass the filters."""
    out: dict[int, tuple[Any, ...]] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        sql = (
            f"SELECT p.id, {_COLUMNS.format(score='0')} FROM parts p{_FROM}"
            f" WHERE p.id IN ({','.join('?' * len(chunk))}){' AND ' + where if where else ''}"
        )
        for row in store.conn.execute(sql, [*chunk, *args]):
            out[row[0]] = row[1:9] + row[10:]
    return out
