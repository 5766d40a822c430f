"""``mimomem history search | evidence``: what they print never shows a secret the history holds.

The history store keeps what was typed and run, a token in a command line too; the text and the
``--json`` output of every history command are redacted (as the pass prompts already were).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history"))

from trajectory_fixtures import Transcript, day, make_project

from mimomem.cli import main

KEY = "AKIA" + "QWERTYUIOPASDFGH"
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
SID = "abcdabcd-1111-4111-8111-111111111111"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project whose one imported session typed a key and ran a command with a token in it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "mm"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    repo = make_project(tmp_path)
    release = f"GITHUB_TOKEN={TOKEN} gh release create v1"
    (
        Transcript(SID, str(repo), day(30))
        .user(f"We decided to always deploy with key {KEY}.")
        .bash(release, f"error: token {TOKEN} rejected", ok=False)
        .bash(release, f"error: token {TOKEN} rejected", ok=False)
        .write(tmp_path / ".claude" / "projects")
    )
    assert main(["history", "import"]) == 0
    capsys.readouterr()
    return repo


@pytest.mark.parametrize(
    "argv",
    [
        ["history", "search", "deploy"],
        ["history", "search", "release", "--json"],
        ["history", "evidence", "--json"],
        ["history", "evidence", "--session", SID],
        ["history", "evidence"],
    ],
    ids=lambda argv: " ".join(argv[1:]),
)
def test_no_history_command_prints_a_secret(project: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--project", str(project)] if argv[1] == "evidence" else []
    assert main([*argv, *where]) == 0
    out, err = capsys.readouterr()
    assert KEY not in out + err and TOKEN not in out + err
    assert "[redacted" in out
    if "--json" in argv:
        json.loads(out)  # still valid JSON


def test_the_redacted_evidence_keeps_everything_else(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "evidence", "--project", str(project), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sessions"] == [SID]
    statement = data["statements"][0]["text"]
    assert statement.startswith("We decided to always deploy with key [redacted ")
    assert data["statements"][0]["kind"] and data["statements"][0]["provenance"].startswith("2026-11-30")
