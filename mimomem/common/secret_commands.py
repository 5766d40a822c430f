"""Random values given to a command's options: ``ossutil config -i ID -k SECRET``, ``tool --sig=X``.

The context rules (:mod:`mimomem.common.secret_context`) know the password options of common
programs (``mysql -p``, ``redis-cli -a``, ``curl -u``); a tool they do not know still takes its
key as an option's argument.  A line that reads as a command (a program name, then words split
the way the shell splits them, :mod:`shlex`) has its option arguments judged by their shape
alone: a random run of sixteen characters or more mixing upper case, lower case and digits is a
credential whatever the option is called.  Paths, URLs, hashes in one case, versions and names
never are.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_values import char_classes, decodes_to_prose, is_placeholder, is_sequential, shannon_entropy

Span = tuple[str, int, int]
_WORD = lazy(r"[A-Z]?[a-z]{3,}")
_JSON_STRING = lazy(r'"([^"\\]*)"')
MIN_LEN = 16
"""The shortest option argument taken as a key on its shape alone."""


def _random(value: str) -> bool:
    if len(value) < MIN_LEN or len(value) > 512 or any(c in value for c in "/\\:@.$%{}<>() \t"):
        return False  # paths, URLs, addresses, file names, variables, templates, a message
    if sum(len(m.group()) for m in _WORD.finditer(value)) >= 0.5 * len(value):
        return False  # a name made of words: test_Login2FactorRetriesFlow, Token2RefreshFix
    if not (any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)):
        return False
    if is_placeholder(value) or is_sequential(value) or char_classes(value) < 3:
        return False
    return shannon_entropy(value) >= 3.5 and not decodes_to_prose(value.rstrip("="))


def _words(line: str) -> list[tuple[str, int]] | None:
    """The shell words of ``line`` with where each starts, or None when it does not split."""
    try:
        words = shlex.split(line, comments=False, posix=True)
    except ValueError:
        return None
    out, pos = [], 0
    for word in words:
        at = line.find(word, pos)
        if at == -1:
            return None  # quoting changed the word: its place is unknown
        out.append((word, at))
        pos = at + len(word)
    return out


def _command(words: list[tuple[str, int]]) -> bool:
    """Does the line start with a program name (after an optional ``$`` prompt or ``sudo``)?"""
    names = [w for w, _ in words[:3] if w not in ("$", "#", "sudo", ">")]
    first = names[0] if names else ""
    return bool(first) and (first.replace("-", "").replace("_", "").replace(".", "").replace("/", "").isalnum())


def option_values(text: str) -> Iterator[Span]:
    """Random values given as options' arguments on lines that read as commands."""
    if " -" not in text:
        return
    start = 0
    for whole in text.split("\n"):
        offset, start = start, start + len(whole) + 1
        if " -" not in whole or len(whole) > 4000:
            continue
        yield from _line_values(whole, offset)
        if whole.lstrip()[:1] in ("{", "["):  # a tool's input as JSON: its strings are command lines
            for m in _JSON_STRING.finditer(whole):
                if " -" in m.group(1):
                    yield from _line_values(m.group(1), offset + m.start(1))


def _line_values(line: str, offset: int) -> Iterator[Span]:
    """Random option arguments on ``line`` when it reads as a command (``offset``: where it starts)."""
    words = _words(line)
    if not words or not _command(words):
        return
    for k, (word, at) in enumerate(words):
        if not word.startswith("-") or len(word) < 2:
            continue
        name, eq, value = word.partition("=")
        if eq:
            at += len(name) + 1
        elif k + 1 < len(words) and not words[k + 1][0].startswith("-"):
            value, at = words[k + 1]
        if value and _random(value) and not _encoded(words, k, value):
            yield "option-value", offset + at, offset + at + len(value)


def _encoded(words: list[tuple[str, int]], k: int, value: str) -> bool:
    """A PowerShell ``-EncodedCommand`` script: judged by what it decodes to (``secrets``), not its shape."""
    return k + 1 < len(words) and words[k + 1][0] == value and decoded_script(value) is not None


def decoded_script(value: str) -> str | None:
    """The script a PowerShell ``-EncodedCommand`` argument holds (Base64 of UTF-16LE), else None."""
    if len(value) < 8 or len(value) % 4:
        return None
    import binascii  # here, not at import: a served hook rarely meets an encoded command
    from base64 import b64decode

    try:
        script = b64decode(value, validate=True).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return script if all(c.isprintable() or c in "\r\n\t" for c in script) else None


def encoded_option(word: str) -> bool:
    """``-EncodedCommand`` or a prefix PowerShell accepts for it (``-enc``, ``-e``, ``-ec``)."""
    low = word.lower()
    return low in ("-ec", "-e", "-en", "-enc") or (len(low) > 4 and "-encodedcommand".startswith(low))


OPTION_RULES = (option_values,)

__all__ = ["MIN_LEN", "OPTION_RULES", "decoded_script", "encoded_option", "option_values"]
