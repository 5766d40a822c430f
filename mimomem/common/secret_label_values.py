"""What the value after a credential label is, and what it is not (the label rule's value shapes).

:mod:`mimomem.common.secret_labels` finds a label and the token after its bridge; this module
decides by the token's own shape whether it is the credential: a password or a PIN may be short
or all digits (but a number followed by a unit is a quantity), a key or a token mixes letters
and digits, a quoted value with spaces is a passphrase only when a word of it holds a digit and
none is a function word of a sentence.  Words, identifiers, paths, URLs, variables, versions and
code (a call or an index the line closes again) never count; a bracket a password holds does.
"""

from __future__ import annotations

from mimomem.common.secret_values import (
    PLACEHOLDER_EXACT,
    char_classes,
    decodes_to_prose,
    is_placeholder,
    is_sequential,
    shannon_entropy,
)

_SPACE = " \t"
OPEN = {'"': '"', "'": "'", "`": "`", "「": "」", "『": "』", "“": "”", "‘": "’"}
"""Opening quotes and the quote that closes each."""


def _word(text: str, i: int) -> str:
    """The run of ASCII letters (and apostrophes) at ``i``."""
    j = i
    n = len(text)
    while j < n and ((text[j].isascii() and text[j].isalpha()) or text[j] in "'’"):
        j += 1
    return text[i:j]


# -- what a value is not ---------------------------------------------------------------------------------
_CJK_UNITS = "位个個字桁次天日秒分時时年月周週回件枚人条條名자개일회초분년월주시"
_UNIT_WORDS = frozenset(
    (
        *("char", "chars", "character", "characters", "digit", "digits", "letter", "letters", "word", "words"),
        *("symbol", "symbols", "day", "days", "hour", "hours", "h", "minute", "minutes", "min", "mins"),
        *("second", "seconds", "sec", "secs", "s", "ms", "time", "times", "byte", "bytes", "bit", "bits"),
        *("token", "tokens", "item", "items", "entries", "attempt", "attempts", "tries", "year", "years"),
        *("month", "months", "week", "weeks", "k"),
    )
)
_SEPARATORS = "_-./"


def _camel_words(value: str) -> bool:
    """A type or class name: capitalised words and digits (``X448PublicKey``, ``Ed25519PrivateKey``)."""
    if not value.isalnum():
        return False  # a sign inside (EbqI!Mfvg7) is a chosen password's, never a class name's
    rest, i, words = [], 0, 0
    while i < len(value):
        c = value[i]
        j = i + 1
        if c.isupper():
            while j < len(value) and value[j].islower():
                j += 1
        if j - i >= 3:
            words += 1
        elif not c.isdigit():
            rest.append(c)
        i = j
    return words >= 2 and len(rest) <= 2


def _identifier(value: str) -> bool:
    """Words, paths and identifiers: ``prod/db/credentials``, ``layout_v2``, ``user_id``, ``_pep_440_key``."""
    if _camel_words(value):
        return True
    if "_" in value and value.isidentifier() and all(p.islower() or p.isdigit() or not p for p in value.split("_")):
        return True
    if not any(c.isdigit() for c in value):
        return all((c.isascii() and c.isalpha()) or c in _SEPARATORS for c in value)
    parts, seps = [], 0
    part = ""
    for c in value:
        if c in _SEPARATORS:
            parts.append(part)
            part, seps = "", seps + 1
        else:
            part += c
    parts.append(part)
    first, rest = parts[0], parts[1:]
    return bool(seps) and first.isascii() and first.isalpha() and all(0 < len(p) <= 12 and p.isalnum() for p in rest)


_CODE_REACH = 600
"""How far after a value a bracket it opens is looked for closing (a call's arguments over a few lines)."""


def _code(value: str, after: str) -> bool:
    """A call, an index or a template (``hash(pw, salt)``, ``passwords[uid]``, ``{token}``): a bracket
    closed again after a name.  A bracket a password holds is never closed, or not after a name."""
    if value[0] in "([{<":
        return True
    line = value + after[:_CODE_REACH]  # a call's arguments may go on over the next lines
    for i, c in enumerate(value):
        if c in ")]}":
            return False
        if c in "([{":
            name = value[:i]
            if not (name[0].isalpha() or name[0] == "_") or not all(ch.isalnum() or ch in "_." for ch in name):
                return False
            depth = 0
            for k in range(i, len(line)):
                depth += (line[k] in "([{") - (line[k] in ")]}")
                if depth == 0:
                    return not line[k + 1 : k + 2].isalnum()
            return False
    return False


