"""The failures section: each failure with what fixed it and the cause the model or the user stated.

A failure is paired with its fix by the episode (:mod:`mimomem.history.episode`): the next run of the
same command or program that passed, with the edits and commands between; a "fix" after which the
command failed again, a flaky retry and a corrected typo are no fix.  What is kept of it, one bullet of
:data:`~mimomem.passes.promote_items.FAILURES`:

- the call, the first sentence of its error when that reads as an error
  (:func:`~mimomem.history.tool_text.quotable_error`: an order in a tool's output is never quoted);
- the fix, as a difference (:mod:`mimomem.history.fix_diff`): the lines an edit changed, the words a
  command gained or lost;
- the cause, read from where it was said rather than from its words: what the user typed between the
  failure and its fix when it names the fix or the error (``cause (user)``), and the model's prose in
  the same stretch (``cause (agent)``) - its statements, never a question, a plan, a guess or an order;
  one that names the fix or gives a reason for the error first, else the first statement it made
  before the fix ran.

A problem the user reported in prose ("every log line shows up twice") is kept the same way when an
edit followed it, or a command whose options the model's explanation named before running it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mimomem.history.episode import Call, Episode, Fix, Said, clip
from mimomem.history.fix_diff import settings
from mimomem.history.sentence import QUESTION, REASON, STATEMENT, is_imperative, is_standing, sentence_type
from mimomem.history.sentence_moment import is_plan_or_guess
from mimomem.history.signals import is_trivial, normalize_command
from mimomem.history.tool_text import quotable_error
from mimomem.passes.promote_found import _asks, _spans, reports_problem
from mimomem.passes.promote_items import FAILURES, Item, clean_text, sentences

DIAGNOSIS = 180
"""Characters of a stated cause kept at most."""
PROBLEM = re.compile(
    r"\b(?:error|errors|fails?|failed|failing|broken|crash(?:es|ed)?|bug|wrong|garbled|timeout|timed out|"
    r"doesn'?t work|not working|can'?t|cannot)\b"
    r"|报错|错误|失败|乱码|不行|不对|崩|挂了|超时|打不开|看不了|卡住|异常|死锁|问题",
    re.I,
)
"""Words of a user's report of a problem (a turn followed by edits and no explanation)."""

_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[.;])\s+(?=\S)|\n+")
_PART = re.compile(r"[A-Za-z0-9_]+")
_GENERIC = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "that",
        "this",
        "into",
        "onto",
        "then",
        "than",
        "when",
        "just",
        "also",
        "not",
        "now",
        "its",
        "are",
        "was",
        "were",
        "has",
        "have",
        "had",
        "was",
        "run",
        "ran",
        "runs",
        "test",
        "tests",
        "instead",
        "edited",
        "added",
        "removed",
        "without",
        "again",
    ]
)


def parts(text: str) -> set[str]:
    """The Latin words and numbers of ``text``, folded, split at punctuation (``redis.quit()`` -> redis,
    quit): what two texts in different languages can share."""
    words = (m.casefold() for m in _PART.findall(text))
    return {p for p in words if (len(p) >= 3 or (p.isdigit() and len(p) >= 2)) and p not in _GENERIC}


def _statements(said: Iterable[Said]) -> Iterable[str]:
    """The sentences of ``said`` that state something: no question, plan, guess, order or standing rule."""
    for s in said:
        for raw in _SENTENCE.split(s.text):
            sentence = " ".join(raw.split())
            if len(sentence) < 8 or sentence_type(sentence) != STATEMENT or is_plan_or_guess(sentence):
                continue
            if not (is_standing(sentence) or is_imperative(sentence)):
                yield sentence


def explanation(model: list[Said], fix: set[str], error: set[str], *, before: int | None = None) -> list[str]:
    """The model's account of a failure in ``model`` (its texts between the failure and just after the
    fix): up to two statements that name the fix or give a reason naming the error; else, when
    ``before`` is given, its first statement said before the call at that index (the diagnosis)."""
    linked = [s for s in _statements(model) if parts(s) & fix or (REASON.search(s) and parts(s) & error)]
    if linked or before is None:
        return linked[:2]
    return list(_statements(m for m in model if m.at <= before))[:1]


