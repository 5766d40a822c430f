"""Code from the network run without a fetcher command the flow walk could follow.

:mod:`mimomem.history.shell_flow` follows what ``curl`` / ``wget`` / ``iwr`` return.  Three ways run
remote code with no such command in the line, each read from the command's structure:

- a PowerShell host given its command base64-encoded (``-EncodedCommand`` and every prefix of it
  PowerShell accepts, ``-enc``, ``-ec``, ``-e``): the command is decoded (UTF-16LE, as PowerShell
  reads it) and judged like any other;
- a package runner told to run what a URL or a repository names (``npx https://…``, ``npm exec``,
  ``pnpm dlx``, ``bunx``, ``pipx run``, ``uvx --from git+https://…``, ``deno run https://…``): a
  package named by its registry name is not counted (that is how these tools are meant to be used);
- an interpreter's own code (``python3 -c``, ``node -e``, ``php -r``, ``ruby -e``, ``perl -e``) that
  names a URL and evaluates code (``exec`` / ``eval`` / ``Function`` / ``include`` of it).

The names are the runners' and languages' own syntax, not spellings of unsafe commands.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
import shlex

from mimomem.history.shell_words import INTERPRETERS, program

POWERSHELL_HOSTS = frozenset({"powershell", "powershell.exe", "pwsh", "pwsh.exe"})
_ENCODED = "-encodedcommand"
_ENCODED_SHORT = frozenset({"-ec", "-e"})
"""PowerShell's abbreviations of ``-EncodedCommand`` beyond its prefixes (``-enc``, ``-encoded``)."""

RUNNERS: dict[str, tuple[str, ...]] = {
    "npx": (),
    "bunx": (),
    "pnpx": (),
    "uvx": (),
    "npm": ("exec", "x"),
    "pnpm": ("dlx", "exec"),
    "yarn": ("dlx",),
    "bun": ("x",),
    "pipx": ("run",),
    "uv": ("run", "tool"),
    "deno": ("run", "x"),
}
"""A runner and the subcommand that makes it fetch and run a package (none: the runner itself)."""
_REMOTE_SPEC = re.compile(r"^(?:[a-z][a-z0-9+.-]*://|git\+|github:|gitlab:|bitbucket:)", re.I)
"""A package named by where it is fetched from (a URL, a VCS spec), not by a registry name."""

CODE_FLAGS = frozenset({"-c", "-e", "-r", "-p", "--eval", "-E", "--command", "-command"})
_URL = re.compile(r"\bhttps?://", re.I)
_EVALUATES = re.compile(
    r"\b(?:exec|eval|compile|Function|execfile|runpy\.\w+|runInThisContext|runInNewContext|instance_eval"
    r"|Invoke-Expression|iex)\b\s*[\s(),;]"
    r"|\b(?:include|require)(?:_once)?\s*\(?\s*['\"]https?://",
    re.I,
)
"""A language's way to run a string or a remote file as code (Python / JS / Ruby / Perl / PHP)."""


def _words(command: str) -> list[str]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return command.split()


def _commands(command: str) -> list[list[str]]:
    """The simple commands of a line, split at its operators (words as the shell passes them)."""
    out: list[list[str]] = [[]]
    for word in _words(command):
        if word and all(c in ";&|()<>" for c in word):
            out.append([])
        else:
            out[-1].append(word)
    return [c for c in out if c]


def _is_encoded_flag(word: str) -> bool:
    low = word.casefold()
    return low in _ENCODED_SHORT or (len(low) >= 4 and _ENCODED.startswith(low))


def encoded_commands(command: str) -> list[str]:
    """The commands a PowerShell host in ``command`` is handed base64-encoded, decoded."""
    out = []
    for words in _commands(command):
        hosts = [i for i, w in enumerate(words) if program(w) in POWERSHELL_HOSTS]
        for i in hosts:
            for flag, value in zip(words[i + 1 :], words[i + 2 :], strict=False):
                if _is_encoded_flag(flag):
                    out += _decoded(value)
    return out


def _decoded(value: str) -> list[str]:
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return []
    texts = []
    for codec in ("utf-16-le", "utf-8"):
        try:
            texts.append(raw.decode(codec))
        except UnicodeDecodeError:
            continue
    return [t for t in texts if t.isprintable() or "\n" in t]


def runs_remote_package(command: str) -> bool:
    """A package runner told to fetch and run what a URL or a repository spec names: the package it runs
    (its first word that is no option, or the value of ``--spec`` / ``--from`` / ``--package``), not any
    later argument (``npx eslint https://…`` runs eslint on a URL)."""
    for words in _commands(command):
        names = [program(w) for w in words]
        for i, name in enumerate(names):
            if name not in RUNNERS:
                continue
            rest = words[i + 1 :]
            if RUNNERS[name]:
                plain = [n for n, w in enumerate(rest) if not w.startswith("-")]
                if not plain or rest[plain[0]] not in RUNNERS[name]:
                    continue
                rest = rest[plain[0] + 1 :]
            if _REMOTE_SPEC.match(_package(rest)):
                return True
    return False


_PACKAGE_OPTIONS = frozenset({"--spec", "--from", "--package", "-p", "--with"})


def _package(args: list[str]) -> str:
    """What a runner's arguments name as the package to run."""
    j = 0
    while j < len(args):
        arg = args[j]
        if arg in _PACKAGE_OPTIONS and j + 1 < len(args):
            return args[j + 1]
        if arg.startswith(tuple(f"{o}=" for o in _PACKAGE_OPTIONS)):
            return arg.split("=", 1)[1]
        if not arg.startswith("-"):
            return arg
        j += 1
    return ""


def code_runs_remote(command: str) -> bool:
    """An interpreter's own code (a ``-c`` / ``-e`` / ``-r`` argument) that names a URL and runs code."""
    if not _URL.search(command):
        return False
    for words in _commands(command):
        for n, (flag, code) in enumerate(itertools.pairwise(words)):
            ran = any(program(w) in INTERPRETERS for w in words[:n])
            if ran and flag in CODE_FLAGS and _URL.search(code) and _EVALUATES.search(code):
                return True
    return False
