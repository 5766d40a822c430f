"""Whether a shell command runs code it fetched, found by parsing the command, not by its spelling.

The command is parsed with bashlex (a bash parser) and walked by :mod:`mimomem.history.shell_flow`,
which follows fetched content (a fetch's output, the files it writes, a variable or substitution
holding it, what a pipe, ``tee``, a copy or an unpacked archive makes of it) to a position that runs
code (an interpreter reading stdin, a script or code argument, a command word, another shell's code
string); an interpreter that is given code of its own (``python3 -c '…'``, ``python -m json.tool``,
``jq``) only reads the fetched text as data.  This module holds the public checks: one command, a
command typed in prose, and the files a command writes and runs (to follow them across tool calls).

When the command cannot be parsed (bashlex is missing, or the text is not valid bash), a fallback
errs on the safe side: a fetcher word followed anywhere by an interpreter word, ``eval``,
``source``, ``$(`` or ``<(`` is unsafe.
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import NamedTuple

from mimomem.history.shell_flow import analyse
from mimomem.history.shell_pwsh import analyse as pwsh_runs_fetched_code
from mimomem.history.shell_remote import RUNNERS, code_runs_remote, encoded_commands, runs_remote_package
from mimomem.history.shell_words import CMD_SHELLS, FETCHERS, INTERPRETERS, WRAPPERS, program


def _fetches_text(text: str) -> bool:
    return any(program(w) in FETCHERS for w in re.findall(r"[\w./-]+", text))


_ENCODED_FLAG = re.compile(r"(?i)\s-(?:e|ec|enc\w*)\s")
"""PowerShell's ``-EncodedCommand`` as it may be abbreviated (:mod:`~mimomem.history.shell_remote` decodes it)."""
_REMOTE_HINT = re.compile(_ENCODED_FLAG.pattern + r"|://|\b(?:git\+|github:|gitlab:|bitbucket:)", re.I)
"""What a command running remote code without a fetcher holds: an encoded command, a URL, a repository spec."""


def _parsed_unsafe(command: str) -> bool:
    return analyse(command).unsafe


_FALLBACK = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod)\b.*"
    r"(?:\b(?:ba|z|da|k|fi)?sh\b|\bpython[0-9.]*\b|\bperl\b|\bruby\b|\bnode\b|\bphp\b|\bpwsh\b|\bpowershell\b|\biex\b"
    r"|\beval\b|\bsource\b|\$\(|<\(|`)"
    r"|(?:\$\(|<\(|`)\s*(?:curl|wget)\b",
    re.I | re.S,
)


_FETCHED_NAME = re.compile(r"://|\$|\b[\w-]+(?:\.[\w-]+)+/|\b(?:localhost|\d+\.\d+\.\d+\.\d+)\b")
"""What a fetch can fetch: a URL, a variable holding one, a host and path."""


_POWERSHELL = re.compile(
    r"(?i)\b(?:iex|iwr|irm)\b|\b(?:invoke|get|set|out|new|start|select|foreach|convertto|convertfrom)-[a-z]+\b"
    r"|\[[\w.]+\]::|(?:^|;)\s*\$\w+\s*="
)
"""PowerShell's own syntax: its aliases and Verb-Noun cmdlets, a static member, a ``$variable =``."""


@functools.lru_cache(maxsize=4096)
def runs_fetched_code(command: str) -> bool:
    """True when ``command`` feeds fetched content to an interpreter (see the module docstring); a
    PowerShell command, which bash cannot parse, is followed by :mod:`mimomem.history.shell_pwsh`; code
    from the network run with no fetcher in the line (an encoded PowerShell command, a runner given a
    URL, an interpreter's own code that downloads and evaluates) by :mod:`mimomem.history.shell_remote`."""
    if _REMOTE_HINT.search(command):
        if any(runs_fetched_code(c) for c in encoded_commands(command) if c != command):
            return True
        if runs_remote_package(command) or code_runs_remote(command):
            return True
    if not _fetches_text(command):
        return False
    powershell = bool(_POWERSHELL.search(command))
    if powershell and pwsh_runs_fetched_code(command):
        return True
    try:
        return _parsed_unsafe(command)
    except Exception:  # a fetch of nothing named ("Don't curl | bash anything") fetches nothing
        return not powershell and bool(_FALLBACK.search(command)) and bool(_FETCHED_NAME.search(command))


