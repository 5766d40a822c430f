"""``MemoryIndex``: search a memory tree with MiMo-Code's semantics, over the SQLite cache.

On top of ``DocumentIndex`` it reconciles the cache from the files before searching,
filters by scope / scope id / type, validates the limit, over-fetches and applies the
relative score floor, cuts snippets, and answers an empty result with escalation hints.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from mimomem.search import db, walk
from mimomem.search import reconcile as reconcile_mod
from mimomem.search.document_index import DocumentIndex
from mimomem.search.hits import Found, RankedRow, Results
from mimomem.search.params import (
    DEFAULT_FLOOR,
    DEFAULT_LIMIT,
    MAX_FETCH,
    MAX_LIMIT,
    Filters,
    apply_floor,
    check_backend,
    check_floor,
    check_limit,
    check_scope,
    default_backend,
    public_scope,
)
from mimomem.search.rerank import Retrieval, rank_with_options, resolve
from mimomem.text import _accel
from mimomem.text.query import TRUNCATED_HINT, Query
from mimomem.text.synonyms import USER_FILE, Glossary
from mimomem.tree import generation
from mimomem.tree.locations import existing_memory_root
from mimomem.tree.memory_tree import MemoryTree

SEARCH_WAIT_MS = 500
"""How long a search waits for another process's reconcile before searching the index as it is."""

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
class IndexStats:
    """What ``mimomem index stats`` shows."""

    db_path: str
    rows: int
    per_type: dict[str, int]
    per_scope: dict[str, int]
    skipped: list[walk.Issue]
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
        max_file_bytes: int = walk.DEFAULT_MAX_FILE_BYTES,
        progress: TextIO | bool | None = None,
        expand_synonyms: bool = False,
    ) -> None:
        if isinstance(tree_or_root, MemoryTree):
            self.tree = tree_or_root
        else:
            # a root given by path must exist (MemoryRootNotFoundError): a typo must not get a database
            self.tree = MemoryTree(None if tree_or_root is None else existing_memory_root(tree_or_root))
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
            roots += walk.cc_memory_roots(self.claude_code_base)
        return roots

    def reconcile(self, *, force: bool = True, wait_ms: int | None = None) -> reconcile_mod.ReconcileReport:
        """Sync the index with the files now (``force=False``: skip if one ran within the interval).

        A write made through mimomem since the last reconcile (``tree.generation``) makes
        even ``force=False`` reconcile at once, so a search right after a write finds it.
        ``wait_ms`` bounds the wait for another process's reconcile (default: the busy
        timeout); past it ``sqlite3.OperationalError`` is raised.
        """
        seen = generation.current(self.tree.data_dir)
        with self._lock:
            with self.docs._lock:
                stale = db.get_meta(self.docs.connection, "tree_generation") != seen
                interval = 0.0 if force or stale else self.reconcile_interval
                report = reconcile_mod.reconcile(
                    self.docs.connection,
                    self.roots(),
                    classify_root=self.root,
                    interval=interval,
                    max_bytes=self.max_file_bytes,
                    progress=self._progress,
                    wait_ms=wait_ms,
                )
                if report.ran:
                    with db.transaction(self.docs.connection, wait_ms=wait_ms):
                        db.set_meta(self.docs.connection, "tree_generation", seen)
            self._last_reconcile = time.monotonic()
        return report

    def _maybe_reconcile(self) -> list[str]:
        if not self.reconcile_on_search:
            return []
        recent = time.monotonic() - self._last_reconcile < self.reconcile_interval
        if recent and generation.current(self.tree.data_dir) == self._seen_generation():
            return []
        try:
            self.reconcile(force=False, wait_ms=SEARCH_WAIT_MS)
        except sqlite3.OperationalError as exc:  # another process is reconciling (e.g. a first build)
            return [
                f"index not refreshed ({exc}: another process is updating it); results come from the last reconcile"
            ]
        return []

    def _seen_generation(self) -> str | None:
        with self.docs._lock:
            return db.get_meta(self.docs.connection, "tree_generation")

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
        retrieval: Retrieval = None,
    ) -> Results:
        """Best-first hits for ``query`` (MiMo's semantics: over-fetch, relative floor, filters).

        ``limit`` must be 1..200; the backend is asked for ``min(3 * limit, 50)`` rows, or
        ``limit`` when that is more (MiMo-Code silently returned at most 50).  ``scope`` is
        one of global / project / session / claude-code / host (a tree folder name such as
        ``projects`` is an ``InvalidScopeError`` naming the scope); empty filters are ignored.  With no
        hits, ``hints`` holds the escalation advice.  ``retrieval``: the options of
        ``mimomem.search.rerank`` (None / ``"auto"``: the default policy for the query's
        kind; ``"off"``; or ``RetrievalOptions``), unless ``expand_synonyms`` is set.
        """
        name = check_backend(backend) if backend else self.backend_name
        check_limit(limit, maximum=MAX_LIMIT)
        scope = check_scope(scope)
        warnings = self._maybe_reconcile()
        parsed = self.docs.parse(query, name, segment=segment, phrases=phrases)
        fetch = max(
            limit, min(limit * 3, MAX_FETCH)
        )  # MiMo caps at 50 even above limit 50; we never return fewer than asked
        if self.expand_synonyms:
            ranked, parsed = self.docs.rank_expanded(
                parsed, name, limit=fetch, scope=scope, scope_id=scope_id, type=type
            )
        else:
            options = resolve(retrieval, parsed.text)
            ranked, parsed = rank_with_options(
                self.docs, parsed, name, options, limit=fetch, scope=scope, scope_id=scope_id, type=type
            )
        kept = apply_floor(ranked, self.score_floor, limit)
        hits = self._found(kept, self.docs.snippets(parsed, name, kept))
        hints = () if hits else tuple(line.format(root=self.root) for line in ESCALATION_HINTS)
        if parsed.truncated:  # the query was cut to the caps of mimomem.text.query
            hints = (TRUNCATED_HINT, *hints)
        return Results(parsed.text, name, hits, hints, tuple(warnings), Filters(scope, scope_id, type))

    def _found(self, rows: list[RankedRow], snippets: list[str]) -> tuple[Found, ...]:
        """The ranked rows as tree hits, each labelled with its project's directory name."""
        if not rows:
            return ()
        from mimomem.tree.where import project_names, session_projects

        names = project_names(self.tree)
        owners = session_projects(self.tree)
        return tuple(
            Found("tree", h.path, tree_label(h, names, owners), h.scope, h.scope_id, h.type, h.score, h.score, s)
            for h, s in zip(rows, snippets, strict=True)
        )

    def bodies(self, paths: Sequence[str]) -> dict[str, str]:
        """The text the index holds for each of ``paths`` that it holds (what the last reconcile read)."""
        out: dict[str, str] = {}
        with self.docs._lock:
            conn = self.docs.connection
            for start in range(0, len(paths), 500):  # SQLite's bound-parameter limit, with room to spare
                chunk = paths[start : start + 500]
                marks = ",".join("?" * len(chunk))
                out.update(conn.execute(f"SELECT path, body FROM memory_fts WHERE path IN ({marks})", chunk).fetchall())
        return out

    def issues(self) -> list[walk.Issue]:
        """Files the last reconcile skipped or indexed with a warning, with reasons."""
        with self.docs._lock:
            return reconcile_mod.stored_issues(self.docs.connection)

    def stats(self) -> IndexStats:
        """Rows, per-type and per-scope counts, skipped files, tokenizers, sizes."""
        conn = self.docs.connection
        with self.docs._lock:
            rows = int(conn.execute("SELECT count(*) FROM memory_fts").fetchone()[0])
            per_type = dict(conn.execute("SELECT type, count(*) FROM memory_fts GROUP BY type ORDER BY type"))
            stored = conn.execute("SELECT scope, count(*) FROM memory_fts GROUP BY scope ORDER BY scope")
            per_scope = {public_scope(scope): int(count) for scope, count in stored}
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


def tree_label(row: RankedRow, names: dict[str, str], owners: dict[str, str]) -> str:
    """Where a tree file lives, for people: ``project shop-api (MEMORY.md)``, ``session s1 of shop-api (...)``.

    ``names`` maps a project id to its directory name, ``owners`` a session id to its project id.
    """
    scope, scope_id = row.scope, row.scope_id
    if scope == "project":
        place = f"project {names.get(scope_id, scope_id)}"
    elif scope == "session":
        project = names.get(owners.get(scope_id) or "", "")
        place = f"session {scope_id}" + (f" of {project}" if project else "")
    elif scope == "global":
        place = "global"
    else:
        place = f"{scope} {scope_id}".strip()
    return place + f" ({Path(row.path).name})"


__all__ = ["ESCALATION_HINTS", "Found", "IndexStats", "MemoryIndex", "Results", "tree_label"]
