"""A file of blobs read in place: a small header names each blob by its ``(offset, length)`` span.

The layout: 8 bytes of magic, the header's length (``<8sQ``), the header (a marshalled object), then
the blobs, each 8-byte aligned.  A reader maps the file and takes a blob as a view of the mapping
when it is asked for (:class:`Spans`), so it touches only the pages it uses.  The hook's plans
(:mod:`mimomem.served.plans`) and the cross-language lookup (:mod:`mimomem.text.xlang`) are such files.
"""

from __future__ import annotations

import marshal
from struct import Struct
from struct import error as StructError

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:  # a served prompt imports this module: no typing at run time
    from typing import Any

HEAD = Struct("<8sQ")
"""The magic and the length of the header."""


class Blobs:
    """The blobs of a file being written: :meth:`put` each (its span is what the header keeps), then
    :meth:`file` with the header."""

    def __init__(self) -> None:
        self._bulk = bytearray()

    def put(self, blob: bytes) -> tuple[int, int]:
        """Add ``blob`` (8-byte aligned); its ``(offset, length)`` among the blobs."""
        bulk = self._bulk
        bulk.extend(b"\0" * (-len(bulk) % 8))
        at = len(bulk)
        bulk.extend(blob)
        return at, len(blob)

    def file(self, magic: bytes, header: bytes) -> bytes:
        """The whole file: ``magic``, ``header`` (a marshalled object naming the spans), then the blobs
        put so far.  The caller marshals the header: marshal's bytes depend on how many references
        the object has (shared objects are flagged), and each file keeps the bytes it always had."""
        start = HEAD.pack(magic, len(header)) + header
        return start + b"\0" * (_blobs_start(len(header)) - len(start)) + bytes(self._bulk)


def read(view: memoryview, magic: bytes) -> tuple[Any, memoryview]:
    """The header of the mapped file ``view`` and the view of its blobs (the header's spans index it).

    Raises ``ValueError`` when the file is damaged or is not a ``magic`` file."""
    try:
        found, size = HEAD.unpack_from(view)
        if found != magic:
            raise ValueError(f"not a {magic.decode('ascii', 'replace')} file")
        header = marshal.loads(view[HEAD.size : HEAD.size + size])
    except (StructError, EOFError, TypeError) as error:
        raise ValueError("a damaged file of spans") from error
    return header, view[_blobs_start(size) :]


def _blobs_start(header_size: int) -> int:
    end = HEAD.size + header_size
    return end + (-end % 8)


class Spans:
    """Blobs of a mapped file by index or key (a tuple or dict of ``(offset, length)``): a view of the
    mapping when asked for."""

    __slots__ = ("_bulk", "_spans")

    def __init__(self, bulk: memoryview, spans: Any) -> None:
        self._bulk, self._spans = bulk, spans

    def __getitem__(self, at: Any) -> memoryview:
        start, size = self._spans[at]
        return self._bulk[start : start + size]

    def get(self, key: Any, default: Any = None) -> Any:
        span = self._spans.get(key)
        return default if span is None else self._bulk[span[0] : span[0] + span[1]]

    def __len__(self) -> int:
        return len(self._spans)
