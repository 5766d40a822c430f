"""The root snapshot: a new process re-reads only changed files, and sees exactly what a full parse sees."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from mimomem import CuratedMemory
from mimomem.curated import snapshot
from mimomem.curated.roots import CuratedRoot

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
CATEGORIES = ("rules", "preferences", "decisions", "pitfalls", "facts")


pytestmark = pytest.mark.usefixtures("cache")  # tests/curated/conftest.py


def _store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _fill(store: CuratedMemory) -> None:
    store.remember_many(
        [
            {
                "category": "facts",
                "summary": f"端口 {i} 的部署说明",
                "body": f"body {i} 部署脚本",
                "load_when": ["deploy"],
            }
            for i in range(12)
        ]
        + [{"category": "rules", "summary": "always run ruff", "pinned": True}],
        author="user",
    )
    root = store.roots["project"]
    (root / "facts" / "broken.md").write_text("---\nsummary: [unclosed\n---\nbody\n", encoding="utf-8")
    (root / "facts" / "odd-fields.md").write_text(
        "---\nsummary: odd\ncreated: not-a-date\nload_when: {a: 1}\nid: facts/other\n---\nbody\n", encoding="utf-8"
    )


def _parsed(path: Path, *, use_snapshot: bool, monkeypatch: pytest.MonkeyPatch) -> CuratedRoot:
    root = CuratedRoot("project", path, CATEGORIES)
    with monkeypatch.context() as patch:
        if not use_snapshot:
            patch.setattr(snapshot.RootSnapshot, "lookup", lambda self, name, key: None)
            patch.setattr(snapshot.RootSnapshot, "save", lambda self: None)
        root.load()
    return root


def _view(root: CuratedRoot) -> tuple[dict[str, tuple[object, ...]], list[object]]:
    return {k: tuple(m) for k, m in root.memories.items()}, sorted(map(str, root.problems))  # type: ignore[return-value]


def test_a_new_process_gets_what_a_full_parse_gives(tmp_path, monkeypatch, cache):
    _fill(_store(tmp_path))
    path = tmp_path / "proj" / ".memory"
    first = _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)  # parses, writes the snapshot
    assert [p.name for p in (cache / "curated").iterdir()]
    calls: list[Path] = []
    original = CuratedRoot._read_memory_file
    monkeypatch.setattr(CuratedRoot, "_read_memory_file", lambda self, p, i: calls.append(p) or original(self, p, i))  # type: ignore[func-returns-value]
    second = _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)
    assert calls == []  # nothing read again
    full = _parsed(path, use_snapshot=False, monkeypatch=monkeypatch)
    assert _view(second) == _view(first) == _view(full)
    assert any("broken.md" in str(p) for p in second.problems) and any("id-mismatch" in str(p) for p in second.problems)


def test_any_change_to_a_file_is_read_again(tmp_path, monkeypatch):
    store = _store(tmp_path)
    _fill(store)
    path = tmp_path / "proj" / ".memory"
    _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)
    target = next((path / "facts").glob("*-3.md"), None) or sorted((path / "facts").glob("*.md"))[3]
    before = target.stat()
    text = target.read_text(encoding="utf-8")
    edited = text.replace("body", "BODY", 1)
    assert len(edited) == len(text)
    with open(target, "r+", encoding="utf-8") as handle:  # in place: same inode, same size
        handle.write(edited)
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old mtime: only ctime tells
    (path / "facts" / "broken.md").unlink()
    (path / "facts" / "added.md").write_text("---\nsummary: added later\n---\nnew\n", encoding="utf-8")
    again = _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)
    full = _parsed(path, use_snapshot=False, monkeypatch=monkeypatch)
    assert _view(again) == _view(full)
    assert "BODY" in again.memories[f"facts/{target.stem}"].body
    assert "facts/added" in again.memories and not any("broken.md" in str(p) for p in again.problems)


@pytest.mark.parametrize("damage", ["garbage", "empty", "other-root", "payloads", "table"])
def test_an_unusable_snapshot_is_ignored_and_replaced(tmp_path, monkeypatch, cache, damage):
    _fill(_store(tmp_path))
    path = tmp_path / "proj" / ".memory"
    _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)
    saved = snapshot.snapshot_file(path)
    if damage == "garbage":
        saved.write_bytes(b"\x00not marshal" * 50)
    elif damage == "empty":
        saved.write_bytes(b"")
    elif damage == "payloads":  # the table intact, every payload after it garbled
        data = saved.read_bytes()
        head = 8 + int.from_bytes(data[:8], "little")
        saved.write_bytes(data[:head] + bytes(b ^ 0x5A for b in data[head:]))
    elif damage == "table":  # a table of the right identity whose entries are not (key, start, end)
        import marshal

        table = marshal.dumps((snapshot.RootSnapshot(path, "project").identity, {"facts/x.md": 5}))
        saved.write_bytes(len(table).to_bytes(8, "little") + table)
    else:  # the snapshot of another root copied over this one's
        other = tmp_path / "other"
        _fill(CuratedMemory(other, tmp_path / "global2", now=NOW))
        _parsed(other / ".memory", use_snapshot=True, monkeypatch=monkeypatch)
        saved.write_bytes(snapshot.snapshot_file(other / ".memory").read_bytes())
    again = _parsed(path, use_snapshot=True, monkeypatch=monkeypatch)
    assert _view(again) == _view(_parsed(path, use_snapshot=False, monkeypatch=monkeypatch))
    assert snapshot.RootSnapshot.read(path, "project").entries  # rewritten for this root


def test_recall_from_a_snapshot_equals_recall_from_the_files(tmp_path, monkeypatch):
    store = _store(tmp_path)
    _fill(store)
    expected = [(r.id, r.score) for r in store.recall("部署说明", limit=5, count_hits=False)]
    assert [(r.id, r.score) for r in _store(tmp_path).recall("部署说明", limit=5, count_hits=False)] == expected
    assert [(r.id, r.score) for r in _store(tmp_path).recall("部署说明", limit=5, count_hits=False)] == expected


def test_small_roots_are_not_snapshotted(tmp_path, monkeypatch, cache):
    monkeypatch.setattr(snapshot, "MIN_FILES", 200)
    _fill(_store(tmp_path))
    _parsed(tmp_path / "proj" / ".memory", use_snapshot=True, monkeypatch=monkeypatch)
    assert not (cache / "curated").exists()


def test_a_new_process_decodes_only_the_payloads_it_uses_and_parses_no_small_root(tmp_path, monkeypatch):
    """The default threshold snapshots even a root of three files (a new process would import YAML for
    them), and serving one hit decodes that file's payload only."""
    import marshal

    monkeypatch.undo()  # the default MIN_FILES, the test's own cache directory
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    store = _store(tmp_path)
    for i in range(3):
        store.remember("facts", f"redis port {i} note", author="user")
    _store(tmp_path).recall("redis")  # a new process parses the three files and saves them
    from mimomem.common import frontmatter

    parsed, decoded = [], []
    real_parse, real_loads = frontmatter.parse, snapshot._loads
    monkeypatch.setattr(frontmatter, "parse", lambda text: parsed.append(text) or real_parse(text))  # type: ignore[func-returns-value]
    monkeypatch.setattr(snapshot, "_loads", lambda raw: decoded.append(raw) or real_loads(raw))  # type: ignore[func-returns-value]
    hits = _store(tmp_path).recall("redis port 1", limit=1, count_hits=False)
    assert [r.id for r in hits] == ["facts/redis-port-1-note"] and parsed == []
    assert len(decoded) == 1 and marshal.loads(decoded[0])[0][1] == "redis port 1 note"  # that payload only


def test_old_snapshots_are_pruned(tmp_path, monkeypatch, cache):
    monkeypatch.setattr(snapshot, "MAX_SNAPSHOTS", 2)
    for n in range(4):
        store = CuratedMemory(tmp_path / f"p{n}", tmp_path / "global", now=NOW)
        store.remember("facts", f"fact number {n}", author="user")
        _parsed(tmp_path / f"p{n}" / ".memory", use_snapshot=True, monkeypatch=monkeypatch)
        os.utime(snapshot.snapshot_file(tmp_path / f"p{n}" / ".memory"), ns=(n * 10**9, n * 10**9))
    kept = sorted(p.name for p in (cache / "curated").iterdir())
    assert len(kept) == 2
    assert snapshot.snapshot_file(tmp_path / "p3" / ".memory").name in kept
