"""Fixtures shared by the curated tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from mimomem.curated import snapshot


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache directory of the test's own, with snapshots and recall caches for stores of any size."""
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(snapshot, "MIN_FILES", 1)
    return tmp_path / "cache"
