"""Words no entry holds against words an entry covers, per sentence of the prompt: the relevance gate's
last test (:mod:`mimomem.served.entry_recall`).

An entry must cover more of a sentence's words than no entry holds at all: counted in words, a
translation as the word it translates, a Chinese stretch no held bigram covers as a word per two
characters; a prompt whose unknown part is as large as what an entry shares with it is about something
memory does not know ("the release pipeline" beside "post to Slack", 数据库 and 备份 beside 生产 and 保留),
unless the entry holds an identifier the prompt names or the unknown word as part of a name (``base`` in
``TIDEPOOL_API_BASE``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.served.entry_index import indices
from mimomem.served.prompt_terms import TOPIC_NAMES, PromptTerm
from mimomem.text.stopwords import is_stop, stem

if TYPE_CHECKING:  # a served prompt imports this module: no typing at run time
    from mimomem.served.entry_index import Cached, EntryIndex

UNSEEN_WEIGHT = 0.5
UNSEEN_CJK_WEIGHT = 0.25
"""A query bigram no entry holds is most often one that spans two words (装命 in 装命令行)."""

MIN_UNITS = 2
"""Distinctive words an entry must share with the prompt (one suffices when it is rare and specific)."""

RARE_DF = 3
"""A word in at most this many entries is rare enough to stand alone."""

PROJECT_WIDE = 0.2
"""A word in more than this share of the entries in scope is the project's own vocabulary (its name, its
domain: ``billing`` in a billing service): when the prompt also names a word no entry holds, such a word
scores but never counts as one of the :data:`MIN_UNITS` (the prompt is about what memory does not know)."""

WIDE_MIN = 10
"""... and in more than this many entries: in a small memory no word is the project's vocabulary by count."""


def units(hit: Sequence[PromptTerm]) -> list[list[PromptTerm]]:
    """Matched terms grouped into words: adjacent Chinese bigrams of the prompt form one unit."""
    out: list[list[PromptTerm]] = []
    last = -2
    for term in sorted((t for t in hit if t.distinctive), key=lambda t: (t.position, t.tokens)):
        cjk = not term.tokens[0].isascii()
        if out and cjk and term.position == last + 1 and not out[-1][-1].tokens[0].isascii():
            out[-1].append(term)
        else:
            out.append([term])
        last = term.position
    return out


