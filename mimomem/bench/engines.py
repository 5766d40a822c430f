"""The benchmark's backends: one small adapter per retrieval path, all with one interface.

Every engine takes ``(doc_id, text)`` pairs, answers a query string with ranked
``(doc_id, score)`` pairs (higher is better, at most ``k``) and says what it holds on disk
and in memory.  ``query_tokens`` is what the engine actually looks up for a query; the
regression gate stores it so a tokenizer change can be traced to the queries it moved.

Three backends are mimomem's own (``fts5-unicode61``, ``fts5-bigram``, ``native-index``), served by
``mimomem.search.document_index.DocumentIndex``.  The others exist only to be compared with:

* ``fts5-trigram`` - stdlib FTS5 ``trigram`` over the raw text, queried like MiMo-Code
  (runs of letters, digits and ``_``, each double-quoted, OR-joined);
* ``fts5-jieba`` - FTS5 over jieba search-mode words, space-joined; query words the same;
* ``naive-bigram`` - the quick fix: every query bigram its own OR-ed term, no phrases, no
  segmentation (``parse_query(segment=False, phrases=False)``), no retrieval options, on
  the bigram index;
* ``bm25s`` / ``tantivy`` - peer engines fed the very tokens of mimomem's bigram tokenizer
  (query: the OR of the query's distinct tokens).

Every engine implements :class:`Engine`, the benchmark's protocol.  It is related to, not
the same as, ``mimomem.search.backends.Backend``: a search ``Backend`` ranks an already
parsed ``Query`` over rows the search cache owns, with scope / type filters and
snippets; a benchmark ``Engine`` owns its corpus (``build``), takes the raw query text,
returns bare ``(doc_id, score)`` pairs, says which tokens it looked up and how much disk
and memory it holds.  ``DocumentIndexEngine`` adapts each search ``Backend`` to ``Engine``.
"""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import regex

from mimomem.errors import BackendUnavailableError, UnknownBackendError

BENCH_BACKENDS = (
    "fts5-unicode61",
    "fts5-trigram",
    "fts5-bigram",
    "native-index",
    "fts5-jieba",
    "naive-bigram",
    "bm25s",
    "tantivy",
)
"""Every backend the bench can run, the library's own and its peers', in table order
(the library's search takes only ``mimomem.search.params.SEARCH_BACKENDS``)."""

OWN_BACKENDS = ("fts5-unicode61", "fts5-bigram", "native-index")
"""Backends served by ``mimomem.search.document_index.DocumentIndex``."""

Docs = Sequence[tuple[str, str]]
Ranked = list[tuple[str, float]]


class Engine(Protocol):
    """One backend under test, as the runner drives it: build once, then query."""

    @property
    def name(self) -> str:
        """The backend name, one of ``BENCH_BACKENDS``."""
        ...

    def build(self, docs: Docs) -> None:
        """Index every ``(doc_id, text)`` pair; called once per engine."""
        ...

    def search(self, query: str, k: int) -> Ranked:
        """The ``k`` best ``(doc_id, score)`` pairs, best first; only matching documents."""
        ...

    def query_tokens(self, query: str) -> list[str]:
        """The terms the engine looks up for ``query`` (phrases as space-joined tokens)."""
        ...

    def size_bytes(self) -> int | None:
        """Bytes of the index on disk, or None when it lives only in memory."""
        ...

    def memory_bytes(self) -> int | None:
        """Bytes of index structures held in this process, or None when on disk only."""
        ...

    def close(self) -> None:
        """Release files and connections."""
        ...


PLAIN = "plain ranking: no query-kind policy, no feedback"
POLICY = (
    "mimomem's default retrieval policy (RM3 feedback for keyword query kinds; its kinds and "
    "parameters were chosen on these shipped corpora, see benchmarks/README.md for the blind figure)"
)


