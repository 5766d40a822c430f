"""What the agent found: values a tool revealed, and the cause and fix the model stated for a failure.

Two kinds of item, each with its provenance, in a section of their own (:data:`FOUND`), never a
rule or an instruction:

- **a value a tool revealed** (provenance ``tool``): a line of a tool's output - a file the agent
  read (cited ``path:line``) or a command's output (cited by the command) - that the user asked
  about or the agent then used.  "Asked about": the user's turn was a question or a request to
  look (:mod:`mimomem.history.sentence`), and the line shares a distinctive term with that turn or
  with the model's answer to it.  "Used": the line's value reappears in a later edit or command.
  Only short lines of data are quoted: never one that reads as an order (any grammar
  :mod:`~mimomem.history.sentence` reads, or :func:`~mimomem.history.provenance.reads_as_instruction`).
  Observed again with another value, the newer item supersedes the older (same file and key).
- **a cause and fix the model stated** (provenance ``model``): after a failed call (or a problem the
  user reported), the model's sentences that explain it and share a term with what then fixed it,
  kept with the failure and the fix.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable

from mimomem.history.episode import Call, Episode, Fix, Said, clip
from mimomem.history.provenance import reads_as_instruction
from mimomem.history.sentence import QUESTION, REASON, STATEMENT, is_choice, is_imperative, is_standing, sentence_type
from mimomem.history.tool_text import quotable_error

FOUND = "Found by the agent"
MAX_LINE = 120
"""Characters of one line of tool output quoted as a value, at most."""
MAX_VALUES = 3
"""Lines quoted from one tool result at most."""
DIAGNOSIS = 180
"""Characters of the model's explanation kept at most."""
MAX_FOUND = 6
"""Values kept from one session at most."""

_READ_LINE = re.compile(r"^\s*(\d+)[\t→](.*)$")
_TOKEN = re.compile(r"[A-Za-z0-9][\w.:/@+-]*[\w]|\d")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "to",
        "of",
        "in",
        "on",
        "for",
        "and",
        "or",
        "it",
        "its",
        "this",
        "that",
        "with",
        "at",
        "by",
        "from",
        "as",
        "set",
        "sets",
        "what",
        "which",
        "where",
        "when",
        "who",
        "how",
        "why",
        "does",
        "do",
        "did",
        "can",
        "could",
        "you",
        "your",
        "our",
        "we",
        "i",
        "me",
        "my",
        "here",
        "there",
        "now",
        "line",
        "file",
        "files",
        "version",
        "value",
        "values",
        "config",
        "show",
        "tell",
        "check",
        "look",
        "find",
    ]
)
_LOOK = re.compile(
    r"^(?:帮我?|麻烦|再|重新)?(?:看|查|找|确认|瞧)|見て|調べ|確認|^(?:check|look|find|show|tell)\b", re.I
)
_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[.;])\s+(?=\S)|\n+")


def _tokens(text: str) -> set[str]:
    """Distinctive terms of ``text``: identifiers, numbers, paths (stop words and 1-letter words out)."""
    out = set()
    for raw in _TOKEN.findall(text):
        token = raw.casefold().strip(".:/")
        if token and token not in _STOP and (len(token) > 1 or token.isdigit()):
            out.add(token)
    return out


def _strong(token: str) -> bool:
    """A term that names one thing on its own: has a digit (two or more characters) or a separator."""
    return (len(token) >= 2 and any(c.isdigit() for c in token)) or any(c in token for c in "._/-:@")


def _data_line(line: str) -> bool:
    """A short line of data, not prose that could read as an order."""
    flat = " ".join(line.split())
    if not flat or len(flat) > MAX_LINE or flat.startswith("#"):
        return False
    return not (reads_as_instruction(flat) or is_standing(flat) or is_imperative(flat))


def _raw_lines(call: Call) -> list[tuple[str, str]]:
    """(citation, line) of a call's ok output: ``path:N`` for a read file, the command otherwise."""
    if call.status != "ok" or not call.output:
        return []
    out = []
    for n, raw in enumerate(call.output.splitlines(), 1):
        if call.reads:
            found = _READ_LINE.match(raw)
            number, text = (found.group(1), found.group(2)) if found else (str(n), raw)
            out.append((f"{call.reads[0]}:{number}", text.strip()))
        elif call.command is not None:
            out.append((f"`{clip(call.command, 60)}`", raw.strip()))
    return [(cite, text) for cite, text in out if text]


def _value_item(cite: str, lines: list[str], call: Call) -> str:
    shown = "; ".join(f"`{clip(line, MAX_LINE)}`" for line in lines)
    if call.reads:
        return f"{cite}: {shown} (read by the agent)"
    return f"{cite} printed {shown}"


def _spans(episode: Episode) -> Iterable[tuple[Said | None, list[Call], list[Said]]]:
    """(typed turn or None, its calls, the model's texts after it) for each turn of the episode."""
    typed = episode.typed()
    starts = [(s.at, s.order, s) for s in typed]
    bounds = [(0, -1, None), *starts, (len(episode.calls), 1 << 30, None)]
    orders = [m.order for m in episode.model]  # in order already
    for (at, order, said), (end_at, end_order, _) in itertools.pairwise(bounds):
        model = episode.model[bisect.bisect_right(orders, order) : bisect.bisect_left(orders, end_order)]
        yield said, episode.calls[at:end_at], model


