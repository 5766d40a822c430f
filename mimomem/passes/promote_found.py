"""What the agent found: values a tool revealed, and the cause and fix the model stated for a failure.

Two kinds of item, each with its provenance, in a section of their own (:data:`FOUND`), never a
rule or an instruction:

- **a value a tool revealed** (provenance ``tool``): a record of a tool's output - a line with its
  key by the output's own syntax (:mod:`mimomem.history.tool_values`: YAML, JSON, TOML, ini, ``.env``,
  ``grep -n``, ``tool 1.2.3``, a bare value), cited ``path:line`` for a file read or by the command -
  that the agent used or the user asked about.  The strongest link is the model's answer repeating
  the value (in any language around it: "8 个。", "45 秒です", "Go 1.22.5"); then the user's question
  naming the key's words ("how many workers" for ``worker_count``); then the value reappearing in a
  later edit or command.  Only data is quoted: a short value, never prose or an order written into a
  file to be promoted (:attr:`~mimomem.history.tool_values.Record.data`).  Observed again with another
  value, the newer item retires the older: the same file (or command) and key
  (:func:`found_supersedes`).
- **a cause and fix the model stated** (provenance ``model``): after a failed call (or a problem the
  user reported), the model's sentences that explain it and share a term with what then fixed it,
  kept with the failure and the fix.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Iterable

from mimomem.history.episode import Call, Episode, Fix, Said, clip
from mimomem.history.sentence import QUESTION, REASON, STATEMENT, is_choice, is_imperative, is_standing, sentence_type
from mimomem.history.tool_text import quotable_error
from mimomem.history.tool_values import Record, pair, records
from mimomem.passes.found_links import Answer, Question, answer_of, key_score, quotes

FOUND = "Found by the agent"
MAX_LINE = 120
"""Characters of one line of tool output quoted as a value, at most."""
MAX_VALUES = 3
"""Lines quoted from one tool result at most."""
DIAGNOSIS = 180
"""Characters of the model's explanation kept at most."""
MAX_FOUND = 8
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
_ITEM = re.compile(
    r"^(?:(?P<path>\S+?):(?P<line>\d+): `(?P<shown>.*)` \((?:read by the agent|`.*` printed it)\)"
    r"|`(?P<command>.+?)` printed `(?P<shown2>.*)`)$"
)
_GREP = re.compile(r"(?:^|[|;&]\s*)(?:\S+/)?(?:grep|egrep|fgrep|rg|ag|ack|git\s+grep)\b")
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


def _records(call: Call, wanted: Callable[[str], bool] | None) -> list[Record]:
    """The records of a call's ok output (:mod:`~mimomem.history.tool_values`) that ``wanted`` lets
    through (whether each is data is asked of those that link only)."""
    if call.status != "ok" or not call.output:
        return []
    if call.reads:
        return records(call.output, path=call.reads[0], wanted=wanted)
    if call.command is None:
        return []
    return records(call.output, grep=bool(_GREP.search(call.command)), wanted=wanted)


def _could_link(output: str, answer: Answer, asked: Question, later: list[str]) -> Callable[[str], bool] | None:
    """A cheap test of a line of output that every line a link could choose passes: it holds a piece
    the answer repeats, ends with a word the answer says, or holds a word of the question or a term a
    later call used (None: no such test, when the answer cites lines or the question has loanwords)."""
    if answer.lines or asked.loanwords:
        return None
    pieces = [p for p in (*answer.pieces, *asked.words, *asked.terms, *later) if p in output]

    def wanted(line: str) -> bool:
        folded = line.casefold()
        if any(piece in folded for piece in pieces):
            return True
        tail = folded.rstrip(" ,;\"'").rsplit(None, 1)[-1] if folded.strip(" ,;\"'") else ""
        return tail.rsplit("=", 1)[-1].rsplit(":", 1)[-1].strip("\"'<>/") in answer.atoms or (
            bool(answer.text) and any(c >= "\u3040" for c in tail) and tail.strip("\"'") in answer.text
        )

    return wanted


