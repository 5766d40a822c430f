"""Term proximity: a bonus for documents where the query's tokens occur close together.

BM25TP (Rasolofo & Savoy 2003), on our tokens: every pair of the query's tokens that do
not overlap in the query (``部署`` and ``脚本`` of 部署脚本, ``connection`` and ``pool``)
contributes, for each pair of their occurrences in a document at most ``window`` tokens
apart, ``1 / distance**2``; a pair's total ``tpi`` is saturated like a BM25 frequency and
weighted by the rarer token's idf:

    bonus = sum over pairs  min(idf_a, idf_b) * tpi * (k1 + 1) / (k1 + tpi)

Overlapping CJK bigrams of one query run are never paired (their adjacency is the
phrase term's job).  Deterministic; pure Python over the few documents a search
re-ranks.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

K1 = 1.2


@dataclass(frozen=True)
class ProximityParams:
    """``window``: the farthest distance (in tokens) that counts; ``weight``: the bonus's scale."""

    window: int = 8
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.window < 1 or not self.weight > 0:
            raise ValueError("proximity needs window >= 1 and a positive weight")


QueryToken = tuple[int, int, str, float]
"""``(start, end, token, idf)``: the token's character span in the query, and its idf."""


def query_pairs(tokens: Sequence[QueryToken]) -> list[tuple[str, str, float]]:
    """Pairs of distinct query tokens whose spans in the query do not overlap, with ``min(idf)``.

    Overlapping CJK bigrams of one run (数据 / 据库) never pair; separate words and the
    non-overlapping bigrams of a run (数据 / 库迁) do.
    """
    pairs: dict[tuple[str, str], float] = {}
    for i, (start_a, end_a, tok_a, idf_a) in enumerate(tokens):
        for start_b, end_b, tok_b, idf_b in tokens[i + 1 :]:
            if tok_a == tok_b or (start_a < end_b and start_b < end_a):
                continue
            key = (tok_a, tok_b) if tok_a < tok_b else (tok_b, tok_a)
            pairs[key] = max(pairs.get(key, 0.0), min(idf_a, idf_b))
    return [(a, b, idf) for (a, b), idf in sorted(pairs.items())]


def _pair_tpi(left: list[int], right: list[int], window: int) -> float:
    """Sum of ``1 / d**2`` over occurrence pairs at distance ``1..window``."""
    tpi = 0.0
    for p in left:
        lo = bisect.bisect_left(right, p - window)
        hi = bisect.bisect_right(right, p + window)
        for q in right[lo:hi]:
            if q != p:
                d = abs(q - p)
                tpi += 1.0 / (d * d)
    return tpi


def proximity_bonus(
    pairs: Sequence[tuple[str, str, float]], doc_tokens: Sequence[str], params: ProximityParams
) -> float:
    """The proximity bonus of one document (its tokens in order) for the query ``pairs``."""
    if not pairs:
        return 0.0
    wanted = {t for a, b, _ in pairs for t in (a, b)}
    positions: dict[str, list[int]] = {}
    for pos, token in enumerate(doc_tokens):
        if token in wanted:
            positions.setdefault(token, []).append(pos)
    bonus = 0.0
    for a, b, idf in pairs:
        left, right = positions.get(a), positions.get(b)
        if not left or not right:
            continue
        tpi = _pair_tpi(left, right, params.window)
        if tpi > 0:
            bonus += idf * (tpi * (K1 + 1.0)) / (K1 + tpi)
    return params.weight * bonus


__all__ = ["ProximityParams", "proximity_bonus", "query_pairs"]
