"""Values secret by their place, not by a label before them: the slot a grammar keeps for a password.

* a **default** given to a credential's name: ``process.env.MAPS_KEY || "x"``, ``?? "x"``,
  ``os.environ.get("PW") or "x"``, ``${DB_PASSWORD:-x}`` / ``${API_SECRET:=x}``, and a getter's
  second argument, ``os.environ.get("SMTP_PASSWORD", "x")``: the literal is what runs when the
  variable is unset, the credential itself;
* a plain-text string made secure: ``ConvertTo-SecureString "x" -AsPlainText`` (or ``-String x``);
* the word after a share path on a command line (``net use Z: \\\\srv\\share x /user:bob``,
  ``smbclient //srv/share x -U bob``), where SMB tools take the password by position;
* the ``--value`` / ``--secret-string`` / ``--body`` of a command that stores a secret (the line names
  one: ``aws ssm put-parameter --type SecureString``, ``aws secretsmanager create-secret``);
* a token **wrapped** over lines: a found value that ends its line goes on over the next lines
  that are one run of the same alphabet (a JWT or a key a terminal or a mail client broke).

What stands in the slot is judged as a label's value is (:mod:`mimomem.common.secret_label_values`):
references (``$X``, ``process.env.X``, ``$(cat …)``), paths, ports, empty strings and words never count.
"""

from __future__ import annotations

from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_label_values import _value_ok
from mimomem.common.secret_labels import _ASCII_NEEDLES, credential_name
from mimomem.common.secret_needles import needle_text
from mimomem.common.secret_values import char_classes

Span = tuple[str, int, int]
_ARG = lazy(r"\"([^\"\n]*)\"|'([^'\n]*)'|`([^`\n]*)`|([^\s\"'`]+)")
_IDENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_GETTERS = ("get", "getenv", "fetch", "getordefault", "env")
"""Names of the calls that read a setting with a default as their second argument."""
_STORING_OPTIONS = frozenset(("--value", "--secret-string", "--secret-binary", "--body", "--secret-value"))
_STORED_WORDS = ("secret", "securestring", "password", "passwd", "token", "credential")


def _args(line: str) -> list[tuple[str, int, bool]]:
    """The words of ``line`` (quotes removed) with where each starts and whether it was quoted."""
    out = []
    for m in _ARG.finditer(line):
        group = next(g for g in range(1, 5) if m.group(g) is not None)
        out.append((m.group(group), m.start(group), group < 4))
    return out


def _lines(text: str, needle: str, low: str = "") -> Iterator[tuple[str, int]]:
    """The lines of ``text`` holding ``needle`` (found in ``low``, the lower case, when given), with
    where each starts: a rule reads only those."""
    low = low if len(low) == len(text) else text
    at = low.find(needle)
    while at != -1:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        yield text[start:end], start
        at = low.find(needle, end)


def _named(names: str) -> bool | None:
    """Whether one of the identifiers in ``names`` names a password (True), another credential (False)."""
    low = names.lower()
    if not any(n in low for n in _ASCII_NEEDLES):
        return None  # no head's first letters anywhere: no name to read
    found = None
    for m in _IDENT.finditer(names):
        kind = credential_name(m.group())
        if kind:
            return True
        found = kind if kind is not None else found
    return found


def _ok(value: str, password: bool, after: str, quoted: bool = False) -> bool:
    """Is ``value`` what the slot's credential looks like (a literal in code: no quoted word of prose)."""
    head = "password" if password else "token"
    return bool(value) and _value_ok(value, quoted, password, head, after)


def _operand(line: str, at: int) -> tuple[str, str]:
    """The operand before a default operator at ``at`` (back to a bracket it is inside, a comma or an
    ``=``) and, when that ``=`` assigns the expression, the assigned name: what the default is for."""
    depth, k = 0, at - 1
    while k >= 0:
        c = line[k]
        if c in ")]}":
            depth += 1
        elif c in "([{":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c in ",;" or (c == "=" and line[k - 1 : k] not in ("=", "!", "<", ">"))):
            break
        k -= 1
    target = line[:k] if k >= 0 and line[k] == "=" else ""
    return line[k + 1 : at], target[-80:]


def default_values(text: str) -> Iterator[Span]:
    """The literal a credential's name falls back to: ``|| "x"``, ``?? "x"``, ``or "x"``, ``${X:-x}``."""
    if ('", ' in text or "', " in text) and "(" in text:
        yield from _getter_defaults(text)
    if "${" in text:
        yield from _shell_defaults(text)
    for op in ("||", "??", " or "):
        if op not in text:
            continue
        for line, offset in _lines(text, op):
            at = line.find(op)
            while at != -1:
                operand, target = _operand(line, at)
                found = [_named(operand), _named(target.rsplit(None, 1)[-1] if target.strip() else "")]
                password = True if True in found else (False if False in found else None)
                rest = line[at + len(op) :]
                args = _args(rest[:200])
                if password is not None and args and args[0][2] and not rest[: args[0][1] - 1].strip():
                    value, k, _ = args[0]
                    if _ok(value, password, rest[k + len(value) + 1 :]):
                        yield "credential-default", offset + at + len(op) + k, offset + at + len(op) + k + len(value)
                at = line.find(op, at + len(op))


