-- Schema version 4 of the mimomem index database, frozen: what v4 does to a v3 database.
-- Read off migrate(conn, 4) at commit 0f7113b (mimomem/search/db.py, SCHEMA_VERSION 4).
-- Never regenerate from current code: this is what old databases hold.
CREATE INDEX memory_fts_fingerprint_idx ON memory_fts(path, fingerprint);
PRAGMA user_version = 4;
