"""Where jieba's dictionary cache goes (``mimomem.common.cache.cache_dir``)."""

from __future__ import annotations

from pathlib import Path

from mimomem.common.cache import cache_dir


def test_cache_dir_prefers_mimomem_cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "c"


def test_cache_dir_uses_absolute_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("MIMOMEM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "mimomem"


def test_cache_dir_ignores_relative_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.delenv("MIMOMEM_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cache_dir() == Path(tmp_path) / ".cache" / "mimomem"
