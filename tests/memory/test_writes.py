"""The one writer API: one writer identity for the gate and the curated store; the checkpoint is always checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.errors import ReservedForRoleError, UsageError, WriteDeniedError
from mimomem.memory.writes import Writer, accept_rule, forget, import_dir, note, reject_rule, remember, write
from mimomem.tree import gate
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import checkpoint_template, parse_notes
from mimomem.tree.where import Where, locate


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Where:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    repo = tmp_path / "shop"
    (repo / ".git").mkdir(parents=True)
    return locate(repo, session_id="s-1", tree=MemoryTree(tmp_path / "memory"), env={})


def test_the_writer_reaches_the_gate_whole(where: Where, monkeypatch: pytest.MonkeyPatch) -> None:
    """The front end's one object is what the gate judges: no keywords rebuilt on the way."""
    judged: list[Writer] = []
    check = gate.check_write

    def spy(tree: gate.GatedTree, target: str | os.PathLike[str], by: Writer) -> Path:
        judged.append(by)
        return check(tree, target, by)

    monkeypatch.setattr(gate, "check_write", spy)
    by = where.writer("worker", task_id="T1", delegated=True)
    write(where, by, "progress:T1", "- 第一步\n")
    note(where, main := where.writer(), "端口 5433")
    assert judged[0] is by and judged[1] is main


def test_notes_are_numbered_entries_and_need_text_and_a_session(where: Where, tmp_path: Path) -> None:
    by = where.writer()
    assert note(where, by, "端口 5433").turn == 1 and note(where, by, "第二条", turn=7).turn == 7
    entries = parse_notes(where.tree.notes("s-1").read_text(encoding="utf-8"))
    assert [(e.turn, e.body.strip()) for e in entries] == [(1, "端口 5433"), (7, "第二条")]
    with pytest.raises(UsageError, match="empty"):
        note(where, by, "  \n")
    with pytest.raises(UsageError, match="no session"):
        nowhere = locate(where.worktree or ".", tree=where.tree, env={})
        note(nowhere, nowhere.writer(), "x")


def test_write_goes_through_the_gate_and_a_checkpoint_is_checked(where: Where) -> None:
    written = write(where, where.writer(), "project", "# Project memory\n\n## Rules\n- 用 pnpm\n")
    assert written.path == where.tree.project_memory(where.project_id) and not written.checkpoint
    with pytest.raises(WriteDeniedError):
        write(where, where.writer(), "checkpoint", checkpoint_template())  # the main agent: not its file
    writer = where.writer("checkpoint-writer")
    filled = checkpoint_template().replace("## §2 Next concrete action\n", "## §2 Next concrete action\n- 跑迁移\n")
    first = write(where, writer, "checkpoint", filled)
    assert first.checkpoint and first.path == where.tree.checkpoint("s-1")
    with pytest.raises(Exception, match="§2"):
        write(where, writer, "checkpoint", checkpoint_template())  # drops a filled section: refused, file kept
    assert "跑迁移" in where.tree.checkpoint("s-1").read_text(encoding="utf-8")


def test_curated_writes_carry_the_author(where: Where) -> None:
    memory = remember(where.writer(author="model"), "rules", "总是先跑测试再部署")
    assert memory.kind == "rule-proposal"  # a model's rule waits for a person
    assert forget(where.writer(), memory.id).id == memory.id


def test_only_a_person_accepts_a_rule_proposal_and_either_may_reject_one(where: Where) -> None:
    model, user = where.writer(author="model"), where.writer(author="user")
    first = remember(model, "rules", "总是先跑测试再部署")
    with pytest.raises(ReservedForRoleError, match="mimomem rules accept"):
        accept_rule(model, first.id)
    assert accept_rule(user, first.id).kind == "rule"
    second = remember(model, "rules", "发布前先打 tag")
    assert reject_rule(model, second.id).id == second.id


def test_an_import_writes_as_the_writers_author(where: Where, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "rules").mkdir(parents=True)
    (notes / "rules" / "deploy.md").write_text("# 部署前先跑 pnpm test\n", encoding="utf-8")
    (notes / "db.md").write_text("# staging 的数据库端口是 6543\n", encoding="utf-8")
    result = import_dir(where.writer(author="model"), notes)
    assert len(result.written) == 2 and not result.refused
    from mimomem.curated.store import CuratedMemory

    kinds = {m.id.split("/")[0]: m.kind for m in CuratedMemory(project_root=where.worktree).inspect().memories}
    assert kinds == {"rules": "rule-proposal", "facts": "fact"}  # a model's imported rule waits for a person


def test_an_append_to_a_new_project_memory_keeps_the_template(where: Where) -> None:
    """`write project --append` on a new project made a MEMORY.md with no section headings -> the template, then it."""
    from mimomem.tree.templates import MEMORY_SECTIONS, memory_template

    written = write(where, where.writer(), "project", "- Always run pnpm test before deploying\n", append=True)
    text = written.path.read_text(encoding="utf-8")
    assert text.startswith(memory_template()) and text.endswith("- Always run pnpm test before deploying\n")
    assert all(f"## {name}\n" in text for name in MEMORY_SECTIONS)
    write(where, where.writer(), "project", "- second\n", append=True)  # an existing file: appended as it is
    assert written.path.read_text(encoding="utf-8") == text + "- second\n"
    other = where.tree.root / "projects" / "notes-elsewhere.md"  # not a layer file: no template
    assert where.tree._template_of(other) == ""
