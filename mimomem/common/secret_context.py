"""Context rules of the secret scanner: values that are secrets because of where they stand.

A random-looking value assigned to a name such as ``api_key`` or ``PGPASSWORD``; a password
on a command line (``mysql -pXXX``, ``--password X``, ``sshpass -p X``, ``curl -u user:X``);
a cell of a Markdown table's password column; a password stated in prose ("the password
for the router: X"); AWS and Azure keys next to the words that name them.  Each rule yields
``(kind, start, end)`` spans of the value only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_needles import NeedleFinder, needle_lines, needle_matches, needle_text
from mimomem.common.secret_values import (
    GENERIC_MIN_ENTROPY,
    GENERIC_MIN_LEN,
    char_classes,
    decodes_to_prose,
    is_placeholder,
    password_value_ok,
    shannon_entropy,
    strong_password_value,
)

Span = tuple[str, int, int]

# -- keys named by the words around them ------------------------------------------------------
_AWS_SECRET = lazy(
    r"(?i)aws[A-Za-z0-9_.\-]{0,30}(?:secret|sk)[A-Za-z0-9_.\-]{0,20}[\"']?\s*(?:[:=]+>?|\s)\s*[\"']?"
    r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
_NAMED_SECRET_40 = lazy(
    r"(?i)(?:secret[\s_\-]*(?:access[\s_\-]*)?key|\bsecret\b)[^\n]{0,20}?(?<![A-Za-z0-9/+])"
    r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)
_AZURE_KEY = lazy(
    r"(?i)(?:account[\s_\-]*key|storage[^\n]{0,40}?key|shared[\s_\-]*key)[^\n]{0,20}?(?<![A-Za-z0-9+/])"
    r"([A-Za-z0-9+/]{86}==)"
)


def _random_base64(value: str, min_entropy: float) -> bool:
    return (
        char_classes(value) >= 3
        and shannon_entropy(value) >= min_entropy
        and not is_placeholder(value)
        and not decodes_to_prose(value)
    )


def named_keys(text: str) -> Iterator[Span]:
    """AWS secret access keys and Azure storage keys, recognised by the words that name them."""
    low = needle_text(text)  # each pattern holds its word (case-insensitive): run only where it is
    if "aws" in low:
        for m in needle_matches(_AWS_SECRET, text, ("aws",), after=1):
            if _random_base64(m.group(1), 3.5):
                yield "aws-secret-access-key", m.start(1), m.end(1)
    if "secret" in low:
        for m in needle_matches(_NAMED_SECRET_40, text, ("secret",)):
            if _random_base64(m.group(1), 4.0):
                yield "aws-secret-access-key", m.start(1), m.end(1)
    if "key" in low:
        for m in needle_matches(_AZURE_KEY, text, ("key",)):
            if _random_base64(m.group(1), 4.5):
                yield "azure-storage-key", m.start(1), m.end(1)


# -- generic: a random value assigned to a secret-ish name ---------------------------------------
_NAME = r"[A-Za-z0-9_.\-]{0,40}(?:key|secret|token|pass|pwd|credential|auth)[A-Za-z0-9_.\-]{0,40}"
_ASSIGN = lazy(
    r"(?i)(?<![A-Za-z0-9_.\-])(?P<name>" + _NAME + r")[\"']?\s*(?::=|=>|=|:)\s*(?P<q>[\"'`]?)"
    r"(?P<value>[^\s\"'`,;]{6,512})"
)
PASSWORD_NAME = lazy(r"(?i)passw(?:or)?d|passphrase|passwort|(?:^|[_.\-])(?:pwd|pass)$|^pwd(?:$|[_.\-])|[a-z]Pwd$")
_NOT_A_VALUE_NAME = lazy(
    r"(?i)(?:file|path|dir|env|var|name|length|len|min|max|policy|field|prompt|regex|pattern|reset|hint|label|type"
    r"|url|endpoint|command|cmd|rules?|strength|expiry|expires|ttl|age|count|attempts|less|required|enabled|stdin"
    r"|prefix|suffix|format|id)$"
)
_CAMEL_KEY = lazy(r"(?<=[a-z0-9])Key$")
_SECRET_NAME = lazy(
    r"(?i)(?:secret|token|api[_\-]?key|apikey|access[_\-]?key|private[_\-]?key|auth[_\-]?key|"
    r"credential|signing[_\-]?key|client[_\-]?key|(?:^|[_.\-])key$|^key(?:$|[_.\-]))"
)
_SECRET_WORD = lazy(r"(?i)secret|token|api|password|passwd|credential|private|auth")
_IDENTIFIER = lazy(r"[A-Za-z_\-/.]+|[A-Za-z]+(?:[_\-./][A-Za-z0-9]{1,12})+")
_HEX = lazy(r"[0-9a-fA-F]+")
_CODE_VALUE = lazy(
    r"[()\[\]{}]|^(?:os|env|process|self|this|config|settings|request)\.|^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$"
)


def _code(value: str, name: str) -> bool:
    """Code, not a value: a call, an index, a template, an attribute path.  Behind a password's name a
    square or curly bracket that opens nothing it closes is one of the password's characters
    (``ux1n[bbvs:4z``); a parenthesis never is (``getpass(prompt``, cut at its comma, is a call)."""
    if not _CODE_VALUE.search(value):
        return False
    if re.match(r"[A-Za-z_.]+[\[{<]", value) or value[-1] in "[{<":
        return True  # an index or a type after a name of letters: headers[, Dict[str, Union[bytes
    if (
        not PASSWORD_NAME.search(name)
        or any(c in value for c in "()")
        or _CODE_VALUE.search(re.sub(r"[\[\]{}<>]", "", value))
    ):
        return True
    return any(value.count(a) and value.count(a) == value.count(b) for a, b in ("[]", "{}", "<>"))


def generic_value_is_secret(name: str, value: str) -> bool:
    """Would ``value`` be a secret assigned to ``name`` (``api_secret = …``, ``<Password>…``)?"""
    if is_placeholder(value) or _code(value, name) or _NOT_A_VALUE_NAME.search(name.strip("-")):
        return False
    if value.endswith(":") or value.startswith(":"):
        return False  # a nested mapping's key ("passwords:\n  min_length: 12"), a scope (strlen_pass::f)
    if PASSWORD_NAME.search(name):
        return password_value_ok(value)
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
    return not decodes_to_prose(value.rstrip("="))


_HINT_WORDS = ("key", "secret", "token", "pass", "pwd", "credential", "auth")
"""The words every ``_ASSIGN`` match's name holds (lower case)."""


def assignments(text: str) -> Iterator[Span]:
    """``name = value`` (also ``:``, ``=>``, ``:=``) where the name says secret and the value looks random."""
    if "=" not in text and ":" not in text:
        return  # every assignment operator holds '=' or ':'
    low = needle_text(text)
    if not any(word in low for word in _HINT_WORDS):
        return  # the hint starts with one of them
    # every match holds a hint word on the line it starts on, and its value is at most a line further
    for m in needle_matches(_ASSIGN, text, _HINT_WORDS, after=1):
        name = m.group("name")
        if generic_value_is_secret(name, m.group("value")):
            kind = "password-assignment" if PASSWORD_NAME.search(name) else "secret-assignment"
            yield kind, m.start("value"), m.end("value")


# -- passwords on command lines ----------------------------------------------------------------
_ARG = r"(?P<q>['\"]?)(?P<value>[^\s'\"]+)"
_CMD_TAIL = r"[^\n|;&]*?"  # the rest of the same command
_CLI_NEEDLES = (("pass", "pwd"), ("mysql", "mariadb"), ("sshpass", "login", "twine"), ("redis-cli",), ("-u", "--user"))
"""Per command-line pattern: the text must contain one of these (lower case) for it to run."""
_CLI_PATTERNS = [
    # --password X, --password=X, --db-password X, --http-passwd=X, and Java's single dash: -storepass X
    lazy(r"(?i)(?<![\w\-])--?[\w\-]*?pass(?:word|wd)?(?:=|[ \t]+)" + _ARG),
    # mysql -pSECRET (attached: "-p SECRET" would name a database)
    lazy(r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b" + _CMD_TAIL + r"\s-p" + _ARG),
    # sshpass -p X, docker login -p X, twine upload -p X
    lazy(
        r"\b(?:sshpass|(?:docker|podman|buildah|skopeo|oras|nerdctl|helm[ \t]+registry)[ \t]+login|twine[ \t]+upload)\b"
        + _CMD_TAIL
        + r"\s-p[ \t]*"
        + _ARG
    ),
    # redis-cli -a X
    lazy(r"\bredis-cli\b" + _CMD_TAIL + r"\s-a[ \t]+" + _ARG),
    # curl -u user:X, wget --user user:X
    lazy(
        r"(?<![^\s;&|(`$])(?:curl|wget|http|https|xh)(?=\s)"
        + _CMD_TAIL
        + r"\s(?:-u|--user)(?:[ \t]+|=)?(?P<q>['\"]?)[^\s:'\"]*:"
        r"(?P<value>[^\s'\"]+)"
    ),
]


_CLI_FINDER = NeedleFinder(n for needles in _CLI_NEEDLES for n in needles)


def command_line_passwords(text: str) -> Iterator[Span]:
    """Passwords given as command-line arguments."""
    present = _CLI_FINDER.present(needle_text(text))
    if not present:
        return
    for needles, pattern in zip(_CLI_NEEDLES, _CLI_PATTERNS, strict=True):
        if present.isdisjoint(needles):  # none of its needles in the lower-cased text
            continue
        for m in needle_matches(pattern, text, needles, after=1):  # a command is one line
            value = m.group("value")
            if not value.startswith("-") and password_value_ok(value):
                yield "password-argument", m.start("value"), m.end("value")


# -- passwords in Markdown tables ------------------------------------------------------------
_SECRET_HEADER = lazy(
    r"(?i)passw(?:or)?d|passwort|passphrase|\bpwd\b|\bpass\b|secret|token|api[ _\-]?key|access[ _\-]?key"
    r"|credential|mot de passe|contraseña|senha|пароль|密码|口令|密钥|令牌|パスワード|비밀번호"
)
_SEPARATOR_ROW = lazy(r"\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
_CELL_SPLIT = lazy(r"(?<!\\)\|")


def _cells(line: str, offset: int) -> list[tuple[str, int]]:
    """The cells of a table row with the offset of each cell's text (outer pipes dropped)."""
    cells: list[tuple[str, int]] = []
    start = 0
    bounds = [m.start() for m in _CELL_SPLIT.finditer(line)]
    for end in [*bounds, len(line)]:
        cells.append((line[start:end], offset + start))
        start = end + 1
    if line.lstrip().startswith("|"):
        cells = cells[1:]
    if line.rstrip().endswith("|") and cells:
        cells = cells[:-1]
    return cells


def table_passwords(text: str) -> Iterator[Span]:
    """Cells of a Markdown table column whose header names a password, secret, token or key."""
    if "|" not in text:
        return
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    i = 0
    while i + 1 < len(lines):
        header, separator = lines[i], lines[i + 1]
        if "|" not in header or not _SEPARATOR_ROW.fullmatch(separator):
            i += 1
            continue
        columns = [n for n, (cell, _) in enumerate(_cells(header, 0)) if _SECRET_HEADER.search(cell)]
        i += 2
        while i < len(lines) and "|" in lines[i]:
            row = _cells(lines[i], offsets[i])
            for n in columns:
                if n < len(row):
                    yield from _table_cell(*row[n])
            i += 1


_CSV_HEADER = lazy(r"[A-Za-z_][\w .\-]{0,40}(?:,[A-Za-z_][\w .\-]{0,40})+")


_CSV_NEEDLES = (
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "credential",
    "密码",
    "口令",
    "密钥",
    "令牌",
    "パスワード",
    "비밀번호",
)
"""What a header ``_SECRET_HEADER`` names holds, lower-cased: only those lines can head a credential column."""


def csv_passwords(text: str) -> Iterator[Span]:
    """Fields of a CSV column whose header names a password, secret, token or key (the rows below it,
    each with the header's number of fields)."""
    if "," not in text or "\n" not in text:
        return
    for start, end in needle_lines(text, _CSV_NEEDLES):
        header = text[start:end].rstrip("\n")
        if "," not in header or not _CSV_HEADER.fullmatch(header.strip()):
            continue
        fields = header.split(",")
        columns = [n for n, cell in enumerate(fields) if _SECRET_HEADER.search(cell)]
        offset = end
        while columns and offset < len(text):
            stop = text.find("\n", offset)
            line = text[offset : stop if stop != -1 else len(text)]
            row = line.split(",")
            if len(row) != len(fields):
                break
            at = offset
            for n, cell in enumerate(row):
                if n in columns:
                    yield from (("password-in-csv", a, b) for _, a, b in _table_cell(cell, at))
                at += len(cell) + 1
            offset += len(line) + 1


def _table_cell(cell: str, offset: int) -> Iterator[Span]:
    value = cell.strip().strip("`")
    if not value or any(c.isspace() for c in value) or not password_value_ok(value):
        return
    start = offset + cell.index(value)
    yield "password-in-table", start, start + len(value)


# -- passwords stated in prose --------------------------------------------------------------
_PROSE = lazy(
    r"(?i)(?:(?<![A-Za-z])(?:password|passwd|passphrase|passwort|pwd)(?![A-Za-z])|密码|口令)[^:=：\n@/]{0,40}?"
    r"(?:[:=：]|\s(?:is|was|ist|est)\s)"
    r"[ \t]*(?P<q>[\"'`]?)(?P<value>[^\s\"'`,;，。]+)"
)


_CODE_CHARS = lazy(r"[()\[\]{}<>\\]|^[^A-Za-z0-9]")


def prose_passwords(text: str) -> Iterator[Span]:
    """``the password for the router: X``: a strong-looking value after a password word."""
    low = needle_text(text)
    if not any(n in low for n in ("pass", "pwd", "密码", "口令")):
        return
    for m in needle_matches(_PROSE, text, ("pass", "pwd", "密码", "口令"), after=1):
        value = m.group("value")
        if strong_password_value(value) and not _CODE_CHARS.search(value):
            yield "password-in-text", m.start("value"), m.end("value")


CONTEXT_RULES = (named_keys, assignments, command_line_passwords, table_passwords, csv_passwords, prose_passwords)
"""Every context rule, in order of precedence (an earlier rule wins on overlapping spans)."""
