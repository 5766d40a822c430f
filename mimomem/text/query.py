"""The query model: user text -> an OR of terms, each term one token or an adjacent phrase.

How text becomes terms (``parse_query``), OR-joined and de-duplicated:

* a Latin/digit word is one term (``lockfile``; ``memory_fts_idx`` keeps its ``_``);
* words joined by connector punctuation with no space (``v1.2.3``, ``T5.3``,
  ``pnpm-lock.yaml``) give the *identifier* phrase of all of them, so the identifier is
  searched as one unit, **plus** each part except one-character and one- or two-digit
  ones (``v1``; ``pnpm``, ``lock``, ``yaml``); a word that glues letters to digits is also
  tried split (``Tauri2.0`` -> the phrase ``tauri 2 0`` and ``tauri``), because notes write
  ``Tauri 2.0`` as often as ``Tauri2.0``; so a differently written identifier is still
  found, ranked below the exact one;
* a CJK run gives each of its bigrams (a lone character: its unigram) **plus**, for runs
  of three or more characters, the *phrase* of its bigrams (that exact substring);
* with ``segment=True``, jieba words of three or more characters inside a longer run are
  added as phrases too (``任务管理器怎么配置`` -> also the phrase ``管理 理器``); off by
  default: on the shipped corpus it changes nothing measurable and costs jieba's
  dictionary load (about a second) in every new process;
* CJK glued to Latin or digits splits (``端口5433`` -> ``端口`` OR ``5433``).

Caps: only the first ``MAX_QUERY_CHARS`` characters are parsed (cut at a space when one is
near), and the de-duplicated terms are cut to the first ``MAX_TERMS``; either cut sets
``Query.truncated`` so callers can say so.  A 100,000-character query thus costs what a
2,000-character one does (milliseconds), while ordinary queries are untouched.

Why this shape: the bigram terms keep the recall of a plain OR of bigrams (pure phrase
queries lose recall on multi-word questions: measured on ``corpora/agent-memory``), and
the phrases add score only where the exact sequence occurs.  ``phrases=False`` gives the
naive baseline (bigrams and words only).  User text never reaches FTS5 syntax: the MATCH
string is built only from tokens, each phrase double-quoted.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from mimomem.common.light_typing import NamedTuple
from mimomem.text._chars import CJK, char_class
from mimomem.text.tokens import Token, tokenize

MAX_TERMS = 64
"""Distinct terms kept from one query (the first ones); longer queries are cut, never rejected."""

MAX_QUERY_CHARS = 2000
"""Characters of a query that are parsed (the first ones); the rest is cut, never rejected."""

TRUNCATED_HINT = (
    f"The query was truncated to its first {MAX_QUERY_CHARS} characters / {MAX_TERMS} distinct terms; the results "
    "match only that part. Search with fewer, more distinctive words."
)
"""What a search result says when ``Query.truncated`` is set."""

CONNECTORS = frozenset(".-/:@+#~\\")
"""Punctuation that joins words into one identifier when no space intervenes."""

_STOPWORD_TEXT = (
    "什么 怎么 怎样 如何 为什么 为何 哪里 哪些 哪个 是否 可以 能否 需要 应该 我们 你们 他们 "
    "这个 那个 一个 一下 还是 或者 以及 因为 所以 但是 如果 时候 是不是 有没有 多少 吗 呢 的"
)
QUERY_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""Question and function words dropped from jieba segments (never from the exact phrase)."""


class Term(NamedTuple):
    """One OR-ed alternative: ``tokens`` must occur adjacently, in order."""

    tokens: tuple[str, ...]
    kind: str  # "word" | "identifier" | "phrase" | "segment" | "bigram"
    source: str  # the user's own text this term came from


