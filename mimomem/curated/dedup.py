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

from mimomem.curated.memory import Memory
from mimomem.text.tokens import tokenize_many

DUPLICATE_JACCARD = 0.8
_RATIO = Fraction(DUPLICATE_JACCARD).limit_denominator(1000)  # 4/5: prefix lengths in exact integers
EXTRA = 3
"""Prefixes are this much longer than the minimum, so a candidate needs ``EXTRA + 1`` shared prefix tokens."""
REORDER_MIN = 1000
REORDER_GROWTH = 8
"""The order is fixed again when the index holds ``REORDER_MIN`` memories and again whenever it grew this much."""
_UNSEEN = 1 << 64
BITS_MIN = 64
"""A posting list this long, and at least 1/64 as long as there are slots, is also kept as a bit set."""
SLOT_SLACK = 1024
"""Slots are renumbered when more than twice the live memories plus this many were handed out."""
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
        self.slots: dict[str, int] = {}  # memory -> its bit in ``bits`` (slots are not reused until re-posted)
        self.slot_ids: list[str | None] = []
        self.bits: dict[int, int] = {}  # order key -> its long posting list as a bit set of slots
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
        self._last = None  # its prefix is in the old order
        self._repost({memory_id: self._prefix(tokens) for memory_id, tokens in self.sets.items()})

    def _repost(self, prefixes: dict[str, list[int]]) -> None:
        """Index every memory again under its prefix, in fresh slots."""
        self.postings, self.prefixes, self.bits, self.slots, self.slot_ids = {}, {}, {}, {}, []
        for memory_id, prefix in prefixes.items():
            self._post(memory_id, prefix)

    def _post(self, memory_id: str, prefix: list[int]) -> None:
        self.prefixes[memory_id] = prefix
        slot = self.slots[memory_id] = len(self.slot_ids)
        self.slot_ids.append(memory_id)
        bit, long = 1 << slot, max(BITS_MIN, slot >> 6)
        postings, bits = self.postings, self.bits
        for key in prefix:
            ids = postings.get(key)
            if ids is None:
                postings[key] = [memory_id]
                continue
            ids.append(memory_id)
            mask = bits.get(key)
            if mask is not None:
                bits[key] = mask | bit
            elif len(ids) >= long:
                bits[key] = sum(1 << self.slots[o] for o in ids)

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
        slot = self.slots.pop(memory_id, None)
        if slot is not None:
            self.slot_ids[slot] = None
        for key in self.prefixes.pop(memory_id, ()):
            ids = self.postings.get(key)
            if ids is not None and memory_id in ids:
                ids.remove(memory_id)
                if not ids:
                    del self.postings[key]
            mask = self.bits.get(key)
            if mask is not None and slot is not None:
                if ids:
                    self.bits[key] = mask & ~(1 << slot)
                else:
                    del self.bits[key]
        if len(self.slot_ids) > 2 * len(self.prefixes) + SLOT_SLACK:  # mostly freed slots: compact them
            self._repost(dict(self.prefixes))
        for norm, value in list(self.summaries.items()):
            if value == memory_id:
                del self.summaries[norm]

    def _candidates(self, prefix: list[int], needed: int) -> list[str]:
        """The memories under at least ``needed`` of the keys in ``prefix``.

        Short posting lists are counted; long ones are added up as bit sets, bit-sliced:
        ``levels[i]`` holds the slots found under at least ``i + 1`` of the long lists.
        """
        postings, bits = self.postings, self.bits
        short: list[list[str]] = []
        levels = [0] * needed
        for key in prefix:
            mask = bits.get(key)
            if mask is None:
                ids = postings.get(key)
                if ids:
                    short.append(ids)
                continue
            for i in range(needed - 1, 0, -1):
                levels[i] |= levels[i - 1] & mask
            levels[0] |= mask
        counts = Counter(chain.from_iterable(short))
        found = [o for o, c in counts.items() if c >= needed]
        if not levels[0]:
            return found
        slots = self.slots
        found += [o for o, c in counts.items() if c < needed and levels[needed - c - 1] >> slots[o] & 1]
        rest, slot_ids = levels[needed - 1], self.slot_ids
        while rest:  # found under enough long lists alone
            low = rest & -rest
            rest ^= low
            other = slot_ids[low.bit_length() - 1]
            if other is not None and other not in counts:
                found.append(other)
        return found

    def find(self, text: str, norm_summary: str, *, skip: str | None = None) -> tuple[str, str] | None:
        same = self.summaries.get(norm_summary)
        if same is not None and same != skip:
            return same, "same summary"
        tokens, prefix = self._tokens(text)
        n = len(tokens)
        if not n:
            return None
        needed = min(EXTRA + 1, min_overlap(n))
        mine = set(tokens)
        low, high = DUPLICATE_JACCARD * n, n / DUPLICATE_JACCARD
        best: tuple[float, str] | None = None
        for other in self._candidates(prefix, needed):
            if other == skip:
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
