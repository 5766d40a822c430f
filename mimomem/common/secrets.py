"""Secret interception: find likely credentials in text before mimomem writes it.

Every write path in mimomem calls ``ensure_no_secrets`` (or one of its variants for named
fields and appends).  Detection is by shape (``secret_shapes``: private key blocks,
provider tokens, JWTs, credentials in URLs) and by context (``secret_context``: random
values assigned to names such as ``api_key`` or ``PGPASSWORD``, passwords on command
lines, in Markdown tables and in prose) and by keyword (``secret_phrases``: ``--token X``,
cookies, "the token is X", 密码是X); ``secret_values`` holds the tests that drop
placeholders and other look-alikes.  A finding records the kind and position only, never
the value, and every text an error shows (``where``) is redacted first, so error messages
and logs cannot leak what they refuse.

A false positive is overridden by putting the marker ``mimomem:allow-secret``
anywhere on the offending line (for a private key block: on its BEGIN line).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping

from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple
from mimomem.common.secret_commands import OPTION_RULES, decoded_script, encoded_option
from mimomem.common.secret_connect import CONNECT_RULES
from mimomem.common.secret_context import CONTEXT_RULES
from mimomem.common.secret_labels import LABEL_RULES
from mimomem.common.secret_markup import MARKUP_RULES
from mimomem.common.secret_needles import NeedleFinder, needle_text
from mimomem.common.secret_phrases import PHRASE_RULES
from mimomem.common.secret_printed import PRINTED_RULES
from mimomem.common.secret_records import RECORD_RULES
from mimomem.common.secret_shapes import NEEDLES, SHAPE_RULES
from mimomem.common.secret_slots import SLOT_RULES, continued
from mimomem.common.secret_values import (
    GENERIC_MIN_ENTROPY,
    GENERIC_MIN_LEN,
    PASSWORD_MIN_ENTROPY,
    PASSWORD_MIN_LEN,
    shannon_entropy,
)

if TYPE_CHECKING:
    from mimomem.common.secret_shapes import Rule

ALLOW_MARKER = "mimomem:allow-secret"
"""Put this on a line to let that line's would-be secrets through."""

APPEND_CONTEXT_LINES = 8
"""How many lines before an appended text are scanned with it (a secret split over two appends)."""


class SecretFinding(NamedTuple):
    """A likely secret: its kind, 1-based line, 0-based column span on that line, and the field it is in.

    ``field`` names the part of the caller's input (``summary``, ``body``, ``file name``...)
    the line and columns count in; empty when the text is one whole document.
    """

    kind: str
    line: int
    start: int
    end: int
    field: str = ""

    def describe(self) -> str:
        """Human-readable location, e.g. ``github-token in the body on line 3, columns 5-45``."""
        where = f" in the {self.field}" if self.field else ""
        return f"{self.kind}{where} on line {self.line}, columns {self.start + 1}-{self.end}"


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    return starts


_NEEDLES = NeedleFinder(n for needles in NEEDLES.values() for n in needles)
_RULE_NEEDLES = [  # None: the rule always runs (an empty needle is in every text)
    frozenset(NEEDLES[kind]) if kind in NEEDLES and "" not in NEEDLES[kind] else None for kind, *_ in SHAPE_RULES
]
_ALWAYS = tuple(i for i, needles in enumerate(_RULE_NEEDLES) if needles is None)
_RULES_OF: dict[str, frozenset[int]] = {}
"""Per needle, the shape rules it lets run (filled as needles are met: a hook process meets few)."""
_SELECTED: dict[frozenset[str], list[Rule]] = {}


def _rules_of(needle: str) -> frozenset[int]:
    rules = _RULES_OF.get(needle)
    if rules is None:
        rules = _RULES_OF[needle] = frozenset(i for i, ns in enumerate(_RULE_NEEDLES) if ns and needle in ns)
    return rules


def _shape_rules(present: frozenset[str]) -> list[Rule]:
    """The shape rules to run, in order: those with no needles and those with a needle in ``present``."""
    rules = _SELECTED.get(present)
    if rules is None:
        chosen = set(_ALWAYS).union(*(_rules_of(n) for n in present))
        rules = [SHAPE_RULES[i] for i in sorted(chosen)]
        if len(_SELECTED) >= 1024:
            _SELECTED.clear()
        _SELECTED[present] = rules
    return rules


