"""What a prompt asks, as the terms the relevance gate weighs (:mod:`mimomem.served.entry_recall`).

- stop words and question words (:mod:`mimomem.text.stopwords`) are not terms at all, nor the
  auxiliary of a negative contraction (``isn't``, ``don't``);
- a term that is also template wording (the notes template, the digest's labels) counts a
  quarter, and can never make an entry relevant on its own;
- cross-language vocabulary (CC-CEDICT, :func:`mimomem.text.expansion.cross_language`) adds
  alternative terms (``database`` -> ``数据库``), which count 0.7 and only ever raise a score;
- each term knows where it is in the prompt (its span, its sentence), so the gate can weigh each
  sentence apart and a translation as the word it translates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple
from mimomem.served.entries import template_terms
from mimomem.text.stopwords import is_stop, negated_auxiliary, stem

if TYPE_CHECKING:  # a served prompt imports this module: no typing at run time
    from mimomem.text.xlang import Lookup

TEMPLATE_WEIGHT = 0.25
EXPANSION_WEIGHT = 0.7

PER_SOURCE = 3
"""Cross-language alternatives kept per query word (CC-CEDICT lists many; the first are the usual)."""


class PromptTerm(NamedTuple):
    """One query term: its tokens (all must be in an entry), weight, and whether it is distinctive."""

    tokens: tuple[str, ...]
    weight: float
    distinctive: bool
    alternative: bool = False
    position: int = -1
    """Index of the token in the prompt (consecutive Chinese bigrams of one word are adjacent)."""
    span: tuple[int, int] = (-1, -1)
    """Where in the prompt the word is (an alternative: the word it translates), ``[start, end)``."""
    sentence: int = 0
    """Which sentence of the prompt the word is in (``entry_gate.unknown_words`` weighs each sentence apart)."""
    name: str = ""
    """How the word is written as a name (:func:`written_as_name`), ``""``: it is not."""
    phrase: bool = False
    """The word comes after a preposition of its sentence (``behind a corporate proxy``): the clause's object."""


def query_terms(prompt: str, template: frozenset[str] | None = None, lookup: Lookup | None = None) -> list[PromptTerm]:
    """The prompt's terms (see the module docstring); ``[]`` when only stop words remain.

    ``template``: :func:`~mimomem.served.entries.template_terms`, ``lookup``: the cross-language
    vocabulary (:func:`mimomem.text.xlang.shipped`); the prompt hook's plan keeps both."""
    from mimomem.text.tokens import tokenize

    if template is None:
        template = template_terms()
    seen: set[str] = set()
    out: list[PromptTerm] = []
    kept: list[tuple[str, tuple[int, int]]] = []
    ends = [m.end() for m in _SENTENCE_END.finditer(prompt)]
    for position, tok in enumerate(tokenize(prompt)):
        text = tok.text
        if is_stop(text) or negated_auxiliary(prompt, tok.end):
            continue
        kept.append((text, (tok.start, tok.end)))
        text = stem(text)
        if text in seen:
            continue
        seen.add(text)
        weak = text in template
        span, sentence = (tok.start, tok.end), _sentence_of(ends, tok.start)
        weight = TEMPLATE_WEIGHT if weak else 1.0
        name = written_as_name(prompt, tok.start, tok.end)
        opened = ends[sentence - 1] if sentence else 0
        phrase = bool(_PREPOSITION.search(prompt[opened : tok.start]))
        term = PromptTerm((text,), weight, not weak, position=position, span=span, sentence=sentence)
        out.append(term._replace(name=name, phrase=phrase))
    if out:
        alternatives = _expansions(prompt, kept, {t.tokens for t in out}, lookup)
        out += [t._replace(sentence=_sentence_of(ends, t.span[0])) for t in alternatives]
    return out