def _not_a_value(value: str, after: str = "") -> bool:
    """URLs, paths, variables, flags, versions, dates, and code: a call, an index, an attribute."""
    if "://" in value or value[0] in "~/.$%@-\\:#" or value[1:3] == ":\\":
        return True
    if any(c in value for c in "()[]{}") and _code(value, after):
        return True
    if value.endswith(":"):
        return True  # a key of its own ("group:"), not a value
    name, eq, _ = value.partition("=")
    if eq and name.replace("_", "").replace("-", "").isalpha():
        return True  # an assignment or an attribute of its own (name="dream"): not the label's value
    if not value.strip("0123456789.-/:") and not value.isdigit():
        return True  # 1.2.3, 2024-01-15, 12:30
    parts = value.split(".")  # os.environ, cfg.db.pw; not a JWT's header.payload (long random parts)
    if not ("." in value and all(p.isidentifier() for p in parts)):
        return False
    return not any(len(p) >= 20 and char_classes(p) >= 3 for p in parts)


def _quantity(after: str) -> bool:
    """A number followed by a unit is a quantity: "12 characters", 8位, 8자리, 16文字."""
    rest = after.lstrip(_SPACE)
    if rest[:1] and rest[0] in _CJK_UNITS:
        return True
    word = _word(rest, 0).lower()
    return word in _UNIT_WORDS or rest.startswith("%")


def _password_value(value: str, quoted: bool, after: str) -> bool:
    """A password, passphrase or PIN: short values count, so does a run of digits that is no quantity."""
    if value.isdigit():
        return 4 <= len(value) <= 16 and len(set(value)) > 1 and not _quantity(after)
    if " " in value:
        return _passphrase(value)
    if quoted:  # a quoted word in prose, but not words of a script no keyboard types a password in
        return len(value) >= 4 and len(set(value.lower())) > 2 and any(c.isascii() and c.isalnum() for c in value)
    core = value.strip("!#&*+,.:;?")
    if len(value) < 4 or char_classes(value) < 2 or is_sequential(value) or (core.isalpha() and core.islower()):
        return False  # too short, one kind of character, a run, or a word with a sign (a YAML tag: !vault)
    letters = value.replace("_", "").replace("-", "")
    if letters.isalpha():  # letters only: random when neither case dominates (camelCase words are mostly lower)
        upper = sum(1 for c in letters if c.isupper()) / len(letters)
        return len(letters) >= 6 and 0.3 <= upper <= 0.7
    return not _identifier(value) and shannon_entropy(value) >= 1.9


_FUNCTION_WORDS = frozenset(
    (
        *("a", "an", "the", "this", "that", "it", "its", "is", "are", "was", "be", "not", "no", "never", "yet"),
        *("in", "on", "at", "to", "of", "for", "from", "by", "with", "as", "same", "and", "or", "me", "you"),
        *("your", "our", "we", "i", "he", "she", "they", "him", "her", "them", "what", "whatever", "here", "there"),
    )
)
"""English's closed classes (articles, pronouns, prepositions, auxiliaries): a sentence holds them, a
passphrase of chosen or random words does not."""


def _passphrase(value: str) -> bool:
    """A quoted value with spaces: a passphrase when a word of it mixes digits in (``EVQ2gr nA0tMR``,
    ``Tiger lamp 42 orbit!``) and none is a function word of a sentence ("see the vault", "use the one
    from 1Password", "set me in CI"), or when it is three plain lowercase words or more that read as no
    sentence (:func:`word_passphrase`): the value's own shape, whatever label or syntax stands before it."""
    words = value.split()
    if len(words) < 2 or len(value) < 8 or len(value) > 64:
        return False
    if any(w.strip(".,;:!?()\"'").lower() in _FUNCTION_WORDS for w in words):
        return False
    if word_passphrase(words, 3):
        return True
    return any(any(c.isdigit() for c in w) for w in words) and all(c.isascii() and c.isprintable() for c in value)


_INFLECTIONS = ("ed", "ing", "ly")
"""Endings of participles and adverbs: a clause about the password ("stored separately", "rotating
weekly") has them, a passphrase of chosen nouns and adjectives rarely does."""


def word_passphrase(words: list[str], least: int) -> bool:
    """Plain lowercase words, ``least`` or more, none a function word or an inflected verb or adverb, not
    all alike: "correct horse battery staple" (a passphrase of dictionary words has no digit to show).
    A phrase naming the credential itself ("check requires pwd module") is about it, not it."""
    if not least <= len(words) <= 24 or len(set(words)) < 3:
        return False
    for word in words:
        if not (3 <= len(word) <= 12 and word.isascii() and word.isalpha() and word.islower()):
            return False
        if word in _FUNCTION_WORDS or word in PLACEHOLDER_EXACT or (len(word) > 4 and word.endswith(_INFLECTIONS)):
            return False
    return True


def words_value_end(text: str, v: int) -> int:
    """The end of a passphrase of plain words standing alone after a label's link at ``v`` (to the end
    of its line or sentence: "wifi password is purple monkey dishwasher lamp"), else -1."""
    end, n = v, len(text)
    while end < n and (text[end].isalpha() or (text[end] == " " and end + 1 < n and text[end + 1].isalpha())):
        if end - v > 120:
            return -1
        end += 1
    if end < n and text[end] not in "\r\n.!\"'`)":
        return -1  # more follows on the line: a clause, not a value ("stored separately, rotated monthly")
    if end < n and text[end] in ".!" and end + 1 < n and text[end + 1] not in " \r\n":
        return -1
    return end if word_passphrase(text[v:end].split(" "), 4) else -1


