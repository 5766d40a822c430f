"""What a search call accepts, checked: backend, scope and type names, limit, floor; and the relative floor.

One vocabulary for every search entry point (``MemoryIndex``, ``DocumentIndex``, the
backends, ``MIMOMEM_BACKEND``):

* backends: ``fts5-bigram`` (default), ``native-index``, ``fts5-unicode61``;
* scopes: ``global``, ``project``, ``session``, ``claude-code`` (Claude Code memory);
* types: the memory tree's ``memory``, ``checkpoint``, ``progress``, ``notes``, ``free`` and
  Claude Code's ``feedback``, ``project``, ``reference``, ``user`` (``TYPES``: what the index
  stores); the memory search (``Filters.type``) also takes a curated memory's category
  (``SEARCH_TYPES``).  An unknown type is an error (``InvalidTypeError``), not a filter that
  silently matches nothing.

An unknown name is an error listing the valid ones.  The cache keeps storing the tree's
directory names (``projects``, ``sessions``, ``cc``: MiMo-Code's values in its ``memory_fts``
table); :func:`stored_scope` and :func:`public_scope` translate at the row boundary, so
callers only ever see the names above.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from mimomem.errors import (
    InvalidFloorError,
    InvalidLimitError,
    InvalidScopeError,
    InvalidTypeError,
    UnknownBackendError,
)
from mimomem.tree.vocabulary import DEFAULT_CATEGORIES, SCOPE_DIRS, SCOPES, TYPES

SEARCH_TYPES: tuple[str, ...] = TYPES + DEFAULT_CATEGORIES
"""The type filter of the memory search (``Filters.type``, ``mimomem search --type``, the MCP ``type``):
a tree file's or a Claude Code memory's type (``TYPES``), or a curated memory's category."""

SEARCH_BACKENDS = ("fts5-bigram", "native-index", "fts5-unicode61")
"""The backends the library's search runs on (``mimomem bench`` also runs peers: ``bench.engines.BENCH_BACKENDS``)."""

DEFAULT_BACKEND = "native-index"
"""Used when neither the call nor ``MIMOMEM_BACKEND`` names one (see docs/search.md)."""

BACKEND_ENV = "MIMOMEM_BACKEND"

_PUBLIC = {stored: public for public, stored in SCOPE_DIRS.items()}

DEFAULT_LIMIT = 10
MAX_LIMIT = 200
MAX_FETCH = 50
DEFAULT_FLOOR = 0.15


def check_backend(name: str) -> str:
    """The backend called ``name``; else ``UnknownBackendError`` listing the valid names."""
    if name in SEARCH_BACKENDS:
        return name
    raise UnknownBackendError(f"unknown backend {name!r}; valid backends: {', '.join(SEARCH_BACKENDS)}")


def default_backend() -> str:
    """The backend from ``MIMOMEM_BACKEND`` if set (validated), else ``DEFAULT_BACKEND``."""
    name = os.environ.get(BACKEND_ENV, "").strip()
    return check_backend(name) if name else DEFAULT_BACKEND


def check_scope(scope: str | None) -> str | None:
    """The scope filter ``scope`` names (None for no filter: None or ``""``); else ``InvalidScopeError``."""
    if not scope:
        return None
    if scope in SCOPES:
        return scope
    folder = f" (the tree's folder name; the scope is {_PUBLIC[scope]!r})" if scope in _PUBLIC else ""
    raise InvalidScopeError(f"unknown scope {scope!r}{folder}; valid scopes: {', '.join(SCOPES)}")


def check_type(type: str | None, valid: tuple[str, ...] = TYPES) -> str | None:
    """The type filter ``type`` (None for no filter: None or ``""``); else ``InvalidTypeError`` listing ``valid``.

    ``valid`` is ``TYPES`` for the index, ``SEARCH_TYPES`` for the memory search.
    """
    if not type:
        return None
    if type in valid:
        return type
    raise InvalidTypeError(f"unknown type {type!r}; valid types: {', '.join(valid)}")


def stored_scope(scope: str) -> str:
    """The value the cache's ``scope`` column holds for the checked scope ``scope``."""
    return SCOPE_DIRS[scope]


def public_scope(stored: str) -> str:
    """The scope name callers see for a stored ``scope`` value (``""`` for plain documents)."""
    return _PUBLIC.get(stored, stored)


def check_limit(limit: object, *, maximum: int | None = None) -> int:
    """Return ``limit`` if it is an int in ``1..maximum``, else raise ``InvalidLimitError``."""
    top = f"..{maximum}" if maximum is not None else " or more"
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1 or (maximum is not None and limit > maximum):
        raise InvalidLimitError(f"limit must be an integer 1{top}, got {limit!r}")
    return limit


def check_floor(floor: object) -> float:
    """Return ``floor`` as a float in ``[0, 1]`` (0 or None disables it)."""
    if floor is None:
        return 0.0
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not 0.0 <= float(floor) <= 1.0:
        raise InvalidFloorError(
            f"floor must be a fraction of the top score between 0 and 1 (0 disables), got {floor!r}"
        )
    return float(floor)


class Scored(Protocol):
    """Anything ranked: it has a score, higher is better."""

    @property
    def score(self) -> float: ...


S = TypeVar("S", bound=Scored)


def apply_floor(hits: Sequence[S], ratio: float, limit: int) -> list[S]:
    """MiMo's relative floor: keep the top hit and every hit scoring >= ratio * top."""
    if not hits:
        return []
    if ratio <= 0:
        return list(hits[:limit])
    cutoff = hits[0].score * ratio
    return [hits[0], *(h for h in hits[1:] if h.score >= cutoff)][:limit]


@dataclass(frozen=True)
class Filters:
    """What a memory search is narrowed to; every front end passes the same fields."""

    scope: str | None = None
    scope_id: str | None = None
    type: str | None = None
    all_projects: bool = False
    curated: bool = True

    def named(self) -> dict[str, str]:
        """The narrowing filters that are set (``scope``, ``scope_id``, ``type``), by name."""
        return {k: v for k, v in (("scope", self.scope), ("scope_id", self.scope_id), ("type", self.type)) if v}

    def without(self, names: Sequence[str]) -> Filters:
        """These filters with the narrowing ones in ``names`` dropped."""
        gone = set(names)
        return Filters(
            None if "scope" in gone else self.scope,
            None if "scope_id" in gone else self.scope_id,
            None if "type" in gone else self.type,
            self.all_projects,
            self.curated,
        )


__all__ = [
    "BACKEND_ENV",
    "DEFAULT_BACKEND",
    "DEFAULT_FLOOR",
    "DEFAULT_LIMIT",
    "MAX_FETCH",
    "MAX_LIMIT",
    "SCOPES",
    "SEARCH_BACKENDS",
    "SEARCH_TYPES",
    "TYPES",
    "Filters",
    "apply_floor",
    "check_backend",
    "check_floor",
    "check_limit",
    "check_scope",
    "check_type",
    "default_backend",
    "public_scope",
    "stored_scope",
]
