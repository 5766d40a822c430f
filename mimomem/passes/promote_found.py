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

from mimomem.history.episode import Call, Episode, Said, clip
from mimomem.history.sentence import QUESTION, STATEMENT, is_choice, is_standing, sentence_type
from mimomem.history.tool_values import Record, pair, records
from mimomem.passes.found_links import (
    Answer,
    Question,
    answer_of,
    key_score,
    line_words,
    names_any,
    quotes,
    strong,
)
from mimomem.passes.found_turns import (
    Candidate,
    chosen,
    clauses,
    lead_and_aside,
    path_suffixes,
    removed_terms,
    words,
)
from mimomem.passes.loanword import sounds_like

FOUND = "Found by the agent"
MAX_LINE = 120
"""Characters of one line of tool output quoted as a value, at most."""
MAX_VALUES = 3
"""Lines quoted from one tool result at most."""
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


def _tokens(text: str) -> set[str]:
    """Distinctive terms of ``text``: identifiers, numbers, paths (stop words and 1-letter words out)."""
    out = set()
    for raw in _TOKEN.findall(text):
        token = raw.casefold().strip(".:/")
        if token and token not in _STOP and (len(token) > 1 or token.isdigit()):
            out.add(token)
    return out


def _records(call: Call, wanted: Callable[[str], bool] | None) -> list[Record]:
    """The records of a call's ok output (:mod:`~mimomem.history.tool_values`) that ``wanted`` lets
    through (whether each is data is asked of those that link only)."""
    if call.status != "ok" or not call.output:
        return []
    if call.reads:
        return records(call.output, path=call.reads[0], wanted=wanted)
    if call.command is None or _RAISED.search(call.output[-400:]):
        return []  # an error report printed by a call that ran (a container's log ending in a traceback)
    return records(call.output, grep=bool(_GREP.search(call.command)), wanted=wanted)