def _fix_parts(f: Fix) -> set[str]:
    """The words of what fixed ``f``: what its edits wrote, the commands that ran, the files' names."""
    names = [p.rsplit("/", 1)[-1] for c in f.fixed_by for p in c.files]
    text = " ".join([*(c.edit or c.command or "" for c in f.fixed_by), *names])
    return parts(text) - parts(f.call.summary)


def _users_cause(episode: Episode, start: int, end: int, fix: set[str], error: set[str]) -> str:
    """What the user typed after the failure at ``start`` and before the fix at ``end`` that names the fix
    or the error (a question never): the cause or fix in the user's words."""
    out = []
    for said in episode.typed():
        if start < said.at <= end and sentence_type(said.text) != QUESTION and parts(said.text) & (fix | error):
            out.append(clean_text(said.text))
    return " ".join(out)


def cause_items(episode: Episode, fixes: list[Fix]) -> list[tuple[Fix | None, Said | None, Item]]:
    """(the fix it explains or None, the user's turn that reported the problem or None, the item) of each
    failure with a stated cause."""
    out: list[tuple[Fix | None, Said | None, Item]] = []
    index = {id(c): n for n, c in enumerate(episode.calls)}
    for f in fixes:
        if not f.fix or f.flaky or f.typo or not f.fixed_by or any(c.unsafe for c in (f.call, *f.fixed_by)):
            continue
        if f.call.command is None or is_trivial(normalize_command(f.call.command)):
            continue  # an edit that missed its text, a listing of a path that is not there: the agent's own slip
        start, end = index.get(id(f.call), 0), index.get(id(f.fixed_by[-1]), len(episode.calls))
        model = [m for m in episode.model if start < m.at <= end + 1]
        fix, error = _fix_parts(f), parts(f.error)
        user = _users_cause(episode, start, end, fix, error)
        said = explanation(model, fix, error, before=end)
        if not (said or user):
            continue
        quoted = quotable_error(f.error) or "tool output not quoted"
        cause = (f"cause (user): {clip(user, DIAGNOSIS)}; " if user else "") + (
            f"cause (agent): {clip(' '.join(said), DIAGNOSIS)}" if said else ""
        )
        text = f"`{clip(f.call.summary, 80)}` failed ({quoted}); {cause.rstrip('; ')} - fixed: {clip(f.fix, 160)}"
        who = "user" if user else "model"
        out.append((f, None, Item(FAILURES, text, who, f.call.session_id, f.call.time)))
    return out + _reported(episode)


def _reported(episode: Episode) -> list[tuple[Fix | None, Said | None, Item]]:
    """A problem the user reported with no failing call, the model's cause, and the edit or the command
    that fixed it."""
    out: list[tuple[Fix | None, Said | None, Item]] = []
    index = {id(c): n for n, c in enumerate(episode.calls)}
    for said_turn, calls, model in _spans(episode):
        if said_turn is None or any(c.status == "error" for c in calls):
            continue
        if not asks_why(said_turn.text) and (_asks(said_turn) or not reports_problem(said_turn.text)):
            continue
        edits = [c for c in calls if c.files and c.status == "ok" and c.edit]
        if edits:
            fix = "; ".join(f"edited {', '.join(c.files)} ({c.edit})" for c in edits[-2:])
            said = explanation(model, parts(" ".join(c.edit for c in edits)), set())
        else:
            fix, said = _command_fix(said_turn, calls, model, index)
        if said:
            problem = clip(" ".join(said_turn.text.split()), 100)
            text = f"{problem} - cause (agent): {clip(' '.join(said), DIAGNOSIS)} - fixed: {clip(fix, 140)}"
            out.append((None, said_turn, Item(FAILURES, text, "model", said_turn.session_id, said_turn.time)))
    return out


