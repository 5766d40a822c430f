"""Import Claude Code transcripts (``~/.claude/projects/<slug>/<session>.jsonl``) into the history store.

Only reads them.  Incremental: each file is read from the byte offset the last import
stopped at (a replaced or shortened file is read again from the start).  User text and
assistant text become text parts; a ``tool_use`` block becomes a tool part that its
``tool_result`` completes (``is_error`` marks failures).  Text the harness injected
(``isMeta`` lines, compaction summaries, ``<command-...>`` wrappers) is kept but marked
synthetic, so evidence queries never mistake it for the user's words.  Lines of unknown
type, and blocks or shapes this importer does not know, are skipped and counted.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mimomem.common.redaction import redaction_window
from mimomem.history.history_store import HistoryStore, SourceState
from mimomem.history.jsonl import read_jsonl
from mimomem.history.records import ImportReport, MessageRecord, SessionRecord, TextPart, ToolPart
from mimomem.history.transcript import Block, clean, message_of, queued_prompt
from mimomem.history.validate import MAX_DEPTH, UNEXPECTED, too_deep
from mimomem.history.writes import Writes

ORIGIN = "claude-code"
CONFIG_ENV = "CLAUDE_CONFIG_DIR"
IGNORED_TYPES = frozenset(
    {
        "system",
        "file-history-snapshot",
        "permission-mode",
        "progress",
        "queue-operation",
        "attachment",
        "custom-title",
        "last-prompt",
        "agent-name",
        "tag",
        "api-request",
        "api-request-blob",
        "api-request-route",
        "api-request-shape",
        "atis-latch",
        "cost-state",
        "tools-used",
    }
)
"""Host line types that carry nothing for memory (Claude Code 2.1.337 writes these): skipped and
counted together on one line (:data:`HOST_LINES`); a ``queued_command`` attachment is the user's
text and is read.  Any other type is named, once, as unknown."""

HOST_LINES = "host lines that carry nothing for memory (attachments, API requests, queue, cost, ...)"
"""The one report line that counts the :data:`IGNORED_TYPES` lines."""


def projects_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$CLAUDE_CONFIG_DIR/projects``, else ``~/.claude/projects``."""
    env = os.environ if env is None else env
    base = env.get(CONFIG_ENV) or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".claude")
    return Path(base) / "projects"


def transcript_files(root: str | os.PathLike[str]) -> list[Path]:
    """Every ``<slug>/*.jsonl`` under ``root`` (and ``*.jsonl`` directly in it), regular files only."""
    base = Path(root)
    found: list[Path] = []
    for pattern in ("*.jsonl", "*/*.jsonl"):
        for path in base.glob(pattern):
            if not path.is_symlink() and path.is_file():
                found.append(path)
    return sorted(found)


def import_claude_code(
    store: HistoryStore, root: str | os.PathLike[str] | None = None, *, files: list[Path] | None = None
) -> ImportReport:
    """Import every transcript under ``root`` (default :func:`projects_dir`), or just ``files``."""
    report = ImportReport()
    base = Path(root) if root is not None else projects_dir()
    if files is None:
        if not base.is_dir():
            report.problems.append(f"no Claude Code transcripts at {base} (set {CONFIG_ENV} or pass the folder)")
            return report
        files = transcript_files(base)
    for path in files:
        try:
            report.merge(import_transcript(store, path))
        except OSError as exc:
            report.problems.append(f"{path}: {exc.strerror or exc}; skipped")
    return report


def import_transcript(store: HistoryStore, path: str | os.PathLike[str]) -> ImportReport:
    """Import what is new in one transcript, in one transaction."""
    key = os.path.abspath(os.fspath(path))
    state = store.source_state(key)
    reader = _Transcript(store, key)
    with store.batch(), redaction_window():
        result = read_jsonl(
            key,
            reader.line,
            offset=state.offset if state else 0,
            head=state.head if state else "",
            on_replaced=lambda: store.forget_source(key),
        )
        reader.flush()
        reader.report.skipped.update(store.checks.take())
        store.save_source(
            SourceState(key, ORIGIN, offset=result.end, head=result.head, size=result.size, mtime_ns=result.mtime_ns),
            now=int(time.time() * 1000),
        )
    report = reader.report
    report.sources = 1
    report.pending_bytes = result.size - result.end
    report.skipped.update(result.skipped)
    if result.replaced:
        report.problems.append(f"{key} was replaced or shortened since the last import; read again from the start")
    return report


