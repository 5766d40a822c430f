"""Memory files split into entries: bullets, quotes, paragraphs and code, with line, section and date."""

from __future__ import annotations

from mimomem.served.entries import DIGEST_WORDING, split_entries, template_terms
from mimomem.tree.templates import memory_template, notes_template

NOTES = """# Session notes

_Scratchpad of the main agent._

## [turn 3 · 2026-10-06T10:04:30Z]
Transcript digest (SessionEnd), written by mimomem without a model.

**User requests**
> 今天把 staging 的账单对账脚本跑通。注意 staging 数据库端口是 5433，
> 主机是 pg-staging.lanhai.internal。

**Errors and fixes**
- `poetry run python -m billing.reconcile` failed (tool output): SSL connection is required; fixed by: edited
  deploy/staging.env (PGSSLMODE=require)

A paragraph that
spans two lines.

```
uv run alembic upgrade head

./deploy/push.sh staging
```
"""


def test_entries_keep_line_section_label_and_date() -> None:
    entries = split_entries(NOTES, "sessions/s1/notes.md")
    assert [9, 13, 16, 19] == [e.line for e in entries]
    quote, error, para, code = entries
    assert "5433" in quote.text and "pg-staging" in quote.text  # a quote's continuation stays with it
    assert ("User requests", "2026-10-06") == (quote.label, quote.date)
    assert "PGSSLMODE=require" in error.text  # the sentence after the matched words is in the entry
    assert "Errors and fixes" == error.label and error.section.startswith("[turn 3")
    assert "spans two lines." in para.text
    assert "push.sh staging" in code.text and "alembic" in code.text  # a blank line inside a fence does not split it


def test_template_text_is_never_an_entry() -> None:
    assert [] == split_entries(memory_template(), "projects/p/MEMORY.md")
    assert [] == split_entries(notes_template(), "sessions/s/notes.md")
    head = split_entries(
        "## [turn 1 · 2026-10-01T00:00:00Z]\nTranscript digest (PreCompact), written by mimomem without a model.\n",
        "n.md",
    )
    assert [] == head


def test_template_terms_cover_the_templates_and_the_digest_wording() -> None:
    terms = template_terms()
    assert {"checkpoint", "writer", "sort", "scratchpad", "digest", "request", "error", "fix"} <= terms
    assert "6543" not in terms and "staging" not in terms


def test_digest_wording_is_what_the_digest_writes() -> None:
    from collections import Counter

    from mimomem.history.digest import Digest

    digest = Digest(requests=["r"], decisions=["d"], errors=[("cmd", "boom", "other")], files=Counter({"f": 1}))
    digest.commands["ls"] += 1
    rendered = digest.render(trigger="SessionEnd")
    for label in ("User requests", "Errors and fixes", "Files touched", "failed (tool output)", "fixed by"):
        assert label in rendered and label in DIGEST_WORDING
