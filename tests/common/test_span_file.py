"""A file of blobs read in place: blobs come back as aligned views; a foreign or damaged file is refused."""

from __future__ import annotations

import marshal

import pytest

from mimomem.common.span_file import HEAD, Blobs, Spans, read


def test_blobs_come_back_by_their_spans_aligned() -> None:
    blobs = Blobs()
    spans = {"a": blobs.put(b"abc"), "b": blobs.put(b""), "c": blobs.put(b"x" * 13)}
    data = blobs.file(b"testfile", marshal.dumps(spans))
    header, bulk = read(memoryview(data), b"testfile")
    assert spans == header and all(at % 8 == 0 for at, _ in spans.values())
    assert (len(data) - len(bulk)) % 8 == 0 and data[:8] == b"testfile"
    view = Spans(bulk, header)
    assert [b"abc", b"", b"x" * 13] == [bytes(view[k]) for k in "abc"]
    assert view.get("z") is None and len(view) == 3


@pytest.mark.parametrize("cut", [0, 5, HEAD.size, HEAD.size + 2])
def test_a_damaged_or_foreign_file_is_refused(cut: int) -> None:
    blobs = Blobs()
    data = blobs.file(b"testfile", marshal.dumps((blobs.put(b"abc"),)))
    with pytest.raises(ValueError):
        read(memoryview(data[:cut]), b"testfile")
    with pytest.raises(ValueError):
        read(memoryview(data), b"otherone")
