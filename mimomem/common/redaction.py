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

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

MARK = "[redacted "
"""How a redacted span starts (``[redacted <kind>]``)."""

_SEEN: dict[str, str] = {}
"""Texts redacted in this process: ``SessionEnd`` reads one transcript twice (digest, promotion)."""
_SEEN_LIMIT = 8 << 20
"""Characters remembered before the memo starts over."""
_seen_chars = 0


_BEFORE_CHARS = 120


class Window:
    """What :func:`redact` remembers of the texts it redacted just before, in order (a plain class:
    the hooks' hot path imports this module and never ``dataclasses``)."""

    __slots__ = ("before", "recent")

    def __init__(self) -> None:
        self.before = ""
        """The end of the text redacted last: a label it ended on may have its value in the next text."""
        self.recent: list[bool] = []
        """Whether each of the last texts named a credential (a password pasted in parts)."""


_PROCESS = Window()
"""The window of texts redacted outside :func:`redaction_window` (one process, one stream of texts)."""
_WINDOW: ContextVar[Window | None] = ContextVar("mimomem_redaction_window", default=None)


@contextmanager
def redaction_window() -> Iterator[Window]:
    """A window of its own for one transcript read from start to end: a label that ended one read
    (one session's last turn, or the same transcript read before by another pass) never makes the
    first text of the next read its value.  Per context, so threads and tasks never share one."""
    token = _WINDOW.set(Window())
    try:
        yield _current()
    finally:
        _WINDOW.reset(token)


def _current() -> Window:
    return _WINDOW.get() or _PROCESS


def redact(text: str, before: str | None = None) -> str:
    """``text`` with every likely secret replaced by ``[redacted <kind>]`` (idempotent).

    ``before`` is the text that came just before (a turn asking "What's the admin password?" whose
    answer ``text`` is "it's X"); by default, the text redacted last in the current window
    (:func:`redaction_window`: a transcript is redacted block by block, in order).
    """
    global _seen_chars
    if not text:
        return text
    window = _current()
    prev = window.before if before is None else before[-_BEFORE_CHARS:]
    window.before = text[-_BEFORE_CHARS:]
    answered = _parts(_answered(prev, text), before)
    if answered != text:
        from mimomem.common.secrets import redact_secrets

        return _value_alone(answered) or redact_secrets(answered)
    done = _SEEN.get(text)
    if done is not None:
        return done
    from mimomem.common.secrets import redact_secrets  # the scanner: only when there is text to scan

    done = _value_alone(text) or redact_secrets(text)
    if _seen_chars + len(text) > _SEEN_LIMIT:
        _SEEN.clear()
        _seen_chars = 0
    _SEEN[text] = done
    _seen_chars += len(text)
    return done


ALONE_MIN = 8
"""The shortest token taken as a credential sent on its own."""


def _value_alone(text: str) -> str | None:
    """``text`` redacted when all it holds is one opaque token shaped like a credential, else ``None``.

    A secret split across turns ("the unseal passphrase is in my next message", then a turn holding
    only the value) has no label beside its value, so no rule of the scanner sees it.  A turn, tool
    result or line of text that is nothing but one token mixing upper case, lower case and digits,
    which the scanner would take as a password right after a label, is that value: it is redacted
    whole.  Versions, ports, hex hashes, paths, identifiers made of words stay (the label rule's own
    judgement of a value, plus the three character classes).
    """
    token = text.strip()
    if not ALONE_MIN <= len(token) <= 256 or any(c.isspace() for c in token):
        return None
    named = _named_value_at(token)  # grep's "file:line:" or a "NAME=": the value after it is judged alone
    if named:
        value = _value_alone(token[named:])
        return None if value is None else text.replace(token, token[:named] + value, 1)
    if not (any(c.isupper() for c in token) and any(c.islower() for c in token) and any(c.isdigit() for c in token)):
        return None
    from mimomem.common.secret_labels import label_values

    probe = "password: " + token
    if not any(start == len(probe) - len(token) and stop == len(probe) for _kind, start, stop in label_values(probe)):
        return None
    at = text.index(token)
    return f"{text[:at]}{MARK}credential-alone]{text[at + len(token) :]}"


def _named_value_at(token: str) -> int:
    """Where the value starts in a token that names it: after grep's ``path:line:`` and after a
    ``NAME=`` (``deploy/prod.env:3:WORKER_CONCURRENCY=24``); 0 when nothing names it."""
    at = 0
    first = token.find(":")
    second = token.find(":", first + 1) if first > 0 else -1
    if second > first + 1 and token[first + 1 : second].isdigit():
        at = second + 1
    equals = token.find("=", at)
    name = token[at:equals]
    if equals > at and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c in "_.-" for c in name):
        at = equals + 1
    return at


def _answered(before: str, text: str) -> str:
    """``text`` with the values it gives for a label ``before`` ended on redacted (usually unchanged)."""
    if not before or not any(c.isalpha() for c in before[-40:]):
        return text
    from mimomem.common.secret_clauses import continued

    found = list(continued(before, text[: 2 * _BEFORE_CHARS]))
    if not found:
        return text
    from mimomem.common.secrets import scan_secrets

    own = [(f.line, f.start) for f in scan_secrets(text)]  # a label inside text: its own scan finds it
    out, pos = [], 0
    for kind, start, stop in found:
        line = text.count("\n", 0, start) + 1
        if (line, start - (text.rfind("\n", 0, start) + 1)) in own:
            continue
        out.append(f"{text[pos:start]}{MARK}{kind}]")
        pos = stop
    return "".join(out) + text[pos:] if out else text


def _parts(text: str, before: str | None) -> str:
    """``text`` with the pieces it names as parts of a credential redacted ("second part: X")."""
    from mimomem.common.secret_parts import RECENT_TEXTS, names_a_credential, part_values

    if before is None:
        window = _current().recent
        recent = any(window)
        window.append(names_a_credential(text))
        del window[:-RECENT_TEXTS]
    else:
        recent = bool(before) and names_a_credential(before)
    found = list(part_values(text, recent))
    out, pos = [], 0
    for kind, start, stop in found:
        out.append(f"{text[pos:start]}{MARK}{kind}]")
        pos = stop
    return "".join(out) + text[pos:] if out else text


def was_redacted(text: str) -> bool:
    """True when ``text`` holds a span :func:`redact` replaced."""
    return MARK in text


__all__ = ["MARK", "Window", "redact", "redaction_window", "was_redacted"]
