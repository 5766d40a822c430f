"""The entry index a prompt is scored against: entries numbered in file order, each word's postings.

The entry cache (:mod:`mimomem.context.entry_cache`) builds it from the memory files once, and the
prompt hook's plan keeps it (:mod:`mimomem.served.plans`); a served prompt only reads it, decoding
the few buckets of postings its own words are in.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterator, Sequence

from mimomem.common.hashing import bucket_of
from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.served.entries import Entry

if TYPE_CHECKING:  # a served prompt imports this module: no typing at run time
    from typing import Any

Cached = tuple[Entry, frozenset[str]]
"""An entry with its folded, stemmed words."""

BUCKETS = 256
"""The words' postings are saved in this many marshal blobs (:func:`~mimomem.common.hashing.bucket_of`):
a prompt decodes the few that hold its own words, not every word of every entry."""


_BITMAP, _ARRAY = ord("b"), ord("a")
"""A word's postings are saved as a bitmap (``b``) or an ``array('I')`` of entry numbers (``a``),
whichever is smaller: the words of most entries are a bitmap that loads as one integer."""


def indices(bits: int) -> list[int]:
    """The set bits of ``bits``, ascending."""
    digits = bin(bits)[:1:-1]  # least significant first
    out = []
    at = digits.find("1")
    while at != -1:
        out.append(at)
        at = digits.find("1", at + 1)
    return out


class EntryIndex:
    """The entries of a list of files, numbered in file order, with each word's entries (its postings).

    ``blobs``: each file's entries, one marshal blob per file, in order; ``index``: the words'
    postings (packed ``array('I')`` bytes) in :data:`BUCKETS` marshal blobs, and where each
    file's entries start.  A prompt decodes only its own words' buckets and the files of the
    entries it shows; the per-entry word sets of everything else are never built.
    """

    def __init__(self, blobs: tuple[bytes, ...], index: Any):
        self.state = (blobs, index)
        """What rebuilds this index, ``EntryIndex(*state)`` (the prompt hook's plan keeps it)."""
        self._blobs = blobs
        self._buckets: tuple[bytes, ...] = index["buckets"]
        self._decoded: dict[int, dict[str, bytes]] = {}
        self._starts: list[int] = list(index["starts"])
        self._rows: dict[int, list[tuple[Any, ...]]] = {}

    def __len__(self) -> int:
        return self._starts[-1] if self._starts else 0

    def postings(self, word: str) -> set[int]:
        """The entries holding ``word``."""
        return set(indices(self.bits(word)))

    def bits(self, word: str) -> int:
        """The entries holding ``word`` as a bit set: bit ``i`` for entry ``i``."""
        n = bucket_of(word, BUCKETS)
        words = self._decoded.get(n)
        if words is None:
            words = self._decoded[n] = marshal.loads(self._buckets[n])
        packed = words.get(word)
        if not packed:
            return 0
        if packed[0] == _BITMAP:
            return int.from_bytes(packed[1:], "little")
        bitmap = bytearray((self._starts[-1] + 8) >> 3)
        for i in memoryview(packed)[1:].cast("I"):
            bitmap[i >> 3] |= 1 << (i & 7)
        return int.from_bytes(bitmap, "little")

    def __getitem__(self, i: int) -> Cached:
        from bisect import bisect_right

        n = bisect_right(self._starts, i) - 1
        rows = self._rows.get(n)
        if rows is None:
            rows = self._rows[n] = marshal.loads(self._blobs[n])
        row = rows[i - self._starts[n]]
        return Entry(*row[:6]), frozenset(row[6])

    def __iter__(self) -> Iterator[Cached]:
        return (self[i] for i in range(len(self)))


def postings_of(blobs: Sequence[bytes]) -> dict[str, Any]:
    """Every word's entries (packed, ascending), by bucket, and where each file's entries start."""
    from array import array

    words: dict[str, list[int]] = {}
    starts = [0]
    n = 0
    for blob in blobs:
        for row in marshal.loads(blob):
            for word in row[6]:  # a sorted tuple: decodes faster than a set, and is one (a cached row's words)
                found = words.get(word)
                if found is None:
                    words[word] = [n]
                else:
                    found.append(n)
            n += 1
        starts.append(n)
    buckets: list[dict[str, bytes]] = [{} for _ in range(BUCKETS)]
    size = (n + 8) >> 3
    for word, found in words.items():
        if 4 * len(found) > size:
            bitmap = bytearray(size)
            for i in found:
                bitmap[i >> 3] |= 1 << (i & 7)
            buckets[bucket_of(word, BUCKETS)][word] = b"b" + bytes(bitmap)
        else:
            buckets[bucket_of(word, BUCKETS)][word] = b"a" + array("I", found).tobytes()
    return {"buckets": tuple(marshal.dumps(b) for b in buckets), "starts": tuple(starts)}
