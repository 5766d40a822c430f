"""The trajectory history: what agents did, imported read-only from their own records.

- ``history_store``: ``<data>/history.db`` (sessions, messages, parts; bigram FTS5 index), a cache;
- ``history_db``: that file itself: schema, opening (0600, migration, foreign files refused), bulk indexing;
- ``claude_code``, ``agent_db``, ``opencode``: importers for Claude Code transcripts,
  MiMo-Code's (and OpenCode's) SQLite database, and OpenCode's JSON file store;
- ``jsonl``: defensive, incremental reading of append-only JSONL files;
- ``records``: the records importers produce and the import report;
- ``search``: ranked search over the history;
- ``signals``: what one tool call or message says (command, files, statements);
- ``evidence``: the evidence queries the write-back passes are built on;
- ``evidence_items``: what those queries return, each item with its provenance; the promotion rule;
- ``digest``: a deterministic digest of a Claude Code transcript (what compaction must not lose).
"""
