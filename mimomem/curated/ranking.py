"""Recall ranking: the score formula and the in-memory index that finds the exact top ``limit``.

Score of a memory for a query (see the README section "Curated memory")::

    score = bm25 x scope_prior x decay x rehearsal
    bm25      = SQLite FTS5's bm25() over summary + highlight + body (negated: higher is better)
    scope     = 1.0 project, 0.5 global
    decay     = 0.5 ** (age_days / half_life_days); 1 when pinned or half_life_days == 0
    rehearsal = min(1.5, 1 + 0.1 * log2(1 + hits))

The top ``limit`` are exact: candidates come from the index in growing batches until the
``limit``-th final score beats the best score any unfetched candidate could still reach.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from mimomem.curated.memory import Memory, Recalled
from mimomem.text.bm25 import BM25Index
from mimomem.text.query import Query
from mimomem.text.tokens import tokenize

SCOPE_PRIOR = {"project": 1.0, "global": 0.5}
_Info = tuple[str, str, float, float, bool, str]  # scope, id, scope prior, updated timestamp, pinned, tie-break key
REHEARSAL_STEP = 0.1
REHEARSAL_CAP = 1.5


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


def memory_key(memory: Memory) -> str:
    """The index key of a memory: ``<scope>:<id>`` (both roots may hold the same id)."""
    return f"{memory.scope}:{memory.id}"


class RecallIndex:
    """The live memories of both roots in one BM25 index, with what the multipliers need.

    Per key it keeps ``(scope, id, scope prior, updated timestamp, pinned, tie-break key)``;
    per scope the latest ``updated`` and whether any memory is pinned, which bound every
    memory's decay from above.  An index loaded from the recall cache holds no ``Memory``
    objects: ``resolve`` reads those of the hits (``memory``).
    """

    def __init__(
        self, half_life_days: float, index: BM25Index | None = None, resolve: Callable[[str], Memory] | None = None
    ) -> None:
        self.half_life_days = half_life_days
        self.index = index if index is not None else BM25Index()
        self.resolve = resolve
        self.memories: dict[Hashable, Memory] = {}
        self.info: dict[Hashable, _Info] = {}  # keys are str; Hashable is what BM25Index.search yields
        self.bounds: dict[str, list[Any]] = {}  # scope -> [latest updated timestamp, any pinned]

    def add(self, memory: Memory) -> None:
        """Index a live memory (the caller decided it is eligible for recall)."""
        key = memory_key(memory)
        self.memories[key] = memory
        self.note(key, memory.updated.timestamp(), memory.pinned)
        self.index.add_text(key, memory.text)

    def note(self, key: str, ts: float, pinned: bool) -> None:
        """What the multipliers need of an indexed key (``<scope>:<id>``)."""
        scope, _, memory_id = key.partition(":")
        self.info[key] = (scope, memory_id, SCOPE_PRIOR[scope], ts, pinned, f"{int(scope != 'project')}{memory_id}")
        bound = self.bounds.setdefault(scope, [ts, pinned])
        bound[0] = max(bound[0], ts)
        bound[1] = bound[1] or pinned

    def remove(self, key: str) -> None:
        """Drop a key (absent keys are fine); the scope bound stays, still an upper bound."""
        self.index.remove(key)
        self.memories.pop(key, None)
        self.info.pop(key, None)

    def memory(self, key: Hashable) -> Memory:
        """The memory indexed under ``key`` (read by ``resolve`` when not held yet)."""
        memory = self.memories.get(key)
        if memory is None:
            assert self.resolve is not None, key
            memory = self.memories[key] = self.resolve(str(key))
        return memory

    @property
    def eligible(self) -> dict[Hashable, Memory]:
        """Every indexed memory by key (reads those not held yet)."""
        return {key: self.memory(key) for key in self.info}

    def max_multiplier(self, now_ts: float, max_hits: Mapping[str, int]) -> float:
        """An upper bound of every live memory's multiplier (scope x decay x rehearsal)."""
        best = 0.0
        for scope, (latest, any_pinned) in self.bounds.items():
            d = decay(latest, any_pinned, now_ts, self.half_life_days)
            best = max(best, SCOPE_PRIOR[scope] * d * rehearsal(max_hits[scope]))
        return best

    def top(
        self, query: Query, limit: int, now_ts: float, hits: Mapping[str, Mapping[str, int]], max_mult: float
    ) -> list[Recalled]:
        """The exact ``limit`` best memories for ``query`` (``hits``: scope -> id -> count)."""
        info, half_life, reh = self.info, self.half_life_days, _REHEARSAL
        fetch = max(8 * limit, 64)
        while True:
            candidates = self.index.search(query, fetch)
            scored: list[tuple[float, str, float, float, float, float, int, Hashable]] = []
            append = scored.append
            for key, base in candidates:
                scope, memory_id, prior, ts, pinned, tie = info[key]
                n = hits[scope].get(memory_id, 0)
                d = decay(ts, pinned, now_ts, half_life)
                r = reh[n] if n < len(reh) else REHEARSAL_CAP
                append((base * prior * d * r, tie, base, prior, d, r, n, key))
            best = heapq.nsmallest(limit, scored, key=lambda s: (-s[0], s[1]))
            if len(candidates) < fetch:
                break  # every matching memory was scored
            if len(best) == limit and best[-1][0] > max_mult * candidates[-1][1] * (1 + 1e-12):
                break  # nothing unfetched can reach the limit-th score (with rounding headroom)
            fetch *= 8
        out = []
        for sc, _, b, p, d, r, n, key in best:
            memory = self.memory(key)
            out.append(Recalled(memory, sc, b, p, d, r, n, matched_terms(query, memory)))
        return out


def matched_terms(query: Query, memory: Memory) -> tuple[str, ...]:
    """The query terms (as the user wrote them) that occur in the memory's text.

    A term inside a longer matched term (a bigram of a matched phrase) is not repeated.
    """
    toks = [t.text for t in tokenize(memory.text)]
    present = set(toks)
    matched: list[tuple[tuple[str, ...], str]] = []
    for term in query.terms:
        phrase = term.tokens
        if not all(t in present for t in phrase):
            continue
        n = len(phrase)
        if n == 1 or any(tuple(toks[i : i + n]) == phrase for i in range(len(toks) - n + 1)):
            matched.append((phrase, term.source))

    def inside(small: tuple[str, ...], big: tuple[str, ...]) -> bool:
        n = len(small)
        return n < len(big) and any(big[i : i + n] == small for i in range(len(big) - n + 1))

    out: list[str] = []
    for phrase, source in matched:
        if not any(inside(phrase, other) for other, _ in matched) and source not in out:
            out.append(source)
    return tuple(out)
