"""What the curated store holds and reports, and how a memory maps to and from its frontmatter.

A memory file is ``<category>/<slug>.md``: YAML frontmatter (id, kind, summary, highlight,
created, updated, load_when, pinned, supersedes, superseded_by, author) and a Markdown
body.  Reading is forgiving (a bad optional field falls back to its default and is reported
as a ``Problem``); writing is deterministic (``new_memory_meta`` fixes the key order).
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple compiles every string
# annotation (a compile() per field), which a hook process would pay on every prompt.

import datetime as _dt
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from mimomem.common import frontmatter
from mimomem.tree.vocabulary import DEFAULT_CATEGORIES as DEFAULT_CATEGORIES

RULES = "rules"
CURATED_SCOPES = ("project", "global")
"""The curated store's two roots: the project's ``.memory/`` and the user's global one (not the tree's scopes)."""
AUTHORS = ("user", "model")
MAX_FILE_BYTES = 1_000_000
KIND_OF = {
    "rules": "rule",
    "preferences": "preference",
    "decisions": "decision",
    "pitfalls": "pitfall",
    "facts": "fact",
}
"""The kind a new memory gets from its category (other categories give ``note``)."""


class Memory(NamedTuple):
    """One memory file, parsed.  ``id`` is ``<category>/<slug>``; ``scope`` names its root."""

    id: str
    scope: str
    path: Path
    kind: str
    summary: str
    highlight: str
    body: str
    created: _dt.datetime
    updated: _dt.datetime
    load_when: tuple[str, ...] = ()
    pinned: bool = False
    supersedes: str | None = None
    superseded_by: str | None = None
    author: str = "user"

    @property
    def category(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def slug(self) -> str:
        return self.id.split("/", 1)[1]

    @property
    def is_hard_rule(self) -> bool:
        return self.kind == "rule" and self.category == RULES

    @property
    def text(self) -> str:
        """What recall indexes: summary, highlight and body."""
        return f"{self.summary}\n{self.highlight}\n{self.body}"


class MemoryFields(NamedTuple):
    """What a caller gives for one new memory (``remember``, an item of ``remember_many``, a note).

    The one spelling of that field list on the way to the file: ``remember`` builds it,
    ``remember_many`` reads each item into it, and the write path takes it whole.
    """

    category: str
    summary: str
    body: str = ""
    highlight: str = ""
    load_when: Sequence[str] = ()
    pinned: bool = False
    supersedes: str | None = None
    slug: str | None = None


class Problem(NamedTuple):
    """Something wrong in a root: ``kind``, the file (or root) and what to do about it."""

    kind: str  # malformed | field | skipped | secret | drift | orphaned-supersedes | id-mismatch
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.path}: {self.message}"


class Recalled(NamedTuple):
    """A recall result: the memory, its final score and every factor that made it."""

    memory: Memory
    score: float
    bm25: float
    scope_prior: float
    decay: float
    rehearsal: float
    hits: int
    matched_terms: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.memory.id

    def why(self) -> str:
        """One line: matched terms and each factor of the score."""
        terms = ", ".join(self.matched_terms) or "-"
        return (
            f"matched {terms}; bm25 {self.bm25:.4g} x scope {self.scope_prior:g} x decay {self.decay:.4g}"
            f" x rehearsal {self.rehearsal:.4g} (hits {self.hits}) = {self.score:.4g}"
        )


class MemoryStatus(NamedTuple):
    """A memory as ``inspect`` lists it."""

    id: str
    scope: str
    kind: str
    status: str  # live | superseded | proposal | shadowed
    hits: int
    path: str
    summary: str


class InspectReport(NamedTuple):
    """Every memory with its status, plus the consistency problems found."""

    roots: dict[str, str | None]
    memories: list[MemoryStatus]
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


class BulkResult(NamedTuple):
    """What ``remember_many`` / ``import_dir`` did: ids written, items refused and why."""

    written: list[str]
    refused: list[tuple[str, str]]  # (item label, reason)


class ForgetResult(NamedTuple):
    """The removed memory and any memories whose supersedes links now dangle."""

    id: str
    scope: str
    dangling: list[str]


# -- field values ------------------------------------------------------------------------------
def to_datetime(value: Any) -> _dt.datetime | None:
    """A timezone-aware datetime from a YAML date, datetime or ISO string (naive means UTC)."""
    if isinstance(value, _dt.datetime):
        dt = value
    elif isinstance(value, _dt.date):
        dt = _dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        try:
            dt = _dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    else:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=_dt.timezone.utc)


def iso(dt: _dt.datetime) -> str:
    """``dt`` as the UTC ISO string memory files hold (seconds, ``Z``)."""
    return dt.astimezone(_dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def str_list(value: Any) -> tuple[str, ...] | None:
    """A list of scalars (or one string) as a tuple of strings; ``None`` if it is neither."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return tuple(str(v) for v in value)
    return None


