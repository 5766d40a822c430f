-- Schema version 3 of the mimomem index database, frozen: what v3 does to a v2 database (rows get their shadow tokens from the writer).
-- Read off sqlite_master after migrate(conn, 3) at commit 2e6c048^ (mimomem/db.py, SCHEMA_VERSION 3);
-- FTS5 makes its own shadow tables. Never regenerate from current code: this is what old databases hold.
DROP TRIGGER memory_fts_au;
CREATE TRIGGER memory_fts_au AFTER UPDATE OF body ON memory_fts BEGIN INSERT INTO memory_fts_idx(memory_fts_idx, rowid, body) VALUES ('delete', OLD.id, OLD.body); INSERT INTO memory_fts_idx(rowid, body) VALUES (NEW.id, NEW.body); END;
ALTER TABLE memory_fts ADD COLUMN tokens TEXT NOT NULL DEFAULT '';
CREATE VIRTUAL TABLE memory_bigram_idx USING fts5(tokens, content='memory_fts', content_rowid='id', tokenize="ascii tokenchars '_'");
CREATE TRIGGER memory_bigram_ai AFTER INSERT ON memory_fts BEGIN INSERT INTO memory_bigram_idx(rowid, tokens) VALUES (NEW.id, NEW.tokens); END;
CREATE TRIGGER memory_bigram_ad AFTER DELETE ON memory_fts BEGIN INSERT INTO memory_bigram_idx(memory_bigram_idx, rowid, tokens) VALUES ('delete', OLD.id, OLD.tokens); END;
CREATE TRIGGER memory_bigram_au AFTER UPDATE OF tokens ON memory_fts BEGIN INSERT INTO memory_bigram_idx(memory_bigram_idx, rowid, tokens) VALUES ('delete', OLD.id, OLD.tokens); INSERT INTO memory_bigram_idx(rowid, tokens) VALUES (NEW.id, NEW.tokens); END;
UPDATE meta SET value = '1' WHERE key IN ('generation', 'epoch');
INSERT INTO meta(key, value) VALUES ('tokenizer:fts5-bigram', 'ascii tokenchars ''_''; mimomem-bigram 1 probe-1bfbce58000c2c49');
PRAGMA user_version = 3;
