-- Schema version 2 of the mimomem index database, frozen: what v2 adds to a v1 database.
-- Read off sqlite_master after migrate(conn, 2) at commit 2e6c048^ (mimomem/db.py, SCHEMA_VERSION 3);
-- FTS5 makes its own shadow tables. Never regenerate from current code: this is what old databases hold.
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE file_issues ( path TEXT PRIMARY KEY, kind TEXT NOT NULL, reason TEXT NOT NULL);
INSERT INTO meta(key, value) VALUES ('generation', '0');
INSERT INTO meta(key, value) VALUES ('epoch', '0');
INSERT INTO meta(key, value) VALUES ('tokenizer:fts5-unicode61', 'unicode61 remove_diacritics 1');
PRAGMA user_version = 2;