def _asks(said: Said | None) -> bool:
    if said is None:
        return False
    parts = [p for p in re.split(r"(?<=[。！？!?])|\n+", said.text) if p.strip()]
    return any(sentence_type(p) == QUESTION or _LOOK.search(p.strip()) for p in parts)


def reports_problem(text: str) -> bool:
    """A turn that reports a problem: it opens with a statement that neither sets a rule, records a
    choice nor names a fact ("every log line shows up twice", "导入大文件的时候进程没了")."""
    first = next((p for p in re.split(r"(?<=[。！？!?])|\n+", text) if p.strip()), "")
    if sentence_type(first) != STATEMENT or is_standing(first) or is_choice(first):
        return False
    from mimomem.passes.promote_items import is_fact

    return not is_fact(first)


def value_items(episode: Episode) -> list[tuple[Call, str]]:
    """(call, item text) of values a tool revealed that the user asked about or the agent used."""
    out: list[tuple[Call, str]] = []
    last_use: dict[str, int] = {}  # a distinctive term -> the last call whose edit or command holds it
    for n, c in enumerate(episode.calls):
        for token in _tokens(f"{c.change} {c.command or ''}"):
            if len(token) >= 6 and _strong(token):
                last_use[token] = n
    index = {id(c): n for n, c in enumerate(episode.calls)}
    for said, calls, model in _spans(episode):
        wanted = _tokens(said.text) | _tokens(" ".join(m.text for m in model)) if _asks(said) and said else set()
        first_change = next((n for n, c in enumerate(calls) if c.files), len(calls))
        for n_call, call in enumerate(calls):
            at = index[id(call)]
            looked_up = bool(wanted) and n_call < first_change  # what the agent looked up comes before it edits
            chosen = []
            for cite, text in _raw_lines(call):
                terms = _tokens(text)
                asked = looked_up and (any(_strong(t) for t in terms & wanted) or len(terms & wanted) >= 2)
                used = any(last_use.get(t, -1) > at for t in terms)
                if (asked or used) and _data_line(text):
                    chosen.append((cite, text))
                if len(chosen) >= MAX_VALUES:
                    break
            if chosen:
                cite = chosen[0][0] if call.reads else f"`{clip(call.command or call.summary, 60)}`"
                out.append((call, _value_item(cite, [t for _, t in chosen], call)))
    return out[-MAX_FOUND:]


def _explaining(model: list[Said], fix_terms: set[str], error_terms: set[str]) -> list[str]:
    """The model's sentences that explain a failure: sharing a term with its fix or its error and
    giving a cause (a reason connective) or naming the fix; never one that reads as an order."""
    out = []
    for said in model:
        for raw in _SENTENCE.split(said.text):
            sentence = " ".join(raw.split())
            if len(sentence) < 8 or is_standing(sentence) or is_imperative(sentence):
                continue
            terms = _tokens(sentence)
            if terms & fix_terms or (REASON.search(sentence) and terms & error_terms):
                out.append(sentence)
    return out[:2]


def cause_items(episode: Episode, fixes: list[Fix]) -> list[tuple[Fix | None, Said | None, str]]:
    """(the fix it explains, or the user's turn that reported the problem, item text) of each cause
    and fix the model stated."""
    out: list[tuple[Fix | None, Said | None, str]] = []
    index = {id(c): n for n, c in enumerate(episode.calls)}
    for f in fixes:
        if not f.fix or f.flaky or not f.fixed_by or any(c.unsafe for c in (f.call, *f.fixed_by)):
            continue
        start, end = index.get(id(f.call), 0), index.get(id(f.fixed_by[-1]), len(episode.calls))
        model = [m for m in episode.model if start < m.at <= end + 1]
        fix_terms = _tokens(f.fix) - _tokens(f.call.summary)
        said = _explaining(model, fix_terms, _tokens(f.error))
        if said:
            error = quotable_error(f.error) or "tool output not quoted"
            text = f"`{clip(f.call.summary, 80)}` failed ({error}); cause (agent): {clip(' '.join(said), DIAGNOSIS)}"
            out.append((f, None, f"{text} - fixed: {clip(f.fix, 140)}"))
    for said_turn, calls, model in _spans(episode):
        if said_turn is None or any(c.status == "error" for c in calls) or _asks(said_turn):
            continue
        if not reports_problem(said_turn.text):
            continue
        edits = [c for c in calls if c.files and c.status == "ok" and c.change]
        if not edits:
            continue
        fix = "; ".join(f"edited {', '.join(c.files)} ({c.change})" for c in edits[-2:])
        said = _explaining(model, _tokens(" ".join(c.change for c in edits)), set())
        if said:
            problem = clip(" ".join(said_turn.text.split()), 100)
            out.append(
                (
                    None,
                    said_turn,
                    f"{problem} - cause (agent): {clip(' '.join(said), DIAGNOSIS)} - fixed: {clip(fix, 140)}",
                )
            )
    return out
