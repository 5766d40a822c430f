"""Optional query expansion from a glossary of developer terms (Chinese <-> English).

A glossary is groups of interchangeable terms (``部署 / deploy / deployment``), read from
the shipped ``data/synonyms.tsv`` and, if present, ``<memory root>/synonyms.tsv`` (one group
per line, tab-separated, ``#`` comments).  A group *matches* a query when one of its terms,
tokenized, occurs as a contiguous run of the query's tokens; the group's other terms become
extra phrases, which the index scores with a weight below 1 so they rank under the user's
own words (see ``DocumentIndex.search(expand=...)``).  Off by default.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

from mimomem.errors import GlossaryError
from mimomem.text.query import Query, Term
from mimomem.text.tokens import tokenize

DEFAULT_WEIGHT = 0.5
"""Weight of an expanded term relative to the user's own terms."""

USER_FILE = "synonyms.tsv"


def _phrase(term: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokenize(term))


def _contains(tokens: Sequence[str], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return any(tuple(tokens[i : i + n]) == phrase for i in range(len(tokens) - n + 1))


class Glossary:
    """Groups of interchangeable terms, each term kept as its token tuple."""

    def __init__(self, groups: Iterable[Sequence[str]] = ()) -> None:
        self.groups: list[list[tuple[str, tuple[str, ...]]]] = []
        for group in groups:
            terms = [(t, _phrase(t)) for t in group if t.strip()]
            terms = [(t, p) for t, p in terms if p]
            if len(terms) >= 2:
                self.groups.append(terms)

    def __len__(self) -> int:
        return len(self.groups)

    @classmethod
    def parse(cls, text: str) -> Glossary:
        """Groups from TSV text (tabs between terms, ``#`` comments, blank lines ignored)."""
        groups = []
        for line in text.splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                groups.append([t.strip() for t in line.split("\t")])
        return cls(groups)

    @classmethod
    def load(cls, *extra: str | os.PathLike[str]) -> Glossary:
        """The shipped glossary plus every existing file in ``extra``."""
        text = resources.files("mimomem").joinpath("data/synonyms.tsv").read_text(encoding="utf-8")
        for path in extra:
            p = Path(path)
            if p.is_file():
                try:
                    text += "\n" + p.read_text(encoding="utf-8", errors="replace")
                except OSError as exc:
                    raise GlossaryError(f"cannot read synonyms file {p}: {exc}; fix or remove it") from exc
        return cls.parse(text)

    def expand(self, query: Query) -> Query:
        """Extra terms for ``query`` (never one it already contains), as a ``Query``."""
        tokens = [t.text for t in tokenize(query.text)]
        have = {t.tokens for t in query.terms}
        extra: list[Term] = []
        for group in self.groups:
            if not any(_contains(tokens, phrase) for _, phrase in group):
                continue
            for term, phrase in group:
                if phrase not in have and not _contains(tokens, phrase):
                    have.add(phrase)
                    extra.append(Term(phrase, "synonym", term))
        return Query(query.text, tuple(extra))


__all__ = ["DEFAULT_WEIGHT", "USER_FILE", "Glossary", "GlossaryError"]
