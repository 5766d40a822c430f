"""Search the imported history with the same bigram engine as the memory search.

Parts are indexed as bigram tokens in a contentless FTS5 table (see
:mod:`mimomem.history.store`); a query goes through :func:`mimomem.text.query.parse_query`,
so Chinese is matched by bigrams, identifiers as a unit, and user text never reaches FTS5
syntax.  Ranked by FTS5's bm25 (higher is better); snippets are cut from the original text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mimomem.history.model import iso_time
from mimomem.history.store import HistoryStore, searchable_text
from mimomem.search.snippets import cut_snippet
from mimomem.text.query import parse_query


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
    where: list[str] = ["part_fts MATCH ?"]
    args: list[str | int] = [match]
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
    sql = (
        "SELECT p.session_id, p.message_id, coalesce(m.role, ''), coalesce(m.agent, 'main'), p.kind, p.tool, p.time,"
        " s.project, -bm25(part_fts), p.text, p.input, p.output, p.error"
        " FROM part_fts JOIN parts p ON p.id = part_fts.rowid"
        " LEFT JOIN messages m ON m.id = p.message_id LEFT JOIN sessions s ON s.id = p.session_id"
        f" WHERE {' AND '.join(where)} ORDER BY bm25(part_fts), p.id LIMIT ?"
    )
    phrases = parsed.phrases()
    hits = []
    for row in store.conn.execute(sql, [*args, limit]):
        sid, mid, role, agent, kind, tool, when, proj, score, text, raw_input, output, error = row
        body = searchable_text(kind, text, tool, raw_input, output, error)
        hits.append(HistoryHit(sid, mid, role, agent, kind, tool, when, proj, float(score), cut_snippet(body, phrases)))
    return hits