class BaseEngine:
    """Shared defaults for the engines: a scratch ``workdir``, no sizes, nothing to close.

    Subclasses fill in ``build``, ``search`` and ``query_tokens``.
    """

    name = ""
    policy = PLAIN
    """How the engine handles a query beyond its ranking function (``mimomem bench`` reports it)."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir

    def build(self, docs: Docs) -> None:
        """Index every ``(doc_id, text)`` pair; called once per engine."""
        raise NotImplementedError

    def search(self, query: str, k: int) -> Ranked:
        """The ``k`` best ``(doc_id, score)`` pairs, best first; only matching documents."""
        raise NotImplementedError

    def query_tokens(self, query: str) -> list[str]:
        """The terms the engine looks up for ``query`` (phrases as space-joined tokens)."""
        raise NotImplementedError

    def size_bytes(self) -> int | None:
        """Bytes of the index on disk, or None when it lives only in memory."""
        return None

    def memory_bytes(self) -> int | None:
        """Bytes of index structures held in this process, or None when on disk only."""
        return None

    def close(self) -> None:
        """Release files and connections."""


# --- helpers ---------------------------------------------------------------------------

_MIMO_WORD = regex.compile(r"[\p{L}\p{N}_]+")


def mimo_query_words(text: str) -> list[str]:
    """MiMo-Code's query words: maximal runs of letters, numbers and ``_``."""
    return _MIMO_WORD.findall(text)


def _quote_or(words: Sequence[str]) -> str | None:
    if not words:
        return None
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def _bigram_tokens(text: str) -> list[str]:
    from mimomem.text.tokens import tokenize

    return [t.text for t in tokenize(text)]


def _distinct(tokens: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(tokens))


def _dir_size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


class _Fts5Engine(BaseEngine):
    """A stdlib-sqlite3 FTS5 table on disk; subclasses say how text and queries look."""

    tokenize_clause = "unicode61"

    def _doc_text(self, text: str) -> str:
        return text

    def _match(self, query: str) -> str | None:
        raise NotImplementedError

    def build(self, docs: Docs) -> None:
        self.path = self.workdir / f"{self.name}.db"
        self.ids = [d for d, _ in docs]
        self.con = sqlite3.connect(self.path)
        self.con.execute(f"CREATE VIRTUAL TABLE docs USING fts5(body, tokenize={self.tokenize_clause!r})")
        with self.con:
            self.con.executemany(
                "INSERT INTO docs(rowid, body) VALUES (?, ?)",
                ((i, self._doc_text(text)) for i, (_, text) in enumerate(docs)),
            )

    def search(self, query: str, k: int) -> Ranked:
        match = self._match(query)
        if match is None:
            return []
        rows = self.con.execute(
            "SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid LIMIT ?",
            (match, k),
        ).fetchall()
        return [(self.ids[rowid], -score) for rowid, score in rows]

    def size_bytes(self) -> int | None:
        """The FTS5 index tables without FTS5's copy of the text (as for mimomem's backends)."""
        names = ("docs_data", "docs_idx", "docs_docsize", "docs_config")
        try:
            row = self.con.execute(
                f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({','.join('?' * len(names))})", names
            ).fetchone()
            return int(row[0] or 0)
        except sqlite3.OperationalError:  # SQLite built without dbstat: the whole file
            pages = self.con.execute("PRAGMA page_count").fetchone()[0]
            return int(pages * self.con.execute("PRAGMA page_size").fetchone()[0])

    def close(self) -> None:
        if hasattr(self, "con"):
            self.con.close()


class TrigramEngine(_Fts5Engine):
    """FTS5 ``trigram`` over raw text, queried with MiMo-Code's quoted OR of words."""

    name = "fts5-trigram"
    tokenize_clause = "trigram"

    def _match(self, query: str) -> str | None:
        return _quote_or(mimo_query_words(query))

    def query_tokens(self, query: str) -> list[str]:
        return mimo_query_words(query)