# -- frontmatter -> Memory ---------------------------------------------------------------------
def memory_from_document(
    doc: frontmatter.Document, *, memory_id: str, scope: str, path: Path, mtime: _dt.datetime
) -> tuple[Memory | None, list[Problem]]:
    """The memory a parsed file holds (``None`` when unusable) and the problems found in it."""
    if doc.problem is not None:
        return None, [Problem("malformed", str(path), f"{doc.problem}; the file is ignored until fixed")]
    return memory_from_meta(doc.meta, doc.body.strip("\n"), memory_id=memory_id, scope=scope, path=path, mtime=mtime)


def memory_from_meta(
    meta: Mapping[str, Any], body: str, *, memory_id: str, scope: str, path: Path, mtime: _dt.datetime
) -> tuple[Memory | None, list[Problem]]:
    """Map frontmatter fields to a ``Memory``; bad optional fields fall back to defaults, reported.

    ``mtime`` (the file's modification time) stands in for a missing ``created``.
    """
    where = str(path)
    summary = meta.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        return None, [Problem("malformed", where, "frontmatter needs a non-empty 'summary' string")]
    problems: list[Problem] = []

    def field_problem(name: str, why: str) -> None:
        problems.append(Problem("field", where, f"{name!r} {why}; using the default"))

    created, updated = _dates(meta, mtime, field_problem)
    load_when = str_list(meta.get("load_when"))
    if load_when is None:
        field_problem("load_when", "is not a list of strings")
        load_when = ()
    category = memory_id.split("/", 1)[0]
    kind = meta.get("kind") if isinstance(meta.get("kind"), str) else KIND_OF.get(category, "note")
    if "id" in meta and meta["id"] != memory_id:
        problems.append(
            Problem("id-mismatch", where, f"frontmatter id {meta['id']!r} differs from the path id {memory_id!r}")
        )
    supersedes, superseded_by = (_link(meta, name, field_problem) for name in ("supersedes", "superseded_by"))
    highlight = meta.get("highlight")
    memory = Memory(
        id=memory_id,
        scope=scope,
        path=path,
        kind=str(kind),
        summary=summary.strip(),
        highlight=highlight.strip() if isinstance(highlight, str) else "",
        body=body,
        created=created,
        updated=updated,
        load_when=load_when,
        pinned=meta.get("pinned") is True,
        supersedes=supersedes,
        superseded_by=superseded_by,
        author=str(meta.get("author", "user")),
    )
    return memory, problems


def _dates(
    meta: Mapping[str, Any], mtime: _dt.datetime, field_problem: Callable[[str, str], None]
) -> tuple[_dt.datetime, _dt.datetime]:
    """``(created, updated)``: ``created`` defaults to ``mtime``, ``updated`` to ``created``."""
    created = to_datetime(meta.get("created"))
    if created is None:
        if "created" in meta:
            field_problem("created", "is not an ISO date")
        created = mtime
    updated = to_datetime(meta.get("updated"))
    if updated is None:
        if "updated" in meta:
            field_problem("updated", "is not an ISO date")
        updated = created
    return created, updated


def _link(meta: Mapping[str, Any], name: str, field_problem: Callable[[str, str], None]) -> str | None:
    """A ``supersedes``/``superseded_by`` id, or ``None`` (empty or not a string)."""
    value = meta.get(name)
    if value is not None and not isinstance(value, str):
        field_problem(name, "is not a string id")
        return None
    return value or None


# -- Memory -> frontmatter ---------------------------------------------------------------------
def new_memory_meta(
    memory_id: str,
    *,
    kind: str,
    summary: str,
    highlight: str,
    now: _dt.datetime,
    load_when: tuple[str, ...],
    pinned: bool,
    supersedes: str | None,
    author: str,
) -> dict[str, Any]:
    """The frontmatter of a new memory, every field present, in the fixed key order."""
    return {
        "id": memory_id,
        "kind": kind,
        "summary": summary,
        "highlight": highlight.strip(),
        "created": iso(now),
        "updated": iso(now),
        "load_when": list(load_when),
        "pinned": bool(pinned),
        "supersedes": supersedes,
        "superseded_by": None,
        "author": author,
    }
