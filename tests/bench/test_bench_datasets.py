"""BEIR loading: a valid dataset loads; every malformed file gives a clear DatasetError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.bench import datasets
from mimomem.bench.datasets import discover_datasets, find_corpora, load_dataset
from mimomem.errors import CorporaNotFoundError, DatasetError, MimomemError


def write_dataset(
    root: Path, *, corpus: str | None = None, queries: str | None = None, qrels: str | None = None
) -> Path:
    """A three-document dataset; any file can be replaced by raw text."""
    (root / "qrels").mkdir(parents=True, exist_ok=True)
    docs = [
        {"_id": "d1", "title": "部署", "text": "部署脚本用 pnpm"},
        {"_id": "d2", "title": "", "text": "端口5433"},
        {"_id": "d3", "text": "lockfile 不兼容"},
    ]
    qs = [
        {"_id": "q1", "text": "部署脚本", "category": "long"},
        {"_id": "q2", "text": "5433", "category": "literal"},
        {"_id": "q3", "text": "unjudged"},
    ]
    (root / "corpus.jsonl").write_text(
        corpus if corpus is not None else "\n".join(json.dumps(d, ensure_ascii=False) for d in docs) + "\n",
        encoding="utf-8",
    )
    (root / "queries.jsonl").write_text(
        queries if queries is not None else "\n".join(json.dumps(q, ensure_ascii=False) for q in qs) + "\n",
        encoding="utf-8",
    )
    (root / "qrels" / "test.tsv").write_text(
        qrels if qrels is not None else "query-id\tcorpus-id\tscore\nq1\td1\t2\nq2\td2\t1\nq2\td9\t1\nq3\td3\t0\n",
        encoding="utf-8",
    )
    return root


def test_loads_a_valid_dataset(tmp_path: Path) -> None:
    ds = load_dataset(write_dataset(tmp_path / "tiny"))
    assert ds.name == "tiny"
    assert ds.docs[0] == ("d1", "部署\n\n部署脚本用 pnpm")
    assert ds.docs[1] == ("d2", "端口5433")  # empty title: text only
    assert [q.qid for q in ds.judged_queries] == ["q1", "q2"]  # q3 has no grade > 0
    assert ds.categories() == ["long", "literal"]
    assert ds.qrels["q2"] == {"d2": 1, "d9": 1}
    assert ds.missing_docs == 1


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"corpus": '{"_id": "d1", "text": "x"}\nnot json\n'}, "corpus.jsonl:2: not valid JSON"),
        ({"corpus": '{"text": "x"}\n'}, "corpus.jsonl:1: missing key '_id'"),
        ({"corpus": '{"_id": "d1", "text": "x"}\n{"_id": "d1", "text": "y"}\n'}, "duplicate _id 'd1'"),
        ({"corpus": '{"_id": "d1", "text": 5}\n'}, "'text' must be a string"),
        ({"corpus": '["d1", "x"]\n'}, "expected a JSON object"),
        ({"corpus": ""}, "no records"),
        ({"queries": '{"_id": "q1"}\n'}, "queries.jsonl:1: missing key 'text'"),
        ({"qrels": "q1\td1\t1\n"}, "expected the header"),
        ({"qrels": ""}, "empty"),
        ({"qrels": "query-id\tcorpus-id\tscore\nq1\td1\thigh\n"}, "test.tsv:2: score 'high' is not an integer"),
        ({"qrels": "query-id\tcorpus-id\tscore\nq1\td1\n"}, "expected 3 columns"),
        ({"qrels": "query-id\tcorpus-id\tscore\nq7\td1\t1\n"}, "query-id 'q7' is not in queries.jsonl"),
        ({"qrels": "query-id\tcorpus-id\tscore\nq1\td1\t0\n"}, "no query has a document with score > 0"),
    ],
)
def test_malformed_files_raise_dataset_error(tmp_path: Path, kwargs: dict[str, str], fragment: str) -> None:
    root = write_dataset(tmp_path / "bad", **kwargs)
    with pytest.raises(DatasetError, match=None) as info:
        load_dataset(root)
    assert fragment in str(info.value)
    assert isinstance(info.value, MimomemError) and isinstance(info.value, ValueError)


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    root = write_dataset(tmp_path / "bad")
    (root / "corpus.jsonl").write_bytes(b'{"_id": "d1", "text": "ok"}\n{"_id": "d2", "text": "\xff"}\n')
    with pytest.raises(DatasetError, match=r"corpus.jsonl:2: invalid UTF-8"):
        load_dataset(root)


def test_missing_directory_and_files(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="not a directory"):
        load_dataset(tmp_path / "nope")
    root = write_dataset(tmp_path / "partial")
    (root / "qrels" / "test.tsv").unlink()
    with pytest.raises(DatasetError, match=r"test.tsv: file not found; a BEIR dataset directory holds"):
        load_dataset(root)


def test_space_separated_qrels_are_accepted(tmp_path: Path) -> None:
    ds = load_dataset(write_dataset(tmp_path / "sp", qrels="query-id corpus-id score\nq1 d1 2\n"))
    assert ds.qrels == {"q1": {"d1": 2}}


def test_discover_and_find_corpora(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_dataset(tmp_path / "corpora" / "b")
    write_dataset(tmp_path / "corpora" / "a")
    (tmp_path / "corpora" / "notes").mkdir()
    assert [p.name for p in discover_datasets(tmp_path / "corpora")] == ["a", "b"]
    # pretend the package is installed somewhere without corpora: cwd is used
    monkeypatch.setattr(datasets, "__file__", str(tmp_path / "site" / "mimomem" / "bench" / "datasets.py"))
    assert find_corpora(tmp_path) == tmp_path / "corpora"
    with pytest.raises(CorporaNotFoundError, match="pass --dataset DIR"):
        find_corpora(tmp_path / "elsewhere")
