"""Recall ranking: the score formula and the in-memory index that finds the exact top ``limit``.

Score of a memory for a query (see docs/curated-memory.md)::

    score = bm25 x scope_prior x decay x rehearsal
    bm25      = SQLite FTS5's bm25() over summary + highlight + body (negated: higher is better)
    scope     = 1.0 project, 0.5 global
    decay     = 0.5 ** (age_days / half_life_days); 1 when pinned or half_life_days == 0
    rehearsal = min(1.5, 1 + 0.1 * log2(1 + hits))

The top ``limit`` are exact: candidates come from the index in growing batches until the
``limit``-th final score beats the best score any unfetched candidate could still reach.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from mimomem.curated.memory import Memory, Recalled
from mimomem.curated.scoring import Info, info_of, max_multiplier, top_scored
from mimomem.text.bm25 import BM25Index
from mimomem.text.query import Query
from mimomem.text.tokens import tokenize


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
        self.info: dict[Hashable, Info] = {}  # keys are str; Hashable is what BM25Index.search yields
        self.bounds: dict[str, list[Any]] = {}  # scope -> [latest updated timestamp, any pinned]

    def add(self, memory: Memory) -> None:
        """Index a live memory (the caller decided it is eligible for recall)."""
        key = memory_key(memory)
        self.memories[key] = memory
        self.note(key, memory.updated.timestamp(), memory.pinned)
        self.index.add_text(key, memory.text)

    def note(self, key: str, ts: float, pinned: bool) -> None:
        """What the multipliers need of an indexed key (``<scope>:<id>``)."""
        info = self.info[key] = info_of(key, ts, pinned)
        bound = self.bounds.setdefault(info[0], [ts, pinned])
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
        return max_multiplier(self.bounds, now_ts, self.half_life_days, max_hits)

    def top(
        self, query: Query, limit: int, now_ts: float, hits: Mapping[str, Mapping[str, int]], max_mult: float
    ) -> list[Recalled]:
        """The exact ``limit`` best memories for ``query`` (``hits``: scope -> id -> count)."""
        best = top_scored(
            lambda k: self.index.search(query, k), self.info, limit, now_ts, self.half_life_days, hits, max_mult
        )
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