def _iter_raw(text: str) -> Iterator[tuple[str, int, int]]:
    # a rule with needles runs when one of them is in the lower-cased text
    for kind, pattern, group, check in _shape_rules(_NEEDLES.present(needle_text(text))):
        for m in pattern.finditer(text):
            value = m.group(group)
            if check is None or check(value):
                yield kind, m.start(group), m.end(group)
    rules = RECORD_RULES + CONTEXT_RULES + MARKUP_RULES + CONNECT_RULES + PHRASE_RULES + LABEL_RULES + OPTION_RULES
    for rule in rules + PRINTED_RULES + SLOT_RULES:
        yield from rule(text)
    yield from _encoded_commands(text)


def _encoded_commands(text: str) -> Iterator[tuple[str, int, int]]:
    """A PowerShell ``-EncodedCommand`` (Base64 of a UTF-16 script) whose decoded script holds a secret:
    the whole blob (the option rule leaves such a blob to this one, which reads what it says)."""
    low = needle_text(text)
    at = low.find(" -e") if len(low) == len(text) else -1
    while at != -1:
        offset = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at)
        stop = len(text) if stop == -1 else stop
        line = text[offset:stop]
        words = line.split()
        for k in range(len(words) - 1):
            blob = words[k + 1].strip("\"'")
            script = decoded_script(blob) if encoded_option(words[k]) else None
            if script is not None and _spans(script):
                start = line.find(blob)
                yield "secret-in-encoded-command", offset + start, offset + start + len(blob)
        at = low.find(" -e", stop)


def _spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` of every likely secret, sorted; lines with the allow marker are skipped."""
    if not text:
        return []
    starts = _line_starts(text)
    spans: list[tuple[int, int, str]] = []
    allowed: list[tuple[int, int, str]] = []
    for kind, start, end in _iter_raw(text):
        # a more specific detector (earlier) wins over a later one on overlapping spans, an allowed one too
        if any(s < end and start < e for s, e, _ in spans) or any(s < end and start < e for s, e, _ in allowed):
            continue
        idx = bisect_right(starts, start) - 1
        line_end = starts[idx + 1] - 1 if idx + 1 < len(starts) else len(text)
        if _named_public(text[max(starts[idx], start - 48) : start]):
            continue
        if ALLOW_MARKER in text[starts[idx] : line_end]:
            allowed.append((start, end, kind))
            continue
        spans.append((start, end, kind))
    spans = [_wrapped(text, *_grown(text, start, end, kind)) for start, end, kind in spans]
    return sorted(spans + _again(text, spans))


_PUBLIC = ("publickey", "pubkey", "公钥", "公鑰", "公開鍵", "공개키")


def _named_public(before: str) -> bool:
    """Does the label right before a value name a *public* key (``PublicKey = x``, ``ssh_public_key: x``,
    公钥：x)?  A key named public is published on purpose: its value is no secret whatever its shape."""
    if "ub" not in before and "公" not in before and "공" not in before:
        return False
    name = before.rstrip(" \t:=\"'`：＝").lower()
    for c in "_-. ":
        name = name.replace(c, "")
    return name.endswith(_PUBLIC)


_STOPS = frozenset(" \t\r\n\"'`)]}>（）「」，。")
"""Characters that end a value; a comma or a semicolon does only before a space (``Ab3;x9,Qk!`` is one value)."""


def _grown(text: str, start: int, end: int, kind: str) -> tuple[int, int, str]:
    """A span widened over a comma or semicolon with no space after it, both ways: a rule that stopped
    at one (``DB_PASS=Ab3;x9,Q!k``, ``token=Ab3;x9,Qkz…``) would leave the rest of the value behind."""
    if kind == "password-in-csv":
        return start, end, kind  # a field of a comma-separated row ends at its comma
    n = len(text)
    while end + 1 < n and text[end] in ",;" and text[end + 1] not in _STOPS and text[end + 1] not in ",;":
        end += 1
        while end < n and text[end] not in _STOPS and text[end] not in ",;":
            end += 1
    while start >= 2 and text[start - 1] in ",;" and text[start - 2] not in _STOPS and text[start - 2] not in ",;=:":
        at = start - 1
        while at > 0 and text[at - 1] not in _STOPS and text[at - 1] not in ",;=:":
            at -= 1
        start = at
    return start, end, kind


def _wrapped(text: str, start: int, end: int, kind: str) -> tuple[int, int, str]:
    """A token that ends its line goes on over the next lines of its alphabet (wrapped by a terminal)."""
    if end - start >= 16 and text.startswith(("\n", "\r\n"), end) and " " not in text[start:end]:
        end = continued(text, end)
    return start, end, kind


