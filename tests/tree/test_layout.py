from __future__ import annotations

import pytest

from mimomem.errors import InvalidMemoryIdError
from mimomem.tree.layout import (
    PathClass,
    cc_frontmatter_type,
    check_id,
    check_task_id,
    classify_path,
    infer_type,
    split_memory_path,
)

ROOT = "/data/memory"


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        ("global/MEMORY.md", ("global", "", "memory")),
        ("global/notes/x.md", ("global", "", "free")),
        ("global/tasks/T1/progress.md", ("global", "", "free")),  # global has no id segment
        ("projects/p/MEMORY.md", ("projects", "p", "memory")),
        ("projects/p/memory.md", ("projects", "p", "memory")),  # legacy lowercase
        ("projects/p/memory-rules.md", ("projects", "p", "memory")),
        ("projects/p/MEMORY-rules.md", ("projects", "p", "memory")),
        ("projects/p/pinned.md", ("projects", "p", "free")),
        ("projects/p/memory-x/deep.md", ("projects", "p", "free")),  # prefix counts at top level only
        ("sessions/s/checkpoint.md", ("sessions", "s", "checkpoint")),
        ("sessions/s/checkpoint-lexer.md", ("sessions", "s", "checkpoint")),
        ("sessions/s/CHECKPOINT.md", ("sessions", "s", "free")),  # case-sensitive on purpose
        ("sessions/s/checkpoint/snapshot.md", ("sessions", "s", "free")),  # v4 layout
        ("sessions/s/notes.md", ("sessions", "s", "notes")),  # MiMo says free; we fix it
        ("projects/p/notes.md", ("projects", "p", "free")),
        ("sessions/s/tasks/T1.2/progress.md", ("sessions", "s", "progress")),
        ("sessions/s/tasks/T1/notes.md", ("sessions", "s", "notes")),
        ("sessions/s/tasks/T1/notes/draft.md", ("sessions", "s", "free")),
        ("sessions/s/tasks/T1/spec.md", ("sessions", "s", "free")),
    ],
)
def test_classify_tree_paths(rel, expected):
    assert classify_path(ROOT, f"{ROOT}/{rel}") == PathClass(*expected)


@pytest.mark.parametrize(
    "path",
    [
        "/data/memory/foo.md",  # directly in the root
        "/data/memory/tasks/T1/progress.md",  # not a scope
        "/data/memory/projects/foo.md",  # no id directory
        "/data/memory/sessions/s/notes.txt",  # not Markdown
        "/data/memory/sessions/s/NOTES.MD",  # suffix is case-sensitive
        "/data/memory/sessions/s/.hidden.md",
        "/data/memory/sessions/.s/notes.md",
        "/data/memory/sessions/s/.notes.md.x1.tmp",
        "/data/memory/sessions/s/.md",
        "/data/memory",
        "/data/memory-evil/global/MEMORY.md",
        "/elsewhere/global/MEMORY.md",
    ],
)
def test_non_memory_paths_are_none(path):
    assert classify_path(ROOT, path) is None


def test_dotdot_is_folded_lexically():
    assert classify_path(ROOT, "/data/x/../memory/sessions/s/notes.md") == ("sessions", "s", "notes")
    assert classify_path(ROOT, "/data/memory/../memory-evil/global/MEMORY.md") is None


def test_split_memory_path_returns_key():
    assert split_memory_path(ROOT, f"{ROOT}/sessions/s/tasks/T1/progress.md") == ("sessions", "s", "tasks/T1/progress")
    assert split_memory_path(ROOT, f"{ROOT}/global/a/b.md") == ("global", "", "a/b")


def test_symlinked_root_still_classifies(tmp_path):
    real = tmp_path / "real"
    (real / "sessions" / "s").mkdir(parents=True)
    (real / "sessions" / "s" / "notes.md").write_text("x")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert classify_path(link, real / "sessions" / "s" / "notes.md") == ("sessions", "s", "notes")
    assert classify_path(real, link / "sessions" / "s" / "notes.md") == ("sessions", "s", "notes")


