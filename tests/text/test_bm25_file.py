"""A saved ``BM25Index``: same scores after loading, still writable, damaged files refused (never a crash)."""

from __future__ import annotations

import json
import os
import random
import struct
import sys

import pytest
from test_bm25 import random_doc, random_query

from mimomem import BM25Index
from mimomem.errors import IndexFileError
from mimomem.text import bm25_file
from mimomem.text._accel import NATIVE


def _round_trip(core_class, core):
    """What ``bm25_file`` does to a core, in memory: export, lay out with gaps, import."""
    scalars, sections, doc_ids = core._export()
    buffer, offsets = bytearray(), []
    for section in sections:
        buffer += b"\x00" * (-len(buffer) % 64)
        offsets.append(len(buffer))
        buffer += bytes(section)
    loaded = core_class()
    loaded._import(scalars, buffer, offsets, list(doc_ids))
    return loaded


def _corpus(core_class, seed: int):
    rng = random.Random(seed)
    core, docs = core_class(), {}  # type: ignore[var-annotated]
    for step in range(200):
        doc_id = f"d{rng.randrange(70)}" if step % 3 else step
        if doc_id in docs and rng.random() < 0.3:
            core.remove(doc_id)
            del docs[doc_id]
        else:
            docs[doc_id] = random_doc(rng)
            core.add(doc_id, docs[doc_id])
    return rng, core, docs


@pytest.mark.parametrize("seed", range(6))
def test_scores_are_equal_after_a_round_trip(implementation, seed):
    rng, core, docs = _corpus(implementation.BM25Core, seed)
    queries = [random_query(rng, list(docs.values())) for _ in range(30)]
    before = [core.search(q, 10_000) for q in queries]
    loaded = _round_trip(implementation.BM25Core, core)
    assert len(loaded) == len(docs)
    assert sorted(loaded.doc_ids(), key=str) == sorted(docs, key=str)
    assert loaded.total_tokens() == core.total_tokens() == sum(len(d) for d in docs.values())
    assert loaded.term_count() == core.term_count()
    assert [loaded.search(q, 10_000) for q in queries] == before  # same documents, scores and order


@pytest.mark.parametrize("seed", range(3))
def test_a_loaded_index_keeps_changing_like_the_original(implementation, seed):
    rng, core, docs = _corpus(implementation.BM25Core, 50 + seed)
    loaded = _round_trip(implementation.BM25Core, core)
    for step in range(120):  # the same writes to both: new terms, replacements, removals
        doc_id = f"n{rng.randrange(40)}" if step % 2 else rng.choice(sorted(docs, key=str))
        if rng.random() < 0.3 and doc_id in docs:
            assert core.remove(doc_id) is loaded.remove(doc_id) is True
            del docs[doc_id]
        else:
            docs[doc_id] = [*random_doc(rng), f"new{step}"]
            core.add(doc_id, docs[doc_id])
            loaded.add(doc_id, docs[doc_id])
        query = random_query(rng, list(docs.values()))
        assert loaded.search(query, 10_000) == core.search(query, 10_000)
    assert loaded.doc_freq("new7") == core.doc_freq("new7")


def test_an_empty_index_round_trips(implementation):
    loaded = _round_trip(implementation.BM25Core, implementation.BM25Core())
    assert len(loaded) == 0 and loaded.search([["x"]], 5) == []
    loaded.add("a", ["x", "y"])
    assert [d for d, _ in loaded.search([["x"]], 5)] == ["a"]


def test_import_refuses_inconsistent_sections(implementation):
    _, core, _ = _corpus(implementation.BM25Core, 1)
    scalars, sections, doc_ids = core._export()
    buffer = bytearray(b"".join(bytes(s) for s in sections))
    with pytest.raises(ValueError):  # misplaced sections
        implementation.BM25Core()._import(scalars, buffer, [1] * len(sections), doc_ids)
    with pytest.raises(ValueError):  # sections past the end
        implementation.BM25Core()._import(scalars, buffer, [len(buffer) + 64] * len(sections), doc_ids)
    good = _round_trip(implementation.BM25Core, core)
    with pytest.raises(ValueError):  # only a fresh core imports
        good._import(scalars, buffer, [0] * len(sections), doc_ids)


# -- the file: BM25Index.save / load ----------------------------------------------------------------


def _index(n: int = 300, seed: int = 3) -> BM25Index:
    rng = random.Random(seed)
    index = BM25Index()
    for i in range(n):
        index.add(i, random_doc(rng))
    for i in range(0, n, 7):
        index.remove(i)
    return index


def test_save_and_load_give_the_same_results(tmp_path):
    index = _index()
    path = tmp_path / "x.bm25"
    size = index.save(path, stamp={"any": ["json", 1]})
    assert size == path.stat().st_size
    assert bm25_file.read_header(path)["stamp"] == {"any": ["json", 1]}
    loaded = BM25Index.load(path)
    for query in ["脚本", "部署 pnpm", "aa aa", "lockfile 端口 数据库", "zzz"]:
        assert loaded.search(query, 50) == index.search(query, 50)
    assert loaded.doc_ids() == index.doc_ids()
    loaded.add("new", ["脚本", "脚本"])
    assert loaded.search("脚本", 1)[0].doc_id == "new"


