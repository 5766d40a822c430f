"""Pseudo-relevance feedback: expansion terms read off the first ranking's best documents.

The relevance model RM1 (Lavrenko & Croft 2001), as RM3 uses it: the top ``docs`` documents
of the first pass stand in for the relevant ones, each weighted by its share of their
scores, and a token's weight is ``P(t|R) = sum_d P(d|q) * tf(t, d) / |d|``.  Two ways to
pick the ``terms`` expansion tokens from that model (``method``):

* ``rm3`` - the largest ``P(t|R)``, after dropping tokens in half the documents or more
  (FTS5's idf gives them 1e-6: they could only crowd out useful ones);
* ``kl``  - the largest ``P(t|R) * log(P(t|R) / P(t|C))`` (Carpineto et al. 2001), with
  ``P(t|C)`` the token's document frequency share: tokens that are typical of the
  feedback documents rather than of the whole store.

Tokens of the query itself, one-character tokens and one- or two-digit numbers are never
chosen.  The result is deterministic (ties broken by the token).  How the terms score is
up to the caller (``mimomem.search.rerank``): a weighted second pass, so the scores of the
user's own terms never change.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

METHODS = ("rm3", "kl")


@dataclass(frozen=True)
class FeedbackParams:
    """How feedback runs: documents read, terms kept, their weight and the selection method.

    ``weight`` is RM3's interpolation seen from the user's side: the expansion pass adds
    ``weight * n_terms(query) * sum_t P(t|R) * bm25_t(d)``, i.e. RM3 with the original
    query's share ``1 / (1 + weight)``.
    """

    docs: int = 5
    terms: int = 10
    weight: float = 0.3
    method: str = "rm3"

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"feedback method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if self.docs < 1 or self.terms < 1 or not self.weight > 0:
            raise ValueError("feedback needs docs >= 1, terms >= 1 and a positive weight")


def _eligible(token: str) -> bool:
    if len(token) < 2:
        return False
    return not (token.isdigit() and len(token) < 3)


def _scorable(df: int, n_docs: int) -> bool:
    """Not indexed (cannot score) or in half the documents or more (FTS5's idf clamp: scores nothing)."""
    return df > 0 and 2 * df < n_docs


def relevance_model(feedback: Iterable[tuple[float, Sequence[str]]]) -> dict[str, float]:
    """RM1's ``P(t|R)`` from ``(score, tokens)`` of the feedback documents (scores > 0)."""
    docs = [(score, tokens) for score, tokens in feedback if score > 0 and tokens]
    total = math.fsum(score for score, _ in docs)
    model: dict[str, float] = {}
    if total <= 0:
        return model
    for score, tokens in docs:
        share = score / total
        length = len(tokens)
        for token, count in sorted(Counter(tokens).items()):
            model[token] = model.get(token, 0.0) + share * count / length
    return model


def feedback_terms(
    query_tokens: Iterable[str],
    feedback: Iterable[tuple[float, Sequence[str]]],
    doc_freq: Callable[[str], int],
    n_docs: int,
    params: FeedbackParams,
) -> list[tuple[str, float]]:
    """The expansion tokens and their weights (summing to 1), best first.

    ``feedback`` is ``(score, tokens)`` per feedback document, ``doc_freq`` and ``n_docs``
    the store's statistics (the same ones the index scores with).
    """
    if n_docs <= 0:
        return []
    skip = set(query_tokens)
    model = relevance_model(feedback)
    candidates = [(p, token) for token, p in model.items() if token not in skip and _eligible(token)]
    chosen: list[tuple[float, str]] = []
    if params.method == "rm3":  # best P(t|R) first: the store's statistics only for the tokens kept
        candidates.sort(key=lambda item: (-item[0], item[1]))
        for p, token in candidates:
            if _scorable(doc_freq(token), n_docs):
                chosen.append((p, token))
                if len(chosen) == params.terms:
                    break
    else:
        for p, token in candidates:
            df = doc_freq(token)
            if _scorable(df, n_docs):
                weight = p * math.log(p / (df / n_docs))
                if weight > 0:
                    chosen.append((weight, token))
        chosen.sort(key=lambda item: (-item[0], item[1]))
        del chosen[params.terms :]
    total = math.fsum(w for w, _ in chosen)
    if total <= 0:
        return []
    return [(token, w / total) for w, token in chosen]


__all__ = ["METHODS", "FeedbackParams", "feedback_terms", "relevance_model"]
