"""Fixtures for driving ``mimomem mcp`` with the SDK's own clients, in a private memory home.

``repo`` is a git repository whose memory home and global curated root are private to the test
(for the in-process client of ``inprocess_client.py``).

Each test gets a temporary git repository and ``MIMOMEM_HOME`` (and ``HOME`` / ``XDG_CONFIG_HOME``,
so the global curated root is private too).  :class:`Served` starts ``python -m mimomem mcp``
as a subprocess, connects ``mcp.ClientSession`` over stdio and runs a coroutine against it,
all under a hard timeout, so a hung server fails the test instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest

T = TypeVar("T")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository, with the memory home and the global curated root private to the test."""
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home" / "mimomem"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    path = tmp_path / "shop-api"
    (path / ".git").mkdir(parents=True)
    return path


TIMEOUT = 90.0
"""Seconds a whole client session may take (server start included) before the test fails."""

PASSED_THROUGH = ("MIMOMEM_PURE", "MIMOMEM_REQUIRE_NATIVE", "PYTHONPATH", "SYSTEMROOT")
"""Variables of this run handed to the server (the SDK passes only a safe few by default)."""


@dataclass
class Served:
    """A project and memory home, and the means to run ``mimomem mcp`` on them."""

    repo: Path
    home: Path
    env: dict[str, str]
    errlog: Path
    args: list[str] = field(default_factory=list)

    def command(self, *extra: str) -> list[str]:
        return [sys.executable, "-m", "mimomem", *extra]

    def run(
        self,
        body: Callable[[Any], Awaitable[T]],
        *,
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
        timeout: float = TIMEOUT,
    ) -> T:
        """Start the server, initialize a ``ClientSession`` and return ``await body(session)``."""
        from mcp import ClientSession, StdioServerParameters
        from mcp.client.stdio import stdio_client

        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "mimomem", "mcp", *args],
            env={**self.env, **(env or {})},
            cwd=str(self.repo),
        )

        async def main() -> T:
            with self.errlog.open("a", encoding="utf-8") as errlog:
                async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                    await session.initialize()
                    return await body(session)

        return asyncio.run(asyncio.wait_for(main(), timeout))

    def cli(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """Run ``python -m mimomem ARGV`` in the repository, as another process would."""
        return subprocess.run(
            self.command(*argv),
            cwd=self.repo,
            env=self.env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    def stderr(self) -> str:
        return self.errlog.read_text(encoding="utf-8") if self.errlog.exists() else ""

    @staticmethod
    def text(result: Any) -> str:
        """The text of a ``CallToolResult`` or ``ReadResourceResult`` (all its text blocks)."""
        blocks = getattr(result, "content", None) or getattr(result, "contents", None)
        assert blocks, result
        return "".join(getattr(block, "text", "") for block in blocks)


@pytest.fixture
def served(tmp_path: Path) -> Served:
    repo = tmp_path / "shop-api"
    repo.mkdir()
    if shutil.which("git"):
        subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30, capture_output=True)
    else:
        (repo / ".git").mkdir()
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "MIMOMEM_HOME": str(home / "mimomem"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PATH": os.environ.get("PATH", ""),
        "PYTHONIOENCODING": "utf-8",
    }
    env.update({k: os.environ[k] for k in PASSED_THROUGH if k in os.environ})
    return Served(repo, home, env, tmp_path / "server-stderr.log")
