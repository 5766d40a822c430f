"""The SQLite cache: connection settings, the versioned schema and its meta values (row writes: ``rows``).

One content table, ``memory_fts`` (MiMo-Code's columns plus ``tokens``), feeds two
external-content FTS5 indexes:

* ``memory_fts_idx``    - column ``body``, ``unicode61 remove_diacritics 1`` (MiMo-Code's),
  a baseline built on its first query only (``LAZY``), not by every build;
* ``memory_bigram_idx`` - column ``tokens``: the bigram tokenizer's output, space-joined,
  read by FTS5's ``ascii`` tokenizer with ``_`` as a token character.  Every token
  holds only folded letters, digits, ``_``, marks and non-ASCII characters, so
  ``ascii`` splits the column back into exactly the tokens we wrote.

Triggers keep both indexes in step with the table, removing old tokens with FTS5's
``'delete'`` command (a plain DELETE on an external-content index leaves stale tokens
and eventually corrupts it).  The database is a cache: it can be deleted at any time
and is rebuilt from the files by the next reconcile.

A damaged database (or a file that is not one) raises ``CorruptDatabaseError``, naming
the file and saying to delete it, from :func:`connect` and from every operation run
under :func:`reporting_corruption`.  It is deliberately *not* deleted and rebuilt
automatically: the path may be a mistyped ``--db`` naming someone's real database, and
a ``DocumentIndex`` holds documents that exist nowhere else.

Schema history (``PRAGMA user_version``), each step a forward migration:

1. MiMo-Code's ``memory_fts`` as of its v6.1.1 migrations (content table, unicode61
   index, ``'delete'``-command triggers);
2. ``meta`` (key/value: tokenizer of each index, generation counter, last reconcile)
   and ``file_issues`` (files skipped or read with problems, with the reason);
3. the ``tokens`` shadow column, the bigram index and its triggers; the unicode61
   update trigger narrowed to ``UPDATE OF body``;
4. a covering index on ``(path, fingerprint)``, so a reconcile compares fingerprints
   without reading the wide rows (10k files: about 35 ms less per reconcile);
5. the unicode61 index becomes lazy (``LAZY``): dropped here, built by the first query
   that needs it (``lazy_index.ensure_index``) and kept in step by its triggers from then on.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from mimomem.common.journal import use_journal
from mimomem.common.private import private_database
from mimomem.errors import ForeignDatabaseError, SchemaTooNewError
from mimomem.search.corruption import database_file, is_corrupt, reporting_corruption
from mimomem.text._accel import tokenize_bigram, tokenize_many

SCHEMA_VERSION = 5
BUSY_TIMEOUT_MS = 30_000
"""How long a writer waits for another process's write transaction before giving up."""

UNICODE61_SPEC = "unicode61 remove_diacritics 1"
BIGRAM_SPEC = "ascii tokenchars '_'"

BIGRAM_PROBE = (
    "部署脚本用pnpm而不是npm，端口5433 ＡＰＩ５４３３ Crème Brûlée ｶﾞｷﾞ カタカナー 한국어abc "
    "東京タワー 一 二三四 memory_fts_idx v1.2.3 T5.3 ﬁ ß İ ǅ ① 々〇 हिन्दी e\u0301 \U00020000\U00020001"
)
"""Text that exercises every tokenizer rule; its tokens are part of the recorded version."""


class IndexSpec(NamedTuple):
    """One FTS5 index over ``memory_fts``: its table, column and tokenizer."""

    table: str
    column: str
    tokenize: str
    trigger_prefix: str


INDEXES = {
    "fts5-unicode61": IndexSpec("memory_fts_idx", "body", UNICODE61_SPEC, "memory_fts"),
    "fts5-bigram": IndexSpec("memory_bigram_idx", "tokens", BIGRAM_SPEC, "memory_bigram"),
}
LAZY = frozenset({"fts5-unicode61"})
"""Indexes built by their first query (``lazy_index.ensure_index``), not by every build: most users
never query the unicode61 baseline.  Its ``tokenizer:`` meta key is present exactly when it is built."""


