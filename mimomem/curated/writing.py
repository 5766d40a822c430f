"""The steps of writing one memory: check the fields, pick the id, refuse what must not be stored.

Each step raises the error the caller reports (``InvalidMemoryError``,
``InvalidCuratedIdError``, ``DuplicateMemoryError``, ``MemoryNotFoundError``,
``SecretRefusedError``, ``OutsideRootError``) before anything is written.  The caller's text
is scanned for secrets first, field by field, so no later message (an id made from the
summary, a refused slug) can show one, and line numbers count in the caller's own text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mimomem.common import frontmatter
from mimomem.common.files import atomic_write
from mimomem.common.secrets import ensure_no_secrets, ensure_no_secrets_in_fields, redact_secrets
from mimomem.curated.dedup import DedupIndex
from mimomem.curated.filetext import fast_serialize
from mimomem.curated.ids import slugify, split_id
from mimomem.curated.memory import AUTHORS, KIND_OF, MAX_FILE_BYTES, RULES, Memory, str_list
from mimomem.curated.roots import CuratedRoot
from mimomem.curated.undo import Undo
from mimomem.errors import DuplicateMemoryError, InvalidCuratedIdError, InvalidMemoryError, MemoryNotFoundError


def normalised(value: Any) -> Any:
    """Text with ``\r\n`` and lone ``\r`` as ``\n`` (what is stored then reads and compiles the same)."""
    if isinstance(value, str) and "\r" in value:
        return value.replace("\r\n", "\n").replace("\r", "\n")
    if isinstance(value, (list, tuple)):
        return type(value)(normalised(v) for v in value)
    return value


_CLEAN: dict[str, None] = {}
"""Short field values already scanned and found clean (a category, a scenario): scanned once."""
_CLEAN_MAX_CHARS = 64
_CLEAN_MAX_ENTRIES = 4096


def refuse_secrets_in_input(fields: Mapping[str, Any], *, where: str) -> None:
    """``SecretRefusedError`` for a likely secret in any text the caller gave, before it is used or shown.

    A short value seen clean before is not scanned again (the scan is a pure function of
    the text; in a bulk write the same category or scenario repeats thousands of times).
    """
    texts: dict[str, str] = {}
    for name, value in fields.items():
        if isinstance(value, str):
            text = value
        elif isinstance(value, (list, tuple)):
            text = "\n".join(v for v in value if isinstance(v, str))
        else:
            continue
        if text not in _CLEAN:
            texts[name] = text
    ensure_no_secrets_in_fields(texts, where=where)
    for text in texts.values():  # none held a secret
        if len(text) <= _CLEAN_MAX_CHARS:
            if len(_CLEAN) >= _CLEAN_MAX_ENTRIES:
                _CLEAN.clear()
            _CLEAN[text] = None


def checked_input(
    given: Mapping[str, Any], *, author: str, root: CuratedRoot, categories: Sequence[str]
) -> tuple[str, str, str, tuple[str, ...]]:
    """``(summary, body, highlight, load_when)`` of a new memory: line endings normalised, no secret, valid.

    ``given`` maps field names (``category``, ``summary``, ``slug``, ``highlight``, ``load when``,
    ``supersedes``, ``body``) to the caller's values; every text is scanned before any is used.
    """
    fields = {name: normalised(value) for name, value in given.items()}
    refuse_secrets_in_input(fields, where=f"a new {root.scope} memory")
    summary, when = check_fields(
        fields["category"],
        fields["summary"],
        fields["body"],
        author=author,
        highlight=fields["highlight"],
        load_when=fields["load when"],
        categories=categories,
    )
    return summary, fields["body"], fields["highlight"], when


def check_fields(
    category: str,
    summary: str,
    body: str,
    *,
    author: str,
    highlight: str,
    load_when: Sequence[str],
    categories: Sequence[str],
) -> tuple[str, tuple[str, ...]]:
    """The stripped summary and the ``load_when`` scenarios, once every field is valid."""
    if author not in AUTHORS:
        raise InvalidMemoryError(f"author must be one of {', '.join(AUTHORS)}, got {author!r}")
    if category not in categories:
        raise InvalidCuratedIdError(f"unknown category {category!r}; categories: {', '.join(categories)}")
    if not isinstance(summary, str) or not summary.strip() or "\n" in summary.strip():
        raise InvalidMemoryError("summary must be one non-empty line")
    if not isinstance(body, str) or not isinstance(highlight, str):
        raise InvalidMemoryError("body and highlight must be strings")
    when = str_list(list(load_when) if isinstance(load_when, (tuple, list)) else load_when)
    if when is None or any(not w.strip() or "\n" in w for w in when):
        raise InvalidMemoryError("load_when must be a list of one-line scenario strings")
    return summary.strip(), when


def kind_for(category: str, author: str) -> str:
    """The kind of a new memory; a model's ``rules`` entry is a ``rule-proposal``, not a rule."""
    if category == RULES and author == "model":
        return "rule-proposal"
    return KIND_OF.get(category, "note")


