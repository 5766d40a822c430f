"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().
"""

from __future__ import annotations

from mimomem.text._accel import NATIVE as _NATIVE
from mimomem.text.bm25 import BM25Index, Hit
from mimomem.curated.store import CuratedMemory
from mimomem.errors import (
    BadMemoryPathError,
    MimomemError,
    NotInWriterAllowlistError,
    NotOwnerError,
    OutsideAllowedAreaError,
    ReservedTaskPathError,
    SecretRefusedError,
    WriteDeniedError,
    WritingDisabledError,
)
from mimomem.search.index import DocumentHit, DocumentIndex, MemoryHit, MemoryIndex, SearchResults
from mimomem.curated.injection import render_injection
from mimomem.tree.layout import PathClass, classify_path
from mimomem.tree.project import ProjectIdentity, project_id
from mimomem.text.query import Query, Term, parse_query
from mimomem.common.secrets import SecretFinding, ensure_no_secrets, scan_secrets
from mimomem.text.tokens import Token, UnknownModeError, tokenize
from mimomem.tree.store import MemoryTree

__version__ = "0.1.0"


def __getattr__(name: str) -> type[MimomemError]:
    """Old exception names (mimomem 0.1) still resolve, with a DeprecationWarning."""
    from mimomem.errors import deprecated_alias

    return deprecated_alias(name)


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    return _NATIVE


__all__ = [
    "BM25Index",
    "BadMemoryPathError",
    "CuratedMemory",
    "DocumentHit",
    "DocumentIndex",
    "Hit",
    "MemoryHit",
    "MemoryIndex",
    "MemoryTree",
    "MimomemError",
    "NotInWriterAllowlistError",
    "NotOwnerError",
    "OutsideAllowedAreaError",
    "PathClass",
    "ProjectIdentity",
    "Query",
    "ReservedTaskPathError",
    "SearchResults",
    "SecretFinding",
    "SecretRefusedError",
    "Term",
    "Token",
    "UnknownModeError",
    "WriteDeniedError",
    "WritingDisabledError",
    "classify_path",
    "ensure_no_secrets",
    "native_available",
    "parse_query",
    "project_id",
    "render_injection",
    "scan_secrets",
    "tokenize",
]
