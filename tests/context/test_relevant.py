"""What curated memory reaches the model: hard rules at session start, scenario and recall matches per prompt.

Each test writes curated memories the way a user (``author="user"``) or a model (``author="model"``)
would, then reads what ``session_context`` / ``prompt_context`` inject.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from mimomem.context.assemble import prompt_context, session_context
from mimomem.context.plan import curated_part
from mimomem.context.relevant import curated_session_text
from mimomem.curated.store import CuratedMemory
from mimomem.served.prompt import MAX_BODY_CHARS, curated_text
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate


@pytest.fixture
def where(tree: MemoryTree, repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Where:
    """The repository's project and session S1, with a private (empty) global curated root."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return locate(repo, session_id="S1", tree=tree)


def store(repo: Path) -> CuratedMemory:
    return CuratedMemory(project_root=repo)


def curated_prompt_text(where: Where, prompt: str) -> str:
    """What a prompt receives of curated memory: the served answer over the store's plan part."""
    return curated_text(curated_part(where), prompt, time.time()) if prompt.strip() else ""


def test_a_users_hard_rule_is_injected_at_every_session_start_before_project_memory(where: Where, repo: Path) -> None:
    store(repo).remember("rules", "Never push to main directly", "open a merge request instead", author="user")
    where.tree.write(
        where.tree.project_memory(where.project_id),
        "# Project memory\n\n## Discovered durable knowledge\n\n- 数据库端口是 5433。\n",
        where.writer(),
    )
    text = session_context(where).text
    assert "Hard rules (always apply):" in text
    assert "- Never push to main directly — open a merge request instead" in text
    assert text.index("Never push to main directly") < text.index("数据库端口是 5433")


def test_a_models_rule_is_a_proposal_and_never_reaches_the_model(where: Where, repo: Path) -> None:
    memory = store(repo).remember("rules", "Always deploy on Fridays", author="model", load_when=["deploy friday"])
    assert memory.kind == "rule-proposal"
    assert "Always deploy on Fridays" not in session_context(where).text
    assert "Always deploy on Fridays" not in curated_prompt_text(where, "can we deploy on friday")
    assert "Always deploy on Fridays" not in prompt_context(where, "deploy friday").text


def test_a_load_when_scenario_routes_a_memory_to_a_prompt_that_shares_no_summary_word(where: Where, repo: Path) -> None:
    store(repo).remember(
        "pitfalls",
        "The staging database refuses connections before the VPN is up",
        "connect the VPN first",
        author="user",
        load_when=["部署 生产"],
    )
    text = curated_prompt_text(where, "帮我部署到生产环境")
    assert "The staging database refuses connections" in text
    assert "by scenario" in text


def test_an_unrelated_prompt_gets_no_curated_memory(where: Where, repo: Path) -> None:
    store(repo).remember("facts", "The API listens on port 8443", author="user", load_when=["api port"])
    assert curated_prompt_text(where, "写一首关于秋天的诗") == ""
    assert curated_prompt_text(where, "   ") == ""


def test_a_long_curated_body_is_cut_with_the_command_that_shows_it_whole(where: Where, repo: Path) -> None:
    body = "步骤：先备份数据库，再运行迁移脚本。" * 80
    memory = store(repo).remember("decisions", "Database migrations run with flyway", body, author="user")
    text = curated_prompt_text(where, "flyway migrations")
    assert f"(full text: mimomem recall {memory.id})" in text
    assert body not in text and body[:MAX_BODY_CHARS] in text


def test_a_superseded_memory_is_not_routed_by_its_old_scenario(where: Where, repo: Path) -> None:
    curated = store(repo)
    old = curated.remember("facts", "Deploys go through Jenkins", author="user", load_when=["deploy pipeline"])
    curated.remember(
        "facts", "Deploys go through GitLab CI now", author="user", load_when=["deploy pipeline"], supersedes=old.id
    )
    text = curated_prompt_text(where, "how does the deploy pipeline work")
    assert "GitLab CI" in text
    assert "Jenkins" not in text


def test_no_curated_memory_gives_no_curated_block(where: Where) -> None:
    assert curated_session_text(where) == ""
    assert [b.name for b in session_context(where).blocks] == ["instructions"]


def test_a_secret_in_a_hand_edited_curated_file_is_redacted_in_the_prompt_context(where: Where, repo: Path) -> None:
    memory = store(repo).remember("facts", "The deploy token lives in the vault", "ask ops", author="user")
    key = "AKIA" + "QWERTYUIOPASDFGH"
    path = Path(memory.path)
    path.write_text(path.read_text(encoding="utf-8").replace("ask ops", f"ask ops, or use {key}"), encoding="utf-8")
    text = prompt_context(where, "deploy token vault").text
    assert "The deploy token lives in the vault" in text
    assert key not in text and "[redacted" in text
