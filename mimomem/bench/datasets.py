"""BEIR-layout datasets: ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/test.tsv``.

The layout is the one public BEIR / C-MTEB retrieval sets use, so a user can point
``mimomem bench --dataset DIR`` at one they already have on disk:

* ``corpus.jsonl`` - one JSON object per line with ``_id``, ``text`` and optional ``title``;
* ``queries.jsonl`` - ``_id``, ``text`` and an optional ``category`` (mimomem's own corpora
  tag each query with the kind of retrieval problem it tests);
* ``qrels/test.tsv`` - a header line, then ``query-id  corpus-id  score`` (tab-separated).

Every malformed file raises ``DatasetError`` naming the file, the line and what to fix.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from mimomem.errors import CorporaNotFoundError, DatasetError

CORPUS_FILE = "corpus.jsonl"
QUERIES_FILE = "queries.jsonl"
QRELS_FILE = "qrels/test.tsv"


@dataclass(frozen=True)
class BenchQuery:
    """One query: its id, text and category (``""`` when the dataset has none)."""

    qid: str
    text: str
    category: str = ""


@dataclass
class Dataset:
    """A loaded dataset; ``docs`` keep file order, ``qrels`` map qid -> docid -> grade."""

    name: str
    path: Path
    docs: list[tuple[str, str]]
    queries: list[BenchQuery]
    qrels: dict[str, dict[str, int]]
    missing_docs: int = 0
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def judged_queries(self) -> list[BenchQuery]:
        """Queries with at least one relevant (grade > 0) document: the ones evaluated."""
        return [q for q in self.queries if any(g > 0 for g in self.qrels.get(q.qid, {}).values())]

    def categories(self) -> list[str]:
        """Categories of the evaluated queries, in first-seen order (empty if untagged)."""
        seen: dict[str, None] = {}
        for q in self.judged_queries:
            if q.category:
                seen.setdefault(q.category, None)
        return list(seen)


def _read_lines(path: Path) -> list[str]:
    if not path.is_file():
        raise DatasetError(
            f"{path}: file not found; a BEIR dataset directory holds {CORPUS_FILE}, {QUERIES_FILE} and {QRELS_FILE}"
        )
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DatasetError(f"{path}:{line}: invalid UTF-8 ({exc.reason}); re-encode the file as UTF-8") from None
    return text.splitlines()


def _read_jsonl(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, object]]]:
    rows = []
    seen: set[str] = set()
    for number, line in enumerate(_read_lines(path), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(
                f"{path}:{number}: not valid JSON ({exc.msg}); each line must be one JSON object"
            ) from None
        if not isinstance(obj, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
        for key in required:
            if key not in obj:
                raise DatasetError(f"{path}:{number}: missing key {key!r}; each line needs {', '.join(required)}")
        for key in ("_id", "text", "title", "category"):
            if key in obj and obj[key] is not None and not isinstance(obj[key], str):
                raise DatasetError(f"{path}:{number}: {key!r} must be a string, got {type(obj[key]).__name__}")
        doc_id = obj["_id"]
        assert isinstance(doc_id, str)
        if not doc_id:
            raise DatasetError(f"{path}:{number}: empty '_id'")
        if doc_id in seen:
            raise DatasetError(f"{path}:{number}: duplicate _id {doc_id!r}; ids must be unique")
        seen.add(doc_id)
        rows.append((number, obj))
    if not rows:
        raise DatasetError(f"{path}: no records; the file is empty")
    return rows


def _read_qrels(path: Path, query_ids: set[str]) -> dict[str, dict[str, int]]:
    lines = _read_lines(path)
    if not lines or not lines[0].strip():
        raise DatasetError(f"{path}: empty; expected a header line 'query-id<TAB>corpus-id<TAB>score'")
    header = lines[0].split("\t") if "\t" in lines[0] else lines[0].split()
    try:
        int(header[-1])
        looks_like_data = True
    except ValueError:
        looks_like_data = False
    if looks_like_data or len(header) != 3:
        raise DatasetError(f"{path}:1: expected the header 'query-id<TAB>corpus-id<TAB>score', got {lines[0]!r}")
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        parts = line.split("\t") if "\t" in line else line.split()
        if len(parts) != 3:
            raise DatasetError(f"{path}:{number}: expected 3 columns (query-id, corpus-id, score), got {len(parts)}")
        qid, docid, score = (p.strip() for p in parts)
        try:
            grade = int(score)
        except ValueError:
            raise DatasetError(f"{path}:{number}: score {score!r} is not an integer") from None
        if qid not in query_ids:
            raise DatasetError(f"{path}:{number}: query-id {qid!r} is not in {QUERIES_FILE}")
        qrels.setdefault(qid, {})[docid] = grade
    return qrels


def load_dataset(path: str | Path) -> Dataset:
    """Load and validate the BEIR dataset in directory ``path``, or the shipped dataset of that name."""
    root = Path(path)
    if not root.is_dir() and root.name == str(path):  # a bare name: agent-memory, memory-en, failures
        with contextlib.suppress(CorporaNotFoundError):
            shipped = find_corpora() / root.name
            root = shipped if (shipped / CORPUS_FILE).is_file() else root
    if not root.is_dir():
        raise DatasetError(
            f"{root}: not a directory; pass a folder holding {CORPUS_FILE}, {QUERIES_FILE}, {QRELS_FILE} "
            "or the name of a shipped dataset (agent-memory, memory-en, failures)"
        )
    docs = []
    for _, obj in _read_jsonl(root / CORPUS_FILE, ("_id", "text")):
        title = obj.get("title") or ""
        text = obj["text"] or ""
        assert isinstance(title, str) and isinstance(text, str)
        docs.append((str(obj["_id"]), f"{title}\n\n{text}" if title else text))
    queries = []
    for _, obj in _read_jsonl(root / QUERIES_FILE, ("_id", "text")):
        queries.append(BenchQuery(str(obj["_id"]), str(obj["text"] or ""), str(obj.get("category") or "")))
    qrels = _read_qrels(root / QRELS_FILE, {q.qid for q in queries})
    doc_ids = {d for d, _ in docs}
    missing = sum(1 for rels in qrels.values() for d in rels if d not in doc_ids)
    dataset = Dataset(root.resolve().name, root, docs, queries, qrels, missing)
    if not dataset.judged_queries:
        raise DatasetError(f"{root / QRELS_FILE}: no query has a document with score > 0; nothing to evaluate")
    return dataset


def find_corpora(start: Path | None = None) -> Path:
    """The benchmark corpora: ``corpora/`` next to the package in a checkout, else under cwd, else
    the copy an installed wheel carries (``mimomem/_corpora``)."""
    package = Path(__file__).resolve().parents[1]
    here = package.parent / "corpora"
    cwd = (start or Path.cwd()) / "corpora"
    shipped = package / "_corpora"
    for candidate in (here, cwd, shipped):
        if candidate.is_dir() and discover_datasets(candidate):
            return candidate
    raise CorporaNotFoundError(
        f"no corpora/ directory with datasets found (looked in {here}, {cwd} and {shipped}); "
        "reinstall mimomem from a wheel or sdist (they carry the corpora), run from a checkout, or pass --dataset DIR"
    )


def discover_datasets(root: Path) -> list[Path]:
    """Sub-directories of ``root`` that hold a ``corpus.jsonl``, sorted by name."""
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / CORPUS_FILE).is_file())
