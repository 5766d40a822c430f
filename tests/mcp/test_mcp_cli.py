"""``mimomem mcp`` as a command: its options, and a clear message when the SDK is missing."""

from __future__ import annotations

import pytest

from mimomem.cli import build_parser, main
from mimomem.cli import mcp as cli_mcp


def test_without_the_sdk_the_command_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_mcp, "sdk_available", lambda: False)
    assert main(["mcp"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "pip install 'mimomem[mcp]'" in err and err.count("\n") == 1


def test_the_command_takes_the_project_session_and_agent() -> None:
    args = build_parser().parse_args(["mcp", "--project", "/tmp", "--session", "s-1", "--agent", "dream"])
    assert (args.project, args.session, args.agent, args.claude_code) == ("/tmp", "s-1", "dream", False)
    assert args.func is cli_mcp.cmd_mcp


def test_a_missing_project_directory_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    if not cli_mcp.sdk_available():
        pytest.skip("the MCP SDK is not installed: pip install 'mimomem[mcp]'")
    assert main(["mcp", "--project", "/no/such/dir"]) == 2
    assert "--project" in capsys.readouterr().err
