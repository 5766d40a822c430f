"""Import OpenCode's history: its SQLite database, or the JSON files of older versions.

Newer OpenCode keeps ``opencode.db`` (tables ``session`` / ``message`` / ``part``, read by
:mod:`mimomem.history.agent_db`).  Older versions wrote one JSON file per record under
``<data>/storage/``::

    session/<projectID>/<sessionID>.json   id, directory, title, parentID, time{created, updated}
    message/<sessionID>/<messageID>.json   id, sessionID, role, time{created}
    part/<messageID>/<partID>.json         id, sessionID, messageID, type, text | tool, callID, state

Given a directory, both are imported when present (records share ids, so nothing is
counted twice).  The file store is read incrementally by modification time; files are
only read.  A file that is not a JSON object is skipped and counted.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from mimomem.errors import HistorySourceError
from mimomem.history.agent_db import IGNORED_PARTS, import_agent_db, tool_part
from mimomem.history.history_store import HistoryStore, SourceState
from mimomem.history.records import ImportReport, MessageRecord, SessionRecord, TextPart, parse_time
from mimomem.history.validate import MAX_DEPTH, UNEXPECTED, too_deep

ORIGIN = "opencode"
MAX_FILE = 8 * 1024 * 1024
"""A record file larger than this is skipped (OpenCode's are a few kilobytes)."""


def opencode_dir(env: Mapping[str, str] | None = None) -> Path:
    """OpenCode's data directory: ``$XDG_DATA_HOME/opencode`` or ``~/.local/share/opencode``."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_DATA_HOME", "")
    base = (
        Path(xdg) if xdg and os.path.isabs(xdg) else Path(env.get("HOME") or os.path.expanduser("~")) / ".local/share"
    )
    return base / "opencode"


def import_opencode(store: HistoryStore, path: str | os.PathLike[str] | None = None) -> ImportReport:
    """Import ``path``: an ``opencode.db`` file, a ``storage`` directory, or the data directory holding them."""
    given = Path(path) if path is not None else opencode_dir()
    if given.is_file():
        return import_agent_db(store, given, origin=ORIGIN)
    if not given.is_dir():
        raise HistorySourceError(f"no OpenCode data at {given}; pass opencode.db, its storage/ folder or data folder")
    report = ImportReport()
    found = False
    if (given / "opencode.db").is_file():
        found = True
        report.merge(import_agent_db(store, given / "opencode.db", origin=ORIGIN))
    storage = given if (given / "session").is_dir() else given / "storage"
    if (storage / "session").is_dir():
        found = True
        report.merge(import_storage(store, storage))
    if not found:
        raise HistorySourceError(
            f"{given} holds neither opencode.db nor storage/session/; pass OpenCode's data folder "
            "(~/.local/share/opencode) or one of those"
        )
    return report


def _json_files(directory: Path, since_ns: int) -> Iterator[tuple[Path, int]]:
    """``*.json`` one level below ``directory`` (``<group>/<id>.json``) changed at or after ``since_ns``."""
    try:
        groups = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        return
    for group in groups:
        if not group.is_dir(follow_symlinks=False):
            continue
        try:
            entries = sorted(os.scandir(group.path), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".json") and entry.is_file(follow_symlinks=False):
                mtime = entry.stat(follow_symlinks=False).st_mtime_ns
                if mtime >= since_ns:
                    yield Path(entry.path), mtime


def _load(path: Path, report: ImportReport) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > MAX_FILE:
            report.skipped["record file larger than 8 MiB"] += 1
            return None
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        report.skipped["record file not readable JSON"] += 1
        return None
    if too_deep(data):
        report.skipped[f"record file nested deeper than {MAX_DEPTH} levels"] += 1
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        report.skipped["record file without an id"] += 1
        return None
    return data


def import_storage(store: HistoryStore, storage: Path) -> ImportReport:
    """Import OpenCode's JSON file store at ``storage`` (changed files only)."""
    key = os.path.abspath(storage)
    state = store.source_state(key)
    since = state.watermark if state else 0
    report = ImportReport(sources=1)
    newest = since
    subagents: set[str] = set()
    with store.batch():
        for kind in ("session", "message", "part"):
            if kind == "message":
                subagents |= {r[0] for r in store.conn.execute("SELECT id FROM sessions WHERE parent_id IS NOT NULL")}
            for path, mtime in _json_files(storage / kind, since):
                newest = max(newest, mtime)
                data = _load(path, report)
                if data is None:
                    continue
                try:
                    _record(store, kind, data, key, subagents, report)
                except UNEXPECTED as exc:  # one odd record file: skip it, go on
                    report.skipped[f"{kind} record not importable ({type(exc).__name__})"] += 1
        report.skipped.update(store.checks.take())
        store.save_source(SourceState(key, ORIGIN, watermark=newest), now=int(time.time() * 1000))
    return report


def _record(
    store: HistoryStore, kind: str, data: dict[str, Any], key: str, subagents: set[str], report: ImportReport
) -> None:
    raw_time = data.get("time")
    times: dict[str, Any] = raw_time if isinstance(raw_time, dict) else {}
    if kind == "session":
        if isinstance(data.get("parentID"), str) and data["parentID"]:
            subagents.add(data["id"])
        record = SessionRecord(
            data["id"],
            ORIGIN,
            key,
            cwd=data.get("directory"),
            title=data.get("title"),
            parent_id=data.get("parentID"),
            started_at=parse_time(times.get("created")),
            updated_at=parse_time(times.get("updated")),
        )
        report.sessions += store.put_session(record)
    elif kind == "message":
        sid = str(data.get("sessionID") or "")
        if not isinstance(data.get("role"), str) or data["role"] not in ("user", "assistant") or not sid:
            report.skipped["message without role or session"] += 1
            return
        agent = "subagent" if sid in subagents else "main"
        message = MessageRecord(data["id"], sid, data["role"], agent, parse_time(times.get("created")))
        report.messages += store.put_message(message, source=key)
    else:
        _part(store, data, report)


def _part(store: HistoryStore, data: dict[str, Any], report: ImportReport) -> None:
    kind = data.get("type") if isinstance(data.get("type"), str) else None
    mid, sid = str(data.get("messageID") or ""), str(data.get("sessionID") or "")
    uid = f"{ORIGIN}:{data['id']}"
    when = parse_time((data.get("time") or {}).get("start")) if isinstance(data.get("time"), dict) else None
    if kind == "text" and isinstance(data.get("text"), str):
        synthetic = bool(data.get("synthetic") or data.get("ignored"))
        report.parts += store.put_text(TextPart(uid, mid, sid, data["text"], synthetic, when))
    elif kind == "tool":
        report.parts += store.put_tool(tool_part(uid, mid, sid, data, when))
    elif kind == "text":
        report.skipped["text part whose text is not a string"] += 1
    elif kind not in IGNORED_PARTS:
        report.skipped[f"unknown part type {str(kind)[:40]!r}"] += 1
