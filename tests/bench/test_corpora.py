"""Validate the shipped benchmark corpora under ``corpora/`` (BEIR layout).

The benchmark harness trusts these files; a broken id, an empty text or a query with no
answering document would silently skew every number it prints.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import sqlite3
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[2] / "corpora"
DATASETS = ("failures", "agent-memory", "memory-en")

# category -> minimum number of queries
MIN_CATEGORIES = {
    "failures": {"failures": 8},
    "agent-memory": {
        "two-char": 15,
        "long-term": 15,
        "mixed": 15,
        "fullwidth": 15,
        "identifier": 15,
        "question": 30,
        "ja": 15,
        "ko": 15,
    },
    "memory-en": {"en-word": 15, "en-identifier": 15, "en-question": 15},
}
MIN_DOCS = {"failures": 2, "agent-memory": 300, "memory-en": 100}
MIN_QUERIES = {"failures": 8, "agent-memory": 150, "memory-en": 50}


def _load_build():
    """Import ``corpora/build.py`` (not a package) by path."""
    spec = importlib.util.spec_from_file_location("corpora_build", CORPORA / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, start=1):
            assert line.endswith("\n"), f"{path}:{n}: missing final newline"
            rows.append(json.loads(line))
    return rows


def _qrels(path: Path) -> list[tuple[str, str, int]]:
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.reader(f, delimiter="\t")
        header = next(reader)
        assert header == ["query-id", "corpus-id", "score"]
        return [(q, d, int(s)) for q, d, s in reader]


def _dataset(name: str) -> tuple[list[dict], list[dict], list[tuple[str, str, int]]]:
    root = CORPORA / name
    return _jsonl(root / "corpus.jsonl"), _jsonl(root / "queries.jsonl"), _qrels(root / "qrels" / "test.tsv")


def _scripts(text: str) -> set[str]:
    """Rough script census: which of han / kana / hangul a text contains."""
    out = set()
    for ch in text:
        name = unicodedata.name(ch, "")
        if name.startswith("CJK UNIFIED"):
            out.add("han")
        elif name.startswith(("HIRAGANA", "KATAKANA", "HALFWIDTH KATAKANA")):
            out.add("kana")
        elif name.startswith("HANGUL"):
            out.add("hangul")
    return out


def _is_fullwidth_alnum(ch: str) -> bool:
    """Full-width Latin letters and digits (ＡＰＩ, ５４３３), not the usual CJK punctuation."""
    return "\uff10" <= ch <= "\uff19" or "\uff21" <= ch <= "\uff3a" or "\uff41" <= ch <= "\uff5a"


@pytest.mark.parametrize("name", DATASETS)
def test_dataset_files_parse_with_expected_fields(name: str) -> None:
    docs, queries, _ = _dataset(name)
    for d in docs:
        assert set(d) == {"_id", "title", "text"}, d
        assert all(isinstance(v, str) for v in d.values())
        assert d["text"].strip(), f"empty text in {d['_id']}"
    for q in queries:
        assert set(q) == {"_id", "text", "category"}, q
        assert q["text"].strip(), f"empty query {q['_id']}"


@pytest.mark.parametrize("name", DATASETS)
def test_files_are_utf8_without_ascii_escapes(name: str) -> None:
    for rel in ("corpus.jsonl", "queries.jsonl"):
        raw = (CORPORA / name / rel).read_bytes()
        raw.decode("utf-8")
        assert b"\\u" not in raw, f"{name}/{rel} was written with ensure_ascii=True"


@pytest.mark.parametrize("name", DATASETS)
def test_ids_unique_and_qrels_reference_existing_ids(name: str) -> None:
    docs, queries, qrels = _dataset(name)
    doc_ids = [d["_id"] for d in docs]
    query_ids = [q["_id"] for q in queries]
    assert len(doc_ids) == len(set(doc_ids))
    assert len(query_ids) == len(set(query_ids))
    pairs = [(q, d) for q, d, _ in qrels]
    assert len(pairs) == len(set(pairs)), "a (query, doc) pair is judged twice"
    for q, d, score in qrels:
        assert q in set(query_ids), f"qrels query {q} not in queries.jsonl"
        assert d in set(doc_ids), f"qrels doc {d} not in corpus.jsonl"
        assert score in (1, 2)


@pytest.mark.parametrize("name", DATASETS)
def test_every_query_has_an_answering_document(name: str) -> None:
    _, queries, qrels = _dataset(name)
    answered = {q for q, _, score in qrels if score == 2}
    missing = [q["_id"] for q in queries if q["_id"] not in answered]
    assert not missing, f"queries without a grade-2 document: {missing}"


@pytest.mark.parametrize("name", DATASETS)
def test_sizes_and_category_minimums(name: str) -> None:
    docs, queries, _ = _dataset(name)
    assert len(docs) >= MIN_DOCS[name]
    assert len(queries) >= MIN_QUERIES[name]
    counts = Counter(q["category"] for q in queries)
    assert set(counts) == set(MIN_CATEGORIES[name]), f"unexpected categories {sorted(counts)}"
    for category, minimum in MIN_CATEGORIES[name].items():
        assert counts[category] >= minimum, f"{name}: {category} has {counts[category]} < {minimum}"


def test_agent_memory_language_mix() -> None:
    docs, _, _ = _dataset("agent-memory")
    census = Counter()  # type: ignore[var-annotated]
    fullwidth = 0
    for d in docs:
        scripts = _scripts(d["title"] + d["text"])
        if "kana" in scripts:
            census["ja"] += 1
        elif "hangul" in scripts:
            census["ko"] += 1
        elif "han" in scripts:
            census["zh"] += 1
        if any(_is_fullwidth_alnum(ch) for ch in d["title"] + d["text"]):
            fullwidth += 1
    assert census["zh"] > len(docs) / 2, "the corpus must be mostly Chinese"
    assert census["ja"] >= 18
    assert census["ko"] >= 13
    assert fullwidth >= 10, "too few notes with full-width letters or digits"


def test_agent_memory_notes_are_short_markdown() -> None:
    build = _load_build()
    for note in build.parse_notes(CORPORA / "agent-memory" / "notes.md"):
        lines = note["text"].splitlines()
        assert 1 <= len(lines) <= 8, f"{note['_id']} has {len(lines)} lines"


def test_memory_en_is_english_only() -> None:
    docs, queries, _ = _dataset("memory-en")
    for item in [*docs, *queries]:
        text = item.get("title", "") + item["text"]
        assert not _scripts(text), f"{item['_id']} contains CJK text"


def test_committed_files_match_sources(tmp_path: Path) -> None:
    """``python corpora/build.py`` must have been run after the last edit of a source file."""
    build = _load_build()
    build.build_all(tmp_path)
    for name in DATASETS:
        for rel in ("corpus.jsonl", "queries.jsonl", "qrels/test.tsv"):
            fresh = (tmp_path / name / rel).read_bytes()
            assert fresh == (CORPORA / name / rel).read_bytes(), f"{name}/{rel} is stale: rerun build.py"
    assert (tmp_path / "failures" / "cases.json").read_bytes() == (CORPORA / "failures" / "cases.json").read_bytes()


def test_judged_ids_in_sources_exist() -> None:
    """Grade-0 judgments never reach the qrels, so check their ids against the notes here."""
    build = _load_build()
    for name in build.NOTE_DATASETS:
        ids = {n["_id"] for n in build.parse_notes(CORPORA / name / "notes.md")}
        for qid, _, _, grades in build.parse_queries(CORPORA / name / "queries.md"):
            unknown = set(grades) - ids
            assert not unknown, f"{name} {qid} judges unknown notes {sorted(unknown)}"


def _cases() -> list[dict]:
    return json.loads((CORPORA / "failures" / "cases.json").read_text(encoding="utf-8"))["cases"]


def test_failures_cases_cover_every_query() -> None:
    _, queries, qrels = _dataset("failures")
    cases = _cases()
    assert [c["query_id"] for c in cases] == [q["_id"] for q in queries]
    grade2 = {(q, d) for q, d, s in qrels if s == 2}
    for c in cases:
        assert (c["query_id"], c["doc_id"]) in grade2
        assert set(c["expected_hits"]) == {"unicode61", "trigram", "bigram"}
        assert c["expected_hits"]["bigram"] == 1


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"row{c['row']}-{c['query']}")
def test_failures_document_contains_query(case: dict) -> None:
    docs, queries, _ = _dataset("failures")
    text = {d["_id"]: d["text"] for d in docs}[case["doc_id"]]
    assert text == case["document"]
    assert {q["_id"]: q["text"] for q in queries}[case["query_id"]] == case["query"]
    assert case["query"] in text


def _fts5_hits(tokenizer: str, document: str, query: str) -> int:
    con = sqlite3.connect(":memory:")
    try:
        try:
            con.execute(f"CREATE VIRTUAL TABLE t USING fts5(body, tokenize='{tokenizer}')")
        except sqlite3.OperationalError as exc:  # pragma: no cover - depends on the SQLite build
            pytest.skip(f"SQLite lacks FTS5 tokenizer {tokenizer}: {exc}")
        con.execute("INSERT INTO t VALUES (?)", (document,))
        phrase = '"' + query.replace('"', '""') + '"'
        return con.execute("SELECT count(*) FROM t WHERE t MATCH ?", (phrase,)).fetchone()[0]
    finally:
        con.close()  # Python 3.13 warns about connections left to the garbage collector


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"row{c['row']}-{c['query']}")
def test_failures_expected_hits_match_this_sqlite(case: dict) -> None:
    """The unicode61 / trigram columns of failures.md hold on the SQLite we run on."""
    for tokenizer in ("unicode61", "trigram"):
        got = _fts5_hits(tokenizer, case["document"], case["query"])
        assert got == case["expected_hits"][tokenizer], (tokenizer, case["query"])
