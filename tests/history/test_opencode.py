"""OpenCode's JSON file store -> the history store: odd record files are skipped with a reason, changes come in."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from trajectory_fixtures import day, make_project, ms

from mimomem.history import opencode
from mimomem.history.history_store import HistoryStore
from mimomem.history.opencode import import_opencode, opencode_dir
from mimomem.history.records import parse_time

T0 = ms(day(30, 16))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HistoryStore]:
    with HistoryStore(tmp_path / "data" / "history.db") as opened:
        yield opened


class Storage:
    """An OpenCode ``storage/`` folder; every file written gets the next modification time (no sleeps)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.clock = T0 * 1_000_000

    def put(self, kind: str, group: str, data: Any, *, raw: bytes | None = None) -> Path:
        name = data["id"] if isinstance(data, dict) and "id" in data else "odd"
        path = self.root / kind / group / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw if raw is not None else json.dumps(data, ensure_ascii=False).encode())
        self.clock += 1_000_000_000
        os.utime(path, ns=(self.clock, self.clock))
        return path

    def session(self, cwd: str) -> None:
        self.put("session", "p1", {"id": "ses_1", "directory": cwd, "title": "修复部署", "time": {"created": T0}})
        self.put("message", "ses_1", {"id": "msg_1", "sessionID": "ses_1", "role": "user", "time": {"created": T0}})

    def text(self, uid: str, text: str, **extra: Any) -> Path:
        part = {"id": uid, "sessionID": "ses_1", "messageID": "msg_1", "type": "text", "text": text, **extra}
        return self.put("part", "msg_1", part)


@pytest.fixture
def storage(tmp_path: Path) -> Storage:
    made = Storage(tmp_path / "opencode" / "storage")
    made.session(str(make_project(tmp_path)))
    return made


def _texts(store: HistoryStore) -> list[tuple[str, int]]:
    return [tuple(r) for r in store.conn.execute("SELECT text, synthetic FROM parts ORDER BY uid")]


def test_an_edited_record_file_comes_in_again_and_an_unchanged_one_does_not(
    storage: Storage, store: HistoryStore
) -> None:
    part = storage.text("prt_1", "先跑 lint 再提交")
    first = import_opencode(store, storage.root)
    assert (first.sessions, first.messages, first.parts) == (1, 1, 1)
    assert (0, 0, 0) == (lambda r: (r.sessions, r.messages, r.parts))(import_opencode(store, storage.root))
    part.write_text(json.dumps({**json.loads(part.read_text()), "text": "先跑 lint 和 test 再提交"}), "utf-8")
    storage.clock += 10**9
    os.utime(part, ns=(storage.clock, storage.clock))
    storage.text("prt_2", "<system>injected</system>", synthetic=True)
    again = import_opencode(store, storage.root)
    assert again.parts == 2
    assert _texts(store) == [("先跑 lint 和 test 再提交", 0), ("<system>injected</system>", 1)]


def test_odd_record_files_are_skipped_each_with_its_reason(
    storage: Storage, store: HistoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(opencode, "MAX_FILE", 4096)
    storage.text("prt_ok", "好的")
    storage.put("part", "msg_1", {"id": "prt_big"}, raw=b'{"id": "prt_big", "text": "' + b"x" * 5000 + b'"}')
    storage.put("part", "msg_1", {"id": "prt_latin"}, raw=b'{"id": "\xff"}')
    storage.put("part", "msg_1", {"id": "prt_deep"}, raw=b'{"id": "d", "x": ' + b"[" * 150 + b"]" * 150 + b"}")
    storage.put("part", "msg_1", {"id": "prt_noid", "no": "id"}, raw=b'{"text": "no id"}')
    storage.put("part", "msg_1", {"id": "prt_new", "sessionID": "ses_1", "messageID": "msg_1", "type": "hologram"})
    storage.put("message", "ses_1", {"id": "msg_x", "sessionID": "ses_1", "role": "system"})
    storage.put("message", "ses_1", {"id": "msg_y", "role": "user"})
    storage.put("part", "msg_1", {"id": "prt_t", "sessionID": "ses_1", "messageID": "msg_1", "type": "text", "text": 5})
    report = import_opencode(store, storage.root)
    assert dict(report.skipped) == {
        "record file larger than 8 MiB": 1,
        "record file not readable JSON": 1,
        "record file nested deeper than 100 levels": 1,
        "record file without an id": 1,
        "unknown part type 'hologram'": 1,
        "text part whose text is not a string": 1,
        "message without role or session": 2,
    }
    assert _texts(store) == [("好的", 0)]


def test_symlinked_record_files_and_groups_are_not_followed(
    storage: Storage, store: HistoryStore, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "prt_s.json"
    secret.write_text(
        json.dumps({"id": "prt_s", "sessionID": "ses_1", "messageID": "msg_1", "type": "text", "text": "x"})
    )
    (storage.root / "part" / "msg_1").mkdir(parents=True, exist_ok=True)
    (storage.root / "part" / "msg_1" / "prt_s.json").symlink_to(secret)
    (storage.root / "part" / "msg_linked").symlink_to(outside, target_is_directory=True)
    report = import_opencode(store, storage.root)
    assert report.parts == 0 and _texts(store) == []


def test_the_storage_folder_itself_or_its_data_folder_may_be_given(storage: Storage, store: HistoryStore) -> None:
    storage.text("prt_1", "你好")
    assert import_opencode(store, storage.root.parent).parts == 1  # the data folder holding storage/
    assert import_opencode(store, storage.root).sources == 1  # storage/ itself: a source of its own


def test_the_default_folder_follows_xdg_then_home(tmp_path: Path) -> None:
    assert opencode_dir({"XDG_DATA_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "opencode"
    assert opencode_dir({"XDG_DATA_HOME": "relative", "HOME": str(tmp_path)}) == tmp_path / ".local/share/opencode"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1_764_000_000, 1_764_000_000_000),  # seconds
        (1_764_000_000_123, 1_764_000_000_123),  # ms
        ("2026-11-30T16:00:00Z", ms(day(30, 16))),
        ("2026-11-30T16:00:00.1234567Z", ms(day(30, 16)) + 123),  # seven fraction digits
        (float("inf"), None),
        (float("nan"), None),
        (True, None),
        ("yesterday", None),
        ("", None),
        ({"created": 1}, None),
    ],
)
def test_times_come_as_seconds_milliseconds_or_iso_and_junk_is_none(value: Any, expected: int | None) -> None:
    assert parse_time(value) == expected
