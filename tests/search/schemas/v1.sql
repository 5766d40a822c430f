-- Schema version 1 of the mimomem index database, frozen: MiMo-Code's memory_fts, from an empty database.
-- Read off sqlite_master after migrate(conn, 1) at commit 2e6c048^ (mimomem/db.py, SCHEMA_VERSION 3);
-- FTS5 makes its own shadow tables. Never regenerate from current code: this is what old databases hold.
CREATE TABLE memory_fts ( id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, scope TEXT NOT NULL, scope_id TEXT NOT NULL DEFAULT '', type TEXT NOT NULL, body TEXT NOT NULL, fingerprint TEXT NOT NULL, last_indexed_at INTEGER NOT NULL);
CREATE INDEX memory_fts_scope_idx ON memory_fts(scope, scope_id);
CREATE INDEX memory_fts_type_idx ON memory_fts(type);
CREATE VIRTUAL TABLE memory_fts_idx USING fts5(body, content='memory_fts', content_rowid='id', tokenize="unicode61 remove_diacritics 1");
CREATE TRIGGER memory_fts_ai AFTER INSERT ON memory_fts BEGIN INSERT INTO memory_fts_idx(rowid, body) VALUES (NEW.id, NEW.body); END;
CREATE TRIGGER memory_fts_ad AFTER DELETE ON memory_fts BEGIN INSERT INTO memory_fts_idx(memory_fts_idx, rowid, body) VALUES ('delete', OLD.id, OLD.body); END;
CREATE TRIGGER memory_fts_au AFTER UPDATE ON memory_fts BEGIN INSERT INTO memory_fts_idx(memory_fts_idx, rowid, body) VALUES ('delete', OLD.id, OLD.body); INSERT INTO memory_fts_idx(rowid, body) VALUES (NEW.id, NEW.body); END;
PRAGMA user_version = 1;
