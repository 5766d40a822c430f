"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().

The public names below are imported on first use (PEP 562), so ``import mimomem`` is
cheap: a Claude Code hook runs on every prompt and must not pay for the whole library.
The names come in four tiers: ``ENGINE`` (the text engine), ``STORES`` (tree, search cache,
curated store, history), ``MEMORY_FLOOR`` (who asks and who writes, the fused search, context for a model)
and ``ERRORS`` (from ``mimomem.errors``, imported on first use too).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see mimomem.common.light_typing)

if TYPE_CHECKING:
    from typing import Any

    from mimomem.common.secrets import SecretFinding, ensure_no_secrets, scan_secrets
    from mimomem.context.assemble import Context, prompt_context, session_context
    from mimomem.context.estimate import estimate_tokens, truncate_to_tokens
    from mimomem.context.instructions import memory_instructions, recall_reminder
    from mimomem.curated.injection import render_injection
    from mimomem.curated.memory import BulkResult, ForgetResult, InspectReport, Memory, MemoryStatus, Problem, Recalled
    from mimomem.curated.store import CuratedMemory
    from mimomem.errors import (
        BadMemoryPathError,
        CorruptDatabaseError,
        CuratedError,
        DiskFullError,
        DuplicateMemoryError,
        ExtensionNotBuiltError,
        ForeignDatabaseError,
        GlossaryError,
        HistoryError,
        HistoryLockedError,
        HistorySourceError,
        IndexFileError,
        InputError,
        InvalidAgentNameError,
        InvalidCuratedIdError,
        InvalidFileNameError,
        InvalidFloorError,
        InvalidLimitError,
        InvalidMemoryError,
        InvalidMemoryIdError,
        InvalidRetrievalError,
        InvalidScopeError,
        InvalidTypeError,
        LoadExtensionUnsupportedError,
        LocationError,
        MemoryNotFoundError,
        MemoryRootNotFoundError,
        MimomemError,
        ModelEndpointError,
        NoProjectRootError,
        NotInWriterAllowlistError,
        NotOwnerError,
        OutsideAllowedAreaError,
        OutsideRootError,
        PassError,
        ProjectIdError,
        RefusedError,
        ReservedForRoleError,
        ReservedTaskPathError,
        SchemaTooNewError,
        SecretRefusedError,
        SqliteExtensionError,
        StaleTokenizerIndexError,
        StoreError,
        TokenizerUnavailableError,
        TranscriptReadError,
        UnavailableError,
        UnknownBackendError,
        UnknownModeError,
        UsageError,
        WriteDeniedError,
        WritingDisabledError,
    )
    from mimomem.history.history_store import HistoryStore
    from mimomem.search.backends import Backend
    from mimomem.search.document_index import DocumentIndex
    from mimomem.search.everything import search_everything
    from mimomem.search.hits import DocumentHit, Found, Results
    from mimomem.search.memory_index import IndexStats, MemoryIndex
    from mimomem.search.params import Filters
    from mimomem.search.reconcile import ReconcileReport
    from mimomem.text.bm25 import BM25Index, Hit
    from mimomem.text.query import Query, Term, parse_query
    from mimomem.text.tokens import Token, tokenize, tokenize_many
    from mimomem.tree.layout import PathClass, classify_path
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.project import ProjectIdentity, project_id
    from mimomem.tree.templates import NoteEntry
    from mimomem.tree.where import Where, locate
    from mimomem.tree.writer import Writer

__version__ = "0.1.0"

ENGINE: dict[str, str] = {
    "Token": "mimomem.text.tokens",
    "tokenize": "mimomem.text.tokens",
    "tokenize_many": "mimomem.text.tokens",
    "Query": "mimomem.text.query",
    "Term": "mimomem.text.query",
    "parse_query": "mimomem.text.query",
    "BM25Index": "mimomem.text.bm25",
    "Hit": "mimomem.text.bm25",
}
"""Tier 1, the text engine: tokens, queries and BM25, pure computation over strings."""

