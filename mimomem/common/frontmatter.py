"""YAML frontmatter: parse it without ever crashing, write it back deterministically.

A document is ``---`` on its first line, a YAML mapping, ``---`` on a line of its own,
then the Markdown body.  Parsing uses YAML's *safe* loader (libyaml's when built), so
no tags are executed.  Anything wrong with the header comes back as a
``FrontmatterProblem`` value that callers report; it is never raised.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

try:  # libyaml is ~10x faster; both are the safe (tag-free) loader and dumper
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

FENCE = "---"


@dataclass(frozen=True)
class FrontmatterProblem:
    """Why a document's header could not be read: ``kind``, a message and a 1-based line."""

    kind: str  # "missing" | "unterminated" | "yaml" | "not-a-mapping"
    message: str
    line: int = 1

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class Document:
    """A parsed document: header mapping (empty on a problem), body, and the problem if any."""

    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    problem: FrontmatterProblem | None = None
    body_line: int = 1


def parse(text: str) -> Document:
    """Split ``text`` into frontmatter and body; malformed headers give ``Document.problem``."""
    text = text.removeprefix("\ufeff")
    text = text.replace("\r\n", "\n")
    first, _, rest = text.partition("\n")
    if first.rstrip() != FENCE:
        return Document({}, text, FrontmatterProblem("missing", "no frontmatter: the first line must be '---'"))
    lines = rest.split("\n")
    for i, line in enumerate(lines):
        if line.rstrip() == FENCE:
            header = "\n".join(lines[:i])
            body = "\n".join(lines[i + 1 :])
            body_line = i + 3
            break
    else:
        return Document({}, text, FrontmatterProblem("unterminated", "frontmatter has no closing '---' line"))
    try:
        meta = yaml.load(header, Loader=_Loader) if header.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = int(mark.line) + 2 if mark is not None else 2
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return Document({}, body, FrontmatterProblem("yaml", f"invalid YAML: {reason}", where), body_line)
    if not isinstance(meta, dict):
        problem = FrontmatterProblem("not-a-mapping", f"frontmatter is a {type(meta).__name__}, not a mapping")
        return Document({}, body, problem, body_line)
    return Document({str(k): v for k, v in meta.items()}, body, None, body_line)


def _plain(value: Any) -> Any:
    """Values YAML's safe dumper writes deterministically (tuples -> lists, datetimes -> ISO)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, _dt.datetime):
        return value.isoformat()
    return value


def serialize(meta: Mapping[str, Any], body: str) -> str:
    """Render ``meta`` (in its own key order) and ``body`` as a frontmatter document."""
    header = yaml.dump(
        _plain(meta),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1_000_000,
    )
    body = body if body.endswith("\n") or not body else body + "\n"
    return f"{FENCE}\n{header}{FENCE}\n{body}"
