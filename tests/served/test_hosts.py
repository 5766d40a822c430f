"""Host limits: UTF-16 length as the host counts it, and no context over the cap."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.context.assemble import prompt_context, session_context
from mimomem.served.hosts import CLAUDE_CODE, cut_utf16, utf16_len
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import locate


def test_utf16_units_and_cuts() -> None:
    assert utf16_len("a端😀") == 4
    assert cut_utf16("line one\nline two\n", 12) == "line one\n"
    assert utf16_len(cut_utf16("😀" * 10, 5)) <= 5
    assert CLAUDE_CODE.safe_chars < CLAUDE_CODE.output_chars == 10_000


@pytest.mark.parametrize("char", ["端", "a", "😀"])
def test_session_start_stays_under_the_host_cap(char: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    where = locate(repo, session_id="s1", tree=MemoryTree(), env={})
    lines = "\n".join(f"- fact {i}: {char * 60}" for i in range(400))
    where.tree.write(
        where.tree.project_memory(where.project_id), f"# Project memory\n\n## Rules\n\n{lines}\n", where.writer()
    )
    ctx = session_context(where, budget=50_000, char_cap=CLAUDE_CODE.safe_chars)
    assert 2_000 < utf16_len(ctx.text) <= CLAUDE_CODE.safe_chars
    assert "Left out for the token budget" in ctx.text or "[truncated" in ctx.text
    assert str(where.tree.project_memory(where.project_id)) in ctx.text  # the cut says where to read the rest
    prompt = prompt_context(where, "fact 3", budget=50_000, char_cap=3_000)
    assert utf16_len(prompt.text) <= 3_000


def test_utf16_len_counts_a_lone_surrogate_as_one_unit() -> None:
    assert utf16_len("a\ud800b") == 3 and utf16_len("\udfff😀") == 3 and utf16_len("") == 0
