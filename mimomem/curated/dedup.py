"""Near-duplicate detection for ``remember``: same normalized summary, or token-set Jaccard >= 0.8.

The index is exact (it finds every memory a full pairwise scan would) and cheap: a prefix
filter over inverted lists of token hashes narrows the candidates before any Jaccard is
computed.  It is built lazily per root from the memory files and kept in step by writes.
"""

from __future__ import annotations

import math
import re
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterable
from itertools import chain

from mimomem.curated.model import Memory
from mimomem.text.tokens import tokenize

DUPLICATE_JACCARD = 0.8


def token_hashes(text: str) -> array[int]:
    """Sorted distinct token hashes of ``text``: the sets near-duplicate checks compare."""
    return array("q", sorted({hash(t.text) for t in tokenize(text)}))


def normalize_summary(text: str) -> str:
    """A summary reduced to its words (NFKC, case-folded): equal ones count as duplicates."""
    return " ".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold()))


def _prefix_len(n: int) -> int:
    """How many of a set's tokens a set with Jaccard >= t must hit at least one of."""
    return n - math.ceil(DUPLICATE_JACCARD * n) + 1 if n else 0


class DedupIndex:
    """Exact near-duplicate finder: same normalized summary, or token-set Jaccard >= 0.8.

    Jaccard(A, B) >= t needs |A & B| >= ceil(t * |A|) = |A| - p + 1, so B contains at
    least ``q - p + 1`` of *any* q tokens of A.  ``find`` counts, per memory, hits in the
    inverted lists of A's 2p rarest tokens and computes the exact Jaccard only for those
    with enough hits and a compatible size.
    """

    def __init__(self) -> None:
        self.sets: dict[str, array[int]] = {}
        self.summaries: dict[str, str] = {}
        self.postings: dict[int, list[str]] = {}

    @classmethod
    def of(cls, memories: Iterable[Memory]) -> DedupIndex:
        """An index of the memories that are not superseded."""
        index = cls()
        for memory in memories:
            if not memory.superseded_by:
                index.add_memory(memory.id, memory.summary, memory.body)
        return index

    def add_memory(self, memory_id: str, summary: str, body: str) -> None:
        """Index a memory by its summary and body (what ``find_duplicate`` compares)."""
        self.add(memory_id, f"{summary}\n{body}", normalize_summary(summary))

    def find_duplicate(self, summary: str, body: str, *, skip: str | None = None) -> tuple[str, str] | None:
        """``(existing id, why)`` of a live memory the new one nearly repeats, else ``None``."""
        return self.find(f"{summary}\n{body}", normalize_summary(summary), skip=skip)

    def add(self, memory_id: str, text: str, norm_summary: str) -> None:
        tokens = token_hashes(text)
        self.sets[memory_id] = tokens
        if norm_summary:
            self.summaries.setdefault(norm_summary, memory_id)
        postings = self.postings
        for h in tokens:
            ids = postings.get(h)
            if ids is None:
                postings[h] = [memory_id]
            else:
                ids.append(memory_id)

    def remove(self, memory_id: str) -> None:
        tokens = self.sets.pop(memory_id, None)
        if tokens is None:
            return
        for h in tokens:
            ids = self.postings.get(h)
            if ids is not None and memory_id in ids:
                ids.remove(memory_id)
                if not ids:
                    del self.postings[h]
        for key, value in list(self.summaries.items()):
            if value == memory_id:
                del self.summaries[key]

    def find(self, text: str, norm_summary: str, *, skip: str | None = None) -> tuple[str, str] | None:
        same = self.summaries.get(norm_summary)
        if same is not None and same != skip:
            return same, "same summary"
        tokens = token_hashes(text)
        n = len(tokens)
        if not n:
            return None
        postings = self.postings
        p = _prefix_len(n)
        # B needs >= n - p + 1 of A's tokens, so >= q - p + 1 of any q of them: count hits
        # over the 2p rarest tokens' lists in C and compare only the memories that pass.
        probe = sorted(tokens, key=lambda h: len(postings.get(h, ())))[: min(n, 2 * p)]
        needed = len(probe) - p + 1
        counts = Counter(chain.from_iterable(postings.get(h, ()) for h in probe))
        mine = set(tokens)
        low, high = DUPLICATE_JACCARD * n, n / DUPLICATE_JACCARD
        best: tuple[float, str] | None = None
        for other, c in counts.items():
            if c < needed or other == skip:
                continue
            theirs = self.sets[other]
            if not low <= len(theirs) <= high:
                continue
            inter = len(mine.intersection(theirs))
            j = inter / (n + len(theirs) - inter)
            if j >= DUPLICATE_JACCARD and (best is None or (j, other) > best):
                best = (j, other)
        if best is None:
            return None
        return best[1], f"token-set Jaccard {best[0]:.2f} >= {DUPLICATE_JACCARD}"
