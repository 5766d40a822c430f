"""Per-prompt recall by entry: the whole entry that holds the answer, and nothing for an unrelated prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.context.entry_scope import recall_text
from mimomem.served.entry_recall import ENTRY_CHARS
from mimomem.served.hosts import utf16_len
from mimomem.served.prompt_terms import query_terms, terms_text
from mimomem.text.stopwords import stem
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.templates import notes_template
from mimomem.tree.where import Where, locate

OLD_NOTES = """
## [turn 2 · 2026-10-06T10:04:30Z]
Transcript digest (SessionEnd), written by mimomem without a model.

**User requests**
> 今天把 staging 的对账脚本跑通。注意 staging 数据库端口是 5433，主机是 pg-staging.lanhai.internal。

**Errors and fixes**
- `uv run python -m billing.reconcile --env staging` failed (tool output): FATAL SSL connection is required;
  fixed by: edited deploy/staging.env (PGSSLMODE=require)

**Commands run (by the model)**
- `ssh -N -L 5433:pg-staging.lanhai.internal:5433 jump.lanhai.internal`
"""

MEMORY = """# Project memory

## Rules
- 提交信息用中文写，开头加模块名 (user, 2026-10-05, s:aaaa)

## Discovered durable knowledge
- The invoice numbering uses SELECT ... FOR UPDATE on the counter row.
  The reason: pgbouncer runs in transaction mode, so advisory locks leak to other connections.
  (user, 2026-10-07, s:bbbb)
"""


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Where:
    """A project with project memory, its superseded history, and one earlier session's digest."""
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    repo = tmp_path / "billing"
    (repo / ".git").mkdir(parents=True)
    old = locate(repo, session_id="s-old", tree=MemoryTree())
    tree, who = old.tree, old.writer("main")
    tree.write(tree.project_memory(old.project_id), MEMORY, who)
    history = tree.project_dir(old.project_id) / "memory-history.md"
    history.write_text("# History\n\n- staging 数据库端口 was 4321 (superseded 2026-10-09)\n", encoding="utf-8")
    tree.create(tree.notes("s-old"), notes_template(), who)
    tree.append(tree.notes("s-old"), OLD_NOTES, who)
    return locate(repo, session_id="s-new", tree=tree)


def test_the_whole_entry_is_shown_with_the_sentence_after_the_matched_words(where: Where) -> None:
    text = recall_text(where, "Why don't we use advisory locks for invoice numbers?")
    assert "transaction mode" in text  # one sentence after the words that matched
    assert "MEMORY.md:" in text  # where to read more
    fix = recall_text(where, "staging 对账脚本报 SSL connection is required，怎么修的？")
    assert "PGSSLMODE=require" in fix and "Errors and fixes" in fix and "2026-10-06" in fix


def test_an_unrelated_prompt_gets_nothing(where: Where) -> None:
    assert "" == recall_text(where, "Redis 缓存的过期时间设的是多少？")
    assert "" == recall_text(where, "How do we rotate the TLS certificates on the load balancer?")
    assert "" == recall_text(where, "What is the Kubernetes namespace of the dashboard?")


def test_stop_words_and_template_wording_never_match_on_their_own(where: Where) -> None:
    assert [] == query_terms("what is it and how do we do that？是什么？怎么样？")
    assert "" == recall_text(where, "what does the checkpoint writer sort into the memory?")
    assert "" == recall_text(where, "Which errors and fixes were in the transcript digest of the session?")


def test_superseded_history_is_never_recalled(where: Where) -> None:
    text = recall_text(where, "staging 数据库端口是多少？")
    assert "5433" in text
    assert "4321" not in text


def test_long_entries_are_cut_and_the_output_stays_under_the_host_cap(where: Where) -> None:
    tree = where.tree
    long_entry = "- 账单 staging 部署注意事项 " + "很长的说明 " * 5000 + "\n"
    tree.create(tree.notes("s-new"), notes_template(), where.writer("main"))
    tree.append(tree.notes("s-new"), "\n## [turn 9 · 2026-10-08T00:00:00Z]\n" + long_entry * 3, where.writer("main"))
    text = recall_text(where, "staging 部署注意事项是什么？")
    assert "(cut; read sessions/s-new/notes.md:" in text
    assert utf16_len(text) < 4 * (ENTRY_CHARS + 200) < 10_000


def test_light_stemming_and_cross_language_terms() -> None:
    assert ("title", "fix", "policy", "class") == tuple(stem(w) for w in ("titles", "fixed", "policies", "class"))
    words = terms_text(query_terms("Which database port do we use?"))
    assert "database" in words and "port" in words and "数据库" in words  # CC-CEDICT alternative
    assert "we" not in words and "which" not in words


def test_the_prompt_hook_context_is_empty_for_an_unrelated_prompt(where: Where) -> None:
    from mimomem.context.assemble import prompt_context

    assert "" == prompt_context(where, "生产数据库的 Redis 缓存过期时间是多少？").text
    answer = prompt_context(where, "发票编号为什么不用 advisory locks？").text
    assert "transaction mode" in answer and "## Memory entries for this prompt" in answer


def test_of_two_like_notes_the_later_is_shown(where: Where) -> None:
    """Two notes of one file saying the same with another value, neither dated: the later one is the
    newer, and a near-duplicate of the first shown is not shown again (found by the wheel trial)."""
    tree, who = where.tree, where.writer("main")
    notes = (
        "\n- kafka topic retention is 3 days for the billing events\n"
        "- kafka topic retention is 5 days for the billing events\n"
    )
    tree.create(tree.notes("s-new"), notes_template(), who)
    tree.append(tree.notes("s-new"), notes, who)
    text = recall_text(where, "kafka topic retention days for billing events")
    assert "5 days" in text and "3 days" not in text
