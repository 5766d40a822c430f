"""mimomem: durable, layered Markdown memory for coding agents, searchable in CJK and English.

Files are the truth; every index is a rebuildable cache.  The text engine tokenizes
CJK as character bigrams and Latin as words, and ranks with SQLite FTS5's exact bm25().
"""

from __future__ import annotations

from ._accel import NATIVE as _NATIVE
from .bm25 import BM25Index, Hit
from .curated import CuratedMemory
from .errors import (
    BadMemoryPath,
    MimomemError,
    NotInWriterAllowlist,
    NotOwner,
    OutsideAllowedArea,
    ReservedTaskPath,
    SecretRefused,
    WriteDenied,
    WritingDisabled,
)
from .index import DocumentHit, DocumentIndex, MemoryHit, MemoryIndex, SearchResults
from .injection import render_injection
from .layout import PathClass, classify_path
from .project import ProjectIdentity, project_id
from .query import Query, Term, parse_query
from .secrets import SecretFinding, ensure_no_secrets, scan_secrets
from .tokens import Token, UnknownModeError, tokenize
from .tree import MemoryTree

__version__ = "0.1.0"


def native_available() -> bool:
    """True when the compiled hot path (``mimomem._native``) is the one in use."""
    return _NATIVE


__all__ = [
    "BM25Index",
    "BadMemoryPath",
    "CuratedMemory",
    "DocumentHit",
    "DocumentIndex",
    "Hit",
    "MemoryHit",
    "MemoryIndex",
    "MemoryTree",
    "MimomemError",
    "NotInWriterAllowlist",
    "NotOwner",
    "OutsideAllowedArea",
    "PathClass",
    "ProjectIdentity",
    "Query",
    "ReservedTaskPath",
    "SearchResults",
    "SecretFinding",
    "SecretRefused",
    "Term",
    "Token",
    "UnknownModeError",
    "WriteDenied",
    "WritingDisabled",
    "classify_path",
    "ensure_no_secrets",
    "native_available",
    "parse_query",
    "project_id",
    "render_injection",
    "scan_secrets",
    "tokenize",
]
