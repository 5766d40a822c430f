"""Record rules of the secret scanner: a credential known by its field in a colon-separated record.

* ``.pgpass``: ``host:port:database:user:password``, one entry a line (a colon or a backslash
  in a field is escaped with a backslash);
* a Telegram bot token: the bot's numeric id, a colon and 35 random characters.

Both rules look for their colons with string methods first and compile their pattern only for
a text that has such a record's outline, so a scan of ordinary text (which has colons) pays
nothing for them.
"""

from __future__ import annotations

from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_values import char_classes, is_placeholder, shannon_entropy

Span = tuple[str, int, int]

_FIELD = r"(?:\\.|[^\s:\\])+"
_PGPASS = lazy(
    r"[ \t]*(?:\*|[A-Za-z0-9.\-]*[A-Za-z][A-Za-z0-9.\-]*|\d{1,3}(?:\.\d{1,3}){3}):(?:\d{1,5}|\*)"
    r":" + _FIELD + r":" + _FIELD + r":(?P<value>" + _FIELD + r")[ \t]*\r?"
)
_TELEGRAM = lazy(r"(?P<value>\d{8,10}:[A-Za-z0-9_\-]{35})(?![A-Za-z0-9_\-])")


def pgpass_passwords(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """The password field of each ``.pgpass`` line (host, port or ``*``, database, user, password)."""
    if prefilter and text.count(":") < 4:
        return
    at = 0
    for line in text.split("\n"):
        if line.count(":") >= 4 or not prefilter:
            m = _PGPASS.fullmatch(line)
            if m is not None:
                value = m.group("value")
                if value != "*" and not is_placeholder(value):
                    yield "pgpass-password", at + m.start("value"), at + m.end("value")
        at += len(line) + 1


def _id_starts(text: str) -> Iterator[int]:
    """Where a run of 8-10 digits ending at a colon starts (the only places a bot token can)."""
    colon = text.find(":")
    while colon != -1:
        start = colon
        while start > 0 and text[start - 1].isdecimal():
            start -= 1
        if 8 <= colon - start <= 10:
            yield start
        colon = text.find(":", colon + 1)


def telegram_tokens(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """``<bot id>:<35 characters>`` where the 35 mix upper and lower case and digits (most start with AA)."""
    for begin in _id_starts(text) if prefilter else range(len(text)):
        before = text[begin - 1] if begin else " "
        if (before.isalnum() or before == ":") and not text.endswith("/bot", 0, begin):
            continue  # inside a longer word or number (or an URL's /bot<id>:<token>, which counts)
        m = _TELEGRAM.match(text, begin)
        if m is not None:
            body = m.group("value").split(":", 1)[1]
            if char_classes(body) >= 3 and shannon_entropy(body) >= 4.0:
                yield "telegram-bot-token", m.start("value"), m.end("value")


RECORD_RULES = (pgpass_passwords, telegram_tokens)

__all__ = ["RECORD_RULES", "pgpass_passwords", "telegram_tokens"]
