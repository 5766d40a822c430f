"""Near-duplicate detection for ``remember``: same normalized summary, or token-set Jaccard >= 0.8.

The index is exact (it finds every memory a full pairwise scan would) and cheap: each memory
is indexed under a short prefix of its tokens only, and a candidate is compared only when
enough of its prefix meets the new memory's prefix (see ``DedupIndex``).  It is built lazily
per root from the memory files and kept in step by writes.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from itertools import chain
from typing import cast

from mimomem.curated.model import Memory
from mimomem.text.tokens import tokenize_many

DUPLICATE_JACCARD = 0.8
_RATIO = Fraction(DUPLICATE_JACCARD).limit_denominator(1000)  # 4/5: prefix lengths in exact integers
EXTRA = 3
"""Prefixes are this much longer than the minimum, so a candidate needs ``EXTRA + 1`` shared prefix tokens."""
REORDER_MIN = 1000
REORDER_GROWTH = 8
"""The order is fixed again when the index holds ``REORDER_MIN`` memories and again whenever it grew this much."""
_UNSEEN = 1 << 64
"""Tokens unknown when the order was fixed sort first (below every known rank), by hash."""


def token_hashes(text: str) -> array[int]:
    """Sorted distinct token hashes of ``text``: the sets near-duplicate checks compare."""
    return array("q", sorted(set(map(hash, tokenize_many((text,))[0]))))


def normalize_summary(text: str) -> str:
    """A summary reduced to its words (NFKC, case-folded): equal ones count as duplicates."""
    return " ".join(re.findall(r"[^\W_]+", unicodedata.normalize("NFKC", text).casefold()))


def min_overlap(n: int) -> int:
    """``ceil(0.8 * n)``, exactly: the fewest tokens a set of ``n`` shares with any set at Jaccard >= 0.8."""
    return -(-(_RATIO.numerator * n) // _RATIO.denominator)


class DedupIndex:
    """Exact near-duplicate finder: same normalized summary, or token-set Jaccard >= 0.8.

    Tokens are put in one fixed order, rarest first (document frequency when the order was
    fixed; tokens seen later first of all).  If J(A, B) >= 0.8 then A and B share
    ``a >= ceil(0.8 * max(|A|, |B|))`` tokens, and their ``k``-th shared token (``k <= a``) stands
    within the first ``|X| - ceil(0.8 * |X|) + k`` tokens of each set X.  So each memory is
    indexed under that many first tokens (``k = EXTRA + 1``) and a new memory's own first tokens
    must meet at least ``min(k, ceil(0.8 * |A|))`` of a memory's for the exact Jaccard to be
    computed at all.  The order is fixed again (and the index rebuilt) when the index has grown
    a lot since, so frequencies stay representative.
    """

    def __init__(self) -> None:
        self.sets: dict[str, array[int]] = {}
        self.summaries: dict[str, str] = {}
        self.postings: dict[int, list[str]] = {}  # order key -> memories with it in their prefix
        self.prefixes: dict[str, list[int]] = {}
        self.rank: dict[int, int] = {}  # token hash -> its position in the fixed order
        self.ordered_at = 0  # how many memories the order was fixed over
        self._last: tuple[str, array[int], list[int]] | None = None  # the text ``find`` looked at last

    @classmethod
    def of(cls, memories: Iterable[Memory]) -> DedupIndex:
        """An index of the memories that are not superseded."""
        index = cls()
        for memory in memories:
            if not memory.superseded_by:
                text = f"{memory.summary}\n{memory.body}"
                index.sets[memory.id] = token_hashes(text)
                norm = normalize_summary(memory.summary)
                if norm:
                    index.summaries.setdefault(norm, memory.id)
        index._reorder()
        return index

    def add_memory(self, memory_id: str, summary: str, body: str) -> None:
        """Index a memory by its summary and body (what ``find_duplicate`` compares)."""
        self.add(memory_id, f"{summary}\n{body}", normalize_summary(summary))

    def find_duplicate(self, summary: str, body: str, *, skip: str | None = None) -> tuple[str, str] | None:
        """``(existing id, why)`` of a live memory the new one nearly repeats, else ``None``."""
        return self.find(f"{summary}\n{body}", normalize_summary(summary), skip=skip)

    def _tokens(self, text: str) -> tuple[array[int], list[int]]:
        """The token hashes of ``text`` and their prefix (``add`` after ``find`` of the same text reuses them)."""
        last = self._last
        if last is not None and last[0] == text:
            return last[1], last[2]
        tokens = token_hashes(text)
        prefix = self._prefix(tokens)
        self._last = (text, tokens, prefix)
        return tokens, prefix

    def _prefix(self, tokens: array[int]) -> list[int]:
        """The order keys of the first ``|X| - ceil(0.8 |X|) + 1 + EXTRA`` tokens of ``tokens`` (all if fewer)."""
        n = len(tokens)
        ranks = list(map(self.rank.get, tokens))
        if None in ranks:  # tokens unseen when the order was fixed
            ranks = [h - _UNSEEN if k is None else k for h, k in zip(tokens, ranks, strict=True)]
        keys = cast("list[int]", ranks)
        keys.sort()
        return keys[: n - min_overlap(n) + 1 + EXTRA]

    def _reorder(self) -> None:
        """Fix the token order by the current document frequencies and index every memory again."""
        df = Counter(chain.from_iterable(self.sets.values()))
        order = sorted(df)
        order.sort(key=df.__getitem__)  # stable: by frequency, then by hash
        self.rank = {h: i for i, h in enumerate(order)}
        self.ordered_at = len(self.sets)
        self.postings = {}
        self.prefixes = {}
        self._last = None  # its prefix is in the old order
        for memory_id, tokens in self.sets.items():
            self._post(memory_id, self._prefix(tokens))

    def _post(self, memory_id: str, prefix: list[int]) -> None:
        self.prefixes[memory_id] = prefix
        postings = self.postings
        for key in prefix:
            ids = postings.get(key)
            if ids is None:
                postings[key] = [memory_id]
            else:
                ids.append(memory_id)

    def add(self, memory_id: str, text: str, norm_summary: str) -> None:
        if memory_id in self.sets:
            self.remove(memory_id)
        tokens, prefix = self._tokens(text)
        self.sets[memory_id] = tokens
        if norm_summary:
            self.summaries.setdefault(norm_summary, memory_id)
        if len(self.sets) >= max(REORDER_GROWTH * self.ordered_at, REORDER_MIN) and len(self.sets) > self.ordered_at:
            self._reorder()
        else:
            self._post(memory_id, prefix)

    def remove(self, memory_id: str) -> None:
        tokens = self.sets.pop(memory_id, None)
        if tokens is None:
            return
        for key in self.prefixes.pop(memory_id, ()):
            ids = self.postings.get(key)
            if ids is not None and memory_id in ids:
                ids.remove(memory_id)
                if not ids:
                    del self.postings[key]
        for norm, value in list(self.summaries.items()):
            if value == memory_id:
                del self.summaries[norm]

    def find(self, text: str, norm_summary: str, *, skip: str | None = None) -> tuple[str, str] | None:
        same = self.summaries.get(norm_summary)
        if same is not None and same != skip:
            return same, "same summary"
        tokens, prefix = self._tokens(text)
        n = len(tokens)
        if not n:
            return None
        postings = self.postings
        needed = min(EXTRA + 1, min_overlap(n))
        counts = Counter(chain.from_iterable(postings.get(key, ()) for key in prefix))
        mine = set(tokens)
        low, high = DUPLICATE_JACCARD * n, n / DUPLICATE_JACCARD
        best: tuple[float, str] | None = None
        for other in [o for o, c in counts.items() if c >= needed and o != skip]:
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
