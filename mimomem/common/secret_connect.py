"""Connection syntaxes of the secret scanner: where a credential stands in a connection's own grammar.

Each rule knows one syntax that has a password slot, and judges the value in it:

* URL user information that is a token alone (``https://<token>@host/…``, no colon): the user
  slot holds a random run no person would choose as a name;
* a Go SQL DSN, ``user:password@tcp(host:port)/db`` (also ``unix(…)``);
* an Oracle connect string, ``user/password@service`` after ``sqlplus``, ``expdp``, ``jdbc:oracle:…``;
* Samba's ``-U user%password`` (smbclient, rpcclient, smbmap, net);
* SQL: ``IDENTIFIED BY 'x'``, ``PASSWORD 'x'``, ``PASSWORD('x')``;
* a configuration line ``name value`` (redis.conf's ``requirepass x``), the name a password's;
* a short option of a command line that many tools give a password (``-P``, ``-p``, ``-w``),
  when its value is a chosen password and not a port, path, number or name;
* a positional argument after a subcommand that sets a password or adds a user
  (``rabbitmqctl change_password user x``, ``htpasswd -b file user x``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_context import PASSWORD_NAME, generic_value_is_secret
from mimomem.common.secret_needles import needle_matches, needle_text
from mimomem.common.secret_values import (
    char_classes,
    is_placeholder,
    password_value_ok,
    shannon_entropy,
)

Span = tuple[str, int, int]

_TOKEN_USER = lazy(r"(?i)\b[a-z][a-z0-9+.\-]{1,20}://(?P<value>[A-Za-z0-9_\-]{20,200})@[A-Za-z0-9\[]")
_GO_DSN = lazy(r"(?<![\w:/.])[\w.\-]{1,64}:(?P<value>[^\s:@/\"'()]{1,128})@(?:tcp|tcp4|tcp6|udp|unix)\(")
_ORACLE = lazy(
    r"(?i)(?:\b(?:sqlplus|sqlldr|expdp|impdp|rman|sqlcl)\b[^\n]*?\s|jdbc:oracle:[a-z]+:@?)"
    r"['\"]?[A-Za-z][\w$#]{0,29}/(?P<value>[^\s/@'\"]{1,128})@"
)
_SAMBA = lazy(r"(?:\s-U[ \t]*|\s--user[= \t])['\"]?[^\s%'\"]{1,64}%(?P<value>[^\s'\"]{1,128})")
_SQL = lazy(
    r"(?i)(?<![\w'\"\[.])(?:IDENTIFIED\s+BY(?:\s+PASSWORD)?|PASSWORD(?:\s*=)?|PASSWORD\s*\()\s*"
    r"(?P<q>['\"])(?P<value>[^'\"\s]{1,128})(?P=q)(?=\s*(?:[;,)]|$|\s))"
)
_CONFIG_LINE = lazy(
    r"(?im)^[ \t]*(?P<name>[A-Za-z_][\w.\-]{0,30}(?:pass|pwd|auth|secret)[\w.\-]{0,20})"
    r"[ \t]+(?P<q>['\"]?)(?P<value>[^\s'\"]{6,128})(?P=q)[ \t]*$"
)
_SHORT_OPTION = lazy(r"(?<=\s)-(?P<flag>[pPw])(?:[ \t]+|(?=[^\s-]))(?P<q>['\"]?)(?P<value>[^\s'\"]{6,128})(?P=q)")
_VERB_HINT = lazy(
    r"(?i)(?:change|set|reset|update)[_\-]?(?:user[_\-]?)?passw|add[_\-]?user|useradd|create[_\-]?user|htpasswd"
)
"""A part every subcommand that sets a password holds (see ``_SETS_PASSWORD``)."""
_OPTION_HINT = lazy(r"\s-[pPw]")
"""A part every ``_SHORT_OPTION`` match holds."""
_PROGRAM_LINE = lazy(r"^[ \t]*(?:\$[ \t]+|sudo[ \t]+)?[A-Za-z0-9_.\-/]+(?:[ \t]|$)")
_SETS_PASSWORD = lazy(
    r"(?i)^(?:change|set|reset|update)[_\-]?(?:user[_\-]?)?passw(?:or)?d$|^add[_\-]?user$|^adduser$|^useradd$"
    r"|^create[_\-]?user$|^htpasswd$"
)
_CREDENTIAL_NAMES = lazy(r"(?i)pass|pwd|secret|auth|token")
_HOOK_PATH = lazy(
    r"(?i)://[^\s/]+(?:/[\w.\-]+){0,4}?/[\w.\-]*?(?:hooks?|triggers?|incoming|notify|bots?)[\w.\-]*/(?:[\w\-]+/){0,3}?"
    r"(?P<value>[A-Za-z0-9_\-]{20,200})(?![A-Za-z0-9_\-])"
)
_SET_NAMED = lazy(
    r"(?i)\s(?:set|put|add|config:set|create)\s+(?:--?[\w\-]+\s+)*?['\"]?(?P<name>[A-Za-z_][\w.\-]{2,60})['\"]?"
    r"\s+(?:(?:--body|--value|--data|--secret-string|-b)[ =])?(?P<q>['\"]?)(?P<value>[^\s'\"]{6,256})(?P=q)"
)


_WORDISH = lazy(r"\d*[A-Za-z][a-z]+\d*|[A-Z][a-z]+(?:[A-Z][a-z]+)+\d*")


def _chosen(value: str) -> bool:
    """A password someone chose: three kinds of character with a digit, not a word, a port or an address."""
    return (
        password_value_ok(value)
        and char_classes(value) >= 3
        and any(c.isdigit() for c in value)
        and not _WORDISH.fullmatch(value)
        and not re.fullmatch(r"[\w.\-]+:\d{1,5}", value)
        and not any(c in value for c in "=()")  # an assignment or a call, not a password
    )


_CREDENTIAL_NEEDLES = ("pass", "pwd", "secret", "auth", "token")
"""What every ``_CREDENTIAL_NAMES`` match holds, lower-cased."""
_VERB_NEEDLES = ("passw", "adduser", "add_user", "add-user", "useradd", "createuser", "create_user", "create-user")
"""What every ``_VERB_HINT`` match holds, lower-cased."""


_STDIN = lazy(
    r"(?<![\w\-])(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?"
    r"(?:'(?P<v1>[^'\s]{4,128})'|\"(?P<v2>[^\"\s$`]{4,128})\"|(?P<v3>[^\s'\"|;&$`]{4,128}))[ \t]*\|[ \t]*"
    r"(?:[^\n|;&]*?--password-stdin\b|(?:sudo|doas)\b[^\n|;&]*?[ \t]-S\b|[^\n|;&]*?--passphrase-fd[ =]0\b)"
)


def stdin_passwords(text: str) -> Iterator[Span]:
    """``echo X | docker login --password-stdin``, ``echo X | sudo -S …``: a value piped into a program
    that reads its password from stdin (a variable piped in is a reference, not a value)."""
    for m in needle_matches(_STDIN, text, ("password-stdin", "sudo", "doas", "passphrase-fd")):
        group = next(g for g in ("v1", "v2", "v3") if m.group(g) is not None)
        if password_value_ok(m.group(group)):
            yield "password-argument", m.start(group), m.end(group)


def token_userinfo(text: str) -> Iterator[Span]:
    """``scheme://<token>@host``: a random run (mixed case and digits, or 32+ hex) in the user slot."""
    if "@" not in text or "://" not in text:
        return
    for m in needle_matches(_TOKEN_USER, text, ("://",)):
        value = m.group("value")
        mixed = char_classes(value) >= 3 and shannon_entropy(value) >= 3.5
        hexed = len(value) >= 32 and re.fullmatch(r"[0-9a-f]+", value) is not None and len(set(value)) >= 10
        if (mixed or hexed) and not is_placeholder(value):
            yield "url-token", m.start("value"), m.end("value")


