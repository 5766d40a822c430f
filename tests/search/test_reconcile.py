"""Reconcile: create / modify / delete / rename / touch, skips with reasons, concurrency."""

from __future__ import annotations

import io
import multiprocessing
import os
from pathlib import Path

import pytest

from mimomem import MemoryIndex
from mimomem.common.stamp import stamp_text
from mimomem.search import lazy_index, reconcile


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "data" / "memory"
    write(r, "global/MEMORY.md", "我们决定使用端口5433，数据库是postgres\n")
    write(r, "projects/p1/MEMORY.md", "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容\n")
    write(r, "sessions/s1/tasks/T1/progress.md", "T5.3 closure done\n")
    return r


def paths(index: MemoryIndex, query: str, **kw) -> list[str]:
    return [os.path.relpath(h.path, index.root) for h in index.search(query, **kw)]


def rows(index: MemoryIndex) -> dict[str, tuple[int, str]]:
    conn = index.docs.connection
    return {
        os.path.relpath(p, index.root): (i, fp)
        for p, i, fp in conn.execute("SELECT path, id, fingerprint FROM memory_fts")
    }


def test_first_reconcile_indexes_every_memory_file(root):
    index = MemoryIndex(root, reconcile_on_search=False)
    report = index.reconcile()
    assert (3, 0, 0) == (report.indexed, report.pruned, report.unchanged)
    assert {"global/MEMORY.md", "projects/p1/MEMORY.md", "sessions/s1/tasks/T1/progress.md"} == set(rows(index))
    again = index.reconcile()
    assert (0, 0, 3) == (again.indexed, again.pruned, again.unchanged)