def words_in(unit: list[PromptTerm]) -> int:
    """Words in a unit: a run of k Chinese bigrams spans about (k + 1) // 2 words (数据库端口: 2)."""
    return max(1, (len(unit) + 1) // 2) if not unit[0].tokens[0].isascii() else 1


def unknown_words(terms: Sequence[PromptTerm], matching: Sequence[int]) -> tuple[dict[int, float], tuple[PromptTerm, ...]]:  # fmt: skip  # noqa: E501
    """How many words of each sentence of the prompt no entry holds, in either language, and the English
    ones: an English word none of whose alternatives any entry holds either (half: as often the question's
    frame - host, configured - as its topic; whole after a preposition, in the phrase naming what the
    action is about or done with: behind a corporate proxy); in Chinese, each stretch of
    characters that no held bigram (nor a held alternative's source word, nor a stop word) covers, a word
    per two whole characters (a third is most often a particle or a negation: 不支持 is one word).  The
    bigrams alone cannot tell 生产 in 生产数据库, a word no entry holds, from 产数, which spans two words."""
    held = [t.span for k, t in enumerate(terms) if t.alternative and matching[k]]
    latin: list[PromptTerm] = []
    chars: dict[int, str] = {}
    sentence_at: dict[int, int] = {}
    covered: set[int] = set()
    for a, b in held:
        covered.update(range(a, b))
    for k, term in enumerate(terms):
        token = term.tokens[0]
        if term.alternative:
            continue
        if token.isascii():
            translated = any(a < term.span[1] and term.span[0] < b for a, b in held)
            if term.distinctive and not matching[k] and not translated:
                latin.append(term)
            continue
        start, end = term.span
        chars.update(zip(range(start, end), token, strict=False))
        sentence_at.update(dict.fromkeys(range(start, end), term.sentence))
        if matching[k]:
            covered.update(range(start, end))
    counts: dict[int, float] = {}
    for term in latin:  # half: as often the question's frame (host, configured); whole in a preposition's phrase
        counts[term.sentence] = counts.get(term.sentence, 0) + (1.0 if term.phrase else UNSEEN_WEIGHT)
    run, last = 0, -2
    for i in [*sorted(chars), -2]:
        grammar = i in chars and (is_stop(chars.get(i - 1, "") + chars[i]) or is_stop(chars[i] + chars.get(i + 1, "")))
        if i in chars and i not in covered and not grammar and (run == 0 or i - 1 in chars):
            run, last = run + 1, i
            continue
        if run >= 2:
            counts[sentence_at[last]] = counts.get(sentence_at[last], 0) + run // 2
        run, last = (1, i) if i in chars and i not in covered and not grammar else (0, -2)
    return counts, tuple(latin)


def covered_words(hit: Sequence[PromptTerm]) -> dict[int, int]:
    """Words of each sentence of the prompt that ``hit`` (the terms an entry holds) covers: an English word, a
    run of Chinese bigrams (:func:`words_in`), an alternative only when the word it translates is not held."""
    own = [t for t in hit if not t.alternative]
    counts: dict[int, int] = {}
    for unit in units([t._replace(distinctive=True) for t in own]):
        counts[unit[0].sentence] = counts.get(unit[0].sentence, 0) + words_in(unit)
    spans = [t.span for t in own]
    for term in hit:
        if term.alternative and not any(a < term.span[1] and term.span[0] < b for a, b in spans):
            spans.append(term.span)
            counts[term.sentence] = counts.get(term.sentence, 0) + 1
    return counts


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.\-/][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z]*|[A-Z][a-z]+[A-Z][A-Za-z]*")
_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def named_parts(latin: Sequence[PromptTerm], text: str) -> dict[int, int]:
    """How many of ``latin`` (unheld English words) of each sentence are parts of a name in ``text``: an
    identifier split at ``_ . - /`` and case changes (``base`` in TIDEPOOL_API_BASE, ``chart`` in TrendChart)."""
    parts = {stem(p.casefold()) for name in _NAME.findall(text) for p in _PART.findall(name)}
    counts: dict[int, int] = {}
    for term in latin:
        if term.tokens[0] in parts:
            counts[term.sentence] = counts.get(term.sentence, 0) + 1
    return counts


def unheld_names(latin: Sequence[PromptTerm], named: dict[int, int] | None = None) -> dict[int, int]:
    """How many of ``latin`` (unheld English words) of each sentence are written as names
    as a topic (:data:`~mimomem.served.prompt_terms.TOPIC_NAMES`), less ``named`` (those an entry holds as parts
    of a name, :func:`named_parts` of the names alone)."""
    counts: dict[int, int] = {}
    for term in latin:
        if term.name in TOPIC_NAMES:
            counts[term.sentence] = counts.get(term.sentence, 0) + 1
    return {k: v - (named or {}).get(k, 0) for k, v in counts.items()}


def names_held(hit: Sequence[PromptTerm], sentence: int, unnamed: int) -> bool:
    """Whether the entry holds more of the names a sentence writes than the ``unnamed`` ones no entry
    holds (any name it holds counts, an acronym too: the CSV beside Excel): a sentence that names what
    memory does not know (Slack, useMemo, Go) is about that, however
    many of its other words an entry shares ("the release pipeline", "React's … hook", "a CSV file")."""
    if unnamed <= 0:
        return True
    return sum(1 for t in hit if t.name and not t.alternative and t.sentence == sentence) > unnamed