class _Transcript:
    """The lines of one transcript, turned into records as they stream by."""

    def __init__(self, store: HistoryStore, source: str) -> None:
        self.store = store
        self.source = source
        self.default_sid = Path(source).stem
        self.report = ImportReport()
        self.sessions: dict[str, dict[str, Any]] = {}
        self.writes = Writes(store)

    def line(self, offset: int, obj: dict[str, Any]) -> None:
        """One line, isolated: a line that cannot be turned into records is skipped with its reason."""
        kind = obj.get("type")
        if not isinstance(kind, str):
            self.report.skipped["line whose type is not a string"] += 1
        elif too_deep(obj):
            self.report.skipped[f"line nested deeper than {MAX_DEPTH} levels"] += 1
        else:
            try:
                self.record(offset, obj, kind)
            except UNEXPECTED as exc:  # a shape nobody foresaw: skip this line, never the rest
                self.report.skipped[f"line not importable ({type(exc).__name__})"] += 1

    def record(self, offset: int, obj: dict[str, Any], kind: str) -> None:
        if kind in ("user", "assistant") or queued_prompt(obj) is not None:
            self.message(offset, obj, "user" if kind == "attachment" else kind)
        elif kind == "summary":
            self.summary(obj)
        elif kind in IGNORED_TYPES:
            self.report.skipped[HOST_LINES] += 1
        else:
            self.report.skipped[f"unknown line type {str(kind)[:40]!r}"] += 1

    def session_of(self, obj: dict[str, Any], sid: str, when: int | None) -> str:
        info = self.sessions.setdefault(sid, {"cwd": None, "first": None, "last": None, "title": None})
        if isinstance(obj.get("cwd"), str) and info["cwd"] is None:
            info["cwd"] = clean(obj["cwd"])
        if when is not None:
            info["first"] = when if info["first"] is None else min(info["first"], when)
            info["last"] = when if info["last"] is None else max(info["last"], when)
        return sid

    def summary(self, obj: dict[str, Any]) -> None:
        if isinstance(obj.get("summary"), str) and self.sessions:
            next(reversed(self.sessions.values()))["title"] = clean(obj["summary"][:200])

    def flush(self) -> None:
        """Write what is buffered, then the sessions seen."""
        self.writes.flush()
        self.report.parts += self.writes.parts
        self.report.messages += self.writes.messages
        self.report.results += self.writes.results
        if self.writes.unmatched:
            self.report.skipped["tool result without its call"] += self.writes.unmatched
        for sid, info in self.sessions.items():
            record = SessionRecord(
                sid,
                ORIGIN,
                self.source,
                cwd=info["cwd"],
                title=info["title"],
                started_at=info["first"],
                updated_at=info["last"],
            )
            self.report.sessions += self.store.put_session(record)

    def message(self, offset: int, obj: dict[str, Any], kind: str) -> None:
        msg = message_of(obj, default_sid=self.default_sid, offset=offset, skips=self.report.skipped)
        if msg is None:
            return
        sid = self.session_of(obj, msg.session_id, msg.time)
        record = MessageRecord(msg.uuid, sid, kind, "sidechain" if msg.sidechain else "main", msg.time)
        wrote = False
        for index, block in enumerate(msg.blocks):
            wrote = self.block(record, index, block) or wrote
        if wrote:
            self.writes.message(record, source=self.source)

    def block(self, msg: MessageRecord, index: int, block: Block) -> bool:
        """Store one content block; True when it became a part of ``msg``."""
        uid = f"{msg.id}#{index}"
        if block.kind == "text":
            self.writes.text(TextPart(uid, msg.id, msg.session_id, block.text, block.injected, msg.time))
            return True
        if block.kind == "tool_use":
            part = ToolPart(
                uid,
                msg.id,
                msg.session_id,
                block.tool or "?",
                block.call_id,
                json.dumps(block.input, ensure_ascii=False, sort_keys=True),
                time=msg.time,
            )
            self.writes.tool(part)
            return True
        if block.kind == "tool_result":
            if block.call_id is not None:
                self.writes.finish(
                    msg.session_id, block.call_id, ok=not block.is_error, text=block.text, end_time=msg.time
                )
            else:
                self.report.skipped["tool result without its call"] += 1
        return False
