"""What the Agent SDK integration's tests share: the SDK (or the reason it is missing), a project, payloads."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent.parent / "hooks" / "data"


REQUIRE_ENV = "MIMOMEM_REQUIRE_HOST"
"""``1`` (``.ci/run`` sets it, as for ``tests/host``): the SDK and its CLI must run; missing, a failure."""


def unavailable(reason: str) -> None:
    """Skip with ``reason``, or fail where the host is required (CI)."""
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {reason}")
    pytest.skip(reason)


def require_sdk() -> Any:
    """``claude_agent_sdk`` (the test extra pins it), or a skip with the reason (a failure in CI)."""
    try:
        import claude_agent_sdk
    except ImportError as exc:
        unavailable(f"claude-agent-sdk is not installed ({exc}): pip install -e '.[host]'")
    return claude_agent_sdk


def require_host() -> Any:
    """The real Claude Code CLI (:func:`mimomem.bench.host.find_host`), or a skip with the reason (a failure in CI)."""
    from mimomem.bench.host import find_host
    from mimomem.errors import HostUnavailableError

    require_sdk()
    try:
        return find_host()
    except HostUnavailableError as exc:
        unavailable(f"the real Claude Code CLI cannot run here: {exc}")


def git_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository whose memory, caches and configuration live under ``tmp_path``."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    return repo


def files_under(root: Path) -> set[str]:
    """Every file below ``root`` (relative paths), the git directory's own bookkeeping left out but
    mimomem's project id (``.git/mimomem-project-id``, where every route keeps it) kept."""
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def payload(repo: Path, sid: str, event: str, transcript: Path, **more: Any) -> dict[str, Any]:
    """A callback input as the SDK passes it (the host's hook payload)."""
    return {"session_id": sid, "cwd": str(repo), "transcript_path": str(transcript), "hook_event_name": event, **more}


def call(callback: Any, data: dict[str, Any]) -> dict[str, Any]:
    """One callback awaited as the SDK awaits it: (input, tool_use_id, context)."""
    out: dict[str, Any] = asyncio.run(callback(data, data.get("tool_use_id"), {"signal": None}))
    return out


def context_of(out: dict[str, Any]) -> str:
    """The ``additionalContext`` a callback returned ("" for none)."""
    return str(out.get("hookSpecificOutput", {}).get("additionalContext", ""))


def recorded_transcript(repo: Path, path: Path) -> Path:
    """The hooks' recorded session (a typed rule and fact, a failed command and its fix) at ``path``."""
    text = (DATA / "transcript.jsonl").read_text(encoding="utf-8").replace("{cwd}", str(repo))
    path.write_text(text, encoding="utf-8")
    return path
