"""Pure-Python reference of the BM25 index core (twin of ``_native.BM25Core``).

Scores are SQLite FTS5's ``bm25()`` (``ext/fts5/fts5_aux.c``, ``fts5Bm25Function``)
with the sign flipped, computed with the same operation order so the doubles are equal:

    idf(i)  = log((N - nHit(i) + 0.5) / (nHit(i) + 0.5)), or 1e-6 when that is <= 0
    score   = sum over phrases i, in query order, of
              idf(i) * (f(i) * (k1 + 1)) / (f(i) + k1 * (1 - b + b * D / avgdl))

with k1 = 1.2, b = 0.75, N = live documents, avgdl = total tokens / N, D = the
document's token count, f(i) = instances of phrase i in the document (overlapping
instances count), nHit(i) = documents containing phrase i at least once.
"""

from __future__ import annotations

import marshal
import math
import sys
from collections.abc import Hashable, Sequence
from typing import Any

from mimomem.text._tokenizer_py import tokenize_bigram

K1 = 1.2
B = 0.75


def fts5_idf(n_docs: int, n_hit: int) -> float:
    """FTS5's idf, clamped to 1e-6 for phrases in half the documents or more."""
    idf = math.log((n_docs - n_hit + 0.5) / (n_hit + 0.5))
    return 1e-6 if idf <= 0.0 else idf


def fts5_term_score(idf: float, f: float, doc_len: float, avgdl: float) -> float:
    """One phrase's contribution, in fts5_aux.c's exact operation order."""
    return idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * doc_len / avgdl)))


