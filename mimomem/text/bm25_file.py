"""A ``BM25Index`` saved to one file, loaded back by mapping it (nothing is read up front).

Layout (version 1; integers in the machine's byte order, which the header records)::

    0   MAGIC (16 bytes)
    16  format version (uint32), header length (uint32)
    24  header: UTF-8 JSON - engine, byte order, the caller's stamp, the core's scalars,
        section offsets, the document-id blob's offset and length, the file's total size
    ... sections, each starting on a 64-byte boundary: the core's arrays (native) or one
        ``marshal`` blob (pure), then the document ids (``marshal``)

The native core borrows its arrays straight from a copy-on-write ``mmap`` of the file, so
loading an index of 100,000 documents costs milliseconds (the id table is the only part
rebuilt) and the pages are shared with every other process that maps the file.  The pure
core reads its blob.  A file is written to a temp file and renamed into place, so readers
see the old file or the new one.

A file made by the other twin, another format version or byte order, or one that is
truncated or inconsistent raises ``IndexFileError`` (callers rebuild and save again).
What the sizes and offsets cannot reveal (a flipped bit inside a posting list) gives
wrong results, never a crash: the native core bounds-checks every value it uses as an
index.  Callers that cache an index of something else (``mimomem.search.backends``) put
a stamp of that thing's state in the file and compare it before trusting the contents.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import mmap
import os
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mimomem.common.files import open_regular
from mimomem.errors import IndexFileError
from mimomem.text._accel import NATIVE
from mimomem.text.bm25 import BM25Index

MAGIC = b"mimomem-bm25\x00\x00\x00\x01"
FORMAT_VERSION = 1
ENGINE = "native" if NATIVE else "pure"
"""Which twin's arrays this process reads and writes."""

_ALIGN = 64
_PREFIX = struct.Struct("=II")


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def save_index(index: BM25Index, path: str | os.PathLike[str], *, stamp: Any = None, durable: bool = True) -> int:
    """Write ``index`` to ``path`` atomically, with ``stamp`` (any JSON value) in the header; returns bytes.

    Compacts and merges the index first (what a fresh build would hold).  ``durable``
    fsyncs the file before the rename, so a crash never leaves a renamed, half-written file.
    """
    scalars, sections, doc_ids = index._core._export()
    ids_blob = marshal.dumps(doc_ids)
    pieces: list[Any] = [*sections, ids_blob]
    header: dict[str, Any] = {
        "engine": ENGINE,
        "byteorder": sys.byteorder,
        "stamp": stamp,
        "scalars": scalars,
    }
    start = _aligned(len(MAGIC) + _PREFIX.size + len(json.dumps(header)) + 64 * (len(pieces) + 4))
    offsets, position = [], start
    for piece in pieces:
        offsets.append(position)
        position = _aligned(position + len(piece))
    header.update(sections=offsets[:-1], doc_ids=[offsets[-1], len(ids_blob)], size=position)
    text = json.dumps(header).encode("utf-8")
    head = MAGIC + _PREFIX.pack(FORMAT_VERSION, len(text)) + text
    if len(head) > start:  # pragma: no cover - the reserve above is generous
        raise AssertionError("index file header outgrew its reserved space")
    target = Path(path)
    remove_stale_temps(target)
    import tempfile  # writes only: a read of the index never pays for it

    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(head.ljust(start, b"\x00"))
            for offset, piece in zip(offsets, pieces, strict=True):
                handle.seek(offset)
                handle.write(piece)
            handle.truncate(position)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return position


STALE_TEMP_SECONDS = 60


def remove_stale_temps(target: Path) -> None:
    """Remove temp files of writers of ``target`` that died mid-save (an index file can be hundreds of MB)."""
    prefix = f".{target.name}."
    now = time.time()
    try:
        entries = [e for e in os.scandir(target.parent) if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(prefix) :].split(".", 1)[0]
        try:
            old = now - entry.stat(follow_symlinks=False).st_mtime > STALE_TEMP_SECONDS
            if pid.isdigit() and int(pid) != os.getpid() and old and not _alive(int(pid)):
                os.unlink(entry.path)
        except OSError:
            continue


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # not ours to signal: possibly running
    return True


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON header of the index file at ``path`` (``FileNotFoundError`` when missing)."""
    with open_regular(path) as handle:
        return _parse_header(handle.read(4096), path, os.fstat(handle.fileno()).st_size)


def _parse_header(data: bytes, path: str | os.PathLike[str], size: int) -> dict[str, Any]:
    def damaged(why: str) -> IndexFileError:
        return IndexFileError(
            f"index file {os.fspath(path)} cannot be used ({why}); it is a cache: delete it and save the index "
            "again (mimomem's search cache rebuilds its own)"
        )

    if len(data) < len(MAGIC) + _PREFIX.size or not data.startswith(MAGIC):
        raise damaged("not a mimomem index file")
    version, length = _PREFIX.unpack_from(data, len(MAGIC))
    if version != FORMAT_VERSION:
        raise damaged(f"format version {version}, this mimomem reads {FORMAT_VERSION}")
    begin = len(MAGIC) + _PREFIX.size
    try:
        header = json.loads(data[begin : begin + length].decode("utf-8"))
        if not isinstance(header, dict):
            raise ValueError("header is not an object")
        engine, order, total = header["engine"], header["byteorder"], header["size"]
        if not all(key in header for key in ("sections", "doc_ids", "scalars")):
            raise KeyError("sections")
    except (ValueError, KeyError, UnicodeDecodeError) as exc:
        raise damaged(f"unreadable header: {exc}") from None
    if engine != ENGINE or order != sys.byteorder:
        raise damaged(f"written by the {engine} engine on a {order}-endian machine")
    if total != size:
        raise damaged(f"{size} bytes, its header says {total}: truncated or overwritten")
    return header


def load_index(
    path: str | os.PathLike[str], *, accept: Callable[[Any], bool] | None = None
) -> tuple[BM25Index, Any] | None:
    """``(index, stamp)`` from the file at ``path``; None when ``accept(stamp)`` is false.

    Raises ``FileNotFoundError`` when there is no file and ``IndexFileError`` when it
    cannot be used.  ``accept`` is asked before anything but the header is read.
    """
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        header = _parse_header(handle.read(4096), path, size)
        if accept is not None and not accept(header.get("stamp")):
            return None
        mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
    try:
        ids_at, ids_len = header["doc_ids"]
        doc_ids = marshal.loads(mapped[ids_at : ids_at + ids_len])
        if not isinstance(doc_ids, list):
            raise ValueError("document ids are not a list")
        index = BM25Index()
        index._core._import(header["scalars"], mapped, header["sections"], doc_ids)
    except (ValueError, TypeError, EOFError, KeyError, OverflowError) as exc:
        raise IndexFileError(
            f"index file {os.fspath(path)} cannot be used ({exc}); it is a cache: delete it and save the index "
            "again (mimomem's search cache rebuilds its own)"
        ) from None
    finally:
        del mapped  # the index holds its own reference to the mapping while it needs it
    return index, header.get("stamp")


__all__ = ["ENGINE", "FORMAT_VERSION", "MAGIC", "load_index", "read_header", "save_index"]