def written_as_name(prompt: str, start: int, end: int) -> str:
    """How the English word at ``[start, end)`` of ``prompt`` is written as a name: :data:`PROPER` (capitals
    inside a word: ``useMemo``, ``PayHarbor``; a capital that does not open its sentence: ``Slack``, ``Go``;
    not ``I``), :data:`OBJECT` (an acronym as the object of a preposition: ``to JSON``), :data:`ACRONYM`
    (an acronym elsewhere: as often a common noun of the trade, the API base URL, a CSV file), or ``""``.
    The written form is English's own mark of a proper noun: the thing a question is about, where its
    other words (host, configured, run) are as often its frame."""
    word = prompt[start:end]
    if not word.isascii() or not word[:1].isalpha() or word == "I":
        return ""
    before = prompt[:start].rstrip(" \t\"'([*`“‘")
    if len(word) >= 2 and word.isupper():
        return OBJECT if _AFTER_PREPOSITION.search(before) else ACRONYM
    if any(c.isupper() for c in word[1:]) and any(c.islower() for c in word):
        return PROPER
    return PROPER if word[0].isupper() and before and not _OPENS.search(before) else ""


PROPER, OBJECT, ACRONYM = "proper", "object", "acronym"
TOPIC_NAMES = (PROPER, OBJECT)
"""Names a question is about when no entry holds them (an unheld acronym elsewhere is its frame: URL)."""
_OPENS = re.compile(r"[.!?。！？:：;；\n]$")
"""What a sentence (or a clause after a colon) opens after: a capital there marks no name."""
_AFTER_PREPOSITION = re.compile(
    r"\b(?:to|in|into|with|from|for|on|onto|via|behind|without|by|at|over|under|through|than)$", re.I
)
"""English prepositions (a closed class): the word after one is the object the clause is about."""
_PREPOSITION = re.compile(r"\b(?:to|in|into|with|from|on|onto|via|behind|without|by|at|over|under|through)\b", re.I)
"""The same class as a word: a prepositional phrase names what the action is about or done with (for and than
left out: "for" opens a purpose as often, "than" a comparison)."""


def _sentence_of(ends: list[int], at: int) -> int:
    return sum(1 for end in ends if end <= at)


_SENTENCE_END = re.compile(r"[。！？!?；;\n]+|\.(?=\s)")
"""Where a sentence ends: a question and a remark after it ("端口是多少？部署前要确认一下") are weighed apart."""


def _expansions(
    prompt: str, kept: list[tuple[str, tuple[int, int]]], have: set[tuple[str, ...]], lookup: Lookup | None = None
) -> list[PromptTerm]:
    """Cross-language alternatives of the kept (non-stop) words, at most :data:`PER_SOURCE` each, each
    with the span of the word it translates (:func:`~mimomem.text.xlang.translations_in`'s order)."""
    import unicodedata

    from mimomem.text.tokens import tokenize_many
    from mimomem.text.xlang import shipped

    lookup = shipped() if lookup is None else lookup
    folded = unicodedata.normalize("NFKC", prompt).casefold()
    sources: dict[str, tuple[int, int]] = {}
    for word, span in kept:
        if word.isascii() and word:
            for target in lookup.heads_of(word, PER_SOURCE):
                sources.setdefault(target, span)
    for head, others in lookup.heads_in(folded):
        at = folded.find(head)
        for target in others[:PER_SOURCE]:
            sources.setdefault(target, (at, at + len(head)))
    targets = list(sources)
    out: list[PromptTerm] = []
    for target, tokens in zip(targets, tokenize_many(targets), strict=True):
        stemmed = tuple(stem(x) for x in tokens)
        if stemmed and stemmed not in have and not all(is_stop(x) for x in stemmed):
            have.add(stemmed)
            out.append(PromptTerm(stemmed, EXPANSION_WEIGHT, True, alternative=True, span=sources[target]))
    return out


def terms_text(terms: Iterable[PromptTerm]) -> list[str]:
    """The terms as strings (for diagnostics and tests)."""
    return [_joined(t.tokens) for t in terms]


def _joined(tokens: tuple[str, ...]) -> str:
    if all(not tok.isascii() for tok in tokens):  # overlapping bigrams: 数据 据库 -> 数据库
        return tokens[0] + "".join(tok[-1] for tok in tokens[1:])
    return " ".join(tokens)
