"""The one reader of Claude Code transcript lines, for the hook digest, promotion and the importer.

A transcript line (one JSON object) becomes a :class:`Message`: role, session, time, id,
and its content blocks, each a :class:`Block` (text, tool call, tool result, or a kind
the caller may skip).  Every string is made writable (a lone UTF-16 surrogate, as a cut
emoji leaves, becomes U+FFFD), every field is type-checked (a wrong type is skipped and
counted, never fatal).  :func:`parts` then says who wrote each piece
(:mod:`mimomem.history.provenance`): the user typed or pasted it, the harness injected it
(``isMeta`` lines, compaction summaries, command and hook wrappers), the model wrote it or
ran a tool, or a tool answered.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mimomem.common.redaction import redact
from mimomem.history.provenance import (
    ASSISTANT,
    INJECTED,
    TOOL_CALL,
    TOOL_RESULT,
    injected_text,
    split_user_text,
)
from mimomem.history.records import parse_time

SKIPPED_BLOCKS = frozenset({"thinking", "redacted_thinking", "image", "document", "server_tool_use"})
"""Content blocks that carry nothing to remember; not counted as unknown."""

INVALID = "invalid"
"""The kind of a block that could not be read (kept so block positions stay the source's)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD, so it can be written as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


@dataclass(frozen=True)
class Block:
    """One content block: ``kind`` is text, tool_use, tool_result, :data:`INVALID`, or another block type."""

    kind: str
    text: str = ""
    tool: str | None = None
    call_id: str | None = None
    input: Any = None
    is_error: bool = False
    injected: bool = False


@dataclass(frozen=True)
class Message:
    """One user or assistant line of a transcript."""

    role: str
    session_id: str
    uuid: str
    time: int | None
    sidechain: bool
    meta: bool
    cwd: str | None
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Part:
    """A piece of a message with its provenance (a :data:`~mimomem.history.provenance.PART_KINDS` kind)."""

    kind: str
    text: str
    session_id: str
    time: int | None
    uuid: str
    tool: str | None = None
    call_id: str | None = None
    input: Any = None
    is_error: bool = False


QUEUED_MODES = (None, "prompt")
"""``commandMode`` of a ``queued_command`` attachment that is a prompt (not a ``!`` shell command)."""


def queued_prompt(obj: dict[str, Any]) -> str | None:
    """The text of a ``queued_command`` attachment line: what the user typed while the agent worked
    (Claude Code 2.1.337 records it only there when the running turn takes it in); ``None`` for any
    other line."""
    attachment = obj.get("attachment") if obj.get("type") == "attachment" else None
    if not isinstance(attachment, dict) or attachment.get("type") != "queued_command":
        return None
    if attachment.get("commandMode") not in QUEUED_MODES:
        return None
    prompt = attachment.get("prompt")
    if isinstance(prompt, list):  # text blocks, as a message's content
        prompt = "\n".join(b["text"] for b in prompt if isinstance(b, dict) and isinstance(b.get("text"), str))
    return prompt if isinstance(prompt, str) and prompt.strip() else None


def message_of(obj: dict[str, Any], *, default_sid: str, offset: int, skips: Counter[str]) -> Message | None:
    """The user or assistant message of one transcript line (a ``queued_command`` attachment is the
    user's typed text); None (counted) when it has none."""
    kind = obj.get("type")
    queued = queued_prompt(obj)
    if queued is not None:
        kind, obj = "user", {**obj, "message": {"role": "user", "content": queued}}
    if kind not in ("user", "assistant"):
        return None
    message = obj.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        skips[f"{kind} line without message content"] += 1
        return None
    sid = obj.get("sessionId")
    uuid = obj.get("uuid")
    cwd = obj.get("cwd")
    meta = obj.get("isMeta") is True or obj.get("isCompactSummary") is True
    blocks = [_block(kind, raw, meta, skips) for raw in content]
    return Message(
        kind,
        clean(sid) if isinstance(sid, str) and sid else default_sid,
        clean(uuid) if isinstance(uuid, str) and uuid else f"{default_sid}@{offset}",
        parse_time(obj.get("timestamp")),
        obj.get("isSidechain") is True,
        meta,
        clean(cwd) if isinstance(cwd, str) else None,
        tuple(blocks),
    )


def _block(role: str, raw: Any, meta: bool, skips: Counter[str]) -> Block:
    kind = raw.get("type") if isinstance(raw, dict) else None
    if not isinstance(raw, dict) or not isinstance(kind, str):
        skips["content block that is not an object with a type"] += 1
        return Block(INVALID)
    if kind == "text":
        text = raw.get("text")
        if not isinstance(text, str):
            skips["text block without a string 'text'"] += 1
            return Block(INVALID)
        text = redact(clean(text))
        return Block("text", text, injected=meta or (role == "user" and injected_text(text)))
    if kind == "tool_use" and role == "assistant":
        name, call = raw.get("name"), raw.get("id")
        return Block(
            "tool_use",
            tool=clean(name) if isinstance(name, str) and name else "?",
            call_id=clean(call) if isinstance(call, str) else None,
            input=_clean_data(raw.get("input")),
        )
    if kind == "tool_result":
        call = raw.get("tool_use_id")
        return Block(
            "tool_result",
            redact(clean(result_text(raw.get("content")))),
            call_id=clean(call) if isinstance(call, str) else None,
            is_error=raw.get("is_error") is True,
        )
    if kind not in SKIPPED_BLOCKS:
        skips[f"unknown content block {kind[:40]!r}"] += 1
        return Block(INVALID)
    return Block(kind)


def _clean_data(data: Any) -> Any:
    """A tool input with every string cleaned and redacted (it is stored and shown as JSON text)."""
    if isinstance(data, str):
        return redact(clean(data))
    try:
        text = json.dumps(data, ensure_ascii=False)
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = clean(text)
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None
    hidden = redact(text)
    if hidden == text:
        return data
    return _redacted_data(data, hidden)


def _redacted_data(data: Any, hidden: str) -> Any:
    """``data`` whose JSON text redacts to ``hidden``: that text parsed back when it still parses
    (the secret was inside a string), else every string redacted on its own, else the text itself."""
    try:
        return json.loads(hidden)
    except (ValueError, RecursionError):
        pass
    each = _redact_strings(data)
    text = json.dumps(each, ensure_ascii=False)
    return each if redact(text) == text else hidden


def _redact_strings(data: Any) -> Any:
    """``data`` (parsed JSON) with every string redacted, keys too."""
    if isinstance(data, str):
        return redact(data)
    if isinstance(data, list):
        return [_redact_strings(v) for v in data]
    if isinstance(data, dict):
        return {redact(k): _redact_strings(v) for k, v in data.items()}
    return data


def result_text(content: Any) -> str:
    """The text of a tool result (a string, or the text blocks of a list)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
        return "\n".join(texts)
    return ""


def parts(message: Message) -> Iterator[Part]:
    """The message's pieces with their provenance: typed / pasted / injected user text, the
    model's text and tool calls, the tools' results."""
    base = (message.session_id, message.time, message.uuid)
    for block in message.blocks:
        if block.kind == "text" and message.role == "user":
            if block.injected:
                yield Part(INJECTED, block.text, *base)
                continue
            for segment in split_user_text(block.text):
                yield Part(segment.kind, segment.text, *base)
        elif block.kind == "text":
            yield Part(ASSISTANT, block.text, *base)
        elif block.kind == "tool_use":
            yield Part(TOOL_CALL, "", *base, tool=block.tool, call_id=block.call_id, input=block.input)
        elif block.kind == "tool_result":
            yield Part(TOOL_RESULT, block.text, *base, call_id=block.call_id, is_error=block.is_error)