def _value_item(record: Record, call: Call) -> str:
    shown = f"`{clip(record.shown, MAX_LINE)}`"
    command = f"`{clip(call.command or call.summary, 60)}`"
    if call.reads:
        return f"{record.cite}: {shown} (read by the agent)"
    if record.cite:
        return f"{record.cite}: {shown} ({command} printed it)"
    return f"{command} printed {shown}"


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
    """(call, item text) of values a tool revealed that the user asked about or the agent used: each a
    data record of the output (:func:`_records`) whose value the model's answer then repeats, or whose
    key the user's question names, or whose value a later edit or command holds."""
    out: list[tuple[Call, str]] = []
    last_use: dict[str, int] = {}  # a distinctive term -> the last call whose edit writes it or command holds it
    replaced: dict[tuple[str, str], int] = {}  # (file, text an edit replaced) -> the last such edit
    for n, c in enumerate(episode.calls):
        old, written = _sides(c.change)
        for token in _tokens(f"{written} {c.command or ''}"):
            if len(token) >= 6 and _strong(token):
                last_use[token] = n
        for file in c.files if old else ():
            replaced[(file, old)] = n
    index = {id(c): n for n, c in enumerate(episode.calls)}
    spans = list(_spans(episode))
    for k, (said, calls, model) in enumerate(spans):
        follow = spans[k + 1] if k + 1 < len(spans) and not spans[k + 1][1] else (None, [], [])
        question = Question.of(" ".join(s.text for s in (said, follow[0]) if s is not None and _asks(s)))
        nothing = Question.of("")
        first_change = next((n for n, c in enumerate(calls) if c.files), len(calls))
        for n_call, call in enumerate(calls):
            at = index[id(call)]
            answer = answer_of(" ".join(m.text for m in [*model, *follow[2]] if m.at > at))
            asked = question if n_call < first_change else nothing
            scored = []
            later = [t for t, n in last_use.items() if n > at]
            if not (answer.could_quote or asked.words or asked.loanwords or later):
                continue
            for record in _records(call, _could_link(call.output.casefold(), answer, asked, later)):
                if _edited_away(record, call, at, replaced):
                    continue
                terms = _tokens(record.text)
                score = 4 * quotes(answer, record) + key_score(record.key, asked)
                score += any(_strong(t) for t in terms & asked.terms)
                used = any(last_use.get(t, -1) > at for t in terms)
                if (score or used) and record.data:
                    scored.append((score + 8 * used, record))
            best = max((s for s, _ in scored), default=0)
            chosen = [r for s, r in scored if s == best or s >= 8][:MAX_VALUES]
            out += [(call, _value_item(r, call)) for r in chosen]
    return out[-MAX_FOUND:]


_CHANGE = re.compile(r"`(.*)` -> `(.*)`")


def _sides(change: str) -> tuple[str, str]:
    """(the text an edit replaced, the text it wrote) of a call's ``change`` (``old`` -> ``new``, or
    ``added`` lines: nothing replaced); ("", "") for a call that edits nothing."""
    found = _CHANGE.fullmatch(change)
    return (found.group(1), found.group(2)) if found else ("", change)


def _edited_away(record: Record, call: Call, at: int, replaced: dict[tuple[str, str], int]) -> bool:
    """Whether a line the agent read was then replaced by its own edit of that file: read before an edit
    (the host's Edit needs a Read first), the old value is stale the moment it is kept."""
    line = record.text.strip()
    return any(
        n > at and file in call.reads and len(old) >= 3 and len(line) >= 3 and (old in line or line in old)
        for (file, old), n in replaced.items()
    )


def found_supersedes(new: str, old: str) -> bool | None:
    """Whether the tool-revealed value ``new`` retires ``old``: the same file (or command) and the same
    key with another value; lines without a key only when read at the same line of the same file, or
    printed by the same command in another session.  None when either is not an item
    :func:`value_items` writes (the general rules of ``passes/supersede`` decide then)."""
    a, b = _source_key_value(new), _source_key_value(old)
    if a is None or b is None:
        return None
    if a[1] is None and b[1] is None and _session(new) == _session(old):
        return False  # two lines of one output, not one value seen twice
    return a[:2] == b[:2] and a[2] != b[2]


def _session(item: str) -> str:
    found = re.search(r"\bs:([\w-]+)\)\s*$", item)
    return found.group(1) if found else ""


def _source_key_value(item: str) -> tuple[str, str | None, str] | None:
    """(source, key, value) of a value item's text (bullet, provenance and all), None for another item."""
    body = re.sub(r"\s*\((?:tool|model|user)[^()]*\)\s*$", "", item.strip().removeprefix("- "))
    found = _ITEM.match(body)
    if found is None:
        return None
    source = found.group("path") or found.group("command")
    key, value = pair(found.group("shown") or found.group("shown2"))
    if key is None and found.group("path"):
        key = f"line {found.group('line')}"  # a line of a file without a key: known by where it stands
    return re.sub(r"\s+", " ", source), key.rsplit(".", 1)[-1] if key else None, value


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