class JiebaEngine(_Fts5Engine):
    """FTS5 over jieba search-mode words (space-joined); query = OR of the query's words."""

    name = "fts5-jieba"
    tokenize_clause = "unicode61 remove_diacritics 0 tokenchars '_'"

    def _doc_text(self, text: str) -> str:
        return " ".join(self._words(text))

    @staticmethod
    def _words(text: str) -> list[str]:
        from mimomem.text.tokens import tokenize

        return [t.text for t in tokenize(text, mode="jieba")]

    def _match(self, query: str) -> str | None:
        return _quote_or(self.query_tokens(query))

    def query_tokens(self, query: str) -> list[str]:
        return _distinct(self._words(query))


class NaiveBigramFts5Engine(_Fts5Engine):
    """The naive baseline on a bigram FTS5 table of our own (used until DocumentIndex exists)."""

    name = "naive-bigram"
    tokenize_clause = "unicode61 remove_diacritics 0 tokenchars '_'"

    def _doc_text(self, text: str) -> str:
        return " ".join(_bigram_tokens(text))

    def _match(self, query: str) -> str | None:
        from mimomem.text.query import parse_query

        return parse_query(query, segment=False, phrases=False).to_fts5()

    def query_tokens(self, query: str) -> list[str]:
        from mimomem.text.query import parse_query

        return [" ".join(p) for p in parse_query(query, segment=False, phrases=False).phrases()]


class DocumentIndexEngine(BaseEngine):
    """One of mimomem's own search ``Backend``s, through ``DocumentIndex``."""

    def __init__(self, workdir: Path, backend: str, *, naive: bool = False) -> None:
        super().__init__(workdir)
        self.backend = backend
        self.naive = naive
        self.name = "naive-bigram" if naive else backend
        if naive:
            self.policy = "plain ranking of every query bigram OR-ed: no phrases, no policy, no feedback"
        elif backend != "fts5-unicode61":  # the policy never changes the unicode61 baseline
            self.policy = POLICY

    def build(self, docs: Docs) -> None:
        from mimomem.search.document_index import DocumentIndex

        self.index = DocumentIndex(self.workdir / f"{self.name}.db")
        self.index.add_documents(list(docs))
        self.index.backend(self.backend).load()  # native-index: load now, not on the first query

    def _options(self) -> dict[str, Any]:
        return {"segment": False, "phrases": False} if self.naive else {}

    def search(self, query: str, k: int) -> Ranked:
        retrieval = "off" if self.naive else None  # naive: no options; else the product's default policy
        hits = self.index.search(query, backend=self.backend, limit=k, retrieval=retrieval, **self._options())
        return [(h.doc_id, h.score) for h in hits]

    def query_tokens(self, query: str) -> list[str]:
        if self.backend == "fts5-unicode61":
            return mimo_query_words(query)
        return [" ".join(p) for p in self.index.parse(query, self.backend, **self._options()).phrases()]

    def size_bytes(self) -> int | None:
        if self.backend == "native-index":
            return None
        return int(self.index.size_bytes(self.backend))

    def memory_bytes(self) -> int | None:
        if self.backend != "native-index":
            return None
        return int(self.index.size_bytes(self.backend))

    def close(self) -> None:
        if hasattr(self, "index") and hasattr(self.index, "close"):
            self.index.close()


class Bm25sEngine(BaseEngine):
    """bm25s (Lucene BM25, k1=1.5, b=0.75) over mimomem's bigram tokens."""

    name = "bm25s"

    def build(self, docs: Docs) -> None:
        import bm25s

        self.ids = [d for d, _ in docs]
        self.retriever = bm25s.BM25()
        self.retriever.index([_bigram_tokens(text) for _, text in docs], show_progress=False)

    def query_tokens(self, query: str) -> list[str]:
        return _distinct(_bigram_tokens(query))

    def search(self, query: str, k: int) -> Ranked:
        import numpy as np

        tokens = self.query_tokens(query)
        if not tokens or not self.ids:
            return []
        scores = self.retriever.get_scores(tokens)
        top = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        ranked = sorted((i for i in top.tolist() if scores[i] > 0), key=lambda i: (-scores[i], i))
        return [(self.ids[i], float(scores[i])) for i in ranked]

    def memory_bytes(self) -> int | None:
        arrays = sum(v.nbytes for v in self.retriever.scores.values() if hasattr(v, "nbytes"))
        vocab = self.retriever.vocab_dict
        return int(arrays + sys.getsizeof(vocab) + sum(sys.getsizeof(t) for t in vocab))


