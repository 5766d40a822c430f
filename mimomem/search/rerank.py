"""Retrieval options past the lexical first pass: expansion passes and a proximity re-rank.

``rank_with_options`` ranks a parsed query as ``DocumentIndex.rank`` does, then, as
:class:`RetrievalOptions` asks:

1. **vocabulary expansion** (``cross_language``, ``near_synonyms``: weights; 0 is off) -
   the query's terms found in a shipped vocabulary (``mimomem.text.expansion``) add their
   translations / near-synonyms as one second pass, scaled by the weight;
2. **pseudo-relevance feedback** (``feedback``) - expansion tokens read off the best
   documents so far (``mimomem.text.feedback``), ranked together in one weighted pass
   (each token's bm25 scaled by its weight) over the ``native-index`` backend's in-memory
   index, whichever backend ranked the user's terms: one ranking instead of one per token,
   the difference between 5 and 120 ms a query at 100,000 documents in FTS5;
3. **proximity** (``proximity``) - a bonus for documents where the query's tokens occur
   close together (``mimomem.text.proximity``).

Every step *adds* to a document's score: the score of the user's own terms is exactly the
first pass's, so with every option off the result is ``DocumentIndex.rank``'s.  Passes
rank a pool of ``max(4 * limit, 100)`` documents each (exact for documents inside every
pool, as ``DocumentIndex.rank_expanded``; the feedback pass is one pool for all its tokens).
Statistics (document frequencies, document tokens) come from the cache's bigram shadow
column and index, identical for ``fts5-bigram`` and ``native-index`` (so both give the
same hits and scores); the ``fts5-unicode61`` baseline is never changed.

:func:`options_for` picks the options for a query by its kind
(``mimomem.text.query_kind``) from a policy; ``DEFAULT_POLICY`` is what the held-out
measurements of ``benchmarks/bench_retrieval.py`` switched on (see the README there).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mimomem.errors import InvalidRetrievalError
from mimomem.search import db
from mimomem.search.hits import RankedRow
from mimomem.search.native_index import NativeIndex
from mimomem.text._bm25_py import fts5_idf
from mimomem.text.bm25 import BM25Index
from mimomem.text.expansion import Vocabulary, cross_language, near_synonyms
from mimomem.text.feedback import FeedbackParams, feedback_terms
from mimomem.text.proximity import ProximityParams, proximity_bonus, query_pairs
from mimomem.text.query import Query, Term
from mimomem.text.query_kind import query_kind
from mimomem.text.tokens import tokenize

if TYPE_CHECKING:
    from mimomem.search.document_index import DocumentIndex


@dataclass(frozen=True)
class RetrievalOptions:
    """Which options run for one search, with their parameters (every field off by default)."""

    feedback: FeedbackParams | None = None
    cross_language: float = 0.0
    near_synonyms: float = 0.0
    proximity: ProximityParams | None = None

    def __bool__(self) -> bool:
        return bool(self.feedback or self.cross_language > 0 or self.near_synonyms > 0 or self.proximity)


OFF = RetrievalOptions()

SHIPPED_FEEDBACK = FeedbackParams(docs=5, terms=20, weight=0.4, method="rm3")
"""The feedback parameters the cross-validation chose on all queries (benchmarks/bench_retrieval.py)."""

DEFAULT_POLICY: Mapping[str, RetrievalOptions] = {
    kind: RetrievalOptions(feedback=SHIPPED_FEEDBACK)
    for kind in ("cjk-short", "cjk-term", "mixed", "identifier", "en-words", "ko")
}
"""Query kind -> the options switched on for it by default.

Feedback only, for the keyword kinds where it won held out (two-character and longer
Chinese terms, mixed, identifiers, English words, Korean).  Off for questions (Chinese and
English: it lost nDCG@10 held out; this is the question mode: questions keep the plain
ranking), for Japanese (no change) and everything else; proximity, cross-language and
near-synonym expansion are off everywhere (no held-out gain).  See the README of
``benchmarks/`` for the tables.
"""


def options_for(text: str, policy: Mapping[str, RetrievalOptions] | None = None) -> RetrievalOptions:
    """The options ``policy`` (default ``DEFAULT_POLICY``) gives queries of ``text``'s kind."""
    chosen = DEFAULT_POLICY if policy is None else policy
    return chosen.get(query_kind(text), OFF)


Retrieval = RetrievalOptions | str | None
"""What a search accepts as ``retrieval``: options, ``"auto"`` / None (the default policy) or ``"off"``."""


def resolve(retrieval: Retrieval, text: str) -> RetrievalOptions:
    """The options a search runs with for query ``text`` (see ``Retrieval``)."""
    if isinstance(retrieval, RetrievalOptions):
        return retrieval
    if retrieval is None or retrieval == "auto":
        return options_for(text)
    if retrieval == "off":
        return OFF
    raise InvalidRetrievalError(
        f"retrieval must be RetrievalOptions, 'auto' or 'off', got {retrieval!r}; pass 'off' for the plain ranking"
    )


