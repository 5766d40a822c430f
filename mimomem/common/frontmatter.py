"""YAML frontmatter: parse it without ever crashing, write it back deterministically.

A document is ``---`` on its first line, a YAML mapping, ``---`` on a line of its own,
then the Markdown body.  Parsing uses YAML's *safe* loader (libyaml's when built), so
no tags are executed.  Anything wrong with the header comes back as a
``FrontmatterProblem`` value that callers report; it is never raised.
"""

# No ``from __future__ import annotations`` here: typing.NamedTuple compiles every string
# annotation (a compile() per field), which a hook process would pay on every prompt.

import datetime as _dt
import marshal
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from mimomem.errors import FrontmatterYamlError

FENCE = "---"


@cache
def _yaml() -> tuple[Any, Any, Any]:
    """PyYAML with its safe loader and dumper, imported on first use: a read served from the
    caches (the curated snapshot, the header cache) parses no YAML, and the import costs ~10-20 ms."""
    import yaml

    try:  # libyaml is ~10x faster; both are the safe (tag-free) loader and dumper
        from yaml import CSafeDumper as dumper
        from yaml import CSafeLoader as loader
    except ImportError:  # pragma: no cover - PyYAML built without libyaml
        from yaml import SafeDumper as dumper  # type: ignore[assignment]
        from yaml import SafeLoader as loader  # type: ignore[assignment]
    return yaml, loader, dumper


def _yaml_load(header: str) -> Any:
    yaml, loader, _ = _yaml()
    try:
        return yaml.load(header, Loader=loader)
    except yaml.YAMLError as exc:
        raise FrontmatterYamlError(exc) from exc


class FrontmatterProblem(NamedTuple):
    """Why a document's header could not be read: ``kind``, a message and a 1-based line."""

    kind: str  # "missing" | "unterminated" | "yaml" | "not-a-mapping"
    message: str
    line: int = 1

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


class Document(NamedTuple):
    """A parsed document: header mapping (empty on a problem), body, and the problem if any."""

    meta: dict[str, Any]
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
        meta = _load_header(header)
    except FrontmatterYamlError as invalid:
        exc = invalid.args[0]
        mark = getattr(exc, "problem_mark", None)
        where = int(mark.line) + 2 if mark is not None else 2
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return Document({}, body, FrontmatterProblem("yaml", f"invalid YAML: {reason}", where), body_line)
    if not isinstance(meta, dict):
        problem = FrontmatterProblem("not-a-mapping", f"frontmatter is a {type(meta).__name__}, not a mapping")
        return Document({}, body, problem, body_line)
    return Document({str(k): v for k, v in meta.items()}, body, None, body_line)


def _load_header(header: str) -> Any:
    """``yaml.load`` of the header, through the header cache when one is enabled."""
    if not header.strip():
        return {}
    cache = _cache
    if cache is None:
        return _yaml_load(header)
    found = cache.get(header)
    if found is not _MISSING:
        return found
    meta = _yaml_load(header)
    cache.put(header, meta)
    return meta


_MISSING = object()


class HeaderCache:
    """Parsed YAML headers by content digest, kept in one ``marshal`` file between processes.

    YAML parsing is most of the cost of opening a curated store (about 0.3 ms a file);
    a per-prompt hook cannot pay it for hundreds of memories in every process.  Keys are
    digests of the header text, so an edited file simply misses; values hold only plain
    types (datetimes are tagged), and a corrupt or foreign cache file is ignored.
    """

    VERSION = 1
    MAX_ENTRIES = 200_000

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.entries: dict[bytes, Any] = {}
        self.dirty = False
        try:
            data = marshal.loads(self.path.read_bytes())
            if isinstance(data, tuple) and len(data) == 2 and data[0] == self.VERSION and isinstance(data[1], dict):
                self.entries = data[1]
        except (OSError, ValueError, EOFError, TypeError):
            pass

    @staticmethod
    def _key(header: str) -> bytes:
        from mimomem.common.hashing import digest

        return digest(header.encode("utf-8", "surrogatepass"), 16)

    def get(self, header: str) -> Any:
        """The parsed header, or ``_MISSING``."""
        if self.entries:
            found = self.entries.get(self._key(header), _MISSING)
            if found is not _MISSING:
                return _untag(found)
        return _MISSING

    def put(self, header: str, meta: Any) -> None:
        """Remember ``meta`` for ``header`` unless it holds a type marshal cannot keep."""
        tagged = _tag(meta)
        if tagged is not _MISSING and len(self.entries) < self.MAX_ENTRIES:
            self.entries[self._key(header)] = tagged
            self.dirty = True

    def save(self) -> None:
        """Write the cache atomically if it changed; best effort (it is only a cache)."""
        if not self.dirty:
            return
        from mimomem.common.files import atomic_write

        try:
            from mimomem.common.private import private_dir

            private_dir(self.path.parent)
            atomic_write(self.path, marshal.dumps((self.VERSION, self.entries)), durable=False)
            self.dirty = False
        except OSError:
            pass


_cache: HeaderCache | None = None


@contextmanager
def header_cache(path: str | os.PathLike[str]) -> Iterator[HeaderCache]:
    """Parse headers through the cache file at ``path`` inside the ``with`` block, then save it."""
    global _cache
    previous, _cache = _cache, HeaderCache(path)
    try:
        yield _cache
    finally:
        _cache.save()
        _cache = previous


_PLAIN = (str, int, float, bool, type(None))


def _tag(value: Any) -> Any:
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, _dt.datetime):
        return ("dt", value.isoformat())
    if isinstance(value, _dt.date):
        return ("date", value.isoformat())
    if isinstance(value, list):
        items = [_tag(v) for v in value]
        return _MISSING if any(i is _MISSING for i in items) else ("list", items)
    if isinstance(value, dict):
        pairs = [(_tag(k), _tag(v)) for k, v in value.items()]
        return _MISSING if any(_MISSING in p for p in pairs) else ("dict", pairs)
    return _MISSING


def _untag(value: Any) -> Any:
    if not isinstance(value, tuple):
        return value
    kind, data = value
    if kind == "dt":
        return _dt.datetime.fromisoformat(data)
    if kind == "date":
        return _dt.date.fromisoformat(data)
    if kind == "list":
        return [_untag(v) for v in data]
    return {_untag(k): _untag(v) for k, v in data}


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
    yaml, _, dumper = _yaml()
    header = yaml.dump(
        _plain(meta),
        Dumper=dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1_000_000,
    )
    body = body if body.endswith("\n") or not body else body + "\n"
    return f"{FENCE}\n{header}{FENCE}\n{body}"
