"""Reading an append-only JSONL file from a cursor: partial lines wait, bad lines are counted, a swap is noticed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mimomem.history import jsonl
from mimomem.history.jsonl import read_jsonl


def _read(path: Path, **kwargs: Any) -> tuple[list[tuple[int, dict[str, Any]]], jsonl.JsonlRead]:
    seen: list[tuple[int, dict[str, Any]]] = []
    result = read_jsonl(path, lambda at, obj: seen.append((at, obj)), **kwargs)
    return seen, result


def test_each_object_comes_with_the_byte_offset_of_its_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [json.dumps({"n": 1, "text": "中文"}, ensure_ascii=False), json.dumps({"n": 2})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    seen, result = _read(path)
    second = len(lines[0].encode()) + 1
    assert [(0, 1), (second, 2)] == [(at, obj["n"]) for at, obj in seen]
    assert (result.end, result.size, result.replaced) == (path.stat().st_size, path.stat().st_size, False)
    again, rest = _read(path, offset=second, head=result.head)
    assert [2] == [obj["n"] for _, obj in again] and not rest.replaced


def test_the_cursor_never_passes_an_unfinished_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"n": 1}\n{"n": 2, "te')
    seen, result = _read(path)
    assert [1] == [obj["n"] for _, obj in seen] and result.end == 9
    with path.open("ab") as handle:
        handle.write(b'xt": "done"}\n')
    seen, result = _read(path, offset=result.end, head=result.head)
    assert [{"n": 2, "text": "done"}] == [obj for _, obj in seen]


def test_bad_lines_are_skipped_with_their_reason_and_the_cursor_moves_past_them(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    deep = "[" * 200_000 + "]" * 200_000
    path.write_bytes(b"\xff\xfe\n{not json\n[1, 2]\n\n   \n" + deep.encode() + b'\n{"ok": true}\n')
    seen, result = _read(path)
    assert [{"ok": True}] == [obj for _, obj in seen]
    assert {"line not UTF-8": 1, "line not JSON": 1, "line not a JSON object": 1, "line nested too deep": 1} == dict(
        result.skipped
    )
    assert result.end == path.stat().st_size


def test_a_line_longer_than_the_limit_is_dropped_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonl, "MAX_LINE", 64)
    monkeypatch.setattr(jsonl, "CHUNK", 16)  # the long line spans many reads
    path = tmp_path / "t.jsonl"
    path.write_text('{"n": 1}\n{"long": "' + "x" * 500 + '"}\n{"n": 3}\n', encoding="utf-8")
    seen, result = _read(path)
    assert [1, 3] == [obj["n"] for _, obj in seen]
    assert {"line too long": 1} == dict(result.skipped)


def test_a_replaced_or_shortened_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"n": 1}\n{"n": 2}\n', encoding="utf-8")
    _, first = _read(path)
    path.write_text('{"n": 9}\n{"n": 8}\n', encoding="utf-8")  # same size, other first bytes
    calls: list[str] = []
    seen, result = _read(path, offset=first.end, head=first.head, on_replaced=lambda: calls.append("replaced"))
    assert result.replaced and calls == ["replaced"] and [9, 8] == [obj["n"] for _, obj in seen]
    path.write_text('{"n": 9}\n', encoding="utf-8")  # shorter than the cursor
    seen, result = _read(path, offset=first.end)
    assert result.replaced and [9] == [obj["n"] for _, obj in seen]


def test_symlinks_and_directories_are_refused(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text('{"n": 1}\n', encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    with pytest.raises(OSError):
        _read(link)
    with pytest.raises(OSError, match="not a regular file"):
        _read(tmp_path)
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file"):  # opened without blocking on a writer
        _read(fifo)