STORES: dict[str, str] = {
    "MemoryTree": "mimomem.tree.memory_tree",
    "PathClass": "mimomem.tree.layout",
    "classify_path": "mimomem.tree.layout",
    "ProjectIdentity": "mimomem.tree.project",
    "project_id": "mimomem.tree.project",
    "NoteEntry": "mimomem.tree.templates",
    "MemoryIndex": "mimomem.search.memory_index",
    "DocumentIndex": "mimomem.search.document_index",
    "IndexStats": "mimomem.search.memory_index",
    "ReconcileReport": "mimomem.search.reconcile",
    "Backend": "mimomem.search.backends",
    "DocumentHit": "mimomem.search.hits",
    "CuratedMemory": "mimomem.curated.store",
    "Memory": "mimomem.curated.memory",
    "Recalled": "mimomem.curated.memory",
    "MemoryStatus": "mimomem.curated.memory",
    "InspectReport": "mimomem.curated.memory",
    "Problem": "mimomem.curated.memory",
    "BulkResult": "mimomem.curated.memory",
    "ForgetResult": "mimomem.curated.memory",
    "HistoryStore": "mimomem.history.history_store",
    "SecretFinding": "mimomem.common.secrets",
    "scan_secrets": "mimomem.common.secrets",
    "ensure_no_secrets": "mimomem.common.secrets",
}
"""Tier 2, the stores: the memory tree (the truth), its search cache, the curated store, the
trajectory history, and the secret scanner every write passes."""

MEMORY_FLOOR: dict[str, str] = {
    "Where": "mimomem.tree.where",
    "locate": "mimomem.tree.where",
    "Writer": "mimomem.tree.writer",
    "Filters": "mimomem.search.params",
    "Found": "mimomem.search.hits",
    "Results": "mimomem.search.hits",
    "search_everything": "mimomem.search.everything",
    "Context": "mimomem.context.assemble",
    "session_context": "mimomem.context.assemble",
    "prompt_context": "mimomem.context.assemble",
    "memory_instructions": "mimomem.context.instructions",
    "recall_reminder": "mimomem.context.instructions",
    "render_injection": "mimomem.curated.injection",
    "estimate_tokens": "mimomem.context.estimate",
    "truncate_to_tokens": "mimomem.context.estimate",
}
"""Tier 3, the memory floor: who is asking (``Where``) and who writes (``Writer``), one search over
the tree and the curated store, and the context handed to a model within a token budget."""


REMOVED: dict[str, str] = {
    "MemoryHit": "Found",
    "SearchResults": "Results",
}
"""Removed names -> the name to use (every memory search returns ``Results`` of ``Found``);
asking for a removed name is an ``AttributeError`` that names the one to use."""


def __getattr__(name: str) -> Any:
    """Import a public name on first use."""
    module = _LAZY.get(name)
    if module is None:
        if name in REMOVED:
            raise AttributeError(
                f"mimomem.{name} was removed (one result type per level); use mimomem.{REMOVED[name]}:"
                " every memory search returns Results of Found, BM25Index.search Hit, DocumentIndex.search DocumentHit"
            )
        raise AttributeError(f"module 'mimomem' has no attribute {name!r}")
    from importlib import import_module  # on first use: a hook process never imports importlib's package

    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    from mimomem.text._accel import NATIVE

    return NATIVE


