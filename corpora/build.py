"""Assemble the shipped benchmark corpora (BEIR layout) from their readable sources.

Run from anywhere: ``python corpora/build.py`` rewrites, for every dataset directory,
``corpus.jsonl``, ``queries.jsonl`` and ``qrels/test.tsv`` (and ``cases.json`` for the
failures set). ``python corpora/build.py --audit`` lists, per query, notes that contain the
query text (NFKC- and case-folded) but carry no judgment: the first step of judging.
``--stats`` prints the counts quoted in the READMEs.

Sources:
- ``failures/``: the table in ``FAILURE_ROWS`` below, copied from the design note
  ``failures.md``, plus hand-written distractor documents.
- ``agent-memory/notes.md`` and ``memory-en/notes.md``: one note per ``## <id> [<kind>] <title>``
  heading, the body runs until the next such heading.
- ``agent-memory/queries.md`` and ``memory-en/queries.md``: one query per line,
  ``<qid> | <category> | <text> | <docid>:<grade> <docid>:<grade> ...``; grade 0 records a note
  that contains the query words but was judged not relevant (it is not written to the qrels).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent

NOTE_HEAD = re.compile(r"^## ((?:am|en)-\d{4}) \[(rule|gotcha|decision|fix|pref|fact)\] (.+)$")
KINDS = ("rule", "gotcha", "decision", "fix", "pref", "fact")

# (document, query, unicode61 hits, trigram hits, bigram hits) -- failures.md, row by row.
FAILURE_ROWS = [
    ("fail-d01", "部署", 0, 0, 1),
    ("fail-d01", "部署脚本", 0, 1, 1),
    ("fail-d01", "lockfile", 1, 1, 1),
    ("fail-d02", "端口", 0, 0, 1),
    ("fail-d02", "postgres", 0, 1, 1),
    ("fail-d02", "5433", 0, 1, 1),
    ("fail-d02", "数据库", 0, 1, 1),
    ("fail-d02", "我们决定使用端口5433", 1, 1, 1),
]

FAILURE_DOCS = {
    # The two documents of failures.md, verbatim (ASCII comma in the first, full-width in the second).
    "fail-d01": "部署脚本用 pnpm 而不是 npm,因为 lockfile 不兼容",
    "fail-d02": "我们决定使用端口5433，数据库是postgres",
    # Distractors: share characters or words with the queries so that ranking matters.
    "fail-d03": "部署之前先在预发环境跑一遍冒烟测试，确认日志里没有报错；回滚用的脚本放在 ops 目录下",
    "fail-d04": "本地开发用的数据库端口还是5432，连接串写在 .env.local 里",
    "fail-d05": "npm 生成的 lockfile 叫 package-lock.json，不要手动修改它",
    "fail-d06": "postgres 容器在 CI 里偶尔起不来，先等健康检查通过再跑迁移",
    "fail-d07": "脚本统一用 bash 写，开头加 set -euo pipefail，不要依赖 zsh 的语法",
    "fail-d08": "服务默认日志级别是 info，排查问题时临时调成 debug，记得改回来",
    "fail-d09": "我们决定把架构决策都记在 docs/adr 目录下，每条一个文件",
}

# Graded judgments for the failures queries: the source document answers (2); a distractor
# that really talks about the same thing gets 1. Keyed by query text.
FAILURE_EXTRA_QRELS = {
    "部署": {"fail-d03": 1},
    "lockfile": {"fail-d05": 1},
    "端口": {"fail-d04": 1},
    "postgres": {"fail-d06": 1},
    "数据库": {"fail-d04": 1},
}


def fold(text: str) -> str:
    """NFKC- and case-fold, the way the audit compares query and note text."""
    return unicodedata.normalize("NFKC", text).casefold()


def write_dataset(
    out: Path,
    docs: list[dict[str, str]],
    queries: list[dict[str, str]],
    qrels: list[tuple[str, str, int]],
) -> None:
    """Write one dataset in the BEIR layout (UTF-8, one JSON object per line)."""
    out.joinpath("qrels").mkdir(parents=True, exist_ok=True)
    with out.joinpath("corpus.jsonl").open("w", encoding="utf-8", newline="\n") as f:
        for d in docs:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with out.joinpath("queries.jsonl").open("w", encoding="utf-8", newline="\n") as f:
        for q in queries:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")
    with out.joinpath("qrels", "test.tsv").open("w", encoding="utf-8", newline="\n") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        for qid, did, score in qrels:
            f.write(f"{qid}\t{did}\t{score}\n")


def build_failures(out_root: Path = HERE) -> None:
    """The failures.md rows as a tiny dataset plus ``cases.json`` for the side-by-side table."""
    # Titles stay empty: each case is about exactly this text, whatever the harness indexes.
    docs = [{"_id": k, "title": "", "text": x} for k, x in FAILURE_DOCS.items()]
    queries, qrels, cases = [], [], []
    for n, (doc_id, query, uni, tri, big) in enumerate(FAILURE_ROWS, start=1):
        qid = f"fail-q{n:02d}"
        queries.append({"_id": qid, "text": query, "category": "failures"})
        qrels.append((qid, doc_id, 2))
        for other, grade in FAILURE_EXTRA_QRELS.get(query, {}).items():
            qrels.append((qid, other, grade))
        cases.append(
            {
                "row": n,
                "query_id": qid,
                "query": query,
                "doc_id": doc_id,
                "document": FAILURE_DOCS[doc_id],
                "expected_hits": {"unicode61": uni, "trigram": tri, "bigram": big},
            }
        )
    out = out_root / "failures"
    write_dataset(out, docs, queries, qrels)
    meta = {
        "source": "shared/design/failures.md",
        "hits_are": (
            "number of matching documents when the index holds only `document` and the query "
            "is the double-quoted phrase of `query` (MiMo-Code's query builder)"
        ),
        "cases": cases,
    }
    out.joinpath("cases.json").write_text(json.dumps(meta, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def parse_notes(path: Path) -> list[dict[str, str]]:
    """Read ``notes.md``: a ``## <id> [<kind>] <title>`` heading, then the note body."""
    notes: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    body: list[str] = []

    def flush() -> None:
        if current is not None:
            current["text"] = "\n".join(body).strip()
            notes.append(current)

    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("## "):
            m = NOTE_HEAD.match(line)
            if not m:
                raise ValueError(f"{path}:{lineno}: bad note heading {line!r}")
            flush()
            current = {"_id": m.group(1), "kind": m.group(2), "title": m.group(3).strip()}
            body = []
        elif current is not None:
            body.append(line)
    flush()
    return notes