def test_create_modify_delete_rename_and_touch(root):
    index = MemoryIndex(root, reconcile_on_search=False)
    index.reconcile()
    before = rows(index)

    write(root, "projects/p1/memory-db.md", "缓存用 redis\n")
    report = index.reconcile()
    assert 1 == report.indexed
    assert ["projects/p1/memory-db.md"] == paths(index, "缓存")

    write(root, "global/MEMORY.md", "端口改成 6543 了\n")
    report = index.reconcile()
    assert 1 == report.indexed
    assert [] == paths(index, "postgres")  # old text is gone
    assert ["global/MEMORY.md"] == paths(index, "6543")
    assert rows(index)["global/MEMORY.md"][0] > before["global/MEMORY.md"][0]

    (root / "projects/p1/memory-db.md").unlink()
    report = index.reconcile()
    assert 1 == report.pruned
    assert [] == paths(index, "缓存")

    os.rename(root / "projects/p1/MEMORY.md", root / "projects/p1/memory-deploy.md")
    report = index.reconcile()
    assert (1, 1) == (report.indexed, report.pruned)
    assert ["projects/p1/memory-deploy.md"] == paths(index, "部署")

    progress = root / "sessions/s1/tasks/T1/progress.md"
    row_before = rows(index)["sessions/s1/tasks/T1/progress.md"]
    st = progress.stat()
    os.utime(progress, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    report = index.reconcile()
    assert (0, 1, 0) == (report.indexed, report.touched, report.pruned)
    row_after = rows(index)["sessions/s1/tasks/T1/progress.md"]
    assert row_before[0] == row_after[0]  # same row, not re-tokenized
    assert row_before[1] != row_after[1] == stamp_text(progress.stat())
    assert 0 == index.reconcile().touched


def test_same_size_rewrite_with_restored_mtime_is_seen_through_the_inode(root):
    index = MemoryIndex(root, reconcile_on_search=False)
    index.reconcile()
    target = root / "sessions/s1/tasks/T1/progress.md"
    st = target.stat()
    replacement = root / "sessions/s1/tasks/T1/.tmp"
    replacement.write_text("T9.9 reopened now\n", encoding="utf-8")  # same length as before
    os.utime(replacement, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(replacement, target)  # what atomic_write and many editors do
    assert st.st_size == target.stat().st_size and st.st_mtime_ns == target.stat().st_mtime_ns
    assert 1 == index.reconcile().indexed
    assert ["sessions/s1/tasks/T1/progress.md"] == paths(index, "T9.9")


def test_skips_are_listed_with_reasons(root, tmp_path):
    outside = write(tmp_path, "outside/secret.md", "outside text\n")
    write(root, ".hidden/MEMORY.md", "hidden dir\n")
    write(root, "global/.draft.md", "hidden file\n")
    write(root, "global/image.png", b"\x89PNG")
    write(root, "README.md", "not a memory path\n")
    write(root, "global/big.md", "x" * 2000)
    os.symlink(outside, root / "global" / "link.md")
    os.symlink(root / "global" / "MEMORY.md", root / "projects" / "p1" / "inner.md")
    index = MemoryIndex(root, reconcile_on_search=False, max_file_bytes=1000)
    report = index.reconcile()
    reasons = {os.path.relpath(i.path, root): i.reason for i in report.skipped}
    assert "hidden" == reasons[".hidden"]
    assert "hidden" == reasons["global/.draft.md"]
    assert reasons["global/image.png"].startswith("not Markdown")
    assert reasons["README.md"].startswith("not a memory file path")
    assert reasons["global/big.md"].startswith("oversized (2000 bytes")
    assert "outside the memory root" in reasons["global/link.md"]
    assert "not followed" in reasons["projects/p1/inner.md"]
    assert [] == paths(index, "outside")
    stored = {os.path.relpath(i.path, root): i.reason for i in index.issues() if i.kind == "skipped"}
    assert reasons == stored
    assert 3 == index.stats().rows


def test_file_that_grows_too_large_is_dropped(root):
    index = MemoryIndex(root, reconcile_on_search=False, max_file_bytes=1000)
    index.reconcile()
    write(root, "global/MEMORY.md", "端口 " + "y" * 2000)
    report = index.reconcile()
    assert 1 == report.pruned
    assert "global/MEMORY.md" not in rows(index)


def test_invalid_utf8_is_indexed_with_replacement_characters_and_reported(root):
    write(root, "sessions/s1/notes.md", b"\xff\xfe broken \xc3 " + "驗證 works\n".encode())
    index = MemoryIndex(root, reconcile_on_search=False)
    report = index.reconcile()
    assert ["sessions/s1/notes.md"] == [os.path.relpath(w.path, root) for w in report.warnings]
    assert "invalid UTF-8" in report.warnings[0].reason
    hit = index.search("驗證")[0]
    assert "\ufffd" in hit.snippet and hit.path.endswith("notes.md")
    assert any(i.kind == "warning" for i in index.issues())  # kept after later reconciles
    index.reconcile()
    assert any(i.kind == "warning" for i in index.issues())
    write(root, "sessions/s1/notes.md", "fixed now\n")
    index.reconcile()
    assert not any(i.kind == "warning" for i in index.issues())


def test_at_most_once_per_interval(root):
    index = MemoryIndex(root, reconcile_on_search=False)
    conn = index.docs.connection
    assert reconcile.reconcile(conn, [root], classify_root=root, interval=60, clock=lambda: 1000.0).ran
    write(root, "global/MEMORY.md", "changed\n")
    skipped = reconcile.reconcile(conn, [root], classify_root=root, interval=60, clock=lambda: 1030.0)
    assert not skipped.ran
    later = reconcile.reconcile(conn, [root], classify_root=root, interval=60, clock=lambda: 1061.0)
    assert later.ran and 1 == later.indexed


def test_interval_does_not_skip_a_reconcile_of_other_roots(root, tmp_path):
    # `mimomem search x` then `mimomem search x --claude-code` within the interval: the second
    # walks more roots, so the first run must not make it skip (the cc files would be missing).
    extra = tmp_path / ".claude" / "projects" / "-proj" / "memory"
    write(extra, "feedback.md", "kumo builds use pnpm\n")
    index = MemoryIndex(root, reconcile_on_search=False)
    conn = index.docs.connection
    assert reconcile.reconcile(conn, [root], classify_root=root, interval=60, clock=lambda: 1000.0).ran
    both = reconcile.reconcile(conn, [root, extra], classify_root=root, interval=60, clock=lambda: 1001.0)
    assert both.ran and 1 == both.indexed
    assert not reconcile.reconcile(conn, [root, extra], classify_root=root, interval=60, clock=lambda: 1002.0).ran


def test_search_reconciles_lazily_but_not_more_than_once_per_interval(root):
    index = MemoryIndex(root, reconcile_interval=3600)
    assert ["global/MEMORY.md"] == paths(index, "端口")  # first search indexed the tree
    write(root, "projects/p1/memory-new.md", "新的笔记\n")
    assert [] == paths(index, "笔记")  # within the interval: not reconciled again
    index.reconcile()
    assert ["projects/p1/memory-new.md"] == paths(index, "笔记")
    fresh = MemoryIndex(root, reconcile_interval=0)
    write(root, "projects/p1/memory-new2.md", "另一个笔记\n")
    assert 2 == len(paths(fresh, "笔记"))


def test_progress_count_on_stderr_for_large_batches(root, monkeypatch):
    monkeypatch.setattr(reconcile, "PROGRESS_THRESHOLD", 4)
    for i in range(6):
        write(root, f"projects/p1/memory-t{i}.md", f"note {i}\n")
    stream = io.StringIO()
    MemoryIndex(root, reconcile_on_search=False, progress=stream).reconcile()
    assert "mimomem: reconcile: 9/9 files" in stream.getvalue()
    quiet = io.StringIO()
    MemoryIndex(root, db_path=root.parent / "other.db", reconcile_on_search=False, progress=quiet)
    assert "" == quiet.getvalue()


def test_claude_code_roots_are_opt_in(root, tmp_path):
    base = tmp_path / "home" / ".claude" / "projects"
    write(base, "-home-u-app/memory/feedback_style.md", "---\nname: x\ntype: feedback\n---\n部署前先跑测试\n")
    write(base, "-home-u-app/memory/MEMORY.md", "- [style](feedback_style.md)\n")
    write(base, "-home-u-app/notes.md", "not in memory/\n")
    write(base, "other/README.txt", "no memory dir\n")
    off = MemoryIndex(root, reconcile_on_search=False, claude_code_base=base)
    off.reconcile()
    assert not any(p.startswith(str(base)) for p in map(str, rows(off)))
    off.close()

    on = MemoryIndex(root, reconcile_on_search=False, claude_code=True, claude_code_base=base)
    on.reconcile()
    hits = on.search("部署前", scope="claude-code")
    assert [("claude-code", "-home-u-app", "feedback")] == [(h.scope, h.scope_id, h.type) for h in hits]
    assert {"claude-code", "global", "project", "session"} == set(on.stats().per_scope)
    assert {"memory", "free", "feedback", "progress"} == set(on.stats().per_type)
    on.close()

    again = MemoryIndex(root, reconcile_on_search=False, claude_code_base=base)  # switched off: pruned
    assert 2 == again.reconcile().pruned
    assert [] == list(again.search("部署前", scope="claude-code"))


def test_deleting_the_database_gives_the_same_results(root):
    rng_texts = ["部署 脚本 pnpm", "部署脚本 v1.2.3", "端口 5433 部署", "脚本 npm 端口", "部署脚本用pnpm"]
    for i, text in enumerate(rng_texts):
        write(root, f"projects/p{i}/MEMORY.md", text + "\n")
    index = MemoryIndex(root, reconcile_interval=0)
    index.reconcile()
    write(root, "projects/p0/MEMORY.md", "部署 脚本 pnpm 改过\n")  # history: ids now differ from a fresh build
    queries = ["部署脚本", "端口", "pnpm 部署", "v1.2.3", "脚本"]
    before = {
        (q, b): [(h.path, h.score) for h in index.search(q, backend=b)]
        for q in queries
        for b in ("fts5-bigram", "native-index", "fts5-unicode61")
    }
    index.close()
    db_path = Path(index.db_path)
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    rebuilt = MemoryIndex(root, reconcile_interval=0)
    after = {
        (q, b): [(h.path, h.score) for h in rebuilt.search(q, backend=b)]
        for q in queries
        for b in ("fts5-bigram", "native-index", "fts5-unicode61")
    }
    assert before == after


def _reconcile_worker(root: str, db_path: str, rounds: int) -> None:
    index = MemoryIndex(root, db_path, reconcile_on_search=False)
    for _ in range(rounds):
        index.reconcile()
    index.close()


def test_two_processes_reconciling_at_once(root):
    for i in range(40):
        write(root, f"projects/p{i % 4}/memory-n{i}.md", f"第{i}条笔记 note{i}\n")
    db_path = str(root.parent / "mimomem.db")
    MemoryIndex(root, db_path, reconcile_on_search=False).close()  # create the schema first
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_reconcile_worker, args=(str(root), db_path, 5)) for _ in range(2)]
    for p in procs:
        p.start()
    for i in range(0, 40, 3):
        write(root, f"projects/p{i % 4}/memory-n{i}.md", f"改过的第{i}条 edited{i}\n")
    for p in procs:
        p.join(120)
        assert 0 == p.exitcode
    index = MemoryIndex(root, db_path, reconcile_on_search=False)
    index.reconcile()
    conn = index.docs.connection
    for spec in lazy_index.built_indexes(conn):
        conn.execute(f"INSERT INTO {spec.table}({spec.table}) VALUES ('integrity-check')")
    assert 43 == index.stats().rows
    edited = index.search("edited0", retrieval="off")  # the index's content, not feedback's related notes
    assert [f"projects/p{0}/memory-n0.md"] == [os.path.relpath(h.path, root) for h in edited]
    assert [] == list(index.search("note0"))