def _shell_defaults(text: str) -> Iterator[Span]:
    """``${DB_PASSWORD:-x}``, ``${API_SECRET:=x}``: a shell variable's default."""
    for line, offset in _lines(text, "${"):
        at = line.find("${")
        while at != -1:
            name = _IDENT.match(line, at + 2)
            close = line.find("}", at)
            if name and close != -1 and line.startswith((":-", ":=", "-", "="), name.end()):
                start = name.end() + (2 if line[name.end()] == ":" else 1)
                value = line[start:close].strip("\"'")
                start += line[start:close].find(value) if value else 0
                password = credential_name(name.group() + "=")
                if password is not None and _ok(value, password, line[close + 1 :]):
                    yield "credential-default", offset + start, offset + start + len(value)
            at = line.find("${", at + 2)


def _getter_defaults(text: str) -> Iterator[Span]:
    """``os.environ.get("SMTP_PASSWORD", "x")``, ``ENV.fetch("API_TOKEN", "x")``: a getter's default."""
    low = needle_text(text)
    if len(low) != len(text):
        return
    for getter in _GETTERS:
        call = getter + "("
        at = low.find(call)
        while at != -1:  # only where a getter is called (its whole name: not budget(, not getenv( as env()
            if not at or not (low[at - 1].isalnum() or low[at - 1] == "_"):
                yield from _getter_default(text, at + len(call))
            at = low.find(call, at + len(call))


def _getter_default(text: str, start: int) -> Iterator[Span]:
    """The default after the quoted credential name a getter's call opens with at ``start``."""
    stop = text.find("\n", start)
    stop = min(len(text) if stop == -1 else stop, start + 240)
    args = _args(text[start:stop])  # "NAME" , "value"
    if len(args) < 3 or not (args[0][2] and args[2][2]) or args[1][:1] != (",",):
        return
    password = credential_name(args[0][0] + "=")
    value, k = args[2][0], start + args[2][1]
    if password is not None and _ok(value, password, text[k + len(value) + 1 : stop]):
        yield "credential-default", k, k + len(value)


def secure_string_values(text: str) -> Iterator[Span]:
    """``ConvertTo-SecureString "x" -AsPlainText`` (or ``-String x``): a password typed in plain text."""
    low = needle_text(text)
    if "convertto-securestring" not in low:
        return
    for line, offset in _lines(text, "convertto-securestring", low):
        at = line.lower().find("convertto-securestring") + len("convertto-securestring")
        end = min((k for k in (line.find(c, at) for c in ")|;") if k != -1), default=len(line))
        segment = line[at:end]
        if "-asplaintext" not in segment.lower():
            continue
        args = _args(segment)
        for i, (word, k, quoted) in enumerate(args):
            if not quoted and word.startswith("-"):
                continue
            if i and args[i - 1][0].lower() in ("-key", "-securekey"):
                continue  # another parameter's argument (-AsPlainText and -Force take none)
            if _ok(word, True, segment[k + len(word) :]):
                yield "password-secure-string", offset + at + k, offset + at + k + len(word)
            break


def _share(word: str) -> bool:
    """A UNC or SMB share path: ``\\\\srv\\share``, ``//srv/share`` (a host name, then a share name)."""
    if not word.startswith(("\\\\", "//")):
        return False
    sep = word.find(word[0], 2)
    host = word[2:sep]
    return sep > 2 and all(c.isalnum() or c in "-._" for c in host) and word[sep + 1 : sep + 2].isalnum()


def share_passwords(text: str) -> Iterator[Span]:
    """The word after a share path (past ``/user:x``-style switches): SMB tools' positional password."""
    for needle in ("\\\\", " //"):
        if needle not in text:
            continue
        for line, offset in _lines(text, needle):
            at = line.find(needle)
            if not line[at + len(needle) : at + len(needle) + 1].isalnum():
                continue  # no host name after it: an escape or a comment, no share
            args = _args(line)
            for i, (word, _, _) in enumerate(args):
                if not _share(word):
                    continue
                j = i + 1
                while j < len(args) and args[j][0].startswith("/") and ":" in args[j][0]:
                    j += 1
                if j < len(args) and not args[j][0].startswith(("-", "/", "\\")):
                    value, k, quoted = args[j]
                    if char_classes(value) >= 3 and _ok(value, True, line[k + len(value) :], quoted):
                        yield "password-after-share", offset + k, offset + k + len(value)


def stored_values(text: str) -> Iterator[Span]:
    """``--value x`` / ``--secret-string x`` of a command whose line says it stores a secret."""
    if " --" not in text:
        return
    low = needle_text(text)
    for needle in (" --value", " --secret-", " --body"):
        if needle not in low:
            continue
        for line, offset in _lines(text, needle, low):
            args = _args(line)
            for i, (word, k, quoted) in enumerate(args):
                name, eq, value = word.partition("=")
                if quoted or name.lower() not in _STORING_OPTIONS:
                    continue
                if not eq and i + 1 < len(args):
                    value, k, quoted = args[i + 1]
                elif eq:
                    k += len(name) + 1
                rest = (line[:k] + line[k + len(value) :]).lower()
                stores = any(w in rest for w in _STORED_WORDS)
                if value and not value.isdigit() and stores and _ok(value, True, line[k + len(value) :]):
                    yield "stored-secret-value", offset + k, offset + k + len(value)