def _again(text: str, spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Every other place a found value stands in ``text``: a key pasted twice, the second time bare."""
    more: list[tuple[int, int, str]] = []
    for start, end, kind in spans:
        value = text[start:end]
        if len(value) < 6:
            continue
        at = text.find(value)
        while at != -1:
            stop = at + len(value)
            line = text[text.rfind("\n", 0, at) + 1 : (text.find("\n", stop) + 1 or len(text) + 1) - 1]
            if ALLOW_MARKER not in line and not any(s < stop and at < e for s, e, _ in spans + more):
                more.append((at, stop, kind))
            at = text.find(value, at + 1)
    return more


def scan_secrets(text: str) -> list[SecretFinding]:
    """Every likely secret in ``text``, in reading order; lines with the allow marker are skipped."""
    starts = _line_starts(text) if text else [0]
    findings: list[SecretFinding] = []
    for start, end, kind in _spans(text):
        idx = bisect_right(starts, start) - 1
        line_start = starts[idx]
        line_end = starts[idx + 1] - 1 if idx + 1 < len(starts) else len(text)
        findings.append(SecretFinding(kind, idx + 1, start - line_start, min(end, line_end) - line_start))
    return findings


def redact_secrets(text: str) -> str:
    """``text`` with every likely secret replaced by ``[redacted <kind>]`` (for messages and labels)."""
    out: list[str] = []
    pos = 0
    for start, end, kind in _spans(text):
        out.append(text[pos:start])
        out.append(f"[redacted {kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def scan_fields(fields: Mapping[str, str]) -> list[SecretFinding]:
    """Likely secrets in each named field, lines and columns counted in that field's own text."""
    return [f._replace(field=name) for name, text in fields.items() if text for f in scan_secrets(text)]


def _refused(where: str, findings: list[SecretFinding]) -> Exception:
    """The ``SecretRefusedError`` for a refused write (imported here: the read path never raises it)."""
    from mimomem.errors import SecretRefusedError

    return SecretRefusedError(redact_secrets(where), findings)


def ensure_no_secrets(text: str, *, where: str, field: str = "") -> None:
    """Raise ``SecretRefusedError`` when ``text`` (about to be written to ``where``) holds a likely secret.

    ``where`` is shown in the message with any likely secret in it redacted.
    """
    findings = scan_secrets(text)
    if findings:
        raise _refused(where, [f._replace(field=field) for f in findings])


def ensure_no_secrets_in_fields(fields: Mapping[str, str], *, where: str) -> None:
    """``ensure_no_secrets`` over named fields (summary, slug, body...): the user's own line numbers."""
    findings = scan_fields(fields)
    if findings:
        raise _refused(where, findings)


def ensure_no_secrets_appended(before: str, text: str, *, where: str) -> None:
    """Refuse ``text`` appended after ``before`` when the join makes a secret (or ``text`` holds one).

    The last ``APPEND_CONTEXT_LINES`` lines of ``before`` are scanned with ``text``, so
    ``KEY=`` and then the value in the next append is caught; a secret wholly inside
    ``before`` is not this append's doing and is ignored.  Lines count in ``text``.
    """
    lines = before.rsplit("\n", APPEND_CONTEXT_LINES)
    tail = "\n".join(lines[1:]) if len(lines) > APPEND_CONTEXT_LINES else before
    joined = tail + text
    text_starts = _line_starts(text)
    findings: list[SecretFinding] = []
    for start, end, kind in _spans(joined):
        if end <= len(tail):
            continue  # already there before this append
        offset = max(start - len(tail), 0)
        idx = bisect_right(text_starts, offset) - 1
        line_start = text_starts[idx]
        line_end = text_starts[idx + 1] - 1 if idx + 1 < len(text_starts) else len(text)
        findings.append(SecretFinding(kind, idx + 1, offset - line_start, min(end - len(tail), line_end) - line_start))
    if findings:
        raise _refused(where, findings)


__all__ = [
    "ALLOW_MARKER",
    "GENERIC_MIN_ENTROPY",
    "GENERIC_MIN_LEN",
    "PASSWORD_MIN_ENTROPY",
    "PASSWORD_MIN_LEN",
    "SecretFinding",
    "ensure_no_secrets",
    "ensure_no_secrets_appended",
    "ensure_no_secrets_in_fields",
    "redact_secrets",
    "scan_fields",
    "scan_secrets",
    "shannon_entropy",
]
