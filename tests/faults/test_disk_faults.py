"""A data root on a full or read-only disk (issue 32, bad input): the hooks exit 0 with at most one line
on stderr, nothing already kept is lost, nothing is written raw, and the next session works.

The full disk is simulated in this process (every write ``os.open`` under the data and cache roots
fails with ``ENOSPC``); the read-only disk is real: the roots are made read-only and the hook runs as
its own process (as ``nobody`` when the tests run as root, whom permissions do not stop).
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mimomem.common import detach
from mimomem.hooks import claude_code
from mimomem.tree.memory_tree import MemoryTree

SECRET = "Qm4TzX8pLw2VnR6sKd9Hc3Yb7Fj5Ga1E"
EVENTS = (
    ("SessionStart", {"source": "startup"}),
    ("UserPromptSubmit", {"prompt": "部署前要跑什么？staging 端口"}),
    ("PreCompact", {"trigger": "auto"}),
    ("SessionEnd", {"reason": "exit"}),
)


def _line(sid: str, kind: str, n: int, content: Any, repo: Path) -> str:
    message = {"role": kind, "content": content}
    obj = {"type": kind, "sessionId": sid, "uuid": f"{sid}-{n}", "cwd": str(repo), "message": message}
    obj["timestamp"] = f"2026-11-30T09:{n:02d}:00.000Z"
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _transcript(root: Path, repo: Path, sid: str, rule: str) -> Path:
    path = root / "transcripts" / f"{sid}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        _line(sid, "user", 1, rule, repo),
        _line(sid, "user", 2, f"the deploy token we use for staging, which CI reads, is {SECRET}", repo),
        _line(sid, "assistant", 3, [{"type": "text", "text": "Noted."}], repo),
    ]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def project(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path]]:
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="mimomem-disk-"))  # pytest's own folder is its user's alone
    root.chmod(0o755)  # the read-only case runs the hook as another user
    repo = root / "shop-api"
    (repo / ".git").mkdir(parents=True)
    env = {"home": root / "home", "cache": root / "cache", "config": root / "config"}
    monkeypatch.setenv("MIMOMEM_HOME", str(env["home"]))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(env["cache"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(env["config"]))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    monkeypatch.chdir(repo)
    yield {**env, "root": root, "repo": repo}
    for here, dirs, _ in os.walk(root):  # make everything removable again
        for d in dirs:
            (Path(here) / d).chmod(0o700)
    shutil.rmtree(root, ignore_errors=True)


def _session(p: dict[str, Path], monkeypatch: pytest.MonkeyPatch, sid: str, rule: str) -> list[tuple[str, str]]:
    """One session through the hook in this process (detached workers run here); (stdout, stderr) per event."""
    transcript = _transcript(p["root"], p["repo"], sid, rule)
    spawned: list[list[str]] = []
    monkeypatch.setattr(detach, "spawn_detached", lambda argv, log: spawned.append(list(argv)))
    outputs = []
    for event, fields in EVENTS:
        raw = {"session_id": sid, "transcript_path": str(transcript), "cwd": str(p["repo"]), "hook_event_name": event}
        out, err = io.StringIO(), io.StringIO()
        assert claude_code.run(io.StringIO(json.dumps({**raw, **fields})), out, err) == 0
        outputs.append((out.getvalue(), err.getvalue()))
        from mimomem.memory import carry
        from mimomem.passes import promote

        for argv in spawned:
            try:
                if argv[2] == "mimomem.memory.carry":
                    carry.run_background(*argv[3:])
                elif argv[2] == "mimomem.passes.promote":
                    promote.run_background(*argv[3:])
            except OSError:
                pass  # a detached worker on a full disk fails on its own, never in the hook
        spawned.clear()
    return outputs


def _files(top: Path) -> dict[str, bytes]:
    return {str(p.relative_to(top)): p.read_bytes() for p in sorted(top.rglob("*")) if p.is_file()}


def _memory(p: dict[str, Path]) -> str:
    tree = MemoryTree()
    return tree.project_memory(tree.project_id(p["repo"]).id).read_text(encoding="utf-8")


def _check_outputs(outputs: list[tuple[str, str]]) -> None:
    for out, err in outputs:
        assert err.count("\n") <= 1, err  # one line at most, saying why
        assert SECRET not in out and SECRET not in err
        if out:
            json.loads(out)  # whatever is said on stdout is still the host's JSON


def _kept(before: dict[str, bytes], after: dict[str, bytes]) -> list[str]:
    """Files of ``before`` that are gone or changed in ``after`` (what a failed session lost)."""
    return [name for name, data in before.items() if after.get(name) != data]


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_full_or_read_only_disk_loses_nothing_and_the_next_session_works(
    project: dict[str, Path], monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    _session(project, monkeypatch, "s1", "以后部署前都要先跑 pnpm test。")
    memory = _memory(project)
    assert "pnpm test" in memory
    kept = {top: _files(project[top]) for top in ("home", "cache")}
    real_open = os.open
    roots = (str(project["home"]), str(project["cache"]))

    def full_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        where = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else ""
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and where.startswith(roots):
            raise OSError(code, os.strerror(code), where)
        return real_open(path, flags, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(os, "open", full_open)
        outputs = _session(project, monkeypatch, "s2", "以后提交前都要跑 ruff check。")
    _check_outputs(outputs)
    said = [err for _, err in outputs if err]
    assert said and all("memory was not updated this time" in err for err in said), said  # why, in words
    assert all(("disk is full" if code == errno.ENOSPC else "read-only") in err for err in said), said
    for top in ("home", "cache"):
        now = _files(project[top])
        lost = [n for n in _kept(kept[top], now) if not n.endswith((".db", ".db-wal", ".db-shm", ".db-journal"))]
        assert lost == [] if top == "home" else True, lost  # the cache may be rebuilt; the memory never lost
        assert not [n for n in now if ".tmp" in n or n.endswith("~")], now  # no temp file left behind
        assert all(SECRET.encode() not in data for data in now.values())
    assert _memory(project) == memory
    outputs = _session(project, monkeypatch, "s3", "以后发布前都要跑 pnpm build。")  # the disk has room again
    assert all(err == "" for _, err in outputs), outputs
    assert "pnpm build" in _memory(project) and "pnpm test" in _memory(project)


def _as_other_user() -> list[str] | None:
    """How to run a process that permissions stop: as ``nobody`` when root, else as ourselves."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]