def hook_paths(text: str) -> Iterator[Span]:
    """A random run in a webhook's path (``…/hooks/<token>``, ``…/trigger/<token>``): the URL is the key."""
    if "://" not in text:
        return
    for m in _HOOK_PATH.finditer(text):
        value = m.group("value")
        random = char_classes(value) >= 3 or _lower_random(value)
        if random and shannon_entropy(value) >= 3.5 and not is_placeholder(value):
            yield "webhook-token", m.start("value"), m.end("value")


def _lower_random(value: str) -> bool:
    """A random run of lower case and digits (Mattermost's, Rocket.Chat's tokens): digits spread through
    letters beyond hex (a commit id is hex; a slug is words), no run of letters as long as a word."""
    if not value.isalnum() or value != value.lower() or sum(c.isdigit() for c in value) < 3:
        return False
    if all(c in "0123456789abcdef" for c in value):
        return False
    longest = max(len(run) for run in re.split(r"\d+", value))
    return longest <= 8


def set_commands(text: str) -> Iterator[Span]:
    """``gh secret set NAME --body x``, ``config set npmAuthToken x``: a value set under a credential's name."""
    for m in needle_matches(_SET_NAMED, text, _CREDENTIAL_NEEDLES):
        name, value = m.group("name"), m.group("value")
        if not _CREDENTIAL_NAMES.search(name) or value.startswith("-"):
            continue
        if chosen_password(value) or generic_value_is_secret(name, value):
            yield "secret-argument", m.start("value"), m.end("value")


