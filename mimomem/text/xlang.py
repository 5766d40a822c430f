"""The per-prompt cross-language lookup: Chinese words for English ones and back, from the shipped file.

``data/xlang_zh_en.tsv`` holds ``中文<TAB>english<TAB>...`` rows (see
:mod:`mimomem.text.expansion`, which builds full :class:`~mimomem.text.expansion.Vocabulary`
objects from it).  A prompt hook needs only the rows its prompt touches: :class:`Lookup` keeps
the vocabulary in small marshal blobs (English words by hash, Chinese heads by first character)
that the hook's plan carries, so a hook process decodes a few of them instead of reading and
parsing the file (~17M instructions, ~4 ms, per process).
"""

from __future__ import annotations

import functools
import marshal
import os
from collections.abc import Iterable

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

from mimomem.common.hashing import bucket_of
from mimomem.common.span_file import Blobs, Spans, read

XLANG_FILE = "xlang_zh_en.tsv"


def _data_path(name: str) -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", name)


def data_text(name: str) -> str:
    """A shipped data file's text: read from the package directory, else through importlib.resources."""
    path = _data_path(name)
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:  # a zipped or otherwise unusual installation
        from importlib import resources

        return (resources.files("mimomem") / "data" / name).read_text(encoding="utf-8")


BUCKETS = 64
"""English words are kept in this many marshal blobs (by a hash of the word); Chinese heads by first character."""


class Lookup:
    """The file's vocabulary as a prompt hook asks it: the Chinese heads of an English word, and the
    rows whose head occurs in a text, in file order.

    Built once from the file (:meth:`build`: a dictionary of every word, ~20M instructions) and
    kept as plain data (:attr:`data`: marshal blobs by bucket) that the prompt hook's plan carries,
    so a hook process decodes only the buckets its prompt's words and characters fall in.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self._words: dict[int, dict[str, tuple[str, ...]]] = {}
        self._heads: dict[str, list[tuple[int, str, tuple[str, ...]]]] = {}

    @classmethod
    def build(cls, text: str) -> Lookup:
        """The lookup of the file's ``text``: ``中文<TAB>english<TAB>...`` rows; ``#`` lines are comments."""
        words: list[dict[str, list[str]]] = [{} for _ in range(BUCKETS)]
        heads: dict[str, list[tuple[int, str, tuple[str, ...]]]] = {}
        for i, line in enumerate(text.split("\n")):
            if not line or line[0] == "#":
                continue
            row = line.rstrip().split("\t")
            head, others = row[0], tuple(o.lower() for o in row[1:] if o)
            if not others:
                continue
            heads.setdefault(head[:1], []).append((i, head, others))
            for word in others:
                words[bucket_of(word, BUCKETS)].setdefault(word, []).append(head)
        return cls(
            {
                "words": tuple(marshal.dumps({w: tuple(h) for w, h in b.items()}) for b in words),
                "heads": {first: marshal.dumps(rows) for first, rows in heads.items()},
            }
        )

    def heads_of(self, word: str, limit: int) -> list[str]:
        """The first ``limit`` heads of rows with ``word`` (folded) as a whole translation, in file order."""
        n = bucket_of(word, BUCKETS)
        found = self._words.get(n)
        if found is None:
            found = self._words[n] = marshal.loads(self.data["words"][n])
        return list(found.get(word, ())[:limit])

    def rows_in(self, text: str) -> list[tuple[str, ...]]:
        """The translations of every row whose head occurs in ``text``, in file order."""
        return [others for _, others in self.heads_in(text)]

    def heads_in(self, text: str) -> list[tuple[str, tuple[str, ...]]]:
        """(head, translations) of every row whose head occurs in ``text``, in file order."""
        hits: list[tuple[int, str, tuple[str, ...]]] = []
        blobs = self.data["heads"]
        for first in {*text, ""}:
            rows = self._heads.get(first)
            if rows is None:
                blob = blobs.get(first)
                rows = self._heads[first] = marshal.loads(blob) if blob is not None else []
            hits += [(i, head, others) for i, head, others in rows if head in text]
        return [(head, others) for _, head, others in sorted(hits)]


