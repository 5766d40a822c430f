"""A credential given in parts: "I'll paste it in two parts. First part: X", then "second part: Y".

A long password pasted in pieces has no label beside each piece but the piece's own name: "first
part", "the rest", 第二段, 後半, 나머지.  Each piece is short (half of a password), shorter than any
value the label rule takes on its own, so it is found by the structure around it: a part named
as a label (a part noun with an ordinal or a half, then a link), a value shaped like a piece of a
chosen password (no spaces, not a word or a number), and a credential named before it, earlier
in the same text or in one of the few texts just before it (the turn before, with the assistant's
reply and tool calls between).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mimomem.common.secret_values import char_classes, is_placeholder

Span = tuple[str, int, int]

_EN_ORDINAL = r"(?:first|second|third|fourth|fifth|last|final|next|other|remaining|1st|2nd|3rd|4th|5th)"
_EN_NOUN = r"(?:part|half|piece|chunk|bit|segment|portion)"
_PART = (
    r"(?i:\b(?:the\s+)?" + _EN_ORDINAL + r"\s+" + _EN_NOUN + r"\b"
    r"|\b" + _EN_NOUN + r"\s*#?\s*(?:[1-9]|one|two|three|four)\b"
    r"|\bthe\s+rest\b(?:\s+of\s+it)?)"
    r"|第\s*[一二三四五六1-6]\s*(?:部分|段|截|节|節|块|塊|半)"
    r"|[前后後上下]半(?:部分|段|截|节|節)?|剩下的(?:部分|那段|那截)?|剩余部分|最后一段|最後一段"
    r"|残り|(?:最初|次|最後|[一二三]つ目)の(?:部分|パート)"
    r"|앞부분|뒷부분|나머지|(?:첫|두|세)\s*번째(?:\s*부분)?"
)
_LINK = r"\s*(?:(?:is|was)\s*:?\s*|[:：=＝]\s*|(?:是|为|為|は|는|은)\s*[:：]?\s*)"
_VALUE = r"(?P<q>[\"'`「『“]?)(?P<value>[!-~]{4,128}?)(?P=q)?(?=[\"'`」』”]?(?:[\s，。；、）,;)]|[.!?](?:\s|$)|$))"
_PATTERN = re.compile(r"(?P<label>" + _PART + r")" + _LINK + _VALUE)

RECENT_TEXTS = 6
"""How many texts back a credential named before a part still counts (the user's turn before, then the
assistant's reply and its tool calls)."""


def piece_ok(value: str) -> bool:
    """A piece of a chosen password or key: mixes classes, is no word, number, path, URL or placeholder."""
    if len(value) < 4 or is_placeholder(value) or "://" in value or value.startswith(("/", "~", "$", "-")):
        return False
    if value.isalpha() or value.isdigit() or re.fullmatch(r"[\d.:\-/]+", value):
        return False
    return char_classes(value) >= 2 and any(c.isdigit() or not c.isalnum() for c in value)


def names_a_credential(text: str) -> bool:
    """Does ``text`` name a credential (a head the label rule knows), anywhere in it?"""
    from mimomem.common.secret_labels import _candidates, _head_at

    low, starts = _candidates(text, True)
    return any(_head_at(text, low, at) is not None for at in starts)


def part_values(text: str, recent: bool) -> Iterator[Span]:
    """The pieces in ``text`` named as parts of a credential: one named earlier in ``text``, or (``recent``)
    in the texts just before it."""
    if not recent and not names_a_credential(text):
        return
    for m in _PATTERN.finditer(text):
        value = m.group("value").rstrip(".,;:!?")
        if not piece_ok(value):
            continue
        if recent or names_a_credential(text[: m.start()]):
            yield "credential-part", m.start("value"), m.start("value") + len(value)


__all__ = ["RECENT_TEXTS", "names_a_credential", "part_values", "piece_ok"]