class Query(NamedTuple):
    """A parsed query: the text searched, the OR of its terms, and whether a cap cut it.

    ``truncated`` is True when the text was longer than ``MAX_QUERY_CHARS`` (``text`` is
    then the part searched) or had more than ``MAX_TERMS`` distinct terms.
    """

    text: str
    terms: tuple[Term, ...]
    truncated: bool = False

    def __bool__(self) -> bool:
        return bool(self.terms)

    def phrases(self) -> list[tuple[str, ...]]:
        """The token tuples, in order, as the index evaluates them."""
        return [t.tokens for t in self.terms]

    def to_fts5(self, detail: str = "full") -> str | None:
        """A MATCH string for an FTS5 column of space-joined tokens, or None if empty.

        Only tokens reach the string, each phrase double-quoted (quotes doubled), so no
        user text can become an FTS5 operator, column filter or syntax error.  ``detail``
        is the table's FTS5 ``detail`` option: on ``column`` and ``none`` tables (no
        phrase queries) a term of several tokens is an AND of them instead of a phrase.
        The SQL function ``mimomem_query(text)`` gives the ``none`` form (valid on every
        table), ``mimomem_query(text, 'full')`` this default.
        """
        if detail not in ("full", "column", "none"):
            raise ValueError(f"detail must be 'full', 'column' or 'none' (the table's FTS5 detail), got {detail!r}")
        if not self.terms:
            return None
        if detail == "full":
            return " OR ".join(_quoted(" ".join(t.tokens)) for t in self.terms)
        return " OR ".join(
            _quoted(t.tokens[0]) if len(t.tokens) == 1 else "(" + " AND ".join(map(_quoted, t.tokens)) + ")"
            for t in self.terms
        )


def _quoted(text: str) -> str:
    """``text`` as one FTS5 string (double-quoted, quotes doubled)."""
    return '"' + text.replace('"', '""') + '"'


def _is_cjk(token: Token) -> bool:
    first = token.text[0]
    if first.isascii():  # never CJK; and Han in the common block needs no script lookup (the `regex` module)
        return False
    if "\u4e00" <= first <= "\u9fff" and unicodedata.category(first) == "Lo":
        return True
    return char_class(first) == CJK


def _units(text: str, tokens: list[Token]) -> list[tuple[str, list[Token]]]:
    """Group tokens into ("cjk" | "word", tokens) units as described in the module doc."""
    units: list[tuple[str, list[Token]]] = []
    for tok in tokens:
        kind = "cjk" if _is_cjk(tok) else "word"
        if units:
            prev_kind, prev = units[-1]
            last = prev[-1]
            if kind == prev_kind == "cjk" and tok.start < last.end and len(tok.text) == 2:
                prev.append(tok)  # next bigram of the same run (bigrams overlap)
                continue
            gap = text[last.end : tok.start]
            if kind == prev_kind == "word" and all(ch in CONNECTORS for ch in gap):
                prev.append(tok)  # v1.2.3, pnpm-lock.yaml, a/b.py
                continue
        units.append((kind, [tok]))
    return units


def _bigrams(run: str) -> tuple[str, ...]:
    if len(run) < 2:
        return (run,)
    return tuple(run[i : i + 2] for i in range(len(run) - 1))


def _run_text(toks: list[Token]) -> str:
    """The folded CJK run behind a list of overlapping bigrams (or one unigram)."""
    return toks[0].text + "".join(t.text[-1] for t in toks[1:])


def clip_query_text(text: str, limit: int = MAX_QUERY_CHARS) -> tuple[str, bool]:
    """The first ``limit`` characters of ``text`` and whether anything was cut.

    A cut inside a word backs up to the last whitespace in the second half, so the last
    word searched is a whole one (CJK runs and long identifiers are simply cut).
    """
    if len(text) <= limit:
        return text, False
    head = text[:limit]
    if head[-1].isalnum() and text[limit].isalnum():
        space = max(head.rfind(" "), head.rfind("\n"), head.rfind("\t"))
        if space >= limit // 2:
            head = head[:space]
    return head, True


