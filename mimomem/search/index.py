"""Search indexes: ``DocumentIndex`` for any (id, text) documents, ``MemoryIndex`` for a tree.

Both store documents in the same SQLite cache (``mimomem.db``) and rank them with the
same three backends (``mimomem.search.backends``).  ``DocumentIndex`` is the raw engine (the
benchmark harness feeds it BEIR corpora); ``MemoryIndex`` adds what the memory tool
needs on top: reconcile from the files before searching, filters, the relative score
floor, validated limits, snippets and escalation hints when nothing matches.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, TextIO

from mimomem.text import _accel
from mimomem.search import db
from mimomem.search import reconcile as reconcile_mod
from mimomem.search.backends import BACKENDS, BackendHit, Fts5Backend, NativeScan, check_backend, make_backends
from mimomem.errors import InvalidFloorError, InvalidLimitError, InvalidScopeError, MimomemError
from mimomem.text.query import Query, parse_query
from mimomem.text.synonyms import DEFAULT_WEIGHT, USER_FILE, Glossary
from mimomem.tree.store import MemoryTree

DEFAULT_BACKEND = "fts5-bigram"
"""Used when neither the call nor ``MIMOMEM_BACKEND`` names one (see README, Search)."""

BACKEND_ENV = "MIMOMEM_BACKEND"
DEFAULT_LIMIT = 10
MAX_LIMIT = 200
MAX_FETCH = 50
DEFAULT_FLOOR = 0.15
SCOPES = ("global", "projects", "sessions", "cc")
SEARCH_WAIT_MS = 500
"""How long a search waits for another process's reconcile before searching the index as it is."""


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
            try:
                conn.close()
            except Exception:  # pragma: no cover - interpreter shutdown
                pass

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
    def parse(
        self, query: str | Query, backend: str, *, segment: bool | None = None, phrases: bool | None = None
    ) -> Query:
        """The ``Query`` a backend evaluates (unicode61 only looks at the raw text).

        ``segment`` / ``phrases`` go to ``parse_query`` when given; None keeps its defaults.
        """
        if isinstance(query, Query):
            return query
        if not isinstance(query, str):
            raise TypeError(f"query must be str or Query, got {type(query).__name__}")
        if backend == "fts5-unicode61":
            return Query(query, ())
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
    ) -> list[BackendHit]:
        """The ``limit`` best rows for an already parsed query (no floor, no snippets)."""
        with self._lock:
            return self.backend(backend).search(query, scope=scope, scope_id=scope_id, type=type, limit=limit)

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
    ) -> tuple[list[BackendHit], Query]:
        """Rank ``query`` plus its glossary expansion, expanded terms scaled by ``weight``.

        BM25 sums per phrase, so the score is ``bm25(user terms) + weight * bm25(expanded
        terms)``, computed from the two rankings over a pool of ``max(4 * limit, 100)``
        documents each (exact for documents inside both pools).  Returns the hits and the
        query whose phrases the snippets should mark.  ``fts5-unicode61`` is never expanded.
        """
        extra = self.glossary.expand(query) if backend != "fts5-unicode61" else Query(query.text, ())
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
        combined = Query(query.text, query.terms + extra.terms)
        return [h._replace(score=scores[h.id]) for h in ranked], combined

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
        segment: bool | None = None,
        phrases: bool | None = None,
        snippets: bool = False,
        expand: bool = False,
        expand_weight: float = DEFAULT_WEIGHT,
    ) -> list[DocumentHit]:
        """The ``limit`` best documents for ``query`` with ``backend``, best first.

        ``floor`` (a fraction of the top score) drops weak hits; by default the raw
        ranking is returned.  ``segment`` / ``phrases``, when given, go to ``parse_query``
        (``phrases=False, segment=False`` is the naive OR-of-bigrams baseline).
        ``expand=True`` adds glossary synonyms weighted by ``expand_weight`` (see
        ``rank_expanded``).
        """
        check_backend(backend)
        check_limit(limit)
        ratio = check_floor(floor)
        parsed = self.parse(query, backend, segment=segment, phrases=phrases)
        if expand:
            ranked, parsed = self.rank_expanded(parsed, backend, limit=limit, weight=expand_weight)
        else:
            ranked = self.rank(parsed, backend, limit=limit)
        hits = apply_floor(ranked, ratio, limit)
        texts: list[str | None] = list(self.snippets(parsed, backend, hits)) if snippets else [None] * len(hits)
        return [DocumentHit(h.path, h.score, s) for h, s in zip(hits, texts)]

    def size_bytes(self, backend: str) -> int:
        """Index size for ``backend``: FTS5 tables on disk/in the database, or RAM for native-scan."""
        with self._lock:
            return self.backend(backend).size_bytes()