def _tree_owner(top: Path, uid: int, gid: int) -> None:
    for here, dirs, files in os.walk(top):
        for name in [*dirs, *files]:
            os.lchown(Path(here) / name, uid, gid)
    os.lchown(top, uid, gid)


def _read_only(top: Path) -> None:
    for here, dirs, files in os.walk(top, topdown=False):
        for name in files:
            (Path(here) / name).chmod(0o400)
        for name in dirs:
            (Path(here) / name).chmod(0o500)
    top.chmod(0o500)


def test_a_read_only_data_root_through_the_hook_process(
    project: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix = _as_other_user()
    if prefix is None:
        pytest.skip("running as root without setpriv: nothing can make a directory read-only to this test")
    _session(project, monkeypatch, "s1", "以后部署前都要先跑 pnpm test。")
    memory = _memory(project)
    transcript = _transcript(project["root"], project["repo"], "s2", "以后提交前都要跑 ruff check。")
    for top in ("home", "cache", "config"):
        project[top].mkdir(exist_ok=True)
    if prefix:  # the tree belongs to the user the hook runs as, and is read-only to them
        for tree in (project["root"],):
            _tree_owner(tree, 65534, 65534)
    kept = _files(project["home"])
    for top in ("home", "cache", "config"):
        _read_only(project[top])
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(project["root"]),
        "MIMOMEM_HOME": str(project["home"]),
        "MIMOMEM_CACHE_DIR": str(project["cache"]),
        "XDG_CONFIG_HOME": str(project["config"]),
        "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
    }
    for key in ("MIMOMEM_PURE", "MIMOMEM_REQUIRE_NATIVE"):
        if key in os.environ:
            env[key] = os.environ[key]
    try:
        for event, fields in EVENTS:
            raw = {"session_id": "s2", "transcript_path": str(transcript), "cwd": str(project["repo"])}
            payload = json.dumps({**raw, "hook_event_name": event, **fields}, ensure_ascii=False)
            done = subprocess.run(
                [*prefix, sys.executable, "-m", "mimomem", "hook", "claude-code"],
                input=payload.encode(),
                capture_output=True,
                env=env,
                cwd=str(project["repo"]),
                timeout=120,
                check=False,
            )
            out, err = done.stdout.decode(), done.stderr.decode()
            assert done.returncode == 0, (event, err)
            _check_outputs([(out, err)])
            assert err == "" or "memory was not updated this time" in err, err
        assert _kept(kept, _files(project["home"])) == []
    finally:
        for top in ("home", "cache", "config"):
            for here, _dirs, files in os.walk(project[top]):
                Path(here).chmod(0o700)
                for name in files:
                    (Path(here) / name).chmod(0o600)
        if prefix:
            _tree_owner(project["root"], os.geteuid(), os.getegid())
    assert _memory(project) == memory
    outputs = _session(project, monkeypatch, "s3", "以后发布前都要跑 pnpm build。")  # writable again
    assert all(err == "" for _, err in outputs), outputs
    assert "pnpm build" in _memory(project) and "pnpm test" in _memory(project)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="finds a descriptor's file through /proc")
