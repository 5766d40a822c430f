"""What a value is, whatever form it is written in, and which value a change says it replaces.

- A quantity is its amount in the unit of its dimension: ``5분``, ``300s`` and ``5 minutes`` are
  one duration (300 seconds), ``25 MB`` and ``25600 KB`` one size; a count (``4개``, ``3 台``) is
  its number.  Two items about the same thing that give the same amount in other units say the
  same thing: the newer wording stands, the older is not shown beside it.
- A host with its port (``api.example.internal:8080``) is two values: where (the host) and the
  port, so a later "the API port is 9090" is compared with the port.
- A change often names the value it replaces, and then the grammar says which is the old one:
  ``from A to B``, ``A -> B``, ``instead of A``, ``no longer A``, ``从 A 换成 B``, ``不再用 A``,
  ``A から B に``, ``A에서 B로``, ``A 는 더 이상 안 써요``.  The slot is read by its position, so
  ``yarn`` is a value there although nothing in its form says so.
"""

from __future__ import annotations

import functools
import re

_SECONDS = {
    **dict.fromkeys(("ms",), 0.001),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "秒", "秒钟", "초"), 1.0),
    **dict.fromkeys(("min", "mins", "minute", "minutes", "分", "分钟", "分間", "분"), 60.0),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "小时", "時間", "时", "시간"), 3600.0),
    **dict.fromkeys(("d", "day", "days", "天", "日", "日間", "일"), 86400.0),
    **dict.fromkeys(("week", "weeks", "周", "週間", "주"), 604800.0),
}
_BYTES = {"k": 1024.0, "m": 1024.0**2, "g": 1024.0**3, "t": 1024.0**4}
_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*(.*)")


def quantity(kind: str, text: str) -> tuple[str, str]:
    """(kind, value) of a quantity found by form: its amount in seconds or bytes, a count as a number."""
    found = _AMOUNT.fullmatch(text.strip())
    if not found:
        return kind, text
    amount, unit = float(found.group(1)), found.group(2).strip()
    if kind == "qty:time" and unit.casefold() in _SECONDS:
        return kind, f"{amount * _SECONDS[unit.casefold()]:g}s"
    if kind == "qty:bytes" and unit[:1].casefold() in _BYTES:
        return kind, f"{amount * _BYTES[unit[:1].casefold()]:g}b"
    if kind == "qty:count":
        return ("qty:percent", f"{amount:g}%") if unit == "%" else ("number", f"{amount:g}")
    return kind, text


def split_port(value: str) -> tuple[str, str] | None:
    """(host, port) of ``host:port``; None for a host without a port."""
    host, sep, port = value.rpartition(":")
    return (host, port) if sep and host and port.isdigit() else None


_UNIT = "|".join(sorted(_SECONDS, key=len, reverse=True)) + r"|[KMGT]i?B|[kmgt]b|个|台|条|次|件|개|명|대|回|%"
_SLOT = rf"(?<![A-Za-z0-9_.:/@#+~-])[A-Za-z0-9#/~][A-Za-z0-9_.:/@#+~-]*(?:(?<=\d)\s?(?:{_UNIT})(?![A-Za-z]))?"
"""A value in a change's slot: a word, name, number, host or path (a number keeps its unit)."""
_OLD = f"(?P<old>{_SLOT})"
_VERB = r"(?:\s+(?:the\s+)?[a-z]+(?:s|ed|ing)?)?"
_FRAMES = tuple(
    (re.compile(frame, re.I), strict)
    for frame, strict in (
        (rf"\bfrom\s+{_OLD}\s+(?:to|into|over to)\b", False),
        (rf"{_OLD}\s*(?:->|→|=>)\s*\S", False),
        (rf"\b(?:instead of|rather than|replac(?:ed|ing))\s+(?:the\s+)?{_OLD}", False),
        (rf"\b(?:no longer|no more|not any ?more){_VERB}\s+(?:on\s+|in\s+|at\s+|with\s+)?{_OLD}", True),
        (
            rf"{_OLD}\s+(?:is|are|was|were|has been|have been)\s+(?:gone|retired|deprecated|dropped|removed"
            r"|decommissioned|no longer used|not used any ?more|closed|shut down|turned off|switched off)\b",
            False,
        ),
        (
            rf"从\s*{_OLD}\s*(?:换成|改成|改为|改到|换到|切到|切换到|迁到|迁移到|升级到|升到|降到|调到|调成|变成|变为)",
            False,
        ),
        (rf"不再(?:用|使用|走)?\s*{_OLD}", False),
        (rf"{_OLD}\s*(?:不用了|下线了|废弃了|停用了|弃用了|关掉了|关闭了|关了|停掉了|不能用了)", False),
        (rf"{_OLD}\s*(?:から|より)\s*\S+?\s*(?:に|へ)", False),
        (
            rf"{_OLD}\s*(?:は|を)?\s*(?:もう)?\s*(?:使わない|使っていない|使いません|使えません|使えなくな|廃止|やめ|閉じ)",
            False,
        ),
        (rf"{_OLD}\s*에서\s*\S+?\s*(?:으로|로)", False),
        (rf"{_OLD}\s*(?:은|는|을|를)?\s*(?:더\s*이상|이제)\s*(?:안\s*(?:써|쓰)|사용\s*안|쓰지\s*않)", False),
        (rf"{_OLD}\s*(?:은|는|이|가)?\s*(?:이제\s*)?닫(?:았|혔)", False),
    )
)
"""Frames of a change that name the value it replaces, in English, Chinese, Japanese and Korean; a
strict frame ("no longer allows X") takes only a slot that looks like a value (a capital, a digit,
a dot or a slash in it)."""
_LOOKS_LIKE_VALUE = re.compile(r"[A-Z0-9./:#_-]")


@functools.lru_cache(maxsize=8192)
def replaced_values(text: str) -> frozenset[str]:
    """The values ``text`` says a change replaced or retired (folded; a quantity without its space)."""
    out = set()
    for frame, strict in _FRAMES:
        for found in frame.finditer(text):
            if strict and not _LOOKS_LIKE_VALUE.search(found.group("old")):
                continue
            old = re.sub(r"\s+", "", found.group("old").rstrip(".,;:")).casefold()
            if len(old) >= 2:
                out.add(old)
    return frozenset(out)
