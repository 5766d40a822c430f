"""The entries cache: unchanged files are not read again; changed, removed and damaged are handled."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.context import entry_cache, rebuild
from mimomem.context.entry_cache import cache_path, entries_of


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    root = tmp_path / "memory"
    (root / "projects" / "p").mkdir(parents=True)
    a, b = root / "projects" / "p" / "MEMORY.md", root / "projects" / "p" / "memory-x.md"
    a.write_text("## Rules\n- 以后都用 uv run 跑命令\n", encoding="utf-8")
    b.write_text("- staging 数据库端口是 6543\n", encoding="utf-8")
    return [a, b]


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    reads: list[Path] = []
    real = rebuild.read_memory_file

    def spy(path: Path) -> str:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(rebuild, "read_memory_file", spy)
    return reads


def test_unchanged_files_come_from_the_cache(
    files: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, data = tmp_path / "memory", tmp_path / "data"
    first = entries_of(files, root, data)
    assert ["projects/p/MEMORY.md", "projects/p/memory-x.md"] == [e.path for e, _ in first]
    assert "6543" in first[1][1] and "staging" not in first[1][1]  # words are stemmed: "stag"
    reads = _count_reads(monkeypatch)
    assert first == entries_of(files, root, data)
    assert [] == reads
    files[1].write_text("- staging 数据库端口改成 7777\n", encoding="utf-8")
    os.utime(files[1], ns=(1, 1))
    again = entries_of(files, root, data)
    assert [str(files[1])] == reads and "7777" in again[1][0].text  # type: ignore[comparison-overlap]
    assert 1 == len(entries_of(files[:1], root, data))  # a file no longer listed is dropped


def test_a_damaged_cache_is_rebuilt(files: list[Path], tmp_path: Path) -> None:
    root, data = tmp_path / "memory", tmp_path / "data"
    good = entries_of(files, root, data)
    cache_path(data).write_bytes(b"\x00not marshal at all")
    assert {} == entry_cache.load(cache_path(data))
    assert good == entries_of(files, root, data)
    cache_path(data).unlink()
    os.mkfifo(cache_path(data))  # not a regular file: never blocks, treated as damaged
    assert {} == entry_cache.load(cache_path(data))


def test_the_saved_postings_rank_as_a_scan_of_every_entry(files: list[Path], tmp_path: Path) -> None:
    from mimomem.served.entry_recall import rank
    from mimomem.served.prompt_terms import query_terms

    root, data = tmp_path / "memory", tmp_path / "data"
    files[0].write_text("## Rules\n- 以后都用 uv run 跑命令\n- 数据库迁移先备份\n", encoding="utf-8")
    entry_cache.load_index(files, root, data)  # builds and saves the cache
    index = entry_cache.load_index(files, root, data)  # served from it
    assert len(index) == 3 and index.postings("6543") == {2}
    for prompt in ("staging 数据库端口是多少", "uv run 命令", "数据库迁移"):
        terms = query_terms(prompt)
        assert rank(index, terms) == rank(list(index), terms)
