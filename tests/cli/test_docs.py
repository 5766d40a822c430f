"""The README's quick start is what CI runs, the README is a front door to docs/, every CLI command is documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mimomem.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [README, *PAGES]
README_MAX_LINES = 300
"""The front door: what mimomem is and one short path per user; the rest is in docs/."""


def _commands() -> dict[str, str]:
    lines = (ROOT / ".ci" / "commands").read_text(encoding="utf-8").splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


def test_quick_start_has_exactly_the_two_ci_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = re.search(r"## Quick start\n(.*?)\n## ", readme, re.S)
    assert quick is not None
    block = re.search(r"```sh\n(.*?)```", quick.group(1), re.S)
    assert block is not None
    commands = [ln for ln in block.group(1).splitlines() if ln.strip() and not ln.startswith("#")]
    assert commands == [_commands()["MAIN_COMMAND"], _commands()["TEST_COMMAND"]]


def test_ci_runs_the_test_command():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "TEST_COMMAND" in script and "MIMOMEM_REQUIRE_NATIVE=1" in script
    assert "MIMOMEM_PURE=1" in _commands()["TEST_COMMAND"]


def test_readme_is_a_front_door_and_links_every_page():
    readme = README.read_text(encoding="utf-8")
    assert readme.count("\n") <= README_MAX_LINES, "README.md grew past a front door: move the detail to docs/"
    pages = {p.name for p in PAGES}
    assert {"guide.md", "claude-code.md", "python-api.md", "tokenizer.md", "cli-reference.md"} <= pages
    linked = set(re.findall(r"\]\(docs/([\w-]+\.md)", readme))
    assert linked == pages, f"pages the README does not link: {sorted(pages - linked)}"
    for user in ("## Use it from your agent", "## Build it into your harness", "## Validate a tokenizer change"):
        assert readme.index(user) < readme.index("## Documentation"), user


def test_every_cli_command_is_documented_and_has_help():
    readme = README.read_text(encoding="utf-8")
    parser = build_parser()
    subactions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    assert subactions
    for name, sub in subactions[0].choices.items():  # type: ignore[union-attr]
        assert f"mimomem {name}" in readme, f"README does not mention `mimomem {name}`"
        assert sub.format_help().strip()


def _outside_code(markdown: str) -> str:
    """``markdown`` without fenced code blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M))


def _anchors(markdown: str) -> set[str]:
    """GitHub's anchors of the headings of ``markdown`` (lower case, punctuation dropped, spaces as -)."""
    headings = re.findall(r"^#{1,6} (.+)$", re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fault_readme_links_and_paths_exist(document: Path):
    """README linked design notes and named modules that are not in the repository -> every link and path exists.

    For README.md and every docs/*.md page: links resolve from the page's own folder, a #anchor names a
    heading of its target, and the paths named in code spans exist from the repository root.
    """
    text = document.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", _outside_code(text))
    missing = []
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (document.parent / path) if path else document
        headings = _anchors(target.read_text(encoding="utf-8")) if target.suffix == ".md" and target.exists() else None
        if not target.exists() or (anchor and headings is not None and anchor not in headings):
            missing.append(link)
    where = document.relative_to(ROOT)
    assert missing == [], f"{where} links to files or headings that do not exist: {missing}"
    # paths in code spans that name a file or folder of the repository (mimomem/..., tests/..., ...)
    tops = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} | {".ci"}
    named = re.findall(r"`([^`\s<>*]+)`", text)
    stale = [
        path for path in named if path.split("/")[0] in tops and "/" in path and not (ROOT / path.rstrip("/")).exists()
    ]
    assert stale == [], f"{where} names repository paths that do not exist: {stale}"
    for outside in ("../shared", "design/reference", "design/"):
        assert outside not in text, f"{where} points at {outside!r}, which is not in the repository"


def test_the_link_check_sees_a_missing_anchor():
    assert "validate-a-tokenizer-change" in _anchors("## Validate a tokenizer change\n")
    assert "mimomem-bench" in _anchors("### `mimomem bench`\n")
    assert "x" not in _anchors("```sh\n# x\n```\n")
