"""Secret interception: find likely credentials in text before mimomem writes it.

Every write path in mimomem calls ``ensure_no_secrets``.  Detection is by shape
(private key blocks, provider token prefixes, JWTs, credentials in URLs) plus a
generic rule for high-entropy values assigned to names such as ``api_key`` or
``password``.  A finding records the kind and position only, never the value, so
error messages and logs cannot leak what they refuse.

A false positive is overridden by putting the marker ``mimomem:allow-secret``
anywhere on the offending line (for a private key block: on its BEGIN line).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mimomem.errors import SecretRefusedError

ALLOW_MARKER = "mimomem:allow-secret"
"""Put this on a line to let that line's would-be secrets through."""


@dataclass(frozen=True)
class SecretFinding:
    """A likely secret: its kind, 1-based line, and 0-based column span on that line."""

    kind: str
    line: int
    start: int
    end: int

    def describe(self) -> str:
        """Human-readable location, e.g. ``github-token on line 3, columns 5-45``."""
        return f"{self.kind} on line {self.line}, columns {self.start + 1}-{self.end}"


# -- shape-based detectors ----------------------------------------------------------
# Each entry: kind, compiled pattern, group holding the secret (0 = whole match), and an
# optional check on the secret text that must pass for the match to count.

_PLACEHOLDER_WORDS = (
    "example",
    "placeholder",
    "changeme",
    "change_me",
    "change-me",
    "your",
    "redacted",
    "dummy",
    "sample",
    "insert",
    "replace",
    "xxxx",
    "****",
    "....",
    "<",
    "${",
    "{{",
    "%(",
    "$(",
)
_PLACEHOLDER_EXACT = {
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "apikey",
    "api_key",
    "none",
    "null",
    "nil",
    "true",
    "false",
    "undefined",
    "empty",
    "test",
    "foo",
    "bar",
    "user",
    "username",
    "admin",
}


def _is_placeholder(value: str) -> bool:
    """True for template/placeholder values such as ``<your-token>``, ``${VAR}``, ``xxx``."""
    low = value.lower().strip("'\"`")
    if not low or low in _PLACEHOLDER_EXACT:
        return True
    if low.startswith("$") or low.startswith("%") or low.startswith("<"):
        return True
    if any(w in low for w in _PLACEHOLDER_WORDS):
        return True
    return len(set(low)) <= 2  # "xxxxxxxx", "00000000", "abababab"


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value``'s character distribution (0 for empty text)."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def _char_classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def _token_like(value: str) -> bool:
    """A provider token body: mixes letters and digits and is not a placeholder."""
    return (
        any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and not _is_placeholder(value)
    )