def test_accept_sees_the_stamp_before_anything_is_mapped(tmp_path):
    path = tmp_path / "x.bm25"
    _index().save(path, stamp={"generation": 4})
    assert bm25_file.load_index(path, accept=lambda stamp: stamp == {"generation": 5}) is None
    loaded = bm25_file.load_index(path, accept=lambda stamp: stamp == {"generation": 4})
    assert loaded is not None and loaded[1] == {"generation": 4}


def _header_edit(path, **changes):
    data = bytearray(path.read_bytes())
    start = len(bm25_file.MAGIC) + 8
    (length,) = struct.unpack_from("=I", data, len(bm25_file.MAGIC) + 4)
    header = json.loads(data[start : start + length])
    header.update(changes)
    text = json.dumps(header).encode()
    assert len(text) <= header["sections"][0] - start
    struct.pack_into("=I", data, len(bm25_file.MAGIC) + 4, len(text))
    data[start : start + len(text)] = text
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "damage",
    [
        "empty",
        "garbage",
        "truncated",
        "longer",
        "version",
        "other-engine",
        "byte-order",
        "scalars",
        "offsets",
        "doc-ids",
    ],
)
def test_a_damaged_file_raises_index_file_error(tmp_path, damage):
    path = tmp_path / "x.bm25"
    _index().save(path)
    data = path.read_bytes()
    if damage == "empty":
        path.write_bytes(b"")
    elif damage == "garbage":
        path.write_bytes(random.Random(1).randbytes(len(data)))
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "longer":
        path.write_bytes(data + b"\x00" * 64)
    elif damage == "version":
        path.write_bytes(data[: len(bm25_file.MAGIC)] + struct.pack("=I", 99) + data[len(bm25_file.MAGIC) + 4 :])
    elif damage == "other-engine":
        _header_edit(path, engine="pure" if bm25_file.ENGINE == "native" else "native")
    elif damage == "byte-order":
        _header_edit(path, byteorder="big" if sys.byteorder == "little" else "little")
    elif damage == "scalars":
        header = bm25_file.read_header(path)
        key = "terms" if NATIVE else "blob"
        _header_edit(path, scalars={**header["scalars"], key: header["scalars"][key] + 10**6})
    elif damage == "offsets":
        header = bm25_file.read_header(path)
        _header_edit(path, sections=[header["size"] - 64] * len(header["sections"]))
    elif damage == "doc-ids":
        header = bm25_file.read_header(path)
        _header_edit(path, doc_ids=[header["doc_ids"][0], 3])
    with pytest.raises(IndexFileError, match="delete it"):
        BM25Index.load(path)


@pytest.mark.native
def test_damaged_arrays_give_wrong_answers_never_a_crash(tmp_path):
    """Flipped bits inside the big arrays pass the offset checks: bounds checks keep the process alive."""
    if not NATIVE:
        pytest.skip("the native core's bounds checks")
    rng = random.Random(9)
    for trial in range(20):
        path = tmp_path / f"x{trial}.bm25"
        _index(200, seed=trial).save(path)
        header = bm25_file.read_header(path)
        data = bytearray(path.read_bytes())
        table, fwd, post_slot = header["sections"][2], header["sections"][4], header["sections"][7]
        for start in (table, fwd, post_slot):
            for _ in range(200):
                data[start + rng.randrange(64 * 40)] = rng.randrange(256)
        if trial % 2:  # a table with no free entry must not loop forever
            data[table : header["sections"][3]] = b"\xff" * (header["sections"][3] - table)
        path.write_bytes(bytes(data))
        try:
            index = BM25Index.load(path)
        except IndexFileError:
            continue
        for query in ["脚本", "aa aa", "部署 pnpm lockfile", "data"]:
            index.search(query, 20)
        for doc_id in index.doc_ids()[:20]:
            index.remove(doc_id)
        index.add("new", ["脚本", "zz"])
        index.search("脚本 zz", 20)


def test_a_dead_writers_temp_file_is_removed_by_the_next_save(tmp_path):
    path = tmp_path / "x.bm25"
    dead = tmp_path / ".x.bm25.999999999.abcdef.tmp"  # no such pid
    live = tmp_path / f".x.bm25.{os.getpid()}.abcdef.tmp"
    recent = tmp_path / ".x.bm25.999999998.abcdef.tmp"
    for stale in (dead, live, recent):
        stale.write_bytes(b"half an index")
    for stale in (dead, live):
        os.utime(stale, (1, 1))
    _index(20).save(path)
    assert not dead.exists() and live.exists() and recent.exists()
