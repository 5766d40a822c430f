"""The search entry points in one import: ``MemoryIndex``, ``DocumentIndex`` and what they return.

``from mimomem.search.index import MemoryIndex, DocumentIndex, Results, Found, DocumentHit``
keeps working; the code lives in modules named for their job:

* ``mimomem.search.memory_index``   - ``MemoryIndex`` (reconcile, filters, floor, hints);
* ``mimomem.search.document_index`` - ``DocumentIndex`` (any (doc_id, text) documents);
* ``mimomem.search.hits``           - every result type, and when you get which;
* ``mimomem.search.params``         - backend and scope names, limit and floor checks,
  the relative floor;
* ``mimomem.search.backends``       - the ``Backend`` protocol and the three backends;
* ``mimomem.search.snippets``       - snippets cut from the original text.
"""

from __future__ import annotations

from mimomem.errors import InvalidFloorError, InvalidLimitError, InvalidScopeError
from mimomem.search.document_index import DocumentIndex
from mimomem.search.hits import DocumentHit, Found, RankedRow, Results
from mimomem.search.memory_index import ESCALATION_HINTS, SEARCH_WAIT_MS, IndexStats, MemoryIndex
from mimomem.search.params import (
    BACKEND_ENV,
    DEFAULT_BACKEND,
    DEFAULT_FLOOR,
    DEFAULT_LIMIT,
    MAX_FETCH,
    MAX_LIMIT,
    SCOPES,
    SEARCH_BACKENDS,
    apply_floor,
    check_floor,
    check_limit,
    check_scope,
    default_backend,
)

__all__ = [
    "BACKEND_ENV",
    "DEFAULT_BACKEND",
    "DEFAULT_FLOOR",
    "DEFAULT_LIMIT",
    "ESCALATION_HINTS",
    "MAX_FETCH",
    "MAX_LIMIT",
    "SCOPES",
    "SEARCH_BACKENDS",
    "SEARCH_WAIT_MS",
    "DocumentHit",
    "DocumentIndex",
    "Found",
    "IndexStats",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidScopeError",
    "MemoryIndex",
    "RankedRow",
    "Results",
    "apply_floor",
    "check_floor",
    "check_limit",
    "check_scope",
    "default_backend",
]