LOOKUP_VERSION = 2
"""Bumped when :class:`Lookup`'s data or its file changes shape: a cached lookup of another version is rebuilt."""
_MAGIC = b"mimoxlng"
"""The lookup file (:mod:`mimomem.common.span_file`): its header names the blobs' spans, ``words`` by
bucket and ``heads`` by first character."""


def _file_bytes(data: dict[str, Any]) -> bytes:
    blobs = Blobs()
    header = marshal.dumps(
        {"words": tuple(map(blobs.put, data["words"])), "heads": {c: blobs.put(b) for c, b in data["heads"].items()}}
    )
    return blobs.file(_MAGIC, header)


def mapped(path: str) -> dict[str, Any]:
    """The lookup data of the file at ``path``, its blobs views of the mapped file (a prompt touches only
    the pages it uses) and ``file``, the path (what a plan keeps of it).  Raises ``OSError`` or
    ``ValueError`` when the file is missing or damaged."""
    import mmap

    with open(path, "rb") as handle:
        view = memoryview(mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ))
    try:
        header, bulk = read(view, _MAGIC)
    except ValueError as error:
        raise ValueError(f"not a cross-language lookup, or a damaged one: {path}") from error
    if not isinstance(header, dict) or not isinstance(header.get("words"), tuple):
        raise ValueError(f"not a cross-language lookup: {path}")
    return {"words": Spans(bulk, header["words"]), "heads": Spans(bulk, header["heads"]), "file": path}


def lookup_path() -> str | None:
    """Where the lookup of the shipped file is kept: the cache directory, its name stamped with the
    lookup's version and the file's stamp (:mod:`mimomem.common.stamp`); ``None`` for an installation
    with no file to stamp."""
    try:
        st = os.stat(_data_path(XLANG_FILE))
    except OSError:  # a zipped or otherwise unusual installation: nothing to key a cache on
        return None
    from mimomem.common.cache import cache_root
    from mimomem.common.stamp import stamp_text

    name = f"xlang-{LOOKUP_VERSION}-{BUCKETS}-{stamp_text(st)}.lookup"
    return os.path.join(cache_root(), name)


def current() -> Lookup:
    """:func:`shipped`, made again when its cache file is gone (a plan names that file: it must exist)."""
    lookup = shipped()
    file = lookup.data.get("file")
    if file is not None and not os.path.exists(file):
        shipped.cache_clear()
        lookup = shipped()
    return lookup


@functools.lru_cache(maxsize=1)
def shipped() -> Lookup:
    """The lookup of the shipped file: built once, then kept in the cache directory (:func:`lookup_path`)
    and mapped (building it costs a process ~40M instructions; mapping it, a few thousand)."""
    cached = lookup_path()
    if cached is None:
        return Lookup.build(data_text(XLANG_FILE))
    try:
        return Lookup(mapped(cached))
    except (OSError, ValueError):
        pass  # missing or damaged: built again below
    lookup = Lookup.build(data_text(XLANG_FILE))
    try:
        from mimomem.common.files import atomic_write
        from mimomem.common.private import private_dir

        private_dir(os.path.dirname(cached))
        atomic_write(cached, _file_bytes(lookup.data), durable=False)
        return Lookup(mapped(cached))  # mapped, so that a plan names the file instead of copying it
    except (OSError, ValueError):
        return lookup  # a cache that cannot be written costs time, never an answer


def translations_in(text: str, words: Iterable[str], *, per_word: int = 3, lookup: Lookup | None = None) -> list[str]:
    """Cross-language terms for ``text``: Chinese for each of ``words`` (folded English), English for
    each Chinese vocabulary word that occurs in ``text``; at most ``per_word`` each, in order.

    A light lookup for the per-prompt path: no :class:`~mimomem.text.expansion.Vocabulary` is
    built (building one tokenizes the whole file, about 0.2 s), and the caller tokenizes only
    what it gets.  ``lookup``: the shipped file's (:func:`shipped`) unless given (a plan's copy).
    """
    lookup = shipped() if lookup is None else lookup
    out: list[str] = []
    for word in words:
        out += lookup.heads_of(word, per_word) if word else []
    out += [w for others in lookup.rows_in(text) for w in others[:per_word]]
    return list(dict.fromkeys(out))


__all__ = ["XLANG_FILE", "Lookup", "current", "data_text", "lookup_path", "mapped", "shipped", "translations_in"]
