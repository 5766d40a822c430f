"""The frontmatter of a new memory file without a YAML emitter, byte for byte what ``frontmatter.serialize`` gives.

A bulk write renders thousands of small headers; the YAML library spends most of that time
deciding, per value, between a plain and a quoted scalar.  ``fast_serialize`` decides only
the cases it is sure of - a plain value (a letter first, then word characters, spaces and
``-./``; not a YAML keyword), a value that must be single-quoted (it holds `` #`` or ``: ``,
ends with a colon or a space, starts with a space or an indicator; or is a memory file's
timestamp) - and returns ``None`` for anything else, which the caller then renders with the
YAML library.  A hypothesis test compares it with ``frontmatter.serialize``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from mimomem.common.frontmatter import FENCE

_PLAIN = re.compile(r"[^\W\d_][\w \-./\x80-\U0010ffff]*")  # one character class: no backtracking
"""A letter, then word characters (any script), spaces, ``-``, ``.``, ``/`` and other non-ASCII characters."""
_KEYWORDS = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null", "nan", "inf"})
"""Words a YAML reader may take for something other than a string (compared case-folded)."""
_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_KEY = re.compile(r"[a-z][a-z_]*")
_QUOTE_FIRST = frozenset("#,[]{}&*!|>'\"%@` ")
_MAX_FAST = 4096


def scalar(value: str) -> str | None:
    """``value`` as the YAML dumper writes it, or ``None`` when unsure."""
    if not value:
        return "''"
    if len(value) > _MAX_FAST or not value.isprintable():
        return None
    if not value.isascii() and max(value) > "\uffff":  # libyaml escapes these ("\U0001F680"): not sure
        return None
    if _PLAIN.fullmatch(value) and value[-1] != " " and value.casefold() not in _KEYWORDS:
        return value
    if _TIMESTAMP.fullmatch(value) or " #" in value or ": " in value or value[-1] in ": " or value[0] in _QUOTE_FIRST:
        return "'" + value.replace("'", "''") + "'"
    return None


def _entry(key: str, value: Any) -> str | None:
    if value is None:
        return f"{key}: null"
    if value is True or value is False:
        return f"{key}: {'true' if value else 'false'}"
    if isinstance(value, str):
        text = scalar(value)
        return None if text is None else f"{key}: {text}"
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        if not value:
            return f"{key}: []"
        items = [scalar(v) for v in value]
        if any(item is None for item in items):
            return None
        return "\n".join([f"{key}:", *(f"- {item}" for item in items)])
    return None


def fast_serialize(meta: Mapping[str, Any], body: str) -> str | None:
    """``frontmatter.serialize(meta, body)`` when every value is one ``scalar`` is sure of, else ``None``."""
    lines = [FENCE]
    for key, value in meta.items():
        if not isinstance(key, str) or not _KEY.fullmatch(key) or key in _KEYWORDS:
            return None
        entry = _entry(key, value)
        if entry is None:
            return None
        lines.append(entry)
    lines.append(FENCE)
    body = body if body.endswith("\n") or not body else body + "\n"
    return "\n".join(lines) + "\n" + body


__all__ = ["fast_serialize", "scalar"]
