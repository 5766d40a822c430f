"""``native-index``: a ``BM25Index`` over the cache's shadow column, saved beside the database.

The in-memory index holds the same documents as ``fts5-bigram`` and ranks them with the
same scores (FTS5's bm25(), to the last bit) and the same tie order (path).  Building it
means reading every row's tokens (about 2 s for 100,000 documents), so it is saved to
``<database>.bm25`` (``mimomem.text.bm25_file``) and a new process maps that file instead
(milliseconds).

When the saved file may be used: saving writes a *stamp* into the file's header and the
same stamp into the database's ``meta`` table (key ``native_index``): a random nonce, the
``(epoch, generation)`` the index was built at, its row count and largest row id, and the
tokenizer's id.  A file is used only when its stamp equals the one in ``meta``, i.e. it
is exactly what this database held at that generation.  A file from another database
(the cache deleted and rebuilt, a backup restored, another machine) carries another
nonce and is ignored; a damaged file is rebuilt.  If the database has moved on since
(same epoch), the index catches up as an open one does: rows that are gone are removed,
rows with larger ids added (a changed document always gets a new id, see
``rows.put_rows``).  A new epoch (the tokenizer changed) rebuilds everything.

When it is saved: after a full build of at least ``save_min_rows`` rows, and after
catching up once the documents added or removed since the file was written exceed
``resave_share`` of the index.  Saving is best effort (a read-only directory or a busy
writer only means the next process builds again).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from mimomem.errors import IndexFileError
from mimomem.search import db
from mimomem.search.backend_common import filter_sql, read_snapshot
from mimomem.search.hits import RankedRow
from mimomem.search.params import check_scope, public_scope
from mimomem.search.snippets import body_snippets
from mimomem.text.bm25 import BM25Index, Hit
from mimomem.text.query import Query

FILE_SUFFIX = ".bm25"
"""The saved index lives at ``<database file><FILE_SUFFIX>``."""

META_KEY = "native_index"
SAVE_WAIT_MS = 100
"""How long saving waits for another writer before giving up (it is retried later)."""

_AUTO = "auto"
_ROWS_CHUNK = 500


def index_file_for(conn: sqlite3.Connection) -> str | None:
    """Where the index of ``conn``'s database is saved (None for an in-memory database)."""
    name = db.database_file(conn)
    if name in ("", ":memory:", "(unknown file)"):
        return None
    return name + FILE_SUFFIX


