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
from importlib import resources

from mimomem.text.query import Query, Term
from mimomem.text.tokens import tokenize

XLANG_FILE = "xlang_zh_en.tsv"
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


def _data_text(name: str) -> str:
    return (resources.files("mimomem") / "data" / name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def cross_language() -> Vocabulary:
    """The shipped Chinese <-> English developer vocabulary (CC-CEDICT, CC BY-SA 4.0)."""
    return Vocabulary.translations(_data_text(XLANG_FILE))


@functools.lru_cache(maxsize=1)
def near_synonyms() -> Vocabulary:
    """The shipped groups of Chinese near-synonyms."""
    return Vocabulary.groups(_data_text(NEAR_SYNONYMS_FILE))


@functools.lru_cache(maxsize=1)
def _xlang_maps() -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, tuple[str, ...]], ...]]:
    """English word -> Chinese words, and (Chinese word, English words) rows, from the shipped file."""
    english: dict[str, list[str]] = {}
    chinese = []
    for line in _data_text(XLANG_FILE).split("\n"):
        if not line or line[0] == "#":
            continue
        row = line.rstrip().split("\t")
        head, others = row[0], tuple(o.lower() for o in row[1:] if o)
        chinese.append((head, others))
        for word in others:
            english.setdefault(word, []).append(head)
    return {k: tuple(v) for k, v in english.items()}, tuple(chinese)


def translations_in(text: str, words: Iterable[str], *, per_word: int = 3) -> list[str]:
    """Cross-language terms for ``text``: Chinese for each of ``words`` (folded English), English for
    each Chinese vocabulary word that occurs in ``text``; at most ``per_word`` each, in order.

    A light lookup for the per-prompt path: no :class:`Vocabulary` is built (building one
    tokenizes the whole file, about 0.2 s), and the caller tokenizes only what it gets.
    """
    english, chinese = _xlang_maps()
    out: list[str] = []
    for word in words:
        out += english.get(word, ())[:per_word]
    out += [w for head, others in chinese if head in text for w in others[:per_word]]
    return list(dict.fromkeys(out))


__all__ = [
    "MAX_EXPANSIONS",
    "NEAR_SYNONYMS_FILE",
    "XLANG_FILE",
    "Vocabulary",
    "cross_language",
    "near_synonyms",
    "translations_in",
]