def _b64url_json_with_alg(segment: str) -> bool:
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        header = json.loads(raw.decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    return isinstance(header, dict) and "alg" in header


def _b64_has_colon(segment: str) -> bool:
    """A Basic-auth credential: base64 of ``user:password`` with a non-placeholder password."""
    try:
        raw = base64.b64decode(segment + "=" * (-len(segment) % 4), validate=True).decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return False
    user, sep, password = raw.partition(":")
    return bool(sep) and bool(user) and not _is_placeholder(password)


def _aws_key_id_ok(value: str) -> bool:
    return not value.endswith("EXAMPLE")


def _url_password_ok(value: str) -> bool:
    return not _is_placeholder(value) and len(value) >= 3


_Check = Callable[[str], bool]
_SHAPES: list[tuple[str, re.Pattern[str], int, _Check | None]] = [
    (
        "private-key",
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----"),
        0,
        None,
    ),
    (
        "aws-access-key-id",
        re.compile(r"(?<![A-Z0-9])((?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA)[A-Z0-9]{16})(?![A-Z0-9])"),
        1,
        _aws_key_id_ok,
    ),
    (
        "aws-secret-access-key",
        re.compile(
            r"(?i)aws[A-Za-z0-9_.\-]{0,30}(?:secret|sk)[A-Za-z0-9_.\-]{0,20}[\"']?\s*[:=]+>?\s*[\"']?"
            r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        1,
        lambda v: not _is_placeholder(v) and shannon_entropy(v) >= 3.5,
    ),
    (
        "github-token",
        re.compile(r"(?<![A-Za-z0-9_])((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{40,255})"),
        1,
        _token_like,
    ),
    (
        "slack-token",
        re.compile(r"(?<![A-Za-z0-9])(xox[abposr]-[A-Za-z0-9-]{10,250})"),
        1,
        lambda v: any(c.isdigit() for c in v) and not _is_placeholder(v[5:]),
    ),
    (
        "slack-webhook",
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}"),
        0,
        None,
    ),
    (
        "anthropic-key",
        re.compile(r"(?<![A-Za-z0-9_-])(sk-ant-[A-Za-z0-9_-]{20,250})"),
        1,
        lambda v: _token_like(v[7:]),
    ),
    (
        "openai-key",
        re.compile(r"(?<![A-Za-z0-9_-])(sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,250})"),
        1,
        lambda v: _token_like(v[3:]) and _char_classes(v[3:].replace("-", "").replace("_", "")) >= 2
        and shannon_entropy(v) >= 3.5,
    ),
    (
        "stripe-key",
        re.compile(r"(?<![A-Za-z0-9_])((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247})"),
        1,
        lambda v: _token_like(v[8:]),
    ),
    (
        "gitlab-token",
        re.compile(r"(?<![A-Za-z0-9_-])(glpat-[A-Za-z0-9_-]{20,})"),
        1,
        lambda v: _token_like(v[6:]),
    ),
    (
        "npm-token",
        re.compile(r"(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})(?![A-Za-z0-9])"),
        1,
        lambda v: _token_like(v[4:]),
    ),
    (
        "huggingface-token",
        re.compile(r"(?<![A-Za-z0-9_])(hf_[A-Za-z0-9]{30,})(?![A-Za-z0-9])"),
        1,
        lambda v: _token_like(v[3:]),
    ),
    (
        "sendgrid-key",
        re.compile(r"(?<![A-Za-z0-9_])(SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64})"),
        1,
        None,
    ),
    (
        "basic-auth",
        re.compile(r"(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
        1,
        lambda v: _b64_has_colon(v),
    ),
    (
        "bearer-token",
        re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)"),
        1,
        lambda v: _token_like(v) and shannon_entropy(v) >= GENERIC_MIN_ENTROPY,
    ),
    (
        "google-api-key",
        re.compile(r"(?<![A-Za-z0-9_-])(AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9_-])"),
        1,
        None,
    ),
    (
        "jwt",
        re.compile(r"(?<![A-Za-z0-9_-])(ey[A-Za-z0-9_-]{10,})\.([A-Za-z0-9_-]{4,})\.([A-Za-z0-9_-]{8,})"),
        0,
        lambda v: _b64url_json_with_alg(v.split(".", 1)[0]),
    ),
    (
        "url-credentials",
        re.compile(r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@\"'<>]{1,64}:([^\s/@\"'<>]{1,128})@[A-Za-z0-9\[]"),
        1,
        _url_password_ok,
    ),
]

# -- generic: high-entropy value assigned to a secret-ish name -----------------------
_NAME = r"[A-Za-z0-9_.\-]{0,40}(?:key|secret|token|pass|pwd|credential|auth)[A-Za-z0-9_.\-]{0,40}"
_ASSIGN = re.compile(
    r"(?i)(?<![A-Za-z0-9_.\-])(?P<name>" + _NAME + r")[\"']?\s*(?::=|=>|=|:)\s*(?P<q>[\"'`]?)"
    r"(?P<value>[^\s\"'`,;]{6,512})"
)
_PASSWORD_NAME = re.compile(r"(?i)(?:^|[_.\-])(?:password|passwd|passphrase|pwd|pass)$|^(?:password|passwd|pwd)")
_CAMEL_KEY = re.compile(r"(?<=[a-z0-9])Key$")
_SECRET_NAME = re.compile(
    r"(?i)(?:secret|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth[_\-]?key|"
    r"credential|signing[_\-]?key|client[_\-]?key|(?:^|[_.\-])key$|^key(?:$|[_.\-]))"
)
_SECRET_WORD = re.compile(r"(?i)secret|token|api|password|passwd|credential|private|auth")
_IDENTIFIER = re.compile(r"[A-Za-z_\-/.]+|[A-Za-z]+(?:[_\-./][A-Za-z0-9]{1,12})+")
_HEX = re.compile(r"[0-9a-fA-F]+")
_CODE_VALUE = re.compile(r"[()\[\]{}]|^(?:os|env|process|self|this|config|settings|request)\.|^[A-Za-z_]+\.[A-Za-z_]+$")

GENERIC_MIN_LEN = 16
"""Shortest value the generic key/secret/token rule considers."""
GENERIC_MIN_ENTROPY = 3.3
"""Bits per character a key/secret/token value needs to count as random."""
PASSWORD_MIN_LEN = 8
PASSWORD_MIN_ENTROPY = 2.5


def _generic_value_is_secret(name: str, value: str) -> bool:
    if _is_placeholder(value) or _CODE_VALUE.search(value):
        return False
    if _PASSWORD_NAME.search(name):
        return (
            len(value) >= PASSWORD_MIN_LEN
            and shannon_entropy(value) >= PASSWORD_MIN_ENTROPY
            and _char_classes(value) >= 2
            and not value.replace("_", "").isalpha()
        )
    if not (_SECRET_NAME.search(name) or _CAMEL_KEY.search(name)):
        return False
    if len(value) < GENERIC_MIN_LEN or shannon_entropy(value) < GENERIC_MIN_ENTROPY:
        return False
    if _IDENTIFIER.fullmatch(value):
        return False  # words, paths and identifiers such as "prod/db/credentials", "layout_v2"
    if re.fullmatch(r"\d+(?:\.\d+)*", value):
        return False  # numbers and version strings
    if _HEX.fullmatch(value) and not _SECRET_WORD.search(name):
        return False  # "cache_key = <sha>": hashes keyed by plain "key" names are not secrets
    return True


def _line_starts(text: str) -> list[int]:
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    return starts


def _iter_raw(text: str) -> Iterator[tuple[str, int, int]]:
    for kind, pattern, group, check in _SHAPES:
        for m in pattern.finditer(text):
            value = m.group(group)
            if check is None or check(value):
                yield kind, m.start(group), m.end(group)
    for m in _ASSIGN.finditer(text):
        if _generic_value_is_secret(m.group("name"), m.group("value")):
            kind = "password-assignment" if _PASSWORD_NAME.search(m.group("name")) else "secret-assignment"
            yield kind, m.start("value"), m.end("value")


def scan_secrets(text: str) -> list[SecretFinding]:
    """Every likely secret in ``text``, in reading order; lines with the allow marker are skipped."""
    if not text:
        return []
    starts = _line_starts(text)
    spans: list[tuple[int, int, str]] = []
    for kind, start, end in _iter_raw(text):
        # a specific detector wins over the generic rule on overlapping spans
        if any(s < end and start < e for s, e, _ in spans):
            continue
        spans.append((start, end, kind))
    findings: list[SecretFinding] = []
    for start, end, kind in sorted(spans):
        idx = bisect_right(starts, start) - 1
        line_start = starts[idx]
        line_end = starts[idx + 1] - 1 if idx + 1 < len(starts) else len(text)
        if ALLOW_MARKER in text[line_start:line_end]:
            continue
        end_col = min(end, line_end) - line_start
        findings.append(SecretFinding(kind, idx + 1, start - line_start, end_col))
    return findings


def ensure_no_secrets(text: str, *, where: str) -> None:
    """Raise ``SecretRefusedError`` when ``text`` (about to be written to ``where``) holds a likely secret."""
    findings = scan_secrets(text)
    if findings:
        raise SecretRefusedError(where, findings)


__all__ = [
    "ALLOW_MARKER",
    "SecretFinding",
    "SecretRefusedError",
    "ensure_no_secrets",
    "scan_secrets",
    "shannon_entropy",
]
