"""``mimomem search`` over the hosts' own memory files (search.host_hits): scope ``host``, read-only, deduplicated."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.memory.search import Filters, search
from mimomem.tree import host_paths
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate
from mimomem.tree.writer import Writer

FACT = (
    "---\nname: release-freeze\ndescription: 发布冻结期\nmetadata:\n  type: project\n---\n\n"
    "每月最后一周是发布冻结期，只允许修复线上故障。\n"
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    repo = tmp_path / "billing"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MIMOMEM_HOST_MEMORY")
    for name in host_paths.ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    folder.mkdir(parents=True)
    (folder / "release_freeze.md").write_text(FACT, encoding="utf-8")
    (folder / "MEMORY.md").write_text("- [发布冻结期](release_freeze.md) — 冻结\n", encoding="utf-8")
    return repo


def test_search_finds_a_host_memory_file_with_its_provenance(repo: Path) -> None:
    where = locate(str(repo), tree=MemoryTree())
    results = search(where, "发布冻结")
    hits = [h for h in results if h.scope == "host"]
    assert len(hits) == 1  # the fact, not the MEMORY.md index pointing at it
    hit = hits[0]
    assert hit.path.endswith("/memory/release_freeze.md") and hit.scope_id == "claude-code"
    assert hit.label == "Claude Code memory (model-written, project): release-freeze" and hit.type == "project"
    assert "只允许修复线上故障" in hit.snippet
    assert [h.scope for h in search(where, "发布冻结", Filters(scope="host"))] == ["host"]
    assert not [h for h in search(where, "发布冻结", Filters(scope="project")) if h.scope == "host"]


def test_a_host_file_repeating_mimomems_own_memory_is_left_out(repo: Path) -> None:
    tree = MemoryTree()
    where = locate(str(repo), tree=tree)
    tree.write(
        tree.project_memory(where.project_id),
        "# Project memory\n\n## Discovered durable knowledge\n\n"
        "- 发布冻结期：每月最后一周是发布冻结期，只允许修复线上故障。project release-freeze\n",
        Writer("main", project_id=where.project_id, worktree=repo),
    )
    results = search(where, "发布冻结")
    assert [h.scope for h in results] == ["project"]


def test_the_switch_and_the_cli(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["search", "发布冻结", "--project", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "release_freeze.md" in out and "Claude Code memory (model-written, project)" in out
    monkeypatch.setenv("MIMOMEM_HOST_MEMORY", "off")
    assert main(["search", "发布冻结", "--project", str(repo)]) == 1


def test_a_secret_in_a_host_file_is_redacted_in_the_hit(repo: Path) -> None:
    token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"
    folder = Path(host_paths.claude_memory_dir(str(repo), os.environ) or "")
    (folder / "deploy_token.md").write_text(
        f"---\nname: deploy-token\n---\n发布冻结期的部署令牌是 {token}\n", encoding="utf-8"
    )
    hits = [h for h in search(locate(str(repo), tree=MemoryTree()), "部署令牌") if h.scope == "host"]
    assert hits and all(token not in h.snippet for h in hits) and "redacted" in hits[0].snippet


def test_the_repeat_check_reads_no_hit_file_again(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a host file repeats one of mimomem's own hits is judged on the texts the search already read
    (the index's body of a tree file, a curated memory's text): the old code opened every own hit's file."""
    import builtins
    import io

    from mimomem.curated.store import CuratedMemory

    tree = MemoryTree()
    where = locate(str(repo), tree=tree)
    tree.write(
        tree.project_memory(where.project_id),
        "# Project memory\n\n## Rules\n\n- 发布冻结期：每月最后一周是发布冻结期，只允许修复线上故障。\n",
        Writer("main", project_id=where.project_id, worktree=repo),
    )
    CuratedMemory(project_root=repo).remember("decisions", "发布冻结期只修线上故障", author="user")
    first = search(where, "发布冻结")
    opened: list[str] = []
    real_open = builtins.open

    def spy_open(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(io, "open", spy_open)
    again = search(where, "发布冻结")
    assert [h.path for h in again] == [h.path for h in first] and {h.source for h in again} == {"tree", "curated"}
    assert [p for p in opened if p in {h.path for h in again}] == []
