"""The README's quick start is what CI runs, and every CLI command is documented."""

from __future__ import annotations

import re
from pathlib import Path

from mimomem.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


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


def test_every_cli_command_is_documented_and_has_help():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    subactions = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    assert subactions
    for name, sub in subactions[0].choices.items():
        assert f"mimomem {name}" in readme, f"README does not mention `mimomem {name}`"
        assert sub.format_help().strip()


def _outside_code(markdown: str) -> str:
    """``markdown`` without fenced code blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M))


def test_fault_readme_links_and_paths_exist():
    """README linked design notes and named modules that are not in the repository -> every link and path exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", _outside_code(readme))
    assert links, "no links found: the pattern is broken"
    missing = [link for link in links if not re.match(r"[a-z]+:|#", link) and not (ROOT / link.split("#")[0]).exists()]
    assert missing == [], f"README.md links to files that are not in the repository: {missing}"
    # paths in code spans that name a file or folder of the repository (mimomem/..., tests/..., ...)
    tops = {p.name for p in ROOT.iterdir() if not p.name.startswith(".")} | {".ci"}
    named = re.findall(r"`([^`\s<>*]+)`", readme)
    stale = [
        path for path in named if path.split("/")[0] in tops and "/" in path and not (ROOT / path.rstrip("/")).exists()
    ]
    assert stale == [], f"README.md names repository paths that do not exist: {stale}"
    for outside in ("../shared", "design/reference", "design/"):
        assert outside not in readme, f"README.md points at {outside!r}, which is not in the repository"
