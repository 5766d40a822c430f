"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().
"""

from __future__ import annotations

from ._accel import NATIVE as _NATIVE
from .bm25 import BM25Index, Hit
from .query import Query, Term, parse_query
from .tokens import Token, UnknownModeError, tokenize
from .errors import (
    BadMemoryPath,
    NotInWriterAllowlist,
    NotOwner,
    OutsideAllowedArea,
    ReservedTaskPath,
    WriteDenied,
    WritingDisabled,
)
from .layout import PathClass, classify_path
from .project import ProjectIdentity, project_id
from .tree import MemoryTree
from .index import DocumentHit, DocumentIndex, MemoryHit, MemoryIndex, SearchResults
from .errors import SecretRefused
from .secrets import SecretFinding, ensure_no_secrets, scan_secrets
from .curated import CuratedMemory
from .injection import render_injection

__version__ = "0.1.0"


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    return _NATIVE


__all__ = [
    "BM25Index",
    "BadMemoryPath",
    "DocumentHit",
    "DocumentIndex",
    "MemoryHit",
    "MemoryIndex",
    "SearchResults",
    "MemoryTree",
    "NotInWriterAllowlist",
    "NotOwner",
    "OutsideAllowedArea",
    "PathClass",
    "ProjectIdentity",
    "ReservedTaskPath",
    "WriteDenied",
    "WritingDisabled",
    "classify_path",
    "project_id",
    "Hit",
    "Query",
    "Term",
    "Token",
    "UnknownModeError",
    "native_available",
    "parse_query",
    "tokenize",
    "SecretFinding",
    "SecretRefused",
    "ensure_no_secrets",
    "scan_secrets",
    "CuratedMemory",
    "render_injection",
]