def _cjk_char(c: str) -> bool:
    o = ord(c)
    return 0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF


def script_value_end(text: str, v: int) -> int:
    """The end of a password written in Han, kana or hangul with digits or Latin letters mixed in
    (芝麻开门6419, さくらもち972, 하늘사랑27) starting at ``v``, else -1.  Without them it is a
    description (手机号后六位, 社員番号と同じ); a number before a unit is a quantity (后6位)."""
    if v >= len(text) or not _cjk_char(text[v]):
        return -1
    end, n = v, len(text)
    while end < n and end - v <= 40 and (text[end].isalnum() or text[end] in "!#$%&*+-.@^_~"):
        if text[end].isdigit() and end + 1 < n and text[end + 1] in _CJK_UNITS:
            return -1
        end += 1
    value = text[v:end].rstrip(".")
    latin = sum(1 for c in value if c.isascii() and c.isalnum())
    if latin < 2 or not any(c.isascii() and c.isdigit() for c in value) or len(value) > 40:
        return -1
    return v + len(value)


def spaced_digits_end(text: str, v: int) -> int:
    """The end of a PIN typed in groups of digits with one space between (``1 4 8 2 4 7``, ``72 97 63``)
    starting at ``v``, else -1: two groups or more, four digits or more, and no unit after them."""
    n, k, groups, digits = len(text), v, 0, 0
    while True:
        j = k
        while j < n and text[j].isdigit():
            j += 1
        if j == k or j - k > 4:
            return -1
        groups, digits = groups + 1, digits + j - k
        if j + 1 < n and text[j] == " " and text[j + 1].isdigit():
            k = j + 1
            continue
        end = j
        break
    if groups < 2 or digits < 4 or (end < n and (text[end].isalnum() or text[end] in "./:")):
        return -1
    return -1 if _quantity(text[end:]) else end


def _key_value(value: str, quoted: bool, hex_ok: bool) -> bool:
    """A key, token or secret: eight characters or more mixing letters and digits, not a word or a bare key's hash."""
    if len(value) < (6 if quoted else 8) or not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    if _identifier(value) or is_sequential(value) or shannon_entropy(value) < 2.5:
        return False
    parts = value.split("-")
    if len(parts) > 1 and any(len(p) >= 4 and p.isalpha() and p[1:].islower() for p in parts):
        return False  # words joined by hyphens: "HS256-signed", "v2-Release"
    if not hex_ok and all(c in "0123456789abcdefABCDEF-" for c in value):
        return False  # "key: <sha>": a cache or lookup key, not a credential
    return not decodes_to_prose(value.rstrip("="))


def _value_ok(value: str, quoted: bool, password: bool, head: str, after: str) -> bool:
    if value.isdigit() and len(set(value)) > 1:  # a PIN such as 2992 (is_placeholder drops two-digit mixes)
        return password and _password_value(value, quoted, after)
    if not value or is_placeholder(value) or _not_a_value(value, after):
        return False
    if password:
        return _password_value(value, quoted, after)
    return _key_value(value, quoted, hex_ok=head.lower().rstrip("s") not in ("key", "キー", "키", "auth"))


def cjk_at(text: str, i: int) -> bool:
    """Is the character at ``i`` Han, kana or hangul (a word of CJK goes on)?"""
    if not 0 <= i < len(text):
        return False
    o = ord(text[i])
    return 0x3040 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF


def letters(text: str, i: int) -> str:
    """The run of letters of any script at ``i`` (a preposition: for, für, от)."""
    j = i
    while j < len(text) and text[j].isalpha():
        j += 1
    return text[i:j]


def pointing(c: str) -> bool:
    """An arrow or a pictograph between a label and its value (→ is punctuation already)."""
    o = ord(c)
    return 0x2190 <= o <= 0x21FF or o == 0x27A1 or 0x2B05 <= o <= 0x2B07 or 0x1F300 <= o <= 0x1FAFF


def plain_value(text: str, v: int, password: bool, linked: bool) -> tuple[int, int]:
    """Where a password no token rule reads starts and ends (Han, kana or hangul with digits, quoted or
    not; digits in groups; plain words after a link), else ``(v, -1)``: only after a password's label."""
    if not password or v >= len(text):
        return v, -1
    c = text[v]
    if c.isdigit():
        return v, spaced_digits_end(text, v)
    if c.isascii() and c not in OPEN:
        return v, words_value_end(text, v) if linked and c.islower() else -1
    if c in OPEN:  # 「つむわそす77」: quoted, the value must fill the quotes
        end = script_value_end(text, v + 1)
        return (v + 1, end) if end != -1 and text.startswith(OPEN[c], end) else (v, -1)
    return v, script_value_end(text, v)


__all__: list[str] = []