_NAMED_LITERAL = lazy(
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)['\"]?[ \t]*(?:,[ \t]*|:[ \t]*&?(?:'static[ \t]+)?str[ \t]*=[ \t]*|[ \t]+)"
    r"(?P<q>['\"`])(?P<value>[^'\"`\n]{4,200})(?P=q)"
)
"""A literal bound to a name by a definition's own syntax: ``define('NAME', 'x')``, ``#define NAME "x"``,
``const NAME: &str = "x"`` (an assignment's ``=`` and a mapping's ``:`` are the label rule's)."""
_PAIR = lazy(
    r"(?P<call>[A-Za-z_][\w.]*)[ \t]*(?:\(|=[ \t]*\()[ \t]*(?P<q1>['\"])[^'\"\n]{1,80}(?P=q1)[ \t]*,[ \t]*"
    r"(?P<q>['\"])(?P<value>[^'\"\n]{4,200})(?P=q)"
)
_PAIR_CALLS = ("login", "auth", "authenticate", "credentials", "credential", "basicauth", "password")
"""What a call or keyword taking a user name, then a password, is called (``server.login("u", "x")``,
``auth=("u", "x")``, ``HTTPBasicAuth("u", "x")``)."""


def named_literals(text: str) -> Iterator[Span]:
    """A quoted literal a definition binds to a credential's name (``#define API_KEY "x"``)."""
    for line, offset in _lines(text, "define", needle_text(text)):
        yield from _named_on(line, offset)
    for needle in ("const ", "static "):
        for line, offset in _lines(text, needle, text):
            yield from _named_on(line, offset)


def _named_on(line: str, offset: int) -> Iterator[Span]:
    for m in _NAMED_LITERAL.finditer(line):
        password = credential_name(m.group("name") + "=")
        value = m.group("value")
        if password is not None and _ok(value, password, line[m.end() :]):
            yield "credential-definition", offset + m.start("value"), offset + m.end("value")


def pair_literals(text: str) -> Iterator[Span]:
    """The second of two literals given to a login or an auth call: the user name, then the password."""
    low = needle_text(text)
    if "(" not in text or not any(c in low for c in ("login", "auth", "credential", "password")):
        return
    lines = set()
    for call in _PAIR_CALLS:  # only the lines where such a call or keyword opens its brackets
        for opened in (call + "(", call + "=(", call + " = ("):
            at = low.find(opened)
            while at != -1:
                lines.add(text.rfind("\n", 0, at) + 1)
                at = low.find(opened, at + 1)
    for offset in sorted(lines):
        stop = text.find("\n", offset)
        line = text[offset : len(text) if stop == -1 else stop]
        for m in _PAIR.finditer(line):
            call = m.group("call").rsplit(".", 1)[-1].lower()
            if call.endswith(_PAIR_CALLS) and _ok(m.group("value"), True, line[m.end() :]):
                yield "password-argument", offset + m.start("value"), offset + m.end("value")


def piped_secrets(text: str) -> Iterator[Span]:
    """A literal echoed into a command that stores or sets a secret (``printf 'x' | docker secret
    create k -``, ``echo 'u:x' | chpasswd``): the line after the pipe names what it is."""
    if "|" not in text:
        return
    for line, offset in _lines(text, "|"):
        left, _, right = line.partition("|")
        args = _args(left)
        if len(args) < 2 or not any(a[0] in ("echo", "printf") and not a[2] for a in args[:3]):
            continue
        if not any(w in right.lower() for w in _STORED_WORDS):
            continue
        value, k, _ = args[-1]
        secret = value.rpartition(":")[2] if ":" in value and "chpasswd" in right else value
        if not value.startswith(("-", "%")) and _ok(secret, True, ""):
            yield "piped-secret", offset + k, offset + k + len(value)


_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.-")


def continued(text: str, end: int) -> int:
    """Where a found token ending its line at ``end`` really ends: over the next lines that are one run
    of a token's alphabet mixing letters and digits (a JWT or a key wrapped by a terminal), else ``end``."""
    while text.startswith(("\n", "\r\n"), end):
        start = text.index("\n", end) + 1
        stop = text.find("\n", start)
        stop = len(text) if stop == -1 else stop
        line = text[start:stop].rstrip("\r")
        body = line.lstrip(" ")
        if not (8 <= len(body) <= 400 and all(c in _TOKEN_CHARS for c in body)):
            break
        if "=" in body.rstrip("=") or not any(c.isdigit() for c in body) or not any(c.isalpha() for c in body):
            break
        end = start + len(line)
    return end


SLOT_RULES = (
    default_values,
    secure_string_values,
    share_passwords,
    stored_values,
    named_literals,
    pair_literals,
    piped_secrets,
)

__all__ = ["SLOT_RULES", "continued", "default_values"]