def parse_queries(path: Path) -> list[tuple[str, str, str, dict[str, int]]]:
    """Read ``queries.md`` lines ``qid | category | text | doc:grade ...``; '#' lines are comments."""
    out = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 4:
            raise ValueError(f"{path}:{lineno}: expected 4 ' | '-separated fields: {line!r}")
        qid, cat, text, judged = parts
        grades: dict[str, int] = {}
        for item in judged.split():
            doc, _, grade = item.partition(":")
            if doc in grades:
                raise ValueError(f"{path}:{lineno}: {doc} judged twice")
            grades[doc] = int(grade)
            if grades[doc] not in (0, 1, 2):
                raise ValueError(f"{path}:{lineno}: grade must be 0, 1 or 2: {item!r}")
        out.append((qid, cat, text, grades))
    return out


def build_notes(name: str, out_root: Path = HERE) -> None:
    """Build a hand-written notes dataset (``agent-memory`` or ``memory-en``)."""
    src = HERE / name
    notes = parse_notes(src / "notes.md")
    docs = [{"_id": n["_id"], "title": n["title"], "text": n["text"]} for n in notes]
    queries, qrels = [], []
    for qid, cat, text, grades in parse_queries(src / "queries.md"):
        queries.append({"_id": qid, "text": text, "category": cat})
        for doc, grade in grades.items():
            if grade > 0:  # 0 = "read and judged not relevant": kept in the source only
                qrels.append((qid, doc, grade))
    write_dataset(out_root / name, docs, queries, qrels)


NOTE_DATASETS = ("agent-memory", "memory-en")


def build_all(out_root: Path = HERE) -> None:
    """Write every dataset under ``out_root`` (the ``corpora/`` directory by default)."""
    build_failures(out_root)
    for name in NOTE_DATASETS:
        build_notes(name, out_root)


def audit(name: str) -> None:
    """Print unjudged notes that contain a query's folded text, and judged ids that do not exist."""
    src = HERE / name
    notes = {n["_id"]: fold(n["title"] + "\n" + n["text"]) for n in parse_notes(src / "notes.md")}
    for qid, cat, text, grades in parse_queries(src / "queries.md"):
        missing = [d for d in grades if d not in notes]
        q = fold(text).rstrip("?？")
        unjudged = [d for d, t in notes.items() if q in t and d not in grades]
        if missing or unjudged:
            print(f"{qid} [{cat}] {text}: unknown={missing} unjudged={unjudged}")


def stats(name: str) -> None:
    """Print the counts quoted in the dataset README: notes by kind, queries and grades by category."""
    from collections import Counter

    notes = parse_notes(HERE / name / "notes.md")
    queries = parse_queries(HERE / name / "queries.md")
    kinds = Counter(n["kind"] for n in notes)
    print(f"{name}: {len(notes)} notes; kinds: " + ", ".join(f"{k} {kinds[k]}" for k in KINDS))
    by_cat: dict[str, Counter[int]] = {}
    for _, cat, _, grades in queries:
        c = by_cat.setdefault(cat, Counter())
        c["queries"] += 1
        for g in grades.values():
            c[g] += 1
    total: Counter[int] = Counter()
    print("| category | queries | grade 2 | grade 1 | judged 0 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for cat, c in by_cat.items():
        total.update(c)
        print(f"| {cat} | {c['queries']} | {c[2]} | {c[1]} | {c[0]} |")
    print(f"| all | {total['queries']} | {total[2]} | {total[1]} | {total[0]} |")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--audit"]:
        for name in NOTE_DATASETS:
            audit(name)
        return 0
    if argv[:1] == ["--stats"]:
        for name in NOTE_DATASETS:
            stats(name)
        return 0
    if argv:
        print("usage: python corpora/build.py [--audit | --stats]", file=sys.stderr)
        return 2
    build_all()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