ESCALATION_HINTS = (
    "0 results does not mean it was never recorded. Before giving up:",
    "1. Retry with fewer, more distinctive words: terms are OR-joined and ranked, so one or two "
    "rare words (an exact id, a function name, a flag) beat a long sentence; drop generic words "
    "such as config, params, database.",
    "2. For literals the index cannot see whole (URLs, long paths, odd punctuation), grep the "
    "memory files directly: {root}",
    "3. For verbatim recall of something said in a conversation, search the conversation "
    "history if your agent has a history tool.",
    "Widen the scope step by step: session -> project -> global -> history.",
)


@dataclass(frozen=True)
class SearchResults:
    """Hits of a ``MemoryIndex.search``, best first; ``hints`` say what to try when empty."""

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
class IndexStats:
    """What ``mimomem index stats`` shows."""

    db_path: str
    rows: int
    per_type: dict[str, int]
    per_scope: dict[str, int]
    skipped: list[reconcile_mod.Issue]
    tokenizers: dict[str, str]
    schema_version: int
    db_bytes: int
    index_bytes: dict[str, int]
    last_reconcile: float | None
    native: bool


class MemoryIndex:
    """Search a memory tree: reconcile from the files, then rank with a backend.

    ``tree_or_root`` is a ``MemoryTree`` or a memory root path (default: the standard
    location).  The database defaults to ``<data>/mimomem.db`` next to the root.
    ``reconcile_on_search`` (default True) syncs the index before each search, at most
    once per ``reconcile_interval`` seconds across threads and processes.  Claude Code
    memory (``~/.claude/projects/*/memory/``) is indexed only when ``claude_code=True``;
    ``claude_code_base`` overrides where those projects live.  ``expand_synonyms`` adds
    glossary terms (shipped, plus ``<root>/synonyms.tsv``) weighted below the user's words.
    """

    def __init__(
        self,
        tree_or_root: MemoryTree | str | os.PathLike[str] | None = None,
        db_path: str | os.PathLike[str] | None = None,
        *,
        backend: str | None = None,
        reconcile_on_search: bool = True,
        reconcile_interval: float = 1.0,
        score_floor: float = DEFAULT_FLOOR,
        claude_code: bool = False,
        claude_code_base: str | os.PathLike[str] | None = None,
        max_file_bytes: int = reconcile_mod.DEFAULT_MAX_FILE_BYTES,
        progress: TextIO | None | bool = None,
        expand_synonyms: bool = False,
    ) -> None:
        if isinstance(tree_or_root, MemoryTree):
            self.tree = tree_or_root
        else:
            self.tree = MemoryTree(None if tree_or_root is None else os.path.expanduser(os.fspath(tree_or_root)))
        self.root = self.tree.root
        path = db_path if db_path is not None else self.tree.data_dir / "mimomem.db"
        self.backend_name = check_backend(backend) if backend else default_backend()
        self.reconcile_on_search = reconcile_on_search
        self.reconcile_interval = float(reconcile_interval)
        self.score_floor = check_floor(score_floor)
        self.claude_code = claude_code
        self.claude_code_base = Path(claude_code_base) if claude_code_base else Path.home() / ".claude" / "projects"
        self.max_file_bytes = int(max_file_bytes)
        if progress is None or progress is True:
            stream = sys.stderr if progress is True or sys.stderr.isatty() else None
        else:
            stream = progress or None
        self._progress: TextIO | None = stream
        self.expand_synonyms = expand_synonyms
        self.docs = DocumentIndex(path, glossary=Glossary.load(self.root / USER_FILE) if expand_synonyms else None)
        self._lock = threading.Lock()
        self._last_reconcile = float("-inf")

    @property
    def db_path(self) -> str:
        """Where the cache lives."""
        return self.docs.db_path

    def close(self) -> None:
        """Close the database."""
        self.docs.close()

    def __enter__(self) -> MemoryIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def roots(self) -> list[Path]:
        """Directories a reconcile walks: the memory root, then Claude Code roots if enabled."""
        roots = [self.root]
        if self.claude_code:
            roots += reconcile_mod.cc_memory_roots(self.claude_code_base)
        return roots

    def reconcile(self, *, force: bool = True, wait_ms: int | None = None) -> reconcile_mod.ReconcileReport:
        """Sync the index with the files now (``force=False``: skip if one ran within the interval).

        ``wait_ms`` bounds the wait for another process's reconcile (default: the busy
        timeout); past it ``sqlite3.OperationalError`` is raised.
        """
        interval = 0.0 if force else self.reconcile_interval
        with self._lock:
            with self.docs._lock:
                report = reconcile_mod.reconcile(
                    self.docs.connection,
                    self.roots(),
                    classify_root=self.root,
                    interval=interval,
                    max_bytes=self.max_file_bytes,
                    progress=self._progress,
                    wait_ms=wait_ms,
                )
            self._last_reconcile = time.monotonic()
        return report

    def _maybe_reconcile(self) -> list[str]:
        if not self.reconcile_on_search:
            return []
        if time.monotonic() - self._last_reconcile < self.reconcile_interval:
            return []
        try:
            self.reconcile(force=False, wait_ms=SEARCH_WAIT_MS)
        except sqlite3.OperationalError as exc:  # another process is reconciling (e.g. a first build)
            return [f"index not refreshed ({exc}: another process is updating it); results come from the last reconcile"]
        return []

    def search(
        self,
        query: str | Query,
        *,
        backend: str | None = None,
        scope: str | None = None,
        scope_id: str | None = None,
        type: str | None = None,
        limit: int = DEFAULT_LIMIT,
        segment: bool | None = None,
        phrases: bool | None = None,
    ) -> SearchResults:
        """Best-first hits for ``query`` (MiMo's semantics: over-fetch, relative floor, filters).

        ``limit`` must be 1..200; the backend is asked for ``min(3 * limit, 50)`` rows, or
        ``limit`` when that is more (MiMo-Code silently returned at most 50).  ``scope`` is one of global / projects / sessions / cc;
        empty filters are ignored.  With no hits, ``hints`` holds the escalation advice.
        """
        name = check_backend(backend) if backend else self.backend_name
        check_limit(limit, maximum=MAX_LIMIT)
        if scope and scope not in SCOPES:
            raise InvalidScopeError(f"unknown scope {scope!r}; valid scopes: {', '.join(SCOPES)}")
        warnings = self._maybe_reconcile()
        parsed = self.docs.parse(query, name, segment=segment, phrases=phrases)
        fetch = max(limit, min(limit * 3, MAX_FETCH))  # MiMo caps at 50 even above limit 50; we never return fewer than asked
        if self.expand_synonyms:
            ranked, parsed = self.docs.rank_expanded(parsed, name, limit=fetch, scope=scope, scope_id=scope_id, type=type)
        else:
            ranked = self.docs.rank(parsed, name, limit=fetch, scope=scope, scope_id=scope_id, type=type)
        kept = apply_floor(ranked, self.score_floor, limit)
        snippets = self.docs.snippets(parsed, name, kept)
        hits = tuple(MemoryHit(h.path, h.scope, h.scope_id, h.type, h.score, s) for h, s in zip(kept, snippets))
        hints = () if hits else tuple(line.format(root=self.root) for line in ESCALATION_HINTS)
        return SearchResults(parsed.text, name, hits, hints, tuple(warnings))

    def issues(self) -> list[reconcile_mod.Issue]:
        """Files the last reconcile skipped or indexed with a warning, with reasons."""
        with self.docs._lock:
            return reconcile_mod.stored_issues(self.docs.connection)

    def stats(self) -> IndexStats:
        """Rows, per-type and per-scope counts, skipped files, tokenizers, sizes."""
        conn = self.docs.connection
        with self.docs._lock:
            rows = int(conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0])
            per_type = dict(conn.execute("SELECT type, count(*) FROM memory_fts GROUP BY type ORDER BY type"))
            per_scope = dict(conn.execute("SELECT scope, count(*) FROM memory_fts GROUP BY scope ORDER BY scope"))
            tokenizers = {b: db.get_meta(conn, f"tokenizer:{b}") or "" for b in db.INDEXES}
            last = db.get_meta(conn, "last_reconcile")
            page = conn.execute("PRAGMA page_count").fetchone()[0] * conn.execute("PRAGMA page_size").fetchone()[0]
            sizes = {b: self.docs.backend(b).size_bytes() for b in db.INDEXES}
            version = db.user_version(conn)
        files = [self.db_path + suffix for suffix in ("", "-wal")] if self.db_path != ":memory:" else []
        on_disk = sum(os.path.getsize(f) for f in files if os.path.exists(f)) or int(page)
        return IndexStats(
            db_path=self.db_path,
            rows=rows,
            per_type=per_type,
            per_scope=per_scope,
            skipped=self.issues(),
            tokenizers=tokenizers,
            schema_version=version,
            db_bytes=on_disk,
            index_bytes=sizes,
            last_reconcile=float(last) if last else None,
            native=_accel.NATIVE,
        )


__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "DocumentHit",
    "DocumentIndex",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidScopeError",
    "IndexStats",
    "MemoryHit",
    "MemoryIndex",
    "SearchResults",
    "apply_floor",
    "check_limit",
]
