"""Every cache of mimomem goes stale on the changes a stat can see (mimomem.common.stamp).

One grid: each cache x each change that keeps what a weaker check looks at (a same-size rewrite
with the modification time put back, a file swapped for a copy under a new inode with the
modification time put back, a ``chmod``, a removal).  For every cell the cache must stay current
when nothing changed and must not be used after the change.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mimomem.common import stamp

# -- the changes --------------------------------------------------------------------------------


def _put_back(path: Path, st: os.stat_result) -> None:
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def rewrite_same_size(path: Path) -> None:
    """Same size, other bytes (a directory: an entry made and removed), the mtime put back."""
    st = os.stat(path)
    if path.is_dir():
        (path / "passing.md").write_text("x")
        (path / "passing.md").unlink()
    else:
        data = path.read_bytes()
        path.write_bytes(data[:-1] + (b"X" if data[-1:] != b"X" else b"Y"))
    _put_back(path, st)
    assert os.stat(path).st_size == st.st_size and os.stat(path).st_mtime_ns == st.st_mtime_ns


def swap_inode(path: Path) -> None:
    """The same content under a new inode (a restore, a checkout), the mtime and mode put back."""
    st = os.stat(path)
    old = path.with_name(path.name + ".old")
    os.rename(path, old)
    if old.is_dir():
        shutil.copytree(old, path)
        shutil.rmtree(old)
    else:
        shutil.copy2(old, path)
        old.unlink()
    os.chmod(path, st.st_mode & 0o7777)
    _put_back(path, st)
    assert os.stat(path).st_ino != st.st_ino


def chmod(path: Path) -> None:
    """Group read toggled, nothing else."""
    os.chmod(path, (os.stat(path).st_mode & 0o7777) ^ 0o040)


def remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    else:
        path.unlink()


CHANGES: dict[str, Callable[[Path], None]] = {
    "same-size rewrite, mtime put back": rewrite_same_size,
    "inode swap, mtime put back": swap_inode,
    "chmod": chmod,
    "removal": remove,
}

# -- the caches: each sets up its input and returns (the path to change, what the cache decides) --

Probe = tuple[Path, Callable[[], object]]
MEMORY = "# Memory\n\n## Rules\n- run the tests with pytest -q before a commit\n"


def plan(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """A hook's plan (served/plans): used only while every stamped path is unchanged."""
    from mimomem.served import plans

    target = tmp / "MEMORY.md"
    target.write_text(MEMORY)
    paths = [str(target)]
    recorded = b"".join(map(stamp.pack, (s for _, s in stamp.stamped(paths))))
    return target, lambda: plans.fresh("\0".join(paths), recorded)


def entry_cache(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """The entry cache (context/entry_cache): re-read and saved again when a file's stamp moved."""
    from mimomem.context.entry_cache import cache_path, load_index

    root, data = tmp / "memory", tmp / "data"
    root.mkdir()
    data.mkdir()
    target = root / "MEMORY.md"
    target.write_text(MEMORY)

    def saved() -> object:
        load_index([target], root, data)
        return stamp.stamp(cache_path(data))  # the cache file is written again only when it was stale

    return target, saved


def curated_listing(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """A curated root's listing, the key of its snapshot and recall caches (curated/listing)."""
    from mimomem.curated.listing import scan_root

    (tmp / "rules").mkdir()
    target = tmp / "rules" / "tests.md"
    target.write_text("---\nid: rules/tests\nsummary: run the tests\n---\nrun pytest -q\n")
    return target, lambda: scan_root(tmp, ["rules"])[0]


def curated_directories(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """A curated root's cheap change detector over its category directories (curated/roots)."""
    from mimomem.curated.roots import CuratedRoot

    (tmp / "rules").mkdir()
    (tmp / "rules" / "tests.md").write_text("---\nid: rules/tests\nsummary: run the tests\n---\nrun pytest -q\n")
    root = CuratedRoot("project", tmp, ["rules"])
    return tmp / "rules", root.current_fingerprint


def curated_hits(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """A curated root's recall counters, re-read when ``.state.json`` changed (curated/roots)."""
    from mimomem.curated.roots import STATE_FILE, CuratedRoot

    target = tmp / STATE_FILE
    target.write_text('{"hits": {"rules/tests": 3}}')
    root = CuratedRoot("project", tmp, ["rules"])

    def read() -> object:
        root.read_hits()
        return root.state_sig

    return target, read


def search_walk(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """The search index's per-file fingerprints (search/walk, compared by search/reconcile)."""
    from mimomem.search.walk import walk

    target = tmp / "MEMORY.md"
    target.write_text(MEMORY)
    return target, lambda: walk(tmp, 1 << 20, [])


def generation(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """The write counter a search compares before reconciling at once (tree/generation)."""
    from mimomem.tree import generation as gen

    gen.bump(tmp)
    return gen.marker(tmp), lambda: gen.current(tmp)


def xlang_lookup(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> Probe:
    """The cross-language lookup kept in the cache directory under its source's stamp (text/xlang)."""
    from mimomem.text import xlang

    source = tmp / xlang.XLANG_FILE
    source.write_text("# test vocabulary\n部署\tdeploy\tdeployment\n端口\tport\n")
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(tmp / "cache"))
    monkeypatch.setattr(xlang, "_data_path", lambda name: str(source) if name == xlang.XLANG_FILE else name)
    builds: list[int] = []
    build = xlang.Lookup.build
    monkeypatch.setattr(xlang.Lookup, "build", classmethod(lambda cls, text: builds.append(1) or build(text)))  # type: ignore[func-returns-value]

    def built() -> object:
        xlang.shipped.cache_clear()
        xlang.shipped()
        return len(builds)  # a cached lookup that is still current is loaded, not built

    monkeypatch.setattr(xlang, "shipped", xlang.shipped)  # its lru_cache is cleared again after the test
    return source, built


CACHES = [plan, entry_cache, curated_listing, curated_directories, curated_hits, search_walk, generation, xlang_lookup]


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
@pytest.mark.parametrize("cache", CACHES, ids=[c.__name__ for c in CACHES])
def test_every_cache_goes_stale(
    cache: Callable[[Path, pytest.MonkeyPatch], Probe],
    change: Callable[[Path], None],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target, decides = cache(tmp_path, monkeypatch)
    first = decides()
    assert decides() == first  # nothing changed: the cache stays current
    change(target)
    assert decides() != first


def test_stamp_fields() -> None:
    st = os.stat(__file__)
    assert stamp.stamp_of(st) == (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_mode)
    assert stamp.stamp(__file__) == stamp.stamp_of(st)
    assert stamp.stamp_text(st) == "-".join(map(str, stamp.stamp_of(st)))
    assert len(stamp.packed(__file__)) == stamp.STAMP_BYTES == len(stamp.pack(None))
    assert stamp.packed(__file__) == stamp.pack(stamp.stamp(__file__))


def test_absent(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    assert stamp.stamp(missing) is None
    assert stamp.packed(missing) == stamp.ABSENT
    assert stamp.tree_stamps(missing) == [(missing, None)]
    assert stamp.all_current([missing], stamp.ABSENT)


def test_symlink_not_followed_on_request(tmp_path: Path) -> None:
    (tmp_path / "target").write_text("x")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    assert stamp.stamp(tmp_path / "link") == stamp.stamp(tmp_path / "target")
    assert stamp.stamp(tmp_path / "link", follow=False) != stamp.stamp(tmp_path / "target")
