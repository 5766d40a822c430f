"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().

The public names below are imported on first use (PEP 562), so ``import mimomem`` is
cheap: a Claude Code hook runs on every prompt and must not pay for the whole library.
Every exception class is imported eagerly from ``mimomem.errors``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mimomem.errors import (
    BackendUnavailableError,
    BadMemoryPathError,
    BenchDependencyError,
    CorporaNotFoundError,
    CorruptDatabaseError,
    CuratedError,
    DatasetError,
    DiskFullError,
    DuplicateMemoryError,
    ExtensionNotBuiltError,
    ForeignDatabaseError,
    GlossaryError,
    HistoryError,
    HistoryLockedError,
    HistorySourceError,
    HookCommandError,
    IndexFileError,
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
    ReservedForRoleError,
    ReservedTaskPathError,
    ResultFileError,
    ScaleError,
    SchemaTooNewError,
    SecretRefusedError,
    SettingsFileError,
    SqliteExtensionError,
    StaleTokenizerIndexError,
    TokenizerSpecError,
    TokenizerUnavailableError,
    TranscriptReadError,
    UnknownBackendError,
    UnknownModeError,
    UsageError,
    WriteDeniedError,
    WritingDisabledError,
)

if TYPE_CHECKING:
    from mimomem.common.secrets import SecretFinding, ensure_no_secrets, scan_secrets
    from mimomem.context.assemble import Context, prompt_context, session_context
    from mimomem.context.estimate import estimate_tokens, truncate_to_tokens
    from mimomem.context.instructions import memory_instructions, recall_reminder
    from mimomem.curated.injection import render_injection
    from mimomem.curated.memory import BulkResult, ForgetResult, InspectReport, Memory, MemoryStatus, Problem, Recalled
    from mimomem.curated.store import CuratedMemory
    from mimomem.search.backends import Backend
    from mimomem.search.document_index import DocumentIndex
    from mimomem.search.everything import search_everything
    from mimomem.search.hits import DocumentHit, Found, MemoryHit, SearchResults
    from mimomem.search.memory_index import IndexStats, MemoryIndex
    from mimomem.search.reconcile import ReconcileReport
    from mimomem.text.bm25 import BM25Index, Hit
    from mimomem.text.query import Query, Term, parse_query
    from mimomem.text.tokens import Token, tokenize, tokenize_many
    from mimomem.tree.layout import PathClass, classify_path
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.project import ProjectIdentity, project_id
    from mimomem.tree.templates import NoteEntry
    from mimomem.tree.where import Where, locate

__version__ = "0.1.0"

_LAZY: dict[str, str] = {
    "Token": "mimomem.text.tokens",
    "tokenize": "mimomem.text.tokens",
    "tokenize_many": "mimomem.text.tokens",
    "Query": "mimomem.text.query",
    "Term": "mimomem.text.query",
    "parse_query": "mimomem.text.query",
    "BM25Index": "mimomem.text.bm25",
    "Hit": "mimomem.text.bm25",
    "MemoryTree": "mimomem.tree.memory_tree",
    "PathClass": "mimomem.tree.layout",
    "classify_path": "mimomem.tree.layout",
    "ProjectIdentity": "mimomem.tree.project",
    "project_id": "mimomem.tree.project",
    "NoteEntry": "mimomem.tree.templates",
    "SecretFinding": "mimomem.common.secrets",
    "ensure_no_secrets": "mimomem.common.secrets",
    "scan_secrets": "mimomem.common.secrets",
    "DocumentHit": "mimomem.search.hits",
    "MemoryHit": "mimomem.search.hits",
    "SearchResults": "mimomem.search.hits",
    "DocumentIndex": "mimomem.search.document_index",
    "IndexStats": "mimomem.search.memory_index",
    "MemoryIndex": "mimomem.search.memory_index",
    "Found": "mimomem.search.hits",
    "search_everything": "mimomem.search.everything",
    "ReconcileReport": "mimomem.search.reconcile",
    "Backend": "mimomem.search.backends",
    "CuratedMemory": "mimomem.curated.store",
    "BulkResult": "mimomem.curated.memory",
    "ForgetResult": "mimomem.curated.memory",
    "InspectReport": "mimomem.curated.memory",
    "Memory": "mimomem.curated.memory",
    "MemoryStatus": "mimomem.curated.memory",
    "Problem": "mimomem.curated.memory",
    "Recalled": "mimomem.curated.memory",
    "render_injection": "mimomem.curated.injection",
    "estimate_tokens": "mimomem.context.estimate",
    "truncate_to_tokens": "mimomem.context.estimate",
    "Where": "mimomem.tree.where",
    "locate": "mimomem.tree.where",
    "Context": "mimomem.context.assemble",
    "prompt_context": "mimomem.context.assemble",
    "session_context": "mimomem.context.assemble",
    "memory_instructions": "mimomem.context.instructions",
    "recall_reminder": "mimomem.context.instructions",
}
"""Public name -> the module that defines it."""


def __getattr__(name: str) -> Any:
    """Import a public name on first use; old exception names resolve with a DeprecationWarning."""
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value
        return value
    from mimomem.errors import deprecated_alias

    return deprecated_alias(name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    from mimomem.text._accel import NATIVE

    return NATIVE


__all__ = [
    "BM25Index",
    "Backend",
    "BackendUnavailableError",
    "BadMemoryPathError",
    "BenchDependencyError",
    "BulkResult",
    "Context",
    "CorporaNotFoundError",
    "CorruptDatabaseError",
    "CuratedError",
    "CuratedMemory",
    "DatasetError",
    "DiskFullError",
    "DocumentHit",
    "DocumentIndex",
    "DuplicateMemoryError",
    "ExtensionNotBuiltError",
    "ForeignDatabaseError",
    "ForgetResult",
    "Found",
    "GlossaryError",
    "HistoryError",
    "HistoryLockedError",
    "HistorySourceError",
    "Hit",
    "HookCommandError",
    "IndexFileError",
    "IndexStats",
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
    "MemoryHit",
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
    "ReservedForRoleError",
    "ReservedTaskPathError",
    "ResultFileError",
    "ScaleError",
    "SchemaTooNewError",
    "SearchResults",
    "SecretFinding",
    "SecretRefusedError",
    "SettingsFileError",
    "SqliteExtensionError",
    "StaleTokenizerIndexError",
    "Term",
    "Token",
    "TokenizerSpecError",
    "TokenizerUnavailableError",
    "TranscriptReadError",
    "UnknownBackendError",
    "UnknownModeError",
    "UsageError",
    "Where",
    "WriteDeniedError",
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