_WHY = re.compile(
    r"^(?:why|how come)\b|为什么|為什麼|为啥|為啥|怎么会|怎麼會|なんで|なぜ|どうして|(?:^|\s)왜(?:\s|$)", re.I
)
"""The interrogatives that ask for a cause: a question with one, answered and followed by a fix, is a problem."""


def asks_why(text: str) -> bool:
    """Whether the first sentence of ``text`` is a question asking for a cause ("why does every log line
    show up twice?", "为什么导出的 CSV 是乱码？", "なんで反転してるの？", "왜 두 번 찍혀요?")."""
    first = next((p for p in re.split(r"(?<=[。！？!?])|\n+", text) if p.strip()), "").strip()
    return sentence_type(first) == QUESTION and bool(_WHY.search(first))


def _command_fix(said: Said, calls: list[Call], model: list[Said], index: dict[int, int]) -> tuple[str, list[str]]:
    """(fix, explanation) for a reported problem fixed by a command: the last command that passed whose
    options or settings the model's statement before it named."""
    for call in reversed(calls):
        if call.command is None or call.status != "ok" or call.unsafe or is_trivial(normalize_command(call.command)):
            continue
        named = parts(" ".join(settings(call.command))) - parts(said.text)
        stated = explanation([m for m in model if m.at <= index[id(call)]], named, set())
        if named and stated:
            return f"ran `{clip(call.summary, 120)}`", stated
    return "", []


def fix_items(fixes: list[Fix]) -> list[Item]:
    """Failures of shell commands that something fixed, worded as facts the tool output supports."""
    out = []
    for f in fixes:
        call = f.call
        if not f.fix or f.typo or call.command is None or call.unsafe or is_trivial(normalize_command(call.command)):
            continue
        if any(c.unsafe for c in f.fixed_by):
            continue
        error = clip(quotable_error(f.error) or "(tool output not quoted)", 80)  # room for the fix in the item
        if f.flaky:  # the same command passed again with nothing changed: a flaky run, not a fix
            text = f"`{clip(call.summary, 100)}` is flaky: failed ({error}), then passed when run again unchanged"
        else:
            text = f"`{clip(call.summary, 100)}` failed: {error} - fixed: {clip(f.fix, 160)}"
        out.append(Item(FAILURES, text, "tool", call.session_id, call.time))
    return out


def reported_fix_items(episode: Episode, skip: frozenset[int] = frozenset()) -> list[Item]:
    """A problem the user reported, with the edits that followed it in that turn (the fix); turns
    whose ``id`` is in ``skip`` are left out (an item with the model's diagnosis holds them)."""
    typed = episode.typed()
    out = []
    for n, said in enumerate(typed):
        if id(said) in skip or not PROBLEM.search(said.text):
            continue
        end = typed[n + 1].at if n + 1 < len(typed) else len(episode.calls)
        edits = [c for c in episode.calls[said.at : end] if c.files and c.status == "ok" and c.edit]
        if not edits:
            continue
        fix = "; ".join(f"edited {', '.join(c.files)} ({c.edit})" for c in edits[-2:])
        problem = clip(clean_text(sentences(said.text)[0] if sentences(said.text) else said.text), 140)
        out.append(Item(FAILURES, f"{problem} - fixed: {clip(fix, 200)}", "user", said.session_id, said.time))
    return out


def failure_items(episode: Episode) -> list[Item]:
    """Every failure of ``episode`` with its fix, and its cause when one was stated."""
    finished = episode.finish()
    causes = cause_items(episode, finished)
    explained = {id(f.call) for f, _, _ in causes if f is not None}
    reported = frozenset(id(s) for _, s, _ in causes if s is not None)
    out = fix_items([f for f in finished if id(f.call) not in explained]) + reported_fix_items(episode, reported)
    return out + [item for _, _, item in causes]