class NativeIndex:
    """``native-index``: a ``BM25Index`` over the shadow column, loaded on first use and kept in step.

    ``path`` is where the index is saved (default: beside the database; None: never saved).
    ``source`` says where the current index came from: ``"file"``, ``"database"`` or None.
    """

    name = "native-index"
    save_min_rows = 1000
    """Smaller indexes build in milliseconds and are not saved."""
    resave_share = 0.1
    """Save again once the documents changed since the file exceed this share of the index."""

    def __init__(self, conn: sqlite3.Connection, *, path: str | None = _AUTO) -> None:
        self._conn = conn
        self.path = index_file_for(conn) if path == _AUTO else path
        self._index: BM25Index | None = None
        self._state: tuple[int, int] = (-1, -1)
        self._max_id = 0
        self._changed = 0
        self._save_due = False
        self._allowed: dict[tuple[Any, ...], frozenset[int]] = {}
        self.source: str | None = None

    @property
    def loaded(self) -> bool:
        """Whether the in-memory index has been built or mapped."""
        return self._index is not None

    # -- keeping in step -----------------------------------------------------------------
    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction: the state, the rows and the hits' details all from one snapshot."""
        with read_snapshot(self._conn):
            yield
        if self._save_due:
            self._save()

    def sync(self) -> BM25Index:
        """Bring the in-memory index up to date with the table; returns it."""
        with self._snapshot():
            return self._sync()

    def _sync(self) -> BM25Index:
        state = db.generation(self._conn)
        if self._index is not None and state == self._state:
            return self._index
        if self._index is None and self.path is not None:
            self._open_file(state)
        if self._index is None or state[0] != self._state[0]:
            self._rebuild()
        elif state != self._state:
            self._catch_up()
        self._state = state
        self._allowed.clear()
        assert self._index is not None
        return self._index

    def _open_file(self, state: tuple[int, int]) -> None:
        """Map the saved index when its stamp is the one this database recorded."""
        from mimomem.text.bm25_file import load_index

        assert self.path is not None
        recorded = db.get_meta(self._conn, META_KEY)
        if recorded is None:
            return
        try:
            expected = json.loads(recorded)
            epoch, generation, max_id = (int(expected[k]) for k in ("epoch", "generation", "max_id"))
        except (ValueError, TypeError, KeyError):
            return  # not a stamp this version wrote: rebuild (and save over the file)
        if expected.get("tokenizer") != db.bigram_tokenizer_id() or generation > state[1]:
            return
        try:
            loaded = load_index(self.path, accept=lambda stamp: stamp == expected)
        except FileNotFoundError:
            return
        except (IndexFileError, OSError):
            self._save_due = True  # damaged or from the other engine: replace it once rebuilt
            return
        if loaded is None:
            return  # the file belongs to another state of the database (or another database)
        self._index = loaded[0]
        self._state = (epoch, generation)
        self._max_id = max_id
        self._changed = 0
        self.source = "file"

    def _rebuild(self) -> None:
        """Build the index from every row's stored tokens (no re-tokenizing)."""
        index = BM25Index()
        self._max_id = 0
        for i, tokens in self._conn.execute("SELECT id, tokens FROM memory_fts ORDER BY id"):
            index.add_joined(i, tokens)
            self._max_id = i
        self._index = index
        self._changed = 0
        self.source = "database"
        if self.path is not None and len(index) >= self.save_min_rows:
            self._save_due = True

    def _catch_up(self) -> None:
        """Remove rows that are gone and add rows with larger ids (same epoch)."""
        index, conn = self._index, self._conn
        assert index is not None
        added = conn.execute("SELECT id, tokens FROM memory_fts WHERE id > ? ORDER BY id", (self._max_id,)).fetchall()
        rows = int(conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0])
        removed = len(index) + len(added) - rows
        if removed:
            live = {i for (i,) in conn.execute("SELECT id FROM memory_fts WHERE id <= ?", (self._max_id,))}
            for gone in [i for i in index.doc_ids() if i not in live]:
                index.remove(gone)
        for i, tokens in added:
            index.add_joined(i, tokens)
            self._max_id = i
        self._changed += removed + len(added)
        if self.path is not None and self._changed > max(self.save_min_rows, self.resave_share * len(index)):
            self._save_due = True

    def _save(self) -> None:
        """Write the index file, then record its stamp if the database is still at that state."""
        from mimomem.text.bm25_file import save_index

        if self._conn.in_transaction:
            return  # inside the caller's transaction: the next call outside one saves
        self._save_due = False
        index, path = self._index, self.path
        if index is None or path is None:
            return
        stamp = {
            "nonce": secrets.token_hex(8),
            "epoch": self._state[0],
            "generation": self._state[1],
            "rows": len(index),
            "max_id": self._max_id,
            "tokenizer": db.bigram_tokenizer_id(),
        }
        try:
            save_index(index, path, stamp=stamp)
            with db.transaction(self._conn, wait_ms=SAVE_WAIT_MS):
                if db.generation(self._conn) == self._state:
                    db.set_meta(self._conn, META_KEY, json.dumps(stamp, sort_keys=True))
        except (OSError, sqlite3.Error):
            return  # read-only directory, full disk, a busy writer: the next process builds and saves
        self._changed = 0

    def load(self) -> None:
        """Load (or catch up) the in-memory index now."""
        self.sync()

    # -- ranking -------------------------------------------------------------------------
    def rank(
        self,
        query: Query,
        *,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int,
        weights: Sequence[float] | None = None,
    ) -> list[RankedRow]:
        """The ``limit`` best rows for ``query``, best first (same as ``fts5-bigram``).

        ``weights`` (one per term) scale each term's score, as ``BM25Index.search`` does:
        the retrieval options rank a weighted expansion with it in one pass.
        """
        scope = check_scope(scope)
        with self._snapshot():
            index = self._sync()
            if not query or limit <= 0 or len(index) == 0:
                return []
            return self._rank(index, query, (scope, scope_id, type), limit, weights)

    def _rank(
        self,
        index: BM25Index,
        query: Query,
        filters: tuple[str | None, ...],
        limit: int,
        weights: Sequence[float] | None = None,
    ) -> list[RankedRow]:
        kept = self._best(index, query, filters, limit, weights)
        rows = self.rows_of([h.doc_id for h in kept])
        ranked = sorted(kept, key=lambda h: (-h.score, rows[h.doc_id][0]))[:limit]
        return [RankedRow(h.doc_id, *rows[h.doc_id], h.score) for h in ranked]  # type: ignore[arg-type]

    def best_scores(
        self,
        query: Query,
        *,
        limit: int,
        weights: Sequence[float] | None = None,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
    ) -> list[tuple[int, float]]:
        """``rank`` without the rows: ``(id, score)`` of the best ``limit``, plus any tying with the last.

        For a pass whose scores are summed with others (the retrieval options' feedback):
        only the rows that make the final cut need reading (``rows_of``).
        """
        scope = check_scope(scope)
        with self._snapshot():
            index = self._sync()
            if not query or limit <= 0 or len(index) == 0:
                return []
            return [(int(h.doc_id), h.score) for h in self._best(index, query, (scope, scope_id, type), limit, weights)]  # type: ignore[call-overload]

    def _best(
        self,
        index: BM25Index,
        query: Query,
        filters: tuple[str | None, ...],
        limit: int,
        weights: Sequence[float] | None,
    ) -> list[Hit]:
        """The hits passing ``filters`` that can be among the best ``limit`` (ties with the last kept)."""
        allowed = self._allowed_ids(*filters) if any(filters) else None
        k = limit + 1  # one past the limit: shows at once whether anything unseen could tie
        while True:
            hits = index.search(query, k, weights=weights)
            kept = [h for h in hits if h.doc_id in allowed] if allowed is not None else hits
            if len(hits) < k or k >= len(index):
                break  # every matching document is in hand
            if len(kept) >= limit and hits[-1].score < kept[limit - 1].score:
                break  # nothing unseen can tie with or beat the last kept hit
            k = min(k * 4, len(index))
        if len(kept) > limit:  # only hits scoring at least the limit-th can make the cut (ties: path)
            cut = kept[limit - 1].score
            kept = [h for h in kept if h.score >= cut]
        return kept

    def _allowed_ids(self, scope: str | None, scope_id: str | None, type: str | None) -> frozenset[int]:
        """Ids of the rows passing the filters (cached until the table changes)."""
        key = (scope, scope_id, type)
        found = self._allowed.get(key)
        if found is None:
            where, params = filter_sql(scope, scope_id, type)
            sql = f"SELECT id FROM memory_fts AS f WHERE 1{where}"
            found = frozenset(i for (i,) in self._conn.execute(sql, params))
            if len(self._allowed) >= 16:
                self._allowed.clear()
            self._allowed[key] = found
        return found

    def rows_of(self, ids: Sequence[Any]) -> dict[Any, tuple[str, str, str, str]]:
        """id -> (path, public scope, scope id, type) for ``ids``."""
        rows: dict[Any, tuple[str, str, str, str]] = {}
        for start in range(0, len(ids), _ROWS_CHUNK):
            chunk = ids[start : start + _ROWS_CHUNK]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT id, path, scope, scope_id, type FROM memory_fts WHERE id IN ({marks})"
            for i, path, scope, scope_id, type_ in self._conn.execute(sql, list(chunk)):
                rows[i] = (path, public_scope(scope), scope_id, type_)
        return rows

    def snippets(self, query: Query, hits: Sequence[RankedRow]) -> list[str]:
        """Snippets cut from the original bodies, as ``fts5-bigram`` does."""
        return body_snippets(self._conn, query, hits)

    def size_bytes(self) -> int:
        """Bytes held in memory by the index (loads it if needed; a mapped file counts whole)."""
        return self.sync().memory_bytes()


__all__ = ["FILE_SUFFIX", "META_KEY", "NativeIndex", "index_file_for"]