def choose_id(root: CuratedRoot, category: str, summary: str, slug: str | None) -> str:
    """An explicit slug (refused if taken), or one made from the summary, made unique."""
    if slug is not None:
        memory_id = f"{category}/{slug}"
        split_id(memory_id, root.categories)
        if memory_id in root.memories:
            raise DuplicateMemoryError(
                f"{memory_id} already exists in the {root.scope} root; forget it first or pick another slug",
                memory_id,
            )
        return memory_id
    stem = slugify(summary)
    if stem == "index":
        stem = "index-note"
    memory_id, n = f"{category}/{stem}", 2
    while memory_id in root.memories:
        memory_id, n = f"{category}/{stem}-{n}", n + 1
    return memory_id


def supersede_target(root: CuratedRoot, supersedes: str | None) -> Memory | None:
    """The live memory ``supersedes`` names in this root (``None`` when nothing is superseded)."""
    if supersedes is None:
        return None
    split_id(supersedes, root.categories)
    old = root.memories.get(supersedes)
    if old is None:
        raise MemoryNotFoundError(f"cannot supersede {supersedes!r}: no such memory in the {root.scope} root")
    if old.superseded_by:
        raise InvalidMemoryError(
            f"{supersedes} is already superseded by {old.superseded_by}; supersede that one instead"
        )
    return old


def refuse_duplicate(dedup: DedupIndex, summary: str, body: str, *, skip: str | None) -> None:
    """``DuplicateMemoryError`` naming the live memory this one nearly repeats, and the way out."""
    dup = dedup.find_duplicate(summary, body, skip=skip)
    if dup is not None:
        existing, why = dup  # an id read from a file: shown redacted, like every id in a message
        message = (
            f"near-duplicate of {existing} ({why}); to replace it, remember with supersedes={existing!r} "
            f"(CLI: --supersedes {existing}), or forget it first"
        )
        raise DuplicateMemoryError(redact_secrets(message), redact_secrets(existing))


def memory_file_text(meta: Mapping[str, Any], body: str, *, where: str) -> str:
    """The file content for ``meta`` and ``body``; refused when over the size limit or holding a secret."""
    content = fast_serialize(meta, body.strip("\n")) or frontmatter.serialize(meta, body.strip("\n"))
    size = len(content.encode("utf-8"))
    if size > MAX_FILE_BYTES:
        raise InvalidMemoryError(
            f"memory would be {size} bytes, over the {MAX_FILE_BYTES}-byte limit; keep the body short "
            f"and link to a file instead"
        )
    ensure_no_secrets(content, where=where)
    return content


def write_memory_file(
    root: CuratedRoot, memory_id: str, content: str, *, path: Path, durable: bool, undo: Undo
) -> Path:
    """Create the category directory if needed and write the file atomically (noted in ``undo``).

    ``path`` is ``root.file_for(memory_id)``, checked by the caller; it is checked again when
    the category directory was not checked then (it did not exist, say).  The caller holds the
    root's write lock, which created the root (``CuratedRoot.write_lock``).
    """
    if memory_id.split("/", 1)[0] not in root.safe_dirs:  # checked (and existing) since the root was scanned
        undo.mkdir(path.parent)
        path = root.file_for(memory_id)  # re-check now that the category directory exists
    undo.note(path)
    atomic_write(path, content, durable=durable)
    undo.written[path] = content
    return path


def rewrite_meta(
    root: CuratedRoot, memory: Memory, changes: Mapping[str, Any], *, undo: Undo, durable: bool = True
) -> Memory:
    """Update frontmatter fields of an existing memory file in place; the memory as read back."""
    doc = frontmatter.parse(memory.path.read_text(encoding="utf-8"))
    if doc.problem is not None:
        raise InvalidMemoryError(f"cannot update {memory.id}: {doc.problem}")
    doc.meta.update(changes)
    undo.note(memory.path)
    content = frontmatter.serialize(doc.meta, doc.body.strip("\n"))
    atomic_write(memory.path, content, durable=durable)
    undo.written[memory.path] = content
    updated = root.load_file(memory.path, memory.id)
    if updated is None:
        raise InvalidMemoryError(
            f"cannot update {memory.id}: the rewritten file does not read back; see `mimomem inspect`"
        )
    root.memories[memory.id] = updated
    return updated
