"""``BM25Index``: an in-memory inverted index ranked exactly like SQLite FTS5's bm25().

The index core is native (Cython) when built, pure Python otherwise; both give the same
documents, order and scores (see ``_bm25_py`` for the formula).  Scores are FTS5's
``bm25()`` negated, so higher is better.
"""

from __future__ import annotations

import math
import os
from collections.abc import Hashable, Iterable, Sequence

from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple
from mimomem.text._accel import BM25Core
from mimomem.text.query import Query, as_query
from mimomem.text.tokens import Token

if TYPE_CHECKING:
    from typing import Any


class Hit(NamedTuple):
    """What ``BM25Index.search`` returns: your document id and its score (higher is better).

    The SQLite-backed indexes return richer hits (``Found``, ``DocumentHit``; see
    ``mimomem.search.hits``); the ``native-index`` backend turns these into its rows.
    """

    doc_id: Hashable
    score: float


class BM25Index:
    """Add, replace and remove documents; search them with OR / phrase queries.

    Designed for 100,000 documents in memory: integer term ids, flat typed arrays and a
    query loop in C in the native build.
    """

    def __init__(self) -> None:
        self._core = BM25Core()

    def add(self, doc_id: Hashable, tokens: Iterable[Token | str]) -> None:
        """Index ``tokens`` (``mimomem.tokenize`` output or strings); replaces ``doc_id``."""
        self._core.add(doc_id, [t.text if isinstance(t, Token) else t for t in tokens])

    def add_joined(self, doc_id: Hashable, joined: str) -> None:
        """Index tokens stored space-joined (as in the FTS5 shadow column), no re-tokenizing."""
        self._core.add_joined(doc_id, joined)

    def add_text(self, doc_id: Hashable, text: str) -> None:
        """Tokenize ``text`` (bigram mode) and index it; the fast path for bulk loads."""
        self._core.add_text(doc_id, text)

    def remove(self, doc_id: Hashable) -> bool:
        """Remove ``doc_id``; returns False when it was not indexed."""
        return self._core.remove(doc_id)

    def search(
        self,
        query: str | Query | Sequence[str | Sequence[str]],
        k: int = 10,
        *,
        weights: Sequence[float] | None = None,
    ) -> list[Hit]:
        """The ``k`` best documents for ``query``, best first (ties: insertion order).

        ``weights``, one per term of the parsed query, scale each term's share of the score
        (a weighted expansion pass in one ranking); default 1.0 each, i.e. FTS5's bm25().
        """
        if k < 0:
            raise ValueError(f"k must be >= 0, got {k}")
        parsed = as_query(query)
        phrases = parsed.phrases()
        if weights is None:
            return [Hit(d, s) for d, s in self._core.search(phrases, k)]
        if len(weights) != len(phrases) or not all(w >= 0 and math.isfinite(w) for w in weights):
            raise ValueError(f"weights: one finite weight >= 0 per query term ({len(phrases)}), got {list(weights)!r}")
        return [Hit(d, s) for d, s in self._core.search(phrases, k, [float(w) for w in weights])]

    def __len__(self) -> int:
        return len(self._core)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._core

    def doc_ids(self) -> list[Hashable]:
        """Indexed ids in insertion order."""
        return self._core.doc_ids()

    def doc_freq(self, token: str) -> int:
        """Number of documents containing ``token``."""
        return self._core.doc_freq(token)

    def total_tokens(self) -> int:
        """Token count over all documents (FTS5's average-length statistic uses it)."""
        return self._core.total_tokens()

    def term_count(self) -> int:
        """Distinct tokens in the index."""
        return self._core.term_count()

    def memory_bytes(self) -> int:
        """Bytes held by the index structures (exact for native, estimated for pure)."""
        return self._core.memory_bytes()

    def parts(self) -> tuple[bool, dict[str, int], bytes, list[int], list[Hashable]]:
        """The index as plain data, ``(native, scalars, buffer, offsets, doc_ids)``, for :meth:`from_parts`
        (the prompt hook's plan keeps the curated recall index this way; a file: :meth:`save`)."""
        from mimomem.text._accel import NATIVE

        scalars, sections, doc_ids = self._core._export()
        buffer, offsets = bytearray(), []
        for section in sections:
            offsets.append(len(buffer))
            buffer += bytes(section) + b"\0" * (-len(section) % 8)  # each section 8-byte aligned
        return NATIVE, dict(scalars), bytes(buffer), offsets, list(doc_ids)

    @classmethod
    def from_parts(cls, parts: tuple[bool, dict[str, int], bytes | memoryview, list[int], list[Hashable]]) -> BM25Index:
        """The index :meth:`parts` gave (``ValueError`` when it came from the other engine or is damaged)."""
        from mimomem.text._accel import NATIVE

        native, scalars, buffer, offsets, doc_ids = parts
        if native != NATIVE:
            raise ValueError("index parts from the other engine (native / pure)")
        index = cls()
        writable = isinstance(buffer, memoryview) and not buffer.readonly  # a mapped plan's: no copy
        index._core._import(scalars, buffer if writable else bytearray(buffer), offsets, list(doc_ids))
        return index

    def save(self, path: str | os.PathLike[str], *, stamp: Any = None) -> int:
        """Write the index to ``path`` (atomically, ``stamp`` kept in its header); returns its size in bytes.

        ``BM25Index.load`` maps it back in milliseconds; see ``mimomem.text.bm25_file``.
        """
        from mimomem.text.bm25_file import save_index

        return save_index(self, path, stamp=stamp)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BM25Index:
        """The index saved at ``path`` (``IndexFileError`` when damaged or from the other engine)."""
        from mimomem.text.bm25_file import load_index

        loaded = load_index(path)
        assert loaded is not None  # no accept() given: never refused
        return loaded[0]