def outweighs(
    hit: Sequence[PromptTerm],
    unheld: dict[int, float],
    named: dict[int, int] | None = None,
    unnamed: dict[int, int] | None = None,
) -> bool:
    """Whether, in some sentence of the prompt, the entry covers more of its words than no entry holds, and
    more of its names than no entry holds (:func:`names_held`; ``unnamed``: :func:`unheld_names`): a
    sentence whose unknown part is as large as what the entry shares with it asks about what memory does
    not know ("the release pipeline" beside "post to Slack"), unless the entry holds an identifier the
    prompt names (4173, BIL-482).  ``named``: unheld words the entry holds as parts of a name
    (:func:`named_parts`), covered after all."""
    named = named or {}
    unnamed = unnamed or {}
    for sentence, count in covered_words(hit).items():
        extra = named.get(sentence, 0)
        if count + extra > unheld.get(sentence, 0) - UNSEEN_WEIGHT * extra and names_held(
            hit, sentence, unnamed.get(sentence, 0)
        ):
            return True
    return any(not t.alternative and any(c.isdigit() or c in "_-." for c in t.tokens[0]) for t in hit)


def matching(term: PromptTerm, postings: dict[str, int]) -> int:
    """The entries holding every token of ``term``, as bits."""
    if not term.tokens:
        return 0
    found = -1
    for tok in term.tokens:
        found &= postings.get(tok, 0)
    return found


def seen_weight(term: PromptTerm, held: int) -> float:
    """A term's share of the best possible score: whole when an entry holds it (``held``: the entries
    that do, as bits), else :data:`UNSEEN_WEIGHT` (:data:`UNSEEN_CJK_WEIGHT` for a Chinese bigram)."""
    if held:
        return 1.0
    return UNSEEN_WEIGHT if term.tokens[0].isascii() else UNSEEN_CJK_WEIGHT


def gate(entries: Sequence[Cached] | EntryIndex, terms: Sequence[PromptTerm], groups: list[tuple[int, float, int]],
          postings: dict[str, int], held: list[int], floor: float) -> dict[int, float]:  # fmt: skip
    """The entries of ``groups`` (terms matched as bits, score, entries as bits) that pass the gate, with
    their scores: at least ``floor``, enough distinctive words matched (:func:`_enough`), and more of the
    prompt's words covered than no entry holds (:func:`outweighs`); ``held``: each term's entries as bits
    (the gate of :func:`mimomem.served.entry_recall.rank`, whose module docstring says why)."""
    # A prompt naming a word no entry holds ("Sentry") is about that: the project's own words beside it say nothing.
    unknown = any(t.distinctive and not t.alternative and not held[k] for k, t in enumerate(terms))
    wide = max(PROJECT_WIDE * len(entries), WIDE_MIN) if unknown else len(entries)
    unheld, latin = unknown_words(terms, held)
    unnamed = unheld_names(latin)
    passing: dict[int, float] = {}
    for bits, score, members in groups:
        hit = [term for k, term in enumerate(terms) if bits >> k & 1]
        if score < floor or not _enough(hit, postings, wide):
            continue
        if outweighs(hit, unheld, None, unnamed):
            passing.update(dict.fromkeys(indices(members), score))
            continue
        for i in indices(members) if latin else ():  # an unheld word may be part of a name the entry holds
            text = entries[i][0].text
            names = unheld_names(latin, named_parts([t for t in latin if t.name in TOPIC_NAMES], text))
            if outweighs(hit, unheld, named_parts(latin, text), names):
                passing[i] = score
    return passing


def _enough(hit: Sequence[PromptTerm], postings: dict[str, int], wide: float) -> bool:
    """At least :data:`MIN_UNITS` distinctive words matched that are in at most ``wide`` entries (not the
    project's own vocabulary, :data:`PROJECT_WIDE`), or one that is rare and specific."""
    found = units([t for t in hit if matching(t, postings).bit_count() <= wide])
    if sum(words_in(u) for u in found) >= MIN_UNITS:
        return True
    if len(found) != 1:
        return False
    unit = found[0]
    common = -1
    for t in unit:
        common &= matching(t, postings)
    df = common.bit_count()
    text = "".join(t.tokens[0] for t in unit)
    specific = any(c.isdigit() or c in "_-." for c in text)  # an identifier, not a common word
    return specific and df <= RARE_DF