_RAISED = re.compile(r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b[^\n]*\s*$", re.M)


def _could_link(output: str, answer: Answer, asked: Question, later: list[str]) -> Callable[[str], bool] | None:
    """A cheap test of a line of output that every line a link could choose passes: it holds a piece
    the answer repeats, ends with a word the answer says, holds a word of the question, a word that
    sounds like one of its loanwords or a term a later call used (None: no such test, when the answer
    cites lines).  One pattern of every piece, searched once per line."""
    if answer.lines:
        return None
    pieces = sorted({p for p in (*answer.pieces, *asked.words, *asked.terms, *later) if p and p in output}, key=len)
    either = re.compile("|".join(_piece(p) for p in reversed(pieces))) if pieces else None
    wide = bool(_WIDE.search(answer.text))
    heard: dict[str, bool] = {}

    def sounds(word: str) -> bool:
        if word not in heard:
            heard[word] = any(sounds_like(b, word) for b in asked.loanwords)
        return heard[word]

    def wanted(line: str) -> bool:
        folded = line.casefold()
        if either is not None and either.search(folded):
            return True
        trimmed = folded.rstrip(" ,;\"'")
        tail = trimmed.rsplit(None, 1)[-1] if trimmed.strip() else ""
        if tail.rsplit("=", 1)[-1].rsplit(":", 1)[-1].strip("\"'<>/") in answer.atoms:
            return True
        if wide and _WIDE.search(tail) and tail.strip("\"'") in answer.text:
            return True
        return bool(asked.loanwords) and any(sounds(w) for w in line_words(line))

    return wanted


_WIDE = re.compile(r"[\u3040-\uffff]")


def _piece(piece: str) -> str:
    """A pattern of ``piece``: a number only where it stands apart (``8``, not the 8 of ``8080`` or ``1.8``)."""
    return rf"(?<![\d.]){piece}(?![\d.])" if piece.isdigit() else re.escape(piece)


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
    first = next((p for p in re.split(r"(?<=[。！？!?])|\n+", text) if p.strip()), "").strip(" 。.!！")
    if len(first.split()) < 3 if first.isascii() else len(first) < 4:
        return False  # "很好。", "OK then": a reaction, no report of anything
    if sentence_type(first) != STATEMENT or is_standing(first) or is_choice(first):
        return False
    from mimomem.passes.promote_items import is_fact

    return not is_fact(first)


def value_items(episode: Episode) -> list[tuple[Call, str]]:
    """(call, item text) of values a tool revealed that the user asked about or the agent used: the data
    records of each turn's outputs (:func:`_records`) with their links to the turn, weighed across it
    (:mod:`mimomem.passes.found_turns`)."""
    uses, gone, replaced = _later(episode)
    index = {id(c): n for n, c in enumerate(episode.calls)}
    spans = list(_spans(episode))
    out: list[tuple[Call, str]] = []
    for k, (said, calls, model) in enumerate(spans):
        if not any(c.status == "ok" and c.output and (c.reads or c.command) for c in calls):
            continue  # no output a value could come from (no call, or edits only)
        follow = spans[k + 1] if k + 1 < len(spans) and not spans[k + 1][1] else (None, [], [])
        turn = _Turn(said, follow[0], calls, model, follow[2], index, gone)
        candidates = [c for n, call in enumerate(calls) for c in turn.candidates(n, call, uses, gone, replaced)]
        out += [(c.call, _value_item(c.record, c.call)) for c in _data_chosen(candidates)]
    return out[-MAX_FOUND:]


def _data_chosen(candidates: list[Candidate]) -> list[Candidate]:
    """:func:`~mimomem.passes.found_turns.chosen` of the candidates that are data: whether a record is
    prose is asked of the chosen only (the costly test), and a prose one leaves the choice to the rest."""
    while True:
        keep = chosen(candidates, per_call=MAX_VALUES)
        prose = {id(c) for c in keep if not c.record.data}
        if not prose:
            return keep
        candidates = [c for c in candidates if id(c) not in prose]


def _later(episode: Episode) -> tuple[dict[str, int], dict[str, int], dict[tuple[str, str], int]]:
    """(a distinctive term -> the last call whose edit writes it, command holds it or read / edit names
    its path; a path -> the last call that removed or moved it; (file, text an edit replaced) -> the
    last such edit)."""
    uses: dict[str, int] = {}
    gone: dict[str, int] = {}
    replaced: dict[tuple[str, str], int] = {}
    for n, c in enumerate(episode.calls):
        old, written = _sides(c.change)
        for token in _tokens(f"{written} {c.command or ''}"):
            if len(token) >= 6 and strong(token):
                uses[token] = n
        for path in {*c.reads, *c.files}:
            for token in path_suffixes(path.casefold().strip("./")):
                uses[token] = n
        for token in removed_terms(c.command) if c.command and c.status == "ok" else ():
            gone[token] = n
        for file in c.files if old else ():
            replaced[(file, old)] = n
    return uses, gone, replaced


class _Turn:
    """One typed turn, its calls and the model's texts, read once for the links of its records."""

    def __init__(
        self,
        said: Said | None,
        then: Said | None,
        calls: list[Call],
        model: list[Said],
        more: list[Said],
        index: dict[int, int],
        gone: dict[str, int],
    ) -> None:
        then_asks = _asks(then)
        self.asking = then_asks or _asks(said)
        words_text = " ".join(s.text for s in (said, then if then_asks else None) if s is not None)
        self.question = Question.of(words_text)
        self.own_words = _tokens(words_text)
        self.index = index
        self.first_change = next((n for n, c in enumerate(calls) if c.files), len(calls))
        removers = set(gone.values())
        self.acted = self.first_change < len(calls) or any(index[id(c)] in removers for c in calls)
        last = index[id(calls[-1])]
        lead, aside = lead_and_aside(" ".join(m.text for m in [*(m for m in model if m.at > last), *more]))
        self.final, self.aside = answer_of(lead), answer_of(aside)
        self.clauses = [(answer_of(c), words(c)) for c in clauses(lead)] if self.asking else []
        self.question_words = words(words_text)
        self.between = [(m.at, answer_of(m.text)) for m in model if m.at <= last]

    def candidates(
        self, n: int, call: Call, uses: dict[str, int], gone: dict[str, int], replaced: dict[tuple[str, str], int]
    ) -> list[Candidate]:
        at = self.index[id(call)]
        asked = self.question if n < self.first_change else _NOTHING
        said = [a for m_at, a in self.between if m_at > at]
        later = [t for t, u in uses.items() if u > at]
        if not (self.final.could_quote or self.aside.could_quote or said or asked.words or asked.loanwords or later):
            return []
        own = _tokens(call.command or "") | self.own_words
        lenient = self.lenient(call, asked)
        named = asked if lenient else _NOTHING  # else a line must be answered or used to be chosen at all
        pieces = _could_link(call.output.casefold(), _joined([self.final, self.aside, *said]), named, later)
        out = []
        for record in _records(call, pieces):
            terms = _tokens(record.text)
            if _edited_away(record, call, at, replaced) or any(gone.get(t, -1) > at for t in _path_terms(terms)):
                continue
            score = key_score(record.key, asked) + any(strong(t) for t in terms & asked.terms)
            answered = quotes(self.final, record)
            aside = not answered and (quotes(self.aside, record) or any(quotes(a, record) for a in said))
            used = any(uses.get(t, -1) > at for t in _path_terms(terms - own) if not _OPAQUE.fullmatch(t))
            if not (used or (lenient and (score or answered or aside)) or (score and answered)):
                continue
            out.append(Candidate(call, record, at, score, answered, aside, used, self._clause(record)))
        return out

    def lenient(self, call: Call, asked: Question) -> bool:
        """Whether the answer repeating a value of ``call`` is link enough: the turn asks, or it changed
        nothing and ``call`` read a file or ran a command about what the turn names (an install, a test
        run, a listing on the way to an edit or a removal: what they printed is no answer)."""
        if self.asking:
            return True
        return not self.acted and (bool(call.reads) or names_any(call.command or "", asked))

    def _clause(self, record: Record) -> int:
        """1 when a clause of the answer that repeats ``record`` shares a word with the user's turn (besides
        the record's own words), else 0: whether, not how much (a katakana word is many bigrams)."""
        own = words(record.text)
        return int(any((w - own) & self.question_words for a, w in self.clauses if quotes(a, record)))


_NOTHING = Question.of("")
_OPAQUE = re.compile(r"(?=[0-9a-f-]*[a-f])(?=[0-9a-f-]*\d)[0-9a-f]{7,64}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
"""An opaque id a command prints and the next one takes (a commit, a container, a request id): handed
on, not found - a value of its own only when the answer gives it as asked."""


def _path_terms(terms: set[str]) -> set[str]:
    """``terms`` and the trailing parts of those that are paths (``./templates/a.html`` -> ``a.html``)."""
    return {p for t in terms for p in (path_suffixes(t) if "/" in t else (t,))}


def _joined(answers: list[Answer]) -> Answer:
    """One answer holding what each of ``answers`` holds (for the cheap test of a line only)."""
    return Answer(
        " ".join(a.text for a in answers),
        frozenset().union(*(a.atoms for a in answers)),
        frozenset().union(*(a.lines for a in answers)),
        tuple(p for a in answers for p in a.pieces),
    )


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
    return a[0] == b[0] and _same_key(a[1], b[1]) and a[2] != b[2]


def _same_key(a: str | None, b: str | None) -> bool:
    """The same key: the same path when both have one (``staging.api`` is not ``production.api``), else
    the same name (a grep shows ``redis_url`` where a read showed ``session.redis_url``)."""
    if a is None or b is None or ("." in a and "." in b):
        return a == b
    return a.rsplit(".", 1)[-1] == b.rsplit(".", 1)[-1]


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
    return re.sub(r"\s+", " ", source), key, value
