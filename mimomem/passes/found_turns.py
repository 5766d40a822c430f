"""Which of the values a turn's tools showed are worth keeping: the links of each, weighed across the turn.

A tool's output holds many values; a turn asks for one or two, and the model's answer often names
their neighbours too.  Each value record that links to the conversation is a :class:`Candidate` with
the links it has:

- ``asked``: how many words of its key (its parents too: ``staging.host``) or distinctive terms the
  user's turn names;
- ``answered``: the model's final answer (its text after the turn's last call, or a turn later)
  repeats its value or cites its line, outside brackets;
- ``aside``: repeated only inside brackets ("50051 for gRPC (HTTP is on 8081)") or only in what the
  model said between calls, on its way to the answer;
- ``used``: a later edit, command or read holds a term the output revealed - one that neither the
  call's own command nor the user's turn already held.

:func:`chosen` keeps every used value; of the rest, those the final answer repeats when there are any
(the ones the question names most, when it names some), else the best of the asides and the values
only asked.  A turn that asks nothing (a request to act) keeps a value only when the agent used it or
the turn names its key and the answer repeats it: what an install, a test run or a listing printed
on the way is not what anyone asked for.

A value a later command removed or moved (``rm``, ``mv``, ``git rm``) is stale at once, like a line
the agent edited away: :func:`removed_terms`.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from mimomem.history.episode import Call
from mimomem.history.tool_values import Record

_ASIDE = re.compile(r"\([^()]*\)|（[^（）]*）")
_CONTROL = re.compile(r"\|\||&&|[;|&\n]")
_CLAUSE = re.compile(r"[。；;！？!?，、,]|\.(?:\s|$)|\n")
_LATIN = re.compile(r"[a-z][a-z0-9]{2,}")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2,}")
_COMMON = frozenset(["the", "and", "for", "are", "what", "which", "how", "does", "this", "that", "with", "from"])
_REMOVERS = frozenset(["rm", "unlink", "rmdir", "shred"])
_MOVERS = frozenset(["mv"])
_REMOVING = re.compile(r"\b(?:rm|unlink|rmdir|shred|mv)\b")


@dataclass(frozen=True)
class Candidate:
    """One value record of a turn's tool output with the links it has (see the module's doc)."""

    call: Call
    record: Record
    order: int
    asked: int
    answered: bool
    aside: bool
    used: bool
    clause: int = 0
    """1 when the answer's clause that repeats it shares a word with the user's turn ("预发是 X，生产是 Y"
    for a question about 预发: 1 for X, 0 for Y)."""


def lead_and_aside(text: str) -> tuple[str, str]:
    """(``text`` without what stands in brackets, what stands in brackets)."""
    return _ASIDE.sub(" ", text), " ".join(found.group(0) for found in _ASIDE.finditer(text))


def clauses(text: str) -> list[str]:
    """The clauses of an answer: split at sentence ends, semicolons and commas (in any script)."""
    return [c for c in _CLAUSE.split(text) if c.strip()]


def words(text: str) -> set[str]:
    """What a clause and a question can share: Latin words of three letters or more, CJK bigrams."""
    out = {w for w in _LATIN.findall(text.casefold()) if w not in _COMMON}
    for run in _CJK_RUN.findall(text):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return out


def chosen(candidates: list[Candidate], *, per_call: int) -> list[Candidate]:
    """The candidates worth keeping, in their order (see the module's doc); at most ``per_call`` of one call."""
    rest = [c for c in candidates if not c.used]
    answered = [c for c in rest if c.answered]
    if answered:
        most = max((c.asked, c.clause) for c in answered)
        keep = [c for c in answered if (c.asked, c.clause) == most]
    else:
        best = max((2 * c.aside + c.asked for c in rest), default=0)
        keep = [c for c in rest if best and 2 * c.aside + c.asked == best]
    kept_ids = {id(c) for c in keep}
    out, per = [], dict[int, int]()
    for c in candidates:
        if c.used or id(c) in kept_ids:
            per[id(c.call)] = per.get(id(c.call), 0) + 1
            if per[id(c.call)] <= per_call:
                out.append(c)
    return out


def removed_terms(command: str) -> set[str]:
    """The paths a shell command removes or moves away (``rm a b``, ``git rm a``, ``mv a b`` -> a), each
    with its trailing parts (``tmp/x.csv`` -> also ``x.csv``)."""
    out: set[str] = set()
    if not _REMOVING.search(command):
        return out
    for part in _CONTROL.split(command):
        try:
            words = shlex.split(part)
        except ValueError:
            continue
        while words and ("=" in words[0] or words[0] in ("sudo", "command", "env")):
            words = words[1:]
        if words[:1] == ["git"] and words[1:2] in (["rm"], ["mv"]):
            words = words[1:]
        if not words or words[0].rsplit("/", 1)[-1] not in _REMOVERS | _MOVERS:
            continue
        args = [w for w in words[1:] if not w.startswith("-")]
        for arg in args[:-1] if words[0] in _MOVERS else args:
            out |= path_suffixes(arg.casefold().strip("./"))
    return out


def path_suffixes(path: str) -> set[str]:
    """``path`` and each of its trailing parts (``a/b/c.txt`` -> itself, ``b/c.txt``, ``c.txt``)."""
    parts = path.split("/")
    return {"/".join(parts[i:]) for i in range(len(parts)) if parts[i]}
