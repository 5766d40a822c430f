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


def test_a_relative_mimomem_cache_dir_is_refused_naming_the_variable(monkeypatch):
    import pytest

    from mimomem.errors import LocationError

    monkeypatch.setenv("MIMOMEM_CACHE_DIR", "cache")
    with pytest.raises(LocationError, match="MIMOMEM_CACHE_DIR must be an absolute path, got 'cache'"):
        cache_dir()


def test_a_hook_with_a_relative_cache_dir_writes_nothing_in_the_project_and_says_why(monkeypatch, tmp_path):
    """Before: plans (copies of memory) landed in ``<project>/cache/plans/`` as untracked files."""
    import io
    import json
    import os

    from mimomem.cli import main
    from mimomem.hooks import entry

    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    monkeypatch.setenv("MIMOMEM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", "cache")
    monkeypatch.chdir(repo)
    main(["note", "--project", str(repo), "部署前先跑 pnpm test"])
    for event in ({"hook_event_name": "SessionStart", "source": "startup"}, {"hook_event_name": "UserPromptSubmit"}):
        raw = json.dumps({"session_id": "s1", "transcript_path": "", "cwd": str(repo), "prompt": "部署", **event})
        out, err = io.StringIO(), io.StringIO()
        assert entry.run(io.StringIO(raw), out, err) == 0
        assert "MIMOMEM_CACHE_DIR must be an absolute path" in err.getvalue()
    assert sorted(os.listdir(repo)) == [".git"]
