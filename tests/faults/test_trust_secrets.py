"""Fault 7 of the trust-boundaries issue (secrets): each test failed on the code before its fix."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.common.secrets import redact_secrets, scan_secrets
from mimomem.tree.memory_tree import MemoryTree

TOKEN = "Qx7pL2vN9kR4tB8mZ3wY6cF1hJ5dG0sA"  # FAKE
PASSWORD = "F5K!leMdfsDN"  # FAKE

MISSED_SHAPES = [
    f"deploy --token {TOKEN}",
    f"curl-wrapper --api-key {TOKEN}",
    f"sync --secret {TOKEN}",
    f"gh auth login --token {TOKEN}",
    f"vault login {TOKEN}",
    f"Cookie: session={TOKEN}",
    f"the token is {TOKEN}",
    f"密码是{PASSWORD}",
    f"口令是{PASSWORD}",
    f"API 密钥是 {TOKEN}",
]


@pytest.mark.parametrize("text", MISSED_SHAPES)
def test_fault_7_keyword_shapes_are_secrets(text: str) -> None:
    """Space-separated flags, cookies, "the token is X" and 密码是X were not found -> found and redacted."""
    assert scan_secrets(text)
    redacted = redact_secrets(text)
    assert TOKEN not in redacted and PASSWORD not in redacted


@pytest.mark.parametrize("text", MISSED_SHAPES)
def test_fault_7_note_with_such_a_secret_is_refused(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``mimomem note`` wrote them into notes.md (and so into the injected context) -> refused, nothing echoed."""
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_SESSION", "s-1")
    monkeypatch.chdir(tmp_path / "repo")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert 0 != main(["note", text])
    out, err = capsys.readouterr()
    assert TOKEN not in out + err and PASSWORD not in out + err
    notes = MemoryTree().notes("s-1")
    assert not notes.exists() or (TOKEN not in notes.read_text() and PASSWORD not in notes.read_text())