def connection_strings(text: str) -> Iterator[Span]:
    """The password slot of a Go DSN, an Oracle connect string and Samba's ``user%password``."""
    if "@" in text:
        low = needle_text(text)
        go = any(f"@{net}(" in low for net in ("tcp", "unix", "udp"))
        oracle = any(word in low for word in ("sqlplus", "sqlldr", "expdp", "impdp", "rman", "sqlcl", "jdbc:oracle"))
        for pattern in (_GO_DSN,) * go + (_ORACLE,) * oracle:
            for m in pattern.finditer(text):
                if password_value_ok(m.group("value")):
                    yield "dsn-password", m.start("value"), m.end("value")
    if "%" in text:
        for m in needle_matches(_SAMBA, text, (" -u", "\t-u", "--user")):
            if password_value_ok(m.group("value")):
                yield "password-argument", m.start("value"), m.end("value")


def sql_passwords(text: str) -> Iterator[Span]:
    """``IDENTIFIED BY 'x'``, ``WITH PASSWORD 'x'``, ``PASSWORD('x')``."""
    low = needle_text(text)
    if "identified" not in low and "password" not in low:
        return
    for m in needle_matches(_SQL, text, ("identified", "password")):
        if password_value_ok(m.group("value")):
            yield "sql-password", m.start("value"), m.end("value")


def config_lines(text: str) -> Iterator[Span]:
    """``requirepass x``: a line of two words, a password's name and a chosen value."""
    for m in needle_matches(_CONFIG_LINE, text, ("pass", "pwd", "auth", "secret")):
        name = m.group("name")
        named = PASSWORD_NAME.search(name) or name.lower().endswith(("pass", "auth", "secret"))
        if named and _chosen(m.group("value")):
            yield "password-assignment", m.start("value"), m.end("value")


def command_passwords(text: str) -> Iterator[Span]:
    """A chosen password given to ``-P`` / ``-p`` / ``-w``, or after a subcommand that sets one."""
    hinted: dict[int, list[bool]] = {}  # the start of each line holding a hint: [an option, a verb]
    low = needle_text(text)
    present = ("-p" in low or "-w" in low, "passw" in low or "user" in low)  # what each hint holds
    for k, (hint, needles) in enumerate(((_OPTION_HINT, (" -p", "\t-p", " -w", "\t-w")), (_VERB_HINT, _VERB_NEEDLES))):
        for m in needle_matches(hint, text, needles) if present[k] else ():  # only the lines of a hint are read
            hinted.setdefault(text.rfind("\n", 0, m.start()) + 1, [False, False])[k] = True
    for offset, (options, verbs) in sorted(hinted.items()):
        stop = text.find("\n", offset)
        line = text[offset : stop if stop != -1 else len(text)]
        if len(line) > 2000 or not _PROGRAM_LINE.match(line):
            continue
        if options:
            for m in _SHORT_OPTION.finditer(line):
                if _chosen(m.group("value")) and "/" not in m.group("value"):
                    yield "password-argument", offset + m.start("value"), offset + m.end("value")
        if verbs:
            yield from _positional(line, offset)


def program_name(word: str) -> str:
    return word.strip("'\"").rsplit("/", 1)[-1]


def _positional(line: str, offset: int) -> Iterator[Span]:
    words = [(m.group(), m.start()) for m in re.finditer(r"\S+", line)]
    for k, (word, _) in enumerate(words):
        if (k or program_name(word) == "htpasswd") and _SETS_PASSWORD.match(program_name(word)):
            rest = [(w, at) for w, at in words[k + 1 :] if not w.startswith("-")]
            if len(rest) >= 2:  # a user (or file and user), then the password
                value, at = rest[-1]
                bare = value.strip("'\"")
                if _chosen(bare):
                    at += value.index(bare)
                    yield "password-argument", offset + at, offset + at + len(bare)
            return


CONNECT_RULES = (
    stdin_passwords,
    token_userinfo,
    hook_paths,
    connection_strings,
    sql_passwords,
    config_lines,
    set_commands,
    command_passwords,
)

__all__ = ["CONNECT_RULES", "chosen_password"]

chosen_password = _chosen
