"""Vocabulary expansion: cross-language (Chinese <-> English) and near-synonym terms.

A :class:`Vocabulary` is a set of directed links ``source -> target`` between terms, read
from a shipped data file (generated once from a maintained dictionary by
``benchmarks/build_vocabulary.py``; nothing is downloaded at run time):

* ``data/xlang_zh_en.tsv`` - ``中文<TAB>english<TAB>...`` lines from CC-CEDICT: the
  Chinese word links to each English word and each English word back to it;
* ``data/near_synonyms_zh.tsv`` - groups of interchangeable Chinese words, every member
  linked to every other.

A source term *occurs* in a query when its tokens are a contiguous run of the query's
tokens; matches are taken longest first and never overlap (``数据库`` wins over ``数据``).
The targets become extra terms of kind ``"expansion"``, which the caller scores in a
weighted second pass (``mimomem.search.rerank``), never changing the user's own terms.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from mimomem.text.query import Query, Term
from mimomem.text.tokens import tokenize
from mimomem.text.xlang import XLANG_FILE, data_text, translations_in

NEAR_SYNONYMS_FILE = "near_synonyms_zh.tsv"
MAX_EXPANSIONS = 24
"""Extra terms one query can get from one vocabulary (the first ones, in query order)."""


def _tokens(term: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokenize(term))


def _rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rows.append([cell.strip() for cell in line.split("\t") if cell.strip()])
    return rows


class Vocabulary:
    """Directed links between terms, kept as token tuples; see the module docstring."""

    def __init__(self, links: Iterable[tuple[str, str]] = ()) -> None:
        self._targets: dict[tuple[str, ...], list[tuple[tuple[str, ...], str]]] = {}
        self._longest = 0
        for source, target in links:
            src, dst = _tokens(source), _tokens(target)
            if not src or not dst or src == dst or (len(src) == 1 and len(src[0]) < 2):
                continue
            targets = self._targets.setdefault(src, [])
            if all(dst != seen for seen, _ in targets):
                targets.append((dst, target))
                self._longest = max(self._longest, len(src))

    def __len__(self) -> int:
        return len(self._targets)

    @classmethod
    def translations(cls, text: str) -> Vocabulary:
        """From ``中文<TAB>english...`` rows: links both ways between each word and its translations."""
        links = []
        for row in _rows(text):
            head, others = row[0], row[1:]
            for other in others:
                links += [(head, other), (other, head)]
        return cls(links)

    @classmethod
    def groups(cls, text: str) -> Vocabulary:
        """From rows of interchangeable words: every member links to every other."""
        links = []
        for row in _rows(text):
            links += [(a, b) for a in row for b in row if a != b]
        return cls(links)

    def matches(self, tokens: Sequence[str]) -> list[tuple[str, ...]]:
        """Source terms found in ``tokens``: longest first at each position, never overlapping."""
        found, i = [], 0
        while i < len(tokens):
            for n in range(min(self._longest, len(tokens) - i), 0, -1):
                if tuple(tokens[i : i + n]) in self._targets:
                    found.append(tuple(tokens[i : i + n]))
                    i += n
                    break
            else:
                i += 1
        return found

    def expand(self, query: Query, *, limit: int = MAX_EXPANSIONS) -> Query:
        """The extra terms for ``query`` (none it already has), as a ``Query`` of kind ``expansion``."""
        tokens = [t.text for t in tokenize(query.text)]
        have = {t.tokens for t in query.terms}
        extra: list[Term] = []
        for source in self.matches(tokens):
            for target, text in self._targets[source]:
                if target not in have and len(extra) < limit:
                    have.add(target)
                    extra.append(Term(target, "expansion", text))
        return Query(query.text, tuple(extra), query.truncated)


@functools.lru_cache(maxsize=1)
def cross_language() -> Vocabulary:
    """The shipped Chinese <-> English developer vocabulary (CC-CEDICT, CC BY-SA 4.0)."""
    return Vocabulary.translations(data_text(XLANG_FILE))


@functools.lru_cache(maxsize=1)
def near_synonyms() -> Vocabulary:
    """The shipped groups of Chinese near-synonyms."""
    return Vocabulary.groups(data_text(NEAR_SYNONYMS_FILE))


__all__ = [
    "MAX_EXPANSIONS",
    "NEAR_SYNONYMS_FILE",
    "XLANG_FILE",
    "Vocabulary",
    "cross_language",
    "near_synonyms",
    "translations_in",
]