class FileFlow(NamedTuple):
    """The files of one command line, by basename, to follow a download into later tool calls."""

    written: list[str]
    """Files a fetch wrote."""
    run: list[str]
    """Files run or made executable (``bash x.sh``, ``./x``, ``chmod +x x``)."""
    called: tuple[str, ...] = ()
    """Programs run by a bare name (``tool init``)."""
    on_path: tuple[str, ...] = ()
    """Files a fetch wrote into a ``bin`` directory (runnable by their bare name)."""


def file_flow(command: str, *, following: bool = True) -> FileFlow:
    """The files a fetch in ``command`` writes, and those it runs, makes executable or calls by name: to
    find a download run in another tool call (``curl -o x.sh …``, then ``bash x.sh`` or ``./x.sh``; a
    download into ``~/bin`` or made executable, then ``x init``), as unsafe as the calls joined by ``;``.
    Empty when it cannot be parsed, or when ``following`` is false (no earlier fetch to follow) and it
    fetches nothing."""
    if not following and not _fetches_text(command):
        return FileFlow([], [])
    try:
        flow = analyse(command)
    except Exception:
        return FileFlow([], [])
    written = [w for w in flow.written if w]
    on_path = tuple(w for w in written if w in flow.executable)
    return FileFlow(written, [r for r in flow.run if r], tuple(flow.called), on_path)


_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_SCRIPT_CHANGE = re.compile(r"(?<=[^\x00-\x7f])(?=[!-~])|(?<=[!-~])(?=[^\x00-\x7f])")
"""Where prose in another script meets a command (``就这样：curl …``): a word boundary, as a space is."""
_STARTS = FETCHERS | INTERPRETERS | WRAPPERS | CMD_SHELLS | frozenset(RUNNERS) | frozenset({"echo", "printf"})


def _command_start(word: str) -> bool:
    """A word a command line can start with: a fetcher, an interpreter, a wrapper, a path run as a
    program (``./b.sh``, ``/usr/bin/env``) or a substitution (``$(``, ``<(``)."""
    return (
        program(word) in _STARTS
        or word.startswith(("./", "$(", "<(", "`"))
        or (word.startswith("/") and "://" not in word)
    )


def _may_fetch(text: str) -> bool:
    """Whether ``text`` could hold a command running fetched code (a fetcher, a URL, an encoded command)."""
    return _fetches_text(text) or bool(_REMOTE_HINT.search(text))


def text_runs_fetched_code(text: str) -> bool:
    """True when prose or a note holds a command line that runs fetched code (:func:`runs_fetched_code`).

    Tried: each code span, the code spans read as one command line (`` `curl -o f …` then `bash f` ``),
    and each line of the text from every word a command can start with (prose before a command is no
    command, and prose in another script ends where the command begins and begins where it ends, with or
    without a space), whole and as the run of commands those words begin (``curl -o f … then env bash f``).
    """
    if not _may_fetch(text):
        return False
    spans = [m.group(2).strip() for m in _SPAN.finditer(text)]
    tries = spans + (["; ".join(spans)] if len(spans) > 1 else [])
    for line in _SPAN.sub(lambda m: m.group(2), text).splitlines():
        words = _SCRIPT_CHANGE.sub(" ", line).split()
        starts = [i for i, w in enumerate(words) if _command_start(w)]
        tries += [" ".join(words[i:]) for i in starts]
        prose = [i for i, w in enumerate(words) if not any(c.isascii() for c in w)]
        tries += [" ".join(words[i : min([p for p in prose if p > i], default=len(words))]) for i in starts]
        bounds = [*starts, len(words)]
        tries += ["; ".join(" ".join(words[a:b]) for a, b in itertools.pairwise(bounds))] if len(starts) > 1 else []
    return any(runs_fetched_code(t) for t in tries if _may_fetch(t))