def test_a_disk_that_fills_in_the_middle_of_writing_notes_memory_and_plans_loses_nothing(
    project: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills while a file is being written (its temp file created, half its bytes in): every
    write under the data and cache roots (notes, MEMORY.md, plans, state, through ``atomic_write`` or a
    bare ``os.write``) stops with ``ENOSPC`` half-way.  The hooks exit 0 saying the disk is full, every
    file of the memory is as it was, no half-written file or temp file is left, the next session works."""
    _session(project, monkeypatch, "s1", "以后部署前都要先跑 pnpm test。")
    memory = _memory(project)
    kept = {top: _files(project[top]) for top in ("home", "cache")}
    roots = (str(project["home"]), str(project["cache"]))
    real_fdopen, real_write = os.fdopen, os.write
    stopped: list[str] = []

    def under_roots(fd: int) -> str:
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return ""
        return where if where.startswith(roots) else ""

    class Filling(io.RawIOBase):
        def __init__(self, handle: Any, where: str) -> None:
            self.handle, self.where = handle, where

        def write(self, data: Any) -> int:
            self.handle.write(bytes(data)[: len(data) // 2])
            self.handle.flush()
            stopped.append(self.where)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self.where)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.handle, name)

        def fileno(self) -> int:
            return int(self.handle.fileno())

        def close(self) -> None:
            self.handle.close()

    def fdopen(fd: int, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_fdopen(fd, mode, *args, **kwargs)
        where = under_roots(fd) if ("w" in mode or "a" in mode or "+" in mode) else ""
        return Filling(handle, where) if where else handle

    def write(fd: int, data: Any) -> int:
        where = under_roots(fd)
        if not where:
            return real_write(fd, data)
        real_write(fd, bytes(data)[: len(data) // 2])
        stopped.append(where)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), where)

    with monkeypatch.context() as patch:
        patch.setattr(os, "fdopen", fdopen)
        patch.setattr(os, "write", write)
        outputs = _session(project, monkeypatch, "s2", "以后提交前都要跑 ruff check。")
    assert stopped, "no write under the roots was attempted: the test tests nothing"
    _check_outputs(outputs)
    said = [err for _, err in outputs if err]
    assert said and all("disk is full" in err for err in said), said

    def unlocked(files: dict[str, bytes]) -> dict[str, bytes]:  # empty lock files come and go with their sessions
        return {n: d for n, d in files.items() if not (n.endswith(".lock") and d == b"")}

    assert unlocked(_files(project["home"])) == unlocked(kept["home"])  # nothing lost, nothing half-written
    for name, data in _files(project["cache"]).items():  # plans and caches: the old file, or none, never half
        assert ".tmp" not in name, name
        if name.endswith(".json") and kept["cache"].get(name) != data:
            json.loads(data)
    assert _memory(project) == memory
    outputs = _session(project, monkeypatch, "s3", "以后发布前都要跑 pnpm build。")
    assert all(err == "" for _, err in outputs), outputs
    assert "pnpm build" in _memory(project) and "pnpm test" in _memory(project)
