from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from mimomem.errors import ProjectIdError
from mimomem.tree.project import ID_FILE, MIMOCODE_ID_FILE, MIMOCODE_ID_FILES, find_git, project_id


def _repo(path: Path) -> Path:
    (path / ".git").mkdir(parents=True)
    return path


def _worktree(main: Path, wt: Path, name: str, *, gitdir: str | None = None) -> Path:
    admin = main / ".git" / "worktrees" / name
    admin.mkdir(parents=True)
    (admin / "commondir").write_text("../..\n")
    wt.mkdir(parents=True)
    (wt / ".git").write_text(f"gitdir: {gitdir or admin}\n")
    return wt


def test_main_repo_creates_then_reuses_uuid(tmp_path):
    repo = _repo(tmp_path / "r")
    (repo / "src" / "pkg").mkdir(parents=True)
    ident = project_id(repo / "src" / "pkg")
    assert ident.root == repo and ident.git_dir == repo / ".git"
    stored = (repo / ".git" / ID_FILE).read_text()
    assert stored == ident.id and uuid.UUID(stored).version == 4
    assert project_id(repo).id == ident.id  # cached value reused
    assert [p.name for p in (repo / ".git").iterdir()] == [ID_FILE]  # no temp files left


def test_file_path_inside_repo(tmp_path):
    repo = _repo(tmp_path / "r")
    (repo / "a.py").write_text("")
    assert project_id(repo / "a.py").root == repo


def test_outside_git_is_global(tmp_path):
    ident = project_id(tmp_path)
    assert ident == ("global", None, None)
    assert find_git(tmp_path) is None


def test_git_in_home_is_global(tmp_path, monkeypatch):
    home = _repo(tmp_path / "home")
    (home / "proj").mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert project_id(home / "proj").id == "global"
    assert not (home / ".git" / ID_FILE).exists()


def test_worktrees_share_the_main_id(tmp_path):
    main = _repo(tmp_path / "main")
    wt = _worktree(main, tmp_path / "wt", "wt")
    a, b = project_id(main), project_id(wt)
    assert a.id == b.id
    assert b.root == wt and b.git_dir == main / ".git"


def test_relative_gitdir_resolves_against_the_file_not_cwd(tmp_path, monkeypatch):
    main = _repo(tmp_path / "main")
    wt = _worktree(main, tmp_path / "wt", "wt", gitdir="../main/.git/worktrees/wt")
    elsewhere = tmp_path / "elsewhere" / "deep"
    elsewhere.mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    assert project_id(wt).git_dir == main / ".git"
    assert project_id(wt).id == project_id(main).id


def test_submodule_gets_its_own_id(tmp_path):
    sup = _repo(tmp_path / "super")
    (sup / ".git" / "modules" / "sub").mkdir(parents=True)
    sub = sup / "sub"
    sub.mkdir()
    (sub / ".git").write_text("gitdir: ../.git/modules/sub\n")
    ident = project_id(sub)
    assert ident.git_dir == sup / ".git" / "modules" / "sub"
    assert ident.root == sub
    assert ident.id != project_id(sup).id


def test_broken_gitdir_files_are_clear_errors(tmp_path):
    a = tmp_path / "a"
    a.mkdir()
    (a / ".git").write_text("nonsense\n")
    with pytest.raises(ProjectIdError, match="gitdir"):
        project_id(a)
    b = tmp_path / "b"
    b.mkdir()
    (b / ".git").write_text("gitdir: ../missing/.git/worktrees/b\n")
    with pytest.raises(ProjectIdError, match="does not exist"):
        project_id(b)


def test_mimocode_id_is_adopted_and_own_file_wins(tmp_path):
    repo = _repo(tmp_path / "r")
    (repo / ".git" / MIMOCODE_ID_FILE).write_text("mimo-id-1")
    assert project_id(repo).id == "mimo-id-1"
    assert not (repo / ".git" / ID_FILE).exists()
    (repo / ".git" / ID_FILE).write_text("own-id\n")
    assert project_id(repo).id == "own-id"
    assert project_id(repo, id_files=MIMOCODE_ID_FILES).id == "mimo-id-1"


def test_mimocode_mode_creates_mimocodes_file(tmp_path):
    repo = _repo(tmp_path / "r")
    ident = project_id(repo, id_files=MIMOCODE_ID_FILES)
    assert (repo / ".git" / MIMOCODE_ID_FILE).read_text() == ident.id
    assert not (repo / ".git" / ID_FILE).exists()


@pytest.mark.parametrize("content", ["../../etc", "a/b", ".hidden", "x" * 200, "with space"])
def test_unsafe_id_file_is_refused(tmp_path, content):
    repo = _repo(tmp_path / "r")
    (repo / ".git" / ID_FILE).write_text(content)
    with pytest.raises(ProjectIdError, match="not a safe id"):
        project_id(repo)


def test_non_utf8_id_file_is_refused(tmp_path):
    repo = _repo(tmp_path / "r")
    (repo / ".git" / ID_FILE).write_bytes(b"\xff\xfe")
    with pytest.raises(ProjectIdError, match="not UTF-8"):
        project_id(repo)


def test_blank_id_file_is_repaired(tmp_path):
    repo = _repo(tmp_path / "r")
    (repo / ".git" / ID_FILE).write_text("  \n")
    ident = project_id(repo)
    assert uuid.UUID(ident.id)
    assert (repo / ".git" / ID_FILE).read_text() == ident.id


_RACER = """
import os, sys, time
sys.path.insert(0, {src!r})
from mimomem.tree.project import project_id
start = {start!r}
while not os.path.exists(start):
    time.sleep(0.001)
print(project_id({repo!r}).id)
"""


def test_racing_processes_agree_on_one_id(tmp_path):
    repo = _repo(tmp_path / "r")
    start = tmp_path / "go"
    src = str(Path(__file__).resolve().parents[2])
    code = _RACER.format(src=src, start=str(start), repo=str(repo))
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True) for _ in range(8)]
    time.sleep(0.5)  # let them all import and wait at the start line
    start.touch()
    ids = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(ids) == 1
    assert ids == {(repo / ".git" / ID_FILE).read_text()}
    assert sorted(p.name for p in (repo / ".git").iterdir()) == [ID_FILE]


@pytest.mark.skipif(shutil.which("git") is None, reason="needs the git command")
def test_real_git_worktree(tmp_path):
    main = tmp_path / "main"
    env_args = ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "init.defaultBranch=main"]
    subprocess.run(["git", *env_args, "init", "-q", str(main)], check=True)
    subprocess.run(["git", *env_args, "-C", str(main), "commit", "-q", "--allow-empty", "-m", "x"], check=True)
    subprocess.run(["git", *env_args, "-C", str(main), "worktree", "add", "-q", str(tmp_path / "wt")], check=True)
    a, b = project_id(main), project_id(tmp_path / "wt")
    assert a.id == b.id and b.root == (tmp_path / "wt").resolve()
    assert b.git_dir == (main / ".git").resolve()