ERRORS: tuple[str, ...] = (
    "AgentSdkMissingError",
    "AgentSdkOptionsError",
    "BadMemoryPathError",
    "CorruptDatabaseError",
    "CuratedError",
    "DiskFullError",
    "DuplicateMemoryError",
    "ExtensionNotBuiltError",
    "ForeignDatabaseError",
    "GlossaryError",
    "HistoryError",
    "HistoryLockedError",
    "HistorySourceError",
    "IndexFileError",
    "InputError",
    "InvalidAgentNameError",
    "InvalidCuratedIdError",
    "InvalidFileNameError",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidMemoryError",
    "InvalidMemoryIdError",
    "InvalidRetrievalError",
    "InvalidScopeError",
    "InvalidTypeError",
    "LoadExtensionUnsupportedError",
    "LocationError",
    "MemoryNotFoundError",
    "MemoryRootNotFoundError",
    "MimomemError",
    "ModelEndpointError",
    "NoProjectRootError",
    "NotInWriterAllowlistError",
    "NotOwnerError",
    "OutsideAllowedAreaError",
    "OutsideRootError",
    "PassError",
    "ProjectIdError",
    "RefusedError",
    "ReservedForRoleError",
    "ReservedTaskPathError",
    "SchemaTooNewError",
    "SecretRefusedError",
    "SqliteExtensionError",
    "StaleTokenizerIndexError",
    "StoreError",
    "TokenizerUnavailableError",
    "TranscriptReadError",
    "UnavailableError",
    "UnknownBackendError",
    "UnknownModeError",
    "UsageError",
    "WriteDeniedError",
    "WritingDisabledError",
)
"""Tier 4, the errors a library call can raise: ``MimomemError``, its four kinds (``InputError``,
``RefusedError``, ``StoreError``, ``UnavailableError``) and the specific classes under them.
The errors of the command-line tools (``mimomem bench``, ``mimomem install``) stay in
``mimomem.errors`` (and ``mimomem.bench``)."""

_LAZY: dict[str, str] = {**ENGINE, **STORES, **MEMORY_FLOOR, **dict.fromkeys(ERRORS, "mimomem.errors")}
"""Public name -> the module that defines it (imported on first use)."""


__all__ = [
    "AgentSdkMissingError",
    "AgentSdkOptionsError",
    "BM25Index",
    "Backend",
    "BadMemoryPathError",
    "BulkResult",
    "Context",
    "CorruptDatabaseError",
    "CuratedError",
    "CuratedMemory",
    "DiskFullError",
    "DocumentHit",
    "DocumentIndex",
    "DuplicateMemoryError",
    "ExtensionNotBuiltError",
    "Filters",
    "ForeignDatabaseError",
    "ForgetResult",
    "Found",
    "GlossaryError",
    "HistoryError",
    "HistoryLockedError",
    "HistorySourceError",
    "HistoryStore",
    "Hit",
    "IndexFileError",
    "IndexStats",
    "InputError",
    "InspectReport",
    "InvalidAgentNameError",
    "InvalidCuratedIdError",
    "InvalidFileNameError",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidMemoryError",
    "InvalidMemoryIdError",
    "InvalidRetrievalError",
    "InvalidScopeError",
    "InvalidTypeError",
    "LoadExtensionUnsupportedError",
    "LocationError",
    "Memory",
    "MemoryIndex",
    "MemoryNotFoundError",
    "MemoryRootNotFoundError",
    "MemoryStatus",
    "MemoryTree",
    "MimomemError",
    "ModelEndpointError",
    "NoProjectRootError",
    "NotInWriterAllowlistError",
    "NotOwnerError",
    "NoteEntry",
    "OutsideAllowedAreaError",
    "OutsideRootError",
    "PassError",
    "PathClass",
    "Problem",
    "ProjectIdError",
    "ProjectIdentity",
    "Query",
    "Recalled",
    "ReconcileReport",
    "RefusedError",
    "ReservedForRoleError",
    "ReservedTaskPathError",
    "Results",
    "SchemaTooNewError",
    "SecretFinding",
    "SecretRefusedError",
    "SqliteExtensionError",
    "StaleTokenizerIndexError",
    "StoreError",
    "Term",
    "Token",
    "TokenizerUnavailableError",
    "TranscriptReadError",
    "UnavailableError",
    "UnknownBackendError",
    "UnknownModeError",
    "UsageError",
    "Where",
    "WriteDeniedError",
    "Writer",
    "WritingDisabledError",
    "__version__",
    "classify_path",
    "ensure_no_secrets",
    "estimate_tokens",
    "locate",
    "memory_instructions",
    "native_available",
    "parse_query",
    "project_id",
    "prompt_context",
    "recall_reminder",
    "render_injection",
    "scan_secrets",
    "search_everything",
    "session_context",
    "tokenize",
    "tokenize_many",
    "truncate_to_tokens",
]
"""Every public name, sorted: the union of the four tiers above (``tests/test_public_api.py`` checks it)."""