@functools.lru_cache(maxsize=1)
def bigram_tokenizer_id() -> str:
    """Name and version of the bigram tokenizer, as recorded in the database.

    The version is the tokenizer module's ``TOKENIZER_VERSION`` (if it declares one) and
    a hash of the tokens of ``BIGRAM_PROBE``, so a rule change rebuilds the index even
    if nobody bumped a number.  Native and pure tokenizers give the same tokens, hence
    the same id.  The Unicode database version is deliberately left out: Pythons with
    different Unicode versions sharing one cache would otherwise rebuild it on every
    switch, for a difference limited to newly assigned characters.
    """
    from mimomem.text import tokens as tokens_module

    declared = getattr(tokens_module, "TOKENIZER_VERSION", "1")
    digest = hashlib.sha256()
    for tok in tokenize_bigram(BIGRAM_PROBE):
        digest.update(f"{tok.text}\t{tok.start}\t{tok.end}\n".encode())
    return f"mimomem-bigram {declared} probe-{digest.hexdigest()[:16]}"


def tokenizer_ids() -> dict[str, str]:
    """The tokenizer identity each index must have been built with."""
    return {
        "fts5-unicode61": UNICODE61_SPEC,
        "fts5-bigram": f"{BIGRAM_SPEC}; {bigram_tokenizer_id()}",
    }


def shadow_tokens(body: str) -> str:
    """The bigram index's column text for ``body``: its tokens, space-joined."""
    return " ".join(tokenize_many((body,))[0])


def shadow_tokens_many(bodies: Sequence[str], *, batch: int = 64) -> Iterator[str]:
    """``shadow_tokens`` of each body, tokenized in batches (the bulk path)."""
    for start in range(0, len(bodies), batch):
        yield from (" ".join(tokens) for tokens in tokenize_many(bodies[start : start + batch]))


# --- connection -------------------------------------------------------------------


def connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the database at ``path`` (or ``":memory:"``).

    Autocommit mode (transactions are explicit), WAL for files where SQLite has no WAL-reset
    bug and the rollback journal elsewhere (:mod:`mimomem.common.journal`), a busy timeout so
    concurrent writers wait instead of failing.
    """
    target = os.fspath(path)
    if target != ":memory:":
        private_database(target)  # 0600 in a 0700 folder, before SQLite makes it 0644
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        with reporting_corruption(target):
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            refuse_foreign(conn, target)  # before the journal mode: switching it would change the file
            if target != ":memory:":
                use_journal(conn)  # WAL only where SQLite has no WAL-reset bug (mimomem.common.journal)
            migrate(conn)
            ensure_tokenizers(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def refuse_foreign(conn: sqlite3.Connection, target: str) -> None:
    """Refuse a database that holds tables but not the index's (another program's): never migrate into it."""
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if names and "memory_fts" not in names:
        raise ForeignDatabaseError(
            f"{target} holds tables but is not a mimomem index database; pass another --db (that file was not changed)"
        )


class transaction:
    """``with transaction(conn):`` - BEGIN IMMEDIATE ... COMMIT, ROLLBACK on error.

    ``wait_ms`` bounds how long BEGIN waits for another writer (default: the busy timeout).
    """

    def __init__(self, conn: sqlite3.Connection, *, wait_ms: int | None = None) -> None:
        self.conn = conn
        self.wait_ms = wait_ms

    def __enter__(self) -> sqlite3.Connection:
        if self.wait_ms is None:
            self.conn.execute("BEGIN IMMEDIATE")
            return self.conn
        self.conn.execute(f"PRAGMA busy_timeout = {int(self.wait_ms)}")
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        finally:
            self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return self.conn

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.conn.execute("COMMIT")
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


# --- schema -------------------------------------------------------------------------


def fts_sql(spec: IndexSpec) -> list[str]:
    """CREATE statements for one external-content index and its three triggers."""
    t, col, p = spec.table, spec.column, spec.trigger_prefix
    tokenize = spec.tokenize.replace('"', '""')
    return [
        f"CREATE VIRTUAL TABLE {t} USING fts5({col}, content='memory_fts', content_rowid='id', "
        f'tokenize="{tokenize}")',
        f"CREATE TRIGGER {p}_ai AFTER INSERT ON memory_fts BEGIN "
        f"INSERT INTO {t}(rowid, {col}) VALUES (NEW.id, NEW.{col}); END",
        f"CREATE TRIGGER {p}_ad AFTER DELETE ON memory_fts BEGIN "
        f"INSERT INTO {t}({t}, rowid, {col}) VALUES ('delete', OLD.id, OLD.{col}); END",
        f"CREATE TRIGGER {p}_au AFTER UPDATE OF {col} ON memory_fts BEGIN "
        f"INSERT INTO {t}({t}, rowid, {col}) VALUES ('delete', OLD.id, OLD.{col}); "
        f"INSERT INTO {t}(rowid, {col}) VALUES (NEW.id, NEW.{col}); END",
    ]


def drop_fts_sql(spec: IndexSpec) -> list[str]:
    p = spec.trigger_prefix
    return [f"DROP TRIGGER IF EXISTS {p}_{s}" for s in ("ai", "ad", "au")] + [f"DROP TABLE IF EXISTS {spec.table}"]


def _migrate_1(conn: sqlite3.Connection) -> None:
    """MiMo-Code's memory_fts (v6.1.1): content table, unicode61 index, 'delete' triggers."""
    conn.execute(
        "CREATE TABLE memory_fts ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " path TEXT NOT NULL UNIQUE,"
        " scope TEXT NOT NULL,"
        " scope_id TEXT NOT NULL DEFAULT '',"
        " type TEXT NOT NULL,"
        " body TEXT NOT NULL,"
        " fingerprint TEXT NOT NULL,"
        " last_indexed_at INTEGER NOT NULL)"
    )
    conn.execute("CREATE INDEX memory_fts_scope_idx ON memory_fts(scope, scope_id)")
    conn.execute("CREATE INDEX memory_fts_type_idx ON memory_fts(type)")
    spec = INDEXES["fts5-unicode61"]
    sql = fts_sql(spec)
    sql[3] = sql[3].replace(f"AFTER UPDATE OF {spec.column} ON", "AFTER UPDATE ON")  # MiMo's trigger
    for stmt in sql:
        conn.execute(stmt)