class BM25Core:
    """In-memory inverted index with FTS5-exact BM25 (reference implementation).

    Documents live in *slots* numbered in insertion order; replacing a document gives
    it a new slot.  Ties in score are broken by slot, i.e. insertion order.
    """

    def __init__(self) -> None:
        self._slot_of: dict[Hashable, int] = {}
        self._doc_ids: list[Hashable] = []  # slot -> doc id
        self._seqs: list[list[str] | None] = []  # slot -> tokens, None once removed
        self._postings: dict[str, dict[int, int]] = {}  # token -> {slot: tf}
        self._total_tokens = 0

    # -- writing -----------------------------------------------------------------
    def add(self, doc_id: Hashable, tokens: Sequence[str]) -> None:
        """Index ``tokens`` (plain strings) as ``doc_id``, replacing any earlier version."""
        seq = [str(t) for t in tokens]
        self.remove(doc_id)
        slot = len(self._doc_ids)
        self._slot_of[doc_id] = slot
        self._doc_ids.append(doc_id)
        self._seqs.append(seq)
        self._total_tokens += len(seq)
        for tok in seq:
            posting = self._postings.setdefault(tok, {})
            posting[slot] = posting.get(slot, 0) + 1

    def add_joined(self, doc_id: Hashable, joined: str) -> None:
        """Index space-joined tokens (the FTS5 shadow column form) as ``doc_id``."""
        self.add(doc_id, joined.split(" ") if joined else [])

    def add_text(self, doc_id: Hashable, text: str) -> None:
        """Tokenize ``text`` with the bigram tokenizer and index it as ``doc_id``."""
        self.add(doc_id, [t.text for t in tokenize_bigram(text)])

    def remove(self, doc_id: Hashable) -> bool:
        """Forget ``doc_id``; returns whether it was indexed."""
        slot = self._slot_of.pop(doc_id, None)
        if slot is None:
            return False
        seq = self._seqs[slot]
        assert seq is not None
        self._seqs[slot] = None
        self._total_tokens -= len(seq)
        for tok in set(seq):
            posting = self._postings[tok]
            del posting[slot]
            if not posting:
                del self._postings[tok]
        return True

    # -- reading -----------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot_of

    def doc_ids(self) -> list[Hashable]:
        """Indexed document ids in slot (insertion) order."""
        return [d for d, s in zip(self._doc_ids, self._seqs, strict=True) if s is not None]

    def total_tokens(self) -> int:
        """Token count over all live documents (FTS5's column total)."""
        return self._total_tokens

    def term_count(self) -> int:
        """Distinct tokens in live documents."""
        return len(self._postings)

    def doc_freq(self, token: str) -> int:
        """Live documents containing ``token``."""
        return len(self._postings.get(token, ()))

    def memory_bytes(self) -> int:
        """Approximate bytes held by the index structures (sys.getsizeof walk)."""
        size = sys.getsizeof(self._postings) + sys.getsizeof(self._seqs)
        for tok, posting in self._postings.items():
            size += sys.getsizeof(tok) + sys.getsizeof(posting) + 28 * len(posting)
        for seq in self._seqs:
            if seq is not None:
                size += sys.getsizeof(seq)
        return size

    # -- persistence (mimomem.text.bm25_file) ---------------------------------------
    def _export(self) -> tuple[dict[str, int], list[bytes], list[Hashable]]:
        """``(scalars, sections, doc_ids)``: live documents only, slots renumbered in order."""
        live = [slot for slot, seq in enumerate(self._seqs) if seq is not None]
        new = {old: i for i, old in enumerate(live)}
        postings = {tok: {new[s]: f for s, f in posting.items()} for tok, posting in self._postings.items()}
        blob = marshal.dumps(([self._seqs[s] for s in live], postings, self._total_tokens))
        return {"blob": len(blob)}, [blob], [self._doc_ids[s] for s in live]

    def _import(self, scalars: dict[str, int], buffer: Any, offsets: Sequence[int], doc_ids: list[Hashable]) -> None:
        """Adopt a saved index (``ValueError`` when it is inconsistent; nothing adopted then)."""
        if self._doc_ids:
            raise ValueError("only an empty BM25Core can import a saved index")
        if len(offsets) != 1:
            raise ValueError("saved index: wrong number of sections")
        start, size = offsets[0], scalars["blob"]
        if start < 0 or start + size > len(buffer):
            raise ValueError("saved index: a section lies outside the file")
        try:
            seqs, postings, total = marshal.loads(bytes(buffer[start : start + size]))
        except (EOFError, TypeError) as exc:
            raise ValueError(f"saved index: unreadable contents ({exc})") from None
        if not (isinstance(seqs, list) and isinstance(postings, dict) and len(seqs) == len(doc_ids)):
            raise ValueError("saved index: inconsistent contents")
        if total != sum(len(seq) for seq in seqs):
            raise ValueError("saved index: token count does not match the documents")
        slot_of = {d: i for i, d in enumerate(doc_ids)}
        if len(slot_of) != len(doc_ids):
            raise ValueError("saved index: duplicate document ids")
        self._slot_of, self._doc_ids, self._seqs = slot_of, list(doc_ids), seqs
        self._postings, self._total_tokens = postings, total

    def _phrase_freqs(self, phrase: Sequence[str]) -> dict[int, int]:
        """slot -> instances of ``phrase`` (overlapping ones count), live slots only."""
        if not phrase:
            return {}
        postings = [self._postings.get(tok) for tok in phrase]
        if any(p is None for p in postings):
            return {}
        if len(phrase) == 1:
            return dict(postings[0])  # type: ignore[arg-type]
        rarest = min(postings, key=len)  # type: ignore[arg-type]
        n = len(phrase)
        freqs: dict[int, int] = {}
        for slot in rarest:  # type: ignore[union-attr]
            if not all(slot in p for p in postings):  # type: ignore[operator]
                continue
            seq = self._seqs[slot]
            assert seq is not None
            f = sum(1 for j in range(len(seq) - n + 1) if seq[j : j + n] == list(phrase))
            if f:
                freqs[slot] = f
        return freqs

    def search(
        self, phrases: Sequence[Sequence[str]], k: int, weights: Sequence[float] | None = None
    ) -> list[tuple[Hashable, float]]:
        """Top ``k`` (doc id, score) for the OR of ``phrases``, best first.

        ``weights`` (one per phrase, default 1.0 each) multiply each phrase's bm25 term.
        """
        n_docs = len(self._slot_of)
        if n_docs == 0 or k <= 0:
            return []
        if weights is not None and len(weights) != len(phrases):
            raise ValueError(f"weights: one per phrase expected, got {len(weights)} for {len(phrases)} phrases")
        avgdl = self._total_tokens / n_docs
        acc: dict[int, float] = {}
        for p, phrase in enumerate(phrases):
            freqs = self._phrase_freqs(phrase)
            if not freqs:
                continue
            idf = fts5_idf(n_docs, len(freqs))
            w = 1.0 if weights is None else float(weights[p])
            for slot, f in freqs.items():
                seq = self._seqs[slot]
                assert seq is not None
                term = fts5_term_score(idf, float(f), float(len(seq)), avgdl)
                acc[slot] = acc.get(slot, 0.0) + (term if weights is None else w * term)
        best = sorted(acc.items(), key=lambda item: (-item[1], item[0]))[:k]
        return [(self._doc_ids[slot], score) for slot, score in best]