def parse_query(
    text: str,
    *,
    segment: bool = False,
    phrases: bool = True,
    max_terms: int = MAX_TERMS,
) -> Query:
    """Parse user text into a ``Query``; never raises on any string.

    ``phrases=False`` gives the naive baseline (every bigram and word its own term);
    ``segment=True`` adds jieba words of 3+ characters as phrases (imports jieba).
    Text past ``MAX_QUERY_CHARS`` and terms past ``max_terms`` are cut (``truncated``).
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_query() needs str, got {type(text).__name__}")
    text, clipped = clip_query_text(text)
    tokens = tokenize(text)
    terms: list[Term] = []
    for kind, toks in _units(text, tokens):
        source = text[toks[0].start : toks[-1].end]
        if kind == "word":
            terms.extend(_word_terms(toks, source, text, phrases))
            continue
        for t in toks:
            terms.append(Term((t.text,), "bigram" if len(t.text) == 2 else "word", text[t.start : t.end]))
        if phrases and len(toks) > 1:
            run = _run_text(toks)
            terms.append(Term(_bigrams(run), "phrase", source))
            if segment:
                terms.extend(_segment_terms(run))
    unique = _dedupe(terms)
    return Query(text, unique[:max_terms], clipped or len(unique) > max_terms)


def _weak_part(token: str) -> bool:
    """An identifier part too unspecific to search alone: one character, or 1-2 digits."""
    return len(token) < 2 or (token.isdigit() and len(token) < 3)


_LETTERS_DIGITS = re.compile(r"[0-9]+|[^0-9]+")


def _pieces(token: str) -> list[str]:
    """``tauri2`` -> ``tauri``, ``2``: where notes may have written a space (snake_case kept)."""
    if "_" in token:
        return [token]
    return _LETTERS_DIGITS.findall(token)


def _word_terms(toks: list[Token], source: str, text: str, phrases: bool) -> list[Term]:
    """Terms of one word or connector-linked identifier (see the module docstring)."""
    words = tuple(t.text for t in toks)
    if not phrases:
        return [Term((t.text,), "word", text[t.start : t.end]) for t in toks]
    out = [Term((t.text,), "word", text[t.start : t.end]) for t in toks if len(toks) == 1 or not _weak_part(t.text)]
    split = tuple(p for w in words for p in _pieces(w))
    known = set(words)  # a set: an identifier of 50,000 parts must not cost 50,000 x 50,000 comparisons
    out.extend(Term((p,), "word", p) for p in split if p not in known and not _weak_part(p))
    if len(words) > 1:
        out.append(Term(words, "identifier", source))
    if len(split) > 1 and split != words:
        out.append(Term(split, "identifier", source))
    return out


def _segment_terms(run: str) -> list[Term]:
    from mimomem.text.segment import segment as jieba_segment

    out = []
    for word in jieba_segment(run):
        if len(word) >= 3 and word != run and word not in QUERY_STOPWORDS:
            out.append(Term(_bigrams(word), "segment", word))
    return out


def _dedupe(terms: list[Term]) -> tuple[Term, ...]:
    seen: set[tuple[str, ...]] = set()
    out = []
    for term in terms:
        if term.tokens not in seen:
            seen.add(term.tokens)
            out.append(term)
    return tuple(out)


def as_query(query: str | Query | Sequence[str | Sequence[str]]) -> Query:
    """Accept a string (parsed), a ``Query``, or a list of terms (token or token tuple)."""
    if isinstance(query, Query):
        return query
    if isinstance(query, str):
        return parse_query(query)
    terms = []
    for item in query:
        tokens = (item,) if isinstance(item, str) else tuple(item)
        if not tokens or not all(isinstance(t, str) and t for t in tokens):
            raise TypeError(f"query terms must be non-empty strings or tuples of them, got {item!r}")
        terms.append(Term(tokens, "word" if len(tokens) == 1 else "phrase", " ".join(tokens)))
    return Query(" OR ".join(t.source for t in terms), tuple(terms))