class _Stats:
    """Document frequencies, store size and document tokens, read once per search.

    ``native-index`` answers from its in-memory index; ``fts5-bigram`` from an ``fts5vocab``
    table over the bigram index (in the connection's temp schema).  Both count the same rows.
    """

    def __init__(self, index: DocumentIndex, backend: str, *, native: bool = False) -> None:
        self.index = index
        found = index.backend("native-index" if native else backend)
        self._backend = found if isinstance(found, NativeIndex) else None
        self._native: BM25Index | None = self._backend.sync() if self._backend is not None else None
        self._df: dict[str, int] = {}
        self._n: int | None = None

    def native_index(self) -> NativeIndex:
        """The ``native-index`` backend (the weighted feedback pass ranks with it)."""
        assert self._backend is not None, "built with native=True"
        return self._backend

    def n_docs(self) -> int:
        if self._n is None:
            if self._native is not None:
                self._n = len(self._native)
            else:
                self._n = int(self.index.connection.execute("SELECT count(*) FROM memory_fts").fetchone()[0])
        return self._n

    def doc_freqs(self, tokens: Iterable[str]) -> None:
        """Look up the document frequency of every token not seen yet."""
        missing = sorted({t for t in tokens if t not in self._df})
        if not missing:
            return
        native = self._native
        if native is not None:
            self._df.update((t, native.doc_freq(t)) for t in missing)
            return
        conn = self.index.connection
        table = db.INDEXES["fts5-bigram"].table
        conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.mimomem_vocab USING fts5vocab(main, {table}, row)")
        found: dict[str, int] = {}
        for start in range(0, len(missing), _CHUNK):
            chunk = missing[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            found.update(conn.execute(f"SELECT term, doc FROM temp.mimomem_vocab WHERE term IN ({marks})", chunk))
        self._df.update((t, int(found.get(t, 0))) for t in missing)

    def doc_freq(self, token: str) -> int:
        found = self._df.get(token)
        if found is None:
            self.doc_freqs((token,))
            found = self._df[token]
        return found

    def tokens(self, ids: Sequence[int]) -> dict[int, list[str]]:
        """The shadow tokens of rows ``ids``."""
        out: dict[int, list[str]] = {}
        conn = self.index.connection
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            for i, joined in conn.execute(f"SELECT id, tokens FROM memory_fts WHERE id IN ({marks})", chunk):
                out[i] = joined.split(" ") if joined else []
        return out


_CHUNK = 500
"""Values bound in one ``IN (...)`` (old SQLite builds allow 999)."""

_SHIPPED = {"cross_language": cross_language, "near_synonyms": near_synonyms}


class _Scores:
    """Rows seen so far and their accumulated scores.

    A pass may add scores without rows (``add_scores``); the rows of those that reach a
    ranking are read then, through ``fetch``.
    """

    def __init__(self, rows: Iterable[RankedRow]) -> None:
        self.rows: dict[int, RankedRow] = {}
        self.score: dict[int, float] = {}
        self.fetch: Callable[[Sequence[int]], Mapping[int, tuple[str, str, str, str]]] | None = None
        self.add(rows, 1.0)

    def add(self, rows: Iterable[RankedRow], weight: float) -> None:
        for row in rows:
            self.rows.setdefault(row.id, row)
            self.score[row.id] = self.score.get(row.id, 0.0) + weight * row.score

    def add_scores(self, pairs: Iterable[tuple[int, float]], weight: float) -> None:
        for i, value in pairs:
            self.score[i] = self.score.get(i, 0.0) + weight * value

    def ranked(self, limit: int | None = None) -> list[RankedRow]:
        """The rows best first with their summed scores (ties: path); the first ``limit`` only if given."""
        score = self.score
        ids = sorted(score, key=lambda i: -score[i])
        if limit is not None and len(ids) > limit:  # only those scoring at least the limit-th can make the cut
            cut = score[ids[limit - 1]] if limit > 0 else math.inf
            ids = [i for i in ids if score[i] >= cut]
        missing = [i for i in ids if i not in self.rows]
        if missing and self.fetch is not None:
            for i, details in self.fetch(missing).items():
                self.rows[i] = RankedRow(i, *details, 0.0)
        rows = self.rows
        order = sorted((i for i in ids if i in rows), key=lambda i: (-score[i], rows[i].path))
        return [rows[i]._replace(score=score[i]) for i in order[:limit]]


def rank_with_options(
    index: DocumentIndex,
    query: Query,
    backend: str,
    options: RetrievalOptions,
    *,
    limit: int,
    scope: str | None = None,
    scope_id: str | None = None,
    type: str | None = None,
    vocabularies: Mapping[str, Vocabulary] | None = None,
) -> tuple[list[RankedRow], Query]:
    """The ``limit`` best rows for ``query`` with ``options``, and the query snippets should mark.

    The returned query is ``query`` plus the vocabulary expansions (translations and
    near-synonyms mark where a hit matched); feedback tokens are scored, not marked.

    With ``options`` off (or the ``fts5-unicode61`` backend) this is ``index.rank``.
    ``vocabularies`` (keys ``cross_language``, ``near_synonyms``) replaces the shipped
    vocabularies, e.g. to measure another source.
    """
    filters = {"scope": scope, "scope_id": scope_id, "type": type}
    if not options or backend == "fts5-unicode61" or not query:
        return index.rank(query, backend, limit=limit, **filters), query
    pool = max(4 * limit, 100)
    scores = _Scores(index.rank(query, backend, limit=pool, **filters))
    base_ids = list(scores.rows)
    extra: list[Term] = []
    with index._lock, db.reporting_corruption(index.connection):
        stats = _Stats(index, backend, native=options.feedback is not None)
        for name, weight in (("cross_language", options.cross_language), ("near_synonyms", options.near_synonyms)):
            if weight > 0:
                vocabulary = (vocabularies or {}).get(name) or _SHIPPED[name]()
                extra += _vocabulary_pass(index, query, vocabulary, weight, scores, backend, pool, filters, extra)
        if options.feedback is not None:  # its tokens are not marked in snippets: the user never asked for them
            _feedback_pass(index, query, options.feedback, stats, scores, backend, pool, filters, extra)
        if options.proximity is not None:
            _proximity_pass(query, options.proximity, stats, scores, base_ids)
    combined = Query(query.text, query.terms + tuple(extra), query.truncated)
    return scores.ranked(limit), combined


def _vocabulary_pass(
    index: DocumentIndex,
    query: Query,
    vocabulary: Vocabulary,
    weight: float,
    scores: _Scores,
    backend: str,
    pool: int,
    filters: dict[str, str | None],
    already: Sequence[Term],
) -> list[Term]:
    have = Query(query.text, query.terms + tuple(already), query.truncated)
    extra = vocabulary.expand(have)
    if extra:
        scores.add(index.rank(extra, backend, limit=pool, **filters), weight)
    return list(extra.terms)


def _feedback_pass(
    index: DocumentIndex,
    query: Query,
    params: FeedbackParams,
    stats: _Stats,
    scores: _Scores,
    backend: str,
    pool: int,
    filters: dict[str, str | None],
    already: Sequence[Term],
) -> list[Term]:
    top = scores.ranked(params.docs)
    texts = stats.tokens([r.id for r in top])
    feedback = [(r.score, texts.get(r.id, [])) for r in top]
    seen = {tok for term in (*query.terms, *already) for tok in term.tokens}
    if params.method != "rm3":  # rm3 looks up only the tokens it may choose (few), kl every token
        stats.doc_freqs(tok for _, toks in feedback for tok in toks)
    terms = feedback_terms(seen, feedback, stats.doc_freq, stats.n_docs(), params)
    if not terms:
        return []
    scale = params.weight * len(query.terms)
    expansion = Query(query.text, tuple(Term((token,), "feedback", token) for token, _ in terms))
    weights = [scale * share for _, share in terms]
    native = stats.native_index()
    scores.fetch = native.rows_of  # rows only for what makes the final cut
    scores.add_scores(native.best_scores(expansion, limit=pool, weights=weights, **filters), 1.0)
    return list(expansion.terms)


def _proximity_pass(
    query: Query, params: ProximityParams, stats: _Stats, scores: _Scores, candidates: Sequence[int]
) -> None:
    singles = {t.tokens[0] for t in query.terms if len(t.tokens) == 1}
    qtokens = [tok for tok in tokenize(query.text) if tok.text in singles]
    if len(qtokens) < 2:
        return
    stats.doc_freqs(tok.text for tok in qtokens)
    n = stats.n_docs()
    pairs = query_pairs([(t.start, t.end, t.text, fts5_idf(n, stats.doc_freq(t.text))) for t in qtokens])
    if not pairs:
        return
    texts = stats.tokens(list(candidates))
    for row_id in candidates:
        bonus = proximity_bonus(pairs, texts.get(row_id, []), params)
        if bonus > 0 and math.isfinite(bonus):
            scores.score[row_id] += bonus


__all__ = [
    "DEFAULT_POLICY",
    "OFF",
    "InvalidRetrievalError",
    "Retrieval",
    "RetrievalOptions",
    "options_for",
    "rank_with_options",
    "resolve",
]
