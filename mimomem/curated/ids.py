"""Curated memory ids: ``<category>/<slug>``, the rules each part follows, and slugs made from text.

An id names one file of a root (``<category>/<slug>.md``), so it is checked before any path is built:
one known category, one slug without separators or ``..``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from mimomem.common.secrets import redact_secrets
from mimomem.curated.memory import RULES
from mimomem.errors import InvalidCuratedIdError

_SLUG_OK = re.compile(r"[^\W_](?:[\w.-]{0,78}[^\W_])?")
_CATEGORY_OK = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def checked_categories(categories: Sequence[str]) -> tuple[str, ...]:
    """The categories as a tuple, ``rules`` first if missing; ``ValueError`` for an unsafe name."""
    cats = tuple(categories)
    for c in cats:
        if not _CATEGORY_OK.fullmatch(c):
            raise ValueError(f"category {c!r} must be lower-case letters, digits, '-' or '_' (max 40)")
    return cats if RULES in cats else (RULES, *cats)


def slugify(text: str) -> str:
    """A filesystem-safe slug: NFKC, lower case, word characters joined by ``-`` (CJK kept)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    words = re.findall(r"[^\W_]+", folded)
    slug = ""
    for word in words:
        nxt = f"{slug}-{word}" if slug else word
        if len(nxt) > 60:
            break
        slug = nxt
    return slug or (words[0][:60] if words else "memory")


def split_id(memory_id: str, categories: Sequence[str]) -> tuple[str, str]:
    """``(category, slug)`` of a valid id; ``InvalidCuratedIdError`` (saying why, secrets redacted) otherwise."""
    if not isinstance(memory_id, str) or memory_id.count("/") != 1:
        message = f"memory id {memory_id!r} must look like '<category>/<slug>', e.g. 'facts/db-port'"
        raise InvalidCuratedIdError(redact_secrets(message))
    category, slug = memory_id.split("/")
    if category not in categories:
        message = f"unknown category {category!r} in {memory_id!r}; categories: {', '.join(categories)}"
        raise InvalidCuratedIdError(redact_secrets(message))
    if slug in (".", "..", "index") or not _SLUG_OK.fullmatch(slug) or "\x00" in slug:
        message = (
            f"slug {slug!r} in {memory_id!r} is not allowed: use letters, digits, '-', '.', '_' "
            f"(starting and ending with a letter or digit), not 'index'"
        )
        raise InvalidCuratedIdError(redact_secrets(message))
    return category, slug