class TantivyEngine(BaseEngine):
    """tantivy-py: whitespace tokenizer over space-joined bigram tokens, OR of TermQuerys."""

    name = "tantivy"

    def build(self, docs: Docs) -> None:
        import tantivy

        self.tantivy = tantivy
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("id", stored=True, tokenizer_name="raw")
        builder.add_text_field("body", tokenizer_name="whitespace")
        self.schema = builder.build()
        self.path = self.workdir / "tantivy"
        self.path.mkdir()
        self.index = tantivy.Index(self.schema, path=str(self.path))
        writer = self.index.writer(heap_size=128_000_000, num_threads=1)
        for doc_id, text in docs:
            writer.add_document(tantivy.Document(id=doc_id, body=" ".join(_bigram_tokens(text))))
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()

    def query_tokens(self, query: str) -> list[str]:
        return _distinct(_bigram_tokens(query))

    def search(self, query: str, k: int) -> Ranked:
        tokens = self.query_tokens(query)
        if not tokens:
            return []
        t = self.tantivy
        q = t.Query.boolean_query([(t.Occur.Should, t.Query.term_query(self.schema, "body", tok)) for tok in tokens])
        result = self.searcher.search(q, limit=k, count=False)
        return [(self.searcher.doc(addr)["id"][0], float(score)) for score, addr in result.hits]

    def size_bytes(self) -> int | None:
        return _dir_size(self.path)


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _document_index_missing() -> str | None:
    try:
        from mimomem.search.document_index import DocumentIndex  # noqa: F401
    except ImportError as exc:
        return f"mimomem.search.document_index.DocumentIndex is not importable ({exc})"
    return None


def unavailable_reason(name: str) -> str | None:
    """Why backend ``name`` cannot run here, or None when it can."""
    name = check_name(name)
    if name in OWN_BACKENDS:
        return _document_index_missing()
    if name in ("bm25s", "tantivy") and not _has(name):
        return f"the {name} package is not installed (pip install 'mimomem[bench]')"
    if name == "fts5-jieba" and not _has("jieba"):
        return "the jieba package is not installed"
    return None


def check_name(name: str) -> str:
    """``name`` if it is a backend; else ``UnknownBackendError`` listing the valid names."""
    if name not in BENCH_BACKENDS:
        raise UnknownBackendError(f"unknown backend {name!r}; valid backends: {', '.join(BENCH_BACKENDS)}")
    return name


def available_backends() -> list[str]:
    """Backends that can run here, in table order."""
    return [b for b in BENCH_BACKENDS if unavailable_reason(b) is None]


def make_engine(name: str, workdir: Path) -> Engine:
    """A fresh, unbuilt engine for backend ``name`` keeping its files under ``workdir``."""
    name = check_name(name)
    reason = unavailable_reason(name)
    if reason is not None:
        raise BackendUnavailableError(f"backend {name} cannot run: {reason}")
    workdir.mkdir(parents=True, exist_ok=True)
    if name in OWN_BACKENDS:
        return DocumentIndexEngine(workdir, name)
    if name == "naive-bigram":
        if _document_index_missing() is None:
            return DocumentIndexEngine(workdir, "fts5-bigram", naive=True)
        return NaiveBigramFts5Engine(workdir)
    engines: dict[str, type[BaseEngine]] = {
        "fts5-trigram": TrigramEngine,
        "fts5-jieba": JiebaEngine,
        "bm25s": Bm25sEngine,
        "tantivy": TantivyEngine,
    }
    return engines[name](workdir)


def remove_workdir(path: Path) -> None:
    """Delete an engine's scratch directory (best effort: the OS temp dir cleans the rest)."""
    shutil.rmtree(path, ignore_errors=True)
