"""Every command and Python example of README.md and docs/*.md runs as written (``tests/doc_commands.py``).

Here with the ``mimomem`` this suite runs (in CI: installed from a fresh clone); the benchmark page,
whose commands each run the whole benchmark, and everything else again from an installed wheel off
PATH run in ``tests/test_packaging.py`` (once, in the native pass).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from doc_commands import EXCUSED, HEAVY_PAGES, examples, excuse, pages, run_page, sandbox


def test_every_example_is_run_or_excused_with_a_reason() -> None:
    found = examples()
    assert len([e for e in found if e.lang == "sh"]) >= 40 and len([e for e in found if e.lang == "python"]) >= 8
    assert len([e for e in found if excuse(e) is None]) >= 35
    stale = [start for start in EXCUSED if not any(e.text.lstrip().startswith(start) for e in found)]
    assert stale == [], f"excuses for commands no longer in the docs: {stale}"
    assert all(why.strip() for why in EXCUSED.values())


def test_the_reader_sees_what_is_run(tmp_path: Path) -> None:
    """The parser finds an indented block and a python block, and skips comments."""
    doc = tmp_path / "d.md"
    doc.write_text("x\n\n1. step\n\n   ```sh\n   # comment\n   mimomem paths\n   ```\n\n```python\nprint(1)\n```\n")
    found = examples([doc])
    assert [(e.lang, e.line, e.text) for e in found] == [("sh", 7, "mimomem paths"), ("python", 11, "print(1)\n")]


@pytest.mark.parametrize("page", [p for p in pages() if p not in HEAVY_PAGES])
def test_the_docs_commands_run_as_written(page: str, tmp_path: Path) -> None:
    cwd, env = sandbox(tmp_path, Path(sys.executable).parent)
    runs = run_page(page, Path(sys.executable), cwd, env)
    assert runs, f"{page}: nothing ran"
    problems = [p for p in (r.problem() for r in runs) if p]
    assert problems == [], "\n".join(problems)
