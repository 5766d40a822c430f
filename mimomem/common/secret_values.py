"""Value tests of the secret scanner: is this matched text random enough to be a credential?

Shape rules (``secret_shapes``) and context rules (``secret_context``) find candidates; these
checks drop the look-alikes developers write every day: placeholders (``<your-token>``,
``${VAR}``, ``xxxx``), sequences (``ABCdef123456``), identifiers, numbers, paths, and
base64 that decodes to ordinary prose.
"""

from __future__ import annotations

import binascii
import itertools
import math
import re
from collections import Counter

from mimomem.common.lazy_pattern import lazy

PLACEHOLDER_WORDS = (
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
PLACEHOLDER_EXACT = frozenset(
    {
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
)

GENERIC_MIN_LEN = 16
"""Shortest value the generic key/secret/token rule considers."""
GENERIC_MIN_ENTROPY = 3.3
"""Bits per character a key/secret/token value needs to count as random."""
PASSWORD_MIN_LEN = 8
"""Shortest value a password rule considers."""
PASSWORD_MIN_ENTROPY = 2.5
"""Bits per character a password value needs."""

_WORDISH = lazy(r"\d*[A-Za-z][a-z]+\d*")
_PATHLIKE = lazy(r"^(?:/|~/|\./|\.\./|[A-Za-z]:\\)")
_UUID = lazy(r"(?i)(?:urn:uuid:)?\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?")


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value``'s character distribution (0 for empty text)."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def char_classes(value: str) -> int:
    """How many of lower case, upper case, digits and other characters ``value`` mixes."""
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


def is_sequential(value: str) -> bool:
    """True for runs such as ``ABCdefGHI123456789``: most neighbours are consecutive characters."""
    if len(value) < 8:
        return False  # fewer characters than a run needs (lowered, a value only grows)
    chars = [c for c in value.lower() if c.isalnum()]  # per character: "İ".lower() is two code points
    if len(chars) < 8:
        return False
    allowed, misses = 0.2 * (len(chars) - 1), 0  # at least 80 % of steps +1: at most 20 % missed
    for a, b in itertools.pairwise(chars):
        if ord(b) - ord(a) != 1:
            misses += 1
            if misses > allowed:
                return False  # a random value misses at once: no need to read on
    return True


def is_uuid(value: str) -> bool:
    """True for a UUID (``7c9e6679-7425-40de-944b-e07fc1f90ae7``): an identifier's shape, never a secret's.

    Request, trace, session and resource ids are UUIDs; they sit beside credential words in
    logs and configs ("the request id was ...") and must stay searchable verbatim.
    """
    return "-" in value and bool(_UUID.fullmatch(value.strip("'\"`")))  # its hyphens first: no pattern run


def is_placeholder(value: str) -> bool:
    """True for template/placeholder values such as ``<your-token>``, ``${VAR}``, ``xxx``, ``abcdef123``.

    A UUID is dropped here too (:func:`is_uuid`): every rule's value test starts with this one.
    """
    low = value.lower().strip("'\"`")
    if not low or low in PLACEHOLDER_EXACT or is_uuid(low):
        return True
    if low.startswith(("$", "%", "<")):
        return True
    if any(w in low for w in PLACEHOLDER_WORDS):
        return True
    if len(set(low)) <= 2:  # "xxxxxxxx", "00000000", "abababab"
        return True
    return is_sequential(low)


def token_like(value: str) -> bool:
    """A provider token body: mixes letters and digits and is not a placeholder."""
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value) and not is_placeholder(value)


def hex_token_like(value: str) -> bool:
    """A hex token body: both digits and letters (a run of one kind is a counter or a word)."""
    return token_like(value) and len(set(value.lower())) >= 8


def decodes_to_prose(value: str) -> bool:
    """Base64 of ordinary text ("hello world, ...") is not a secret: mostly letters and spaces."""
    import base64  # only when a candidate turned up: a scan of clean text never pays for it

    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("utf-8")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        try:
            raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
            text = raw.decode("utf-8")
        except (ValueError, binascii.Error, UnicodeDecodeError):
            return False
    if len(text) < 6 or not text.isprintable():
        return False
    words = re.findall(r"[A-Za-z]{2,}", text)
    return " " in text and sum(len(w) for w in words) >= 0.6 * len(text)


def password_value_ok(value: str) -> bool:
    """A value assigned to a password: chosen, not a word, path, number, variable or placeholder."""
    if is_placeholder(value) or _PATHLIKE.match(value) or "://" in value:
        return False
    if len(value) < PASSWORD_MIN_LEN or shannon_entropy(value) < PASSWORD_MIN_ENTROPY or char_classes(value) < 2:
        return False
    if re.fullmatch(r"[\d.:\-/]+", value):
        return False  # dates, versions, addresses
    letters = value.replace("_", "").replace("-", "")
    if letters.isalpha():  # letters only: random when neither case dominates (camelCase words are mostly lower)
        upper = sum(1 for c in letters if c.isupper()) / len(letters)
        return 0.3 <= upper <= 0.7
    return True


def strong_password_value(value: str) -> bool:
    """A password stated in prose ("the password for X is ..."): a digit and a capital or symbol, not a word."""
    return (
        password_value_ok(value)
        and not _WORDISH.fullmatch(value)
        and any(c.isdigit() for c in value)
        and (any(c.isupper() for c in value) or any(not c.isalnum() for c in value))
        and shannon_entropy(value) >= 3.0
    )
