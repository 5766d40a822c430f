"""The recall score's multipliers, the exact top-``limit`` loop and scenario matching, on plain data.

Shared by ``curated.ranking`` (the store's ``recall``) and the prompt hook's plan
(:mod:`mimomem.served.plans`), so both rank with one piece of code.  Nothing here builds a
``Memory``: a memory is its index key and its ``info`` tuple ``(scope, id, scope prior,
updated timestamp, pinned, tie-break key)``.  See :mod:`mimomem.curated.ranking` for the formula.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

SCOPE_PRIOR = {"project": 1.0, "global": 0.5}
REHEARSAL_STEP = 0.1
REHEARSAL_CAP = 1.5

MIN_SCENARIO_OVERLAP = 0.75
"""A ``load_when`` scenario applies when at least this share of its terms is in the prompt."""

Info = tuple[str, str, float, float, bool, str]
Scored = tuple[float, str, float, float, float, float, int, Hashable]
"""``(score, tie-break key, bm25, scope prior, decay, rehearsal, hits, index key)``."""


def rehearsal(hits: int) -> float:
    """``min(1.5, 1 + 0.1 * log2(1 + hits))``: grows with recall hits, bounded (cap at 31 hits)."""
    return min(REHEARSAL_CAP, 1.0 + REHEARSAL_STEP * math.log2(1 + max(0, hits)))


_REHEARSAL = [rehearsal(h) for h in range(32)]  # the cap is reached at 31 hits


def decay(updated_ts: float, pinned: bool, now_ts: float, half_life_days: float) -> float:
    """``0.5 ** (age_days / half_life_days)``; 1 for pinned memories or half-life 0."""
    if pinned or half_life_days == 0:
        return 1.0
    factor: float = 0.5 ** (max(0.0, now_ts - updated_ts) / 86400.0 / half_life_days)
    return factor


def max_multiplier(
    bounds: Mapping[str, Any], now_ts: float, half_life_days: float, max_hits: Mapping[str, int]
) -> float:
    """An upper bound of every live memory's multiplier (scope x decay x rehearsal).

    ``bounds``: scope -> ``(latest updated timestamp, any pinned)``."""
    best = 0.0
    for scope, (latest, any_pinned) in bounds.items():
        d = decay(latest, any_pinned, now_ts, half_life_days)
        best = max(best, SCOPE_PRIOR[scope] * d * rehearsal(max_hits[scope]))
    return best


def top_scored(
    search: Any,
    info: Mapping[Hashable, Info],
    limit: int,
    now_ts: float,
    half_life_days: float,
    hits: Mapping[str, Mapping[str, int]],
    max_mult: float,
) -> list[Scored]:
    """The exact ``limit`` best, best first: ``search(k)`` gives the ``k`` best ``(key, bm25)``.

    Candidates come in growing batches until the ``limit``-th final score beats the best
    score any unfetched candidate could still reach (``max_mult`` x its bm25).
    """
    reh = _REHEARSAL
    fetch = max(8 * limit, 64)
    while True:
        candidates = search(fetch)
        scored: list[Scored] = []
        append = scored.append
        for key, base in candidates:
            scope, memory_id, prior, ts, pinned, tie = info[key]
            n = hits[scope].get(memory_id, 0)
            d = decay(ts, pinned, now_ts, half_life_days)
            r = reh[n] if n < len(reh) else REHEARSAL_CAP
            append((base * prior * d * r, tie, base, prior, d, r, n, key))
        best = heapq.nsmallest(limit, scored, key=lambda s: (-s[0], s[1]))
        if len(candidates) < fetch:
            return best  # every matching memory was scored
        if len(best) == limit and best[-1][0] > max_mult * candidates[-1][1] * (1 + 1e-12):
            return best  # nothing unfetched can reach the limit-th score (with rounding headroom)
        fetch *= 8


def scenario_applies(scenario_terms: AbstractSet[str], have: AbstractSet[str]) -> bool:
    """Whether one ``load_when`` scenario (its bigram terms) applies to a prompt with the terms ``have``."""
    return scenario_share(len(scenario_terms & have), len(scenario_terms))


def scenario_share(overlap: int, size: int) -> bool:
    """Whether a scenario of ``size`` distinct terms, ``overlap`` of them in the prompt, applies."""
    return size > 0 and overlap / size >= MIN_SCENARIO_OVERLAP


def info_of(key: str, updated_ts: float, pinned: bool) -> Info:
    """What the multipliers need of the memory indexed under ``key`` (``<scope>:<id>``)."""
    scope, _, memory_id = key.partition(":")
    return (scope, memory_id, SCOPE_PRIOR[scope], updated_ts, pinned, f"{int(scope != 'project')}{memory_id}")


__all__ = [
    "MIN_SCENARIO_OVERLAP",
    "REHEARSAL_CAP",
    "REHEARSAL_STEP",
    "SCOPE_PRIOR",
    "decay",
    "info_of",
    "max_multiplier",
    "rehearsal",
    "scenario_applies",
    "scenario_share",
    "top_scored",
]
