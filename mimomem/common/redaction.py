"""The one redaction point: text that came from a transcript, before mimomem keeps or shows it.

A transcript holds whatever passed through a session: keys the user pasted, a token a
command printed, a password in a connection string.  Everything mimomem derives from it
(the session notes, promotion into ``MEMORY.md``, the promotion state and session briefs,
the history database, reports, hook and MCP output) is made from text that went through
:func:`redact` where it entered: the transcript reader
(:mod:`mimomem.history.transcript`) and the history store's rows
(:mod:`mimomem.history.history_store`, for every importer).  Each likely secret the
scanner (:mod:`mimomem.common.secrets`) finds becomes ``[redacted <kind>]``; what is
redacted is never stored anywhere, so nothing downstream can leak it.

A line that carried a secret keeps its marker, so a pass can tell (:func:`was_redacted`)
and refuse to promote it as a rule: "deploy with this key: [redacted ...]" is no rule.
"""

from __future__ import annotations

MARK = "[redacted "
"""How a redacted span starts (``[redacted <kind>]``)."""

_SEEN: dict[str, str] = {}
"""Texts redacted in this process: ``SessionEnd`` reads one transcript twice (digest, promotion)."""
_SEEN_LIMIT = 8 << 20
"""Characters remembered before the memo starts over."""
_seen_chars = 0


def redact(text: str) -> str:
    """``text`` with every likely secret replaced by ``[redacted <kind>]`` (idempotent)."""
    global _seen_chars
    if not text:
        return text
    done = _SEEN.get(text)
    if done is not None:
        return done
    from mimomem.common.secrets import redact_secrets  # the scanner: only when there is text to scan

    done = redact_secrets(text)
    if _seen_chars + len(text) > _SEEN_LIMIT:
        _SEEN.clear()
        _seen_chars = 0
    _SEEN[text] = done
    _seen_chars += len(text)
    return done


def was_redacted(text: str) -> bool:
    """True when ``text`` holds a span :func:`redact` replaced."""
    return MARK in text


__all__ = ["MARK", "redact", "was_redacted"]