def test_infer_type_direct():
    assert infer_type("projects", "Memory") == "memory"
    assert infer_type("sessions", "checkpoint-a") == "checkpoint"
    assert infer_type("sessions", "tasks//progress") == "free"
    assert infer_type("projects", "tasks/T1/progress") == "free"  # task files live in sessions only


# --- Claude Code memory files ---

CC = "/home/u/.claude/projects/-home-u-repo/memory"


@pytest.mark.parametrize("kind", ["feedback", "project", "reference", "user"])
def test_cc_type_top_level_and_nested(kind):
    assert cc_frontmatter_type(f"---\nname: x\ntype: {kind}\n---\nbody") == kind
    assert cc_frontmatter_type(f"---\nmetadata:\n  type: {kind}\n---\nbody") == kind


@pytest.mark.parametrize(
    "text",
    [
        "no frontmatter\ntype: user\n",
        "---\nname: x\n---\nbody",  # no type
        "---\ntype: pinned\n---\n",  # unknown value
        "---\ntype: user\n",  # unclosed
        "- bullet\n- list\n",
        "---\n: [unbalanced\n---\n",  # malformed YAML
        "---\n- a list\n---\n",  # not a mapping
        "",
    ],
)
def test_cc_type_none(text):
    assert cc_frontmatter_type(text) is None


def test_cc_type_crlf_bom_and_eof_close():
    assert cc_frontmatter_type("\ufeff---\r\ntype: Feedback\r\n---\r\nbody") == "feedback"
    assert cc_frontmatter_type("---\ntype: user\n---") == "user"


def test_cc_type_top_level_wins_over_nested():
    assert cc_frontmatter_type("---\ntype: user\nmetadata:\n  type: project\n---\n") == "user"


def test_classify_cc_paths():
    assert classify_path(ROOT, f"{CC}/a.md", text="---\ntype: feedback\n---\n") == ("cc", "-home-u-repo", "feedback")
    assert classify_path(ROOT, f"{CC}/sub/b.md", text="plain") == ("cc", "-home-u-repo", "free")
    assert classify_path(ROOT, f"{CC}/MEMORY.md", text="- list") == ("cc", "-home-u-repo", "free")
    assert classify_path(ROOT, f"{CC}/a.txt", text="") is None
    assert classify_path(ROOT, "/home/u/.claude/projects/slug/a.md", text="") is None
    assert classify_path(ROOT, "/home/u/.claude/projects/slug/memory/.x.md", text="") is None


def test_classify_cc_reads_file_when_no_text(tmp_path):
    memdir = tmp_path / ".claude" / "projects" / "slug" / "memory"
    memdir.mkdir(parents=True)
    (memdir / "r.md").write_text("---\nmetadata:\n  type: reference\n---\n")
    assert classify_path(ROOT, memdir / "r.md") == ("cc", "slug", "reference")
    assert classify_path(ROOT, memdir / "missing.md") == ("cc", "slug", "free")


# --- ids ---


@pytest.mark.parametrize("value", ["p1", "0b8f-uuid", "ses_01J.x", "a" * 128])
def test_check_id_accepts(value):
    assert check_id(value, kind="session") == value


@pytest.mark.parametrize("value", ["", ".", "..", ".hidden", "a/b", "a\\b", "a..b", "a" * 129, "é", "a b", "a\x00"])
def test_check_id_rejects(value):
    with pytest.raises(InvalidMemoryIdError, match="invalid session id"):
        check_id(value, kind="session")


@pytest.mark.parametrize("good", ["T1", "T10.3.4", "T3.1.2"])
def test_task_ids(good):
    assert check_task_id(good) == good


@pytest.mark.parametrize("bad", ["t1", "T", "T1.", "T1..2", "weird-name", "T1/..", "T１"])
def test_bad_task_ids(bad):
    with pytest.raises(InvalidMemoryIdError, match=r"T3\.1\.2"):
        check_task_id(bad)
