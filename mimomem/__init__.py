"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().

The public API is the short list ``PUBLIC`` below, one line a name (docs/python-api.md says what
each is for): the engine, the stores, the memory floor the CLI, the MCP server and the hooks call,
and the error kinds.  Every error class is ``mimomem.errors.X``.  A name is imported on first use
(PEP 562), so ``import mimomem`` is cheap: a Claude Code hook runs on every prompt and must not pay
for the whole library.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see mimomem.common.light_typing)

if TYPE_CHECKING:
    from typing import Any

    from mimomem import errors as errors
    from mimomem.context.assemble import prompt_context as prompt_context
    from mimomem.context.assemble import session_context as session_context
    from mimomem.curated.store import CuratedMemory as CuratedMemory
    from mimomem.errors import InputError as InputError
    from mimomem.errors import MimomemError as MimomemError
    from mimomem.errors import RefusedError as RefusedError
    from mimomem.errors import StoreError as StoreError
    from mimomem.errors import UnavailableError as UnavailableError
    from mimomem.history.history_store import HistoryStore as HistoryStore
    from mimomem.memory.search import search as search_memory
    from mimomem.memory.writes import forget as forget
    from mimomem.memory.writes import note as note
    from mimomem.memory.writes import remember as remember
    from mimomem.memory.writes import write as write
    from mimomem.search.memory_index import MemoryIndex as MemoryIndex
    from mimomem.search.params import Filters as Filters
    from mimomem.text.bm25 import BM25Index as BM25Index
    from mimomem.text.tokens import Token as Token
    from mimomem.text.tokens import tokenize as tokenize
    from mimomem.tree.memory_tree import MemoryTree as MemoryTree
    from mimomem.tree.where import Where as Where
    from mimomem.tree.where import locate as locate
    from mimomem.tree.writer import Writer as Writer

__version__ = "0.1.0"

PUBLIC: dict[str, tuple[str, str]] = {
    # the engine: tokens and BM25, pure computation over strings
    "Token": ("mimomem.text.tokens", "Token"),
    "tokenize": ("mimomem.text.tokens", "tokenize"),
    "BM25Index": ("mimomem.text.bm25", "BM25Index"),
    # the stores: the memory tree (the truth), its search cache, the curated store, the transcript history
    "MemoryTree": ("mimomem.tree.memory_tree", "MemoryTree"),
    "MemoryIndex": ("mimomem.search.memory_index", "MemoryIndex"),
    "CuratedMemory": ("mimomem.curated.store", "CuratedMemory"),
    "HistoryStore": ("mimomem.history.history_store", "HistoryStore"),
    # the memory floor: who asks and who writes, the one search, the writes, the context for a model
    "locate": ("mimomem.tree.where", "locate"),
    "Where": ("mimomem.tree.where", "Where"),
    "Writer": ("mimomem.tree.writer", "Writer"),
    "search_memory": ("mimomem.memory.search", "search"),
    "Filters": ("mimomem.search.params", "Filters"),
    "note": ("mimomem.memory.writes", "note"),
    "write": ("mimomem.memory.writes", "write"),
    "remember": ("mimomem.memory.writes", "remember"),
    "forget": ("mimomem.memory.writes", "forget"),
    "session_context": ("mimomem.context.assemble", "session_context"),
    "prompt_context": ("mimomem.context.assemble", "prompt_context"),
    # the errors: the root and its four kinds; every specific class is mimomem.errors.X
    "errors": ("mimomem.errors", ""),
    "MimomemError": ("mimomem.errors", "MimomemError"),
    "InputError": ("mimomem.errors", "InputError"),
    "RefusedError": ("mimomem.errors", "RefusedError"),
    "StoreError": ("mimomem.errors", "StoreError"),
    "UnavailableError": ("mimomem.errors", "UnavailableError"),
}
"""Public name -> (the module that defines it, its name there; "" for the module itself)."""

MOVED: dict[str, str] = {
    "DocumentIndex": "mimomem.search.document_index",
    "Hit": "mimomem.text.bm25",
    "Query": "mimomem.text.query",
    "parse_query": "mimomem.text.query",
    "tokenize_many": "mimomem.text.tokens",
    "Found": "mimomem.memory.search",
    "Results": "mimomem.memory.search",
    "Context": "mimomem.context.assemble",
    "estimate_tokens": "mimomem.served.estimate",
    "Memory": "mimomem.curated.memory",
    "Recalled": "mimomem.curated.memory",
    "scan_secrets": "mimomem.common.secrets",
    "search_everything": "mimomem.memory.search",
}
"""Names that were public in 0.1 and are not now -> where to import them from (the ones asked for most);
``mimomem.X`` for an error class names ``mimomem.errors.X``."""


def __getattr__(name: str) -> Any:
    """Import a public name on first use; name the place of one that moved."""
    found = PUBLIC.get(name)
    if found is None:
        raise AttributeError(_not_public(name))
    from importlib import import_module  # on first use: a hook process never imports importlib's package

    module = import_module(found[0])
    value = getattr(module, found[1]) if found[1] else module
    globals()[name] = value
    return value


def _not_public(name: str) -> str:
    where = MOVED.get(name)
    if where is None and name[:1].isupper() and name.endswith("Error"):
        from mimomem import errors

        where = "mimomem.errors" if hasattr(errors, name) else None
    if where is None:
        return f"module 'mimomem' has no attribute {name!r}"
    use = "search" if name == "search_everything" else name
    return f"mimomem.{name} is not a top-level name: from {where} import {use} (the public names: mimomem.__all__)"


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(PUBLIC))


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    from mimomem.text._accel import NATIVE

    return NATIVE


__all__ = [
    "BM25Index",
    "CuratedMemory",
    "Filters",
    "HistoryStore",
    "InputError",
    "MemoryIndex",
    "MemoryTree",
    "MimomemError",
    "RefusedError",
    "StoreError",
    "Token",
    "UnavailableError",
    "Where",
    "Writer",
    "__version__",
    "errors",
    "forget",
    "locate",
    "native_available",
    "note",
    "prompt_context",
    "remember",
    "search_memory",
    "session_context",
    "tokenize",
    "write",
]
"""Every public name, sorted: ``PUBLIC``'s, ``__version__`` and ``native_available``; a star import and a type
checker read this literal list (``tests/test_public_api.py`` checks that it, ``PUBLIC`` and the ``TYPE_CHECKING``
imports agree)."""
