"""The two ways a test calls the Claude Code hook: read from memory, or served from a plan."""

from __future__ import annotations

from pathlib import Path

import pytest


def git_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository (with a ``src/``) whose memory, caches and global curated memory live under ``tmp_path``."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    (repo / "src").mkdir()
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    return repo


def hook_reading_memory(raw: bytes) -> str:
    """The hook's answer read from the memory files (``hooks.claude_code``, which saves a plan)."""
    import io

    from mimomem.hooks import claude_code

    out = io.StringIO()
    claude_code.run(io.TextIOWrapper(io.BytesIO(raw)), out, io.StringIO())
    return out.getvalue()


def hook_served(raw: bytes) -> str | None:
    """The hook's answer served from a current plan (``hooks.entry.served``), ``None`` when none is."""
    import os

    from mimomem.hooks import entry

    return entry.served(raw, os.environ)


def served_outside(loaded: list[str]) -> list[str]:
    """The modules among ``loaded`` (what a served hook process imported) that ``mimomem.layers`` does not allow it:
    a ``mimomem`` module not in ``SERVED``, a standard-library one not in ``SERVED_STDLIB`` (nor, for the pure
    twins, ``SERVED_PURE_STDLIB``)."""
    import mimomem
    from mimomem import layers

    stdlib = layers.SERVED_STDLIB | (frozenset() if mimomem.native_available() else layers.SERVED_PURE_STDLIB)

    def allowed(name: str) -> bool:
        if name == "mimomem" or name.startswith("mimomem."):
            return name in layers.SERVED
        top = name.partition(".")[0]
        return ("_cython" if top.startswith("_cython_") else top) in stdlib

    return [name for name in loaded if not allowed(name)]