def _migrate_2(conn: sqlite3.Connection) -> None:
    """Bookkeeping: ``meta`` key/values and ``file_issues`` (skipped / problem files)."""
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute(
        "CREATE TABLE file_issues ("
        " path TEXT PRIMARY KEY,"
        " kind TEXT NOT NULL,"  # 'skipped' (not indexed) or 'warning' (indexed, with a problem)
        " reason TEXT NOT NULL)"
    )
    conn.executemany(
        "INSERT INTO meta(key, value) VALUES (?, ?)",
        [("generation", "0"), ("epoch", "0"), ("tokenizer:fts5-unicode61", UNICODE61_SPEC)],
    )


def _migrate_3(conn: sqlite3.Connection) -> None:
    """The bigram shadow column and its FTS5 index; unicode61 trigger on body only."""
    uni = INDEXES["fts5-unicode61"]
    conn.execute(f"DROP TRIGGER {uni.trigger_prefix}_au")
    conn.execute(fts_sql(uni)[3])
    conn.execute("ALTER TABLE memory_fts ADD COLUMN tokens TEXT NOT NULL DEFAULT ''")
    rows = conn.execute("SELECT id, body FROM memory_fts").fetchall()
    conn.executemany("UPDATE memory_fts SET tokens = ? WHERE id = ?", [(shadow_tokens(b), i) for i, b in rows])
    create_index(conn, "fts5-bigram")
    bump(conn, "epoch")
    bump(conn, "generation")


def _migrate_4(conn: sqlite3.Connection) -> None:
    """Covering index for the reconcile's fingerprint scan."""
    conn.execute("CREATE INDEX memory_fts_fingerprint_idx ON memory_fts(path, fingerprint)")


def _migrate_5(conn: sqlite3.Connection) -> None:
    """The unicode61 baseline becomes lazy: dropped (it is a cache), rebuilt by its first query."""
    for backend in LAZY:
        for stmt in drop_fts_sql(INDEXES[backend]):
            conn.execute(stmt)
        conn.execute("DELETE FROM meta WHERE key = ?", (f"tokenizer:{backend}",))


_Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: tuple[_Migration, ...] = (_migrate_1, _migrate_2, _migrate_3, _migrate_4, _migrate_5)
"""``MIGRATIONS[k]`` takes a database from version ``k`` to ``k + 1``."""


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version stored in the database (0 for a new one)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Apply the forward migrations up to ``target``; returns the version reached.

    Each step runs in its own IMMEDIATE transaction and re-reads the version inside it,
    so two processes opening an old database at once apply every step exactly once.
    """
    if target > len(MIGRATIONS):
        raise ValueError(f"no migration to schema version {target}; latest is {len(MIGRATIONS)}")
    version = user_version(conn)
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"the index database has schema version {version} but this mimomem knows only up to "
            f"{SCHEMA_VERSION}; upgrade mimomem, or delete the database file (it is a cache and is "
            f"rebuilt from the memory files)"
        )
    while version < target:
        with transaction(conn):
            version = user_version(conn)
            if version >= target:
                break
            MIGRATIONS[version](conn)
            version += 1
            conn.execute(f"PRAGMA user_version = {version}")
    return version


def create_index(conn: sqlite3.Connection, backend: str) -> None:
    """Create one FTS5 index and its triggers, fill it from the table, record its tokenizer."""
    spec = INDEXES[backend]
    for stmt in fts_sql(spec):
        conn.execute(stmt)
    conn.execute(f"INSERT INTO {spec.table}({spec.table}) VALUES ('rebuild')")
    set_meta(conn, f"tokenizer:{backend}", tokenizer_ids()[backend])


def _stale(conn: sqlite3.Connection, backend: str, wanted: str) -> bool:
    """Whether ``backend``'s index was built with another tokenizer (a lazy one not built yet is not)."""
    recorded = get_meta(conn, f"tokenizer:{backend}")
    return recorded != wanted and not (recorded is None and backend in LAZY)


def ensure_tokenizers(conn: sqlite3.Connection) -> list[str]:
    """Rebuild every built index whose recorded tokenizer differs from the current one.

    Returns the backends rebuilt.  For the bigram index this re-tokenizes every body
    into the shadow column and bumps ``epoch`` so in-memory scans reload.
    """
    wanted = tokenizer_ids()
    stale = [b for b, ident in wanted.items() if _stale(conn, b, ident)]
    if not stale:
        return []
    rebuilt = []
    with transaction(conn):
        for backend in stale:
            if not _stale(conn, backend, wanted[backend]):
                continue  # another process rebuilt it while we waited for the lock
            for stmt in drop_fts_sql(INDEXES[backend]):
                conn.execute(stmt)
            if backend == "fts5-bigram":
                rows = conn.execute("SELECT id, body FROM memory_fts").fetchall()
                conn.executemany(
                    "UPDATE memory_fts SET tokens = ? WHERE id = ?", [(shadow_tokens(b), i) for i, b in rows]
                )
                bump(conn, "epoch")
            create_index(conn, backend)
            rebuilt.append(backend)
        if rebuilt:
            bump(conn, "generation")
    return rebuilt


# --- meta ---------------------------------------------------------------------------


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    """A value from ``meta`` or None."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Insert or replace one ``meta`` value."""
    conn.execute(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value)
    )


def bump(conn: sqlite3.Connection, key: str) -> None:
    """Add one to the integer ``meta`` value ``key`` (``generation``, ``epoch``)."""
    conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = ?", (key,))


def generation(conn: sqlite3.Connection) -> tuple[int, int]:
    """``(epoch, generation)``: generation moves on every content change, epoch on re-tokenizing."""
    rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('epoch', 'generation')").fetchall())
    return int(rows.get("epoch", 0)), int(rows.get("generation", 0))


__all__ = [
    "INDEXES",
    "LAZY",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "SchemaTooNewError",
    "bigram_tokenizer_id",
    "bump",
    "connect",
    "create_index",
    "database_file",
    "ensure_tokenizers",
    "generation",
    "get_meta",
    "is_corrupt",
    "migrate",
    "reporting_corruption",
    "set_meta",
    "shadow_tokens",
    "tokenizer_ids",
    "transaction",
    "user_version",
]
