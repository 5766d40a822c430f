"""A planted candidate tokenizer (``_`` becomes a separator): the report names exactly what changed.

The expected documents and queries are computed here independently of
``mimomem.bench.tokenizer_diff``: with ``_`` a separator, a text tokenizes differently
exactly when one of its shipped tokens holds a ``_``.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from mimomem import tokenize
from mimomem.bench.candidate import Candidate, load_tokenizer
from mimomem.bench.datasets import load_dataset
from mimomem.bench.runner import run_bench
from mimomem.bench.tokenizer_diff import dataset_diff, text_diff
from mimomem.cli import main

ROOT = Path(__file__).resolve().parents[2]
AGENT_MEMORY = ROOT / "corpora" / "agent-memory"


def readme_candidate() -> str:
    """The candidate module of the "Validate a tokenizer change" recipe (docs/benchmarks.md)."""
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    section = page[page.index("## Validate a tokenizer change") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    return textwrap.dedent(code.group(1))


@pytest.fixture
def underscore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Candidate:
    (tmp_path / "mytok.py").write_text(readme_candidate(), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "mytok", raising=False)
    return load_tokenizer("mytok:tokenize")


DOCS = {
    "d1": "设置 ACCESS_TOKEN_TTL 为 900 秒",
    "d2": "access token 的有效期是 15 分钟，ttl 见配置",
    "d3": "部署脚本用 pnpm 而不是 npm",
    "d4": "memory_fts_idx 在 reconcile 时重建；memory 目录放笔记",
    "d5": "端口5433，数据库是 postgres",
    "d6": "fts 索引和 idx 文件",
}
QUERIES = {"q1": "ACCESS_TOKEN_TTL", "q2": "部署", "q3": "memory_fts_idx", "q4": "fts idx"}
QRELS = {"q1": {"d1": 2, "d2": 1}, "q2": {"d3": 1}, "q3": {"d4": 2}, "q4": {"d6": 1, "d4": 1}}


def make_dataset(root: Path) -> Path:
    """Six notes (two with snake_case identifiers), four judged queries."""
    rows = {
        "corpus.jsonl": [{"_id": k, "text": v} for k, v in DOCS.items()],
        "queries.jsonl": [{"_id": k, "text": v, "category": "word" if " " in v else "x"} for k, v in QUERIES.items()],
    }
    (root / "qrels").mkdir(parents=True)
    for name, items in rows.items():
        (root / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in items), encoding="utf-8")
    judged = [f"{q}\t{d}\t{g}\n" for q, docs in QRELS.items() for d, g in docs.items()]
    (root / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(judged), encoding="utf-8")
    return root


def _has_underscore_token(text: str) -> bool:
    return any("_" in t.text for t in tokenize(text))


def test_the_planted_rule_changes_only_underscore_tokens(underscore: Candidate) -> None:
    assert [t.text for t in underscore.tokenize("ACCESS_TOKEN_TTL 过期")] == ["access", "token", "ttl", "过期"]
    assert [(t.start, t.end) for t in underscore.tokenize("ab_cd")] == [(0, 2), (3, 5)]
    assert underscore.tokenize("部署 pnpm") == tokenize("部署 pnpm")


def test_dataset_diff_names_exactly_the_changed_documents_and_queries(underscore: Candidate, tmp_path: Path) -> None:
    dataset = load_dataset(make_dataset(tmp_path / "ds"))
    diff = dataset_diff(dataset, underscore)
    assert diff["documents"]["changed_ids"] == ["d1", "d4"]
    assert diff["documents"]["total"] == 6 and diff["documents"]["changed"] == 2
    assert diff["queries"]["changed_ids"] == ["q1", "q3"]
    assert diff["queries"]["changed"] == 2 and diff["queries"]["total"] == 4
    removed = {t: (n, k) for t, n, k in diff["documents"]["removed"]}
    assert removed == {"access_token_ttl": (1, 1), "memory_fts_idx": (1, 1)}
    added = {t: (n, k) for t, n, k in diff["documents"]["added"]}
    assert added == {"access": (1, 1), "token": (1, 1), "ttl": (1, 1), "fts": (1, 1), "idx": (1, 1), "memory": (1, 1)}
    q1 = diff["affected_queries"]["q1"]
    assert q1["removed"] == ["access_token_ttl"] and q1["added"] == ["access", "token", "ttl"]
    assert q1["relevant"] == {"d1": {"grade": 2, "lost": ["access_token_ttl"], "gained": ["access", "token", "ttl"]}}
    # q4's own tokens did not change, but a relevant document gained two of them
    q4 = diff["affected_queries"]["q4"]
    assert q4["removed"] == q4["added"] == [] and q4["relevant"]["d4"]["gained"] == ["fts", "idx"]
    assert "q2" not in diff["affected_queries"]


@pytest.mark.skipif(not (AGENT_MEMORY / "corpus.jsonl").is_file(), reason="corpora/agent-memory not built")
def test_dataset_diff_on_the_shipped_corpus_matches_an_independent_count(underscore: Candidate) -> None:
    dataset = load_dataset(AGENT_MEMORY)
    diff = dataset_diff(dataset, underscore)
    expected_docs = [d for d, text in dataset.docs if _has_underscore_token(text)]
    expected_queries = [q.qid for q in dataset.judged_queries if _has_underscore_token(q.text)]
    both = [
        d for d, text in dataset.docs if [t.text for t in tokenize(text)] != [t.text for t in underscore.tokenize(text)]
    ]
    assert expected_docs == both  # the rule's own characterisation agrees with tokenizing twice
    assert diff["documents"]["changed_ids"] == expected_docs and diff["documents"]["changed"] == len(expected_docs)
    assert diff["queries"]["changed_ids"] == expected_queries and diff["queries"]["changed"] == len(expected_queries)
    # removed = exactly the shipped tokens holding a "_" (the candidate never emits one)
    removed = Counter(t.text for _, text in dataset.docs for t in tokenize(text) if "_" in t.text)
    holders = Counter(t for _, text in dataset.docs for t in {t.text for t in tokenize(text) if "_" in t.text})
    listed = diff["documents"]["removed"]
    assert len(listed) == min(10, len(removed))
    assert [(n, k) for t, n, k in listed] == [(removed[t], holders[t]) for t, _, _ in listed]
    assert listed[0][1] == max(removed.values())


def test_text_diff_aligns_by_span(underscore: Candidate) -> None:
    diff = text_diff("ACCESS_TOKEN_TTL 过期", underscore)
    assert diff["removed"] == ["access_token_ttl"] and diff["added"] == ["access", "token", "ttl"]
    spans = {(r["start"], r["end"]): (r["shipped"], r["candidate"]) for r in diff["rows"]}
    assert spans[(0, 16)] == ("access_token_ttl", None) and spans[(0, 6)] == (None, "access")
    assert spans[(17, 19)] == ("过期", "过期")


def test_bench_with_a_candidate_reports_tokens_and_moves(underscore: Candidate, tmp_path: Path) -> None:
    result = run_bench([make_dataset(tmp_path / "ds")], ["fts5-unicode61", "native-index"], tokenizer=underscore)
    cand = result["candidate"]
    assert cand["spec"] == "mytok:tokenize" and cand["backends"] == ["native-index"]  # unicode61 uses no tokens of ours
    (ds,) = cand["datasets"]
    assert ds["tokens"]["documents"]["changed_ids"] == ["d1", "d4"]
    (shipped_row,) = [b for b in result["datasets"][0]["backends"] if b["backend"] == "native-index"]
    (candidate_row,) = ds["backends"]
    assert shipped_row["queries"]["q1"]["tokens"] == ["access_token_ttl"]
    assert candidate_row["queries"]["q1"]["tokens"] == ["access", "token", "ttl"]
    # the candidate's index really holds its tokens: d2 (access token ... ttl) now answers q1
    assert "d2" in candidate_row["queries"]["q1"]["relevant_ranks"]
    assert "d2" not in shipped_row["queries"]["q1"]["relevant_ranks"]
    # ... and so does the document side: d4 (memory_fts_idx) now holds fts and idx, so q4 finds it
    assert "d4" in candidate_row["queries"]["q4"]["relevant_ranks"]
    assert "d4" not in shipped_row["queries"]["q4"]["relevant_ranks"]
    assert tokenize("ACCESS_TOKEN_TTL")[0].text == "access_token_ttl"  # the swap ended with the run
    versus = ds["versus"]["native-index"]
    assert versus["all"]["queries"] == 4 and versus["all"]["better"] >= 2  # q1 (d2 found) and q4 (d4 found)
    assert versus["all"]["worse"] == 0
    assert versus["all"]["ndcg@10"]["after"] > versus["all"]["ndcg@10"]["before"]
    assert versus["categories"]["word"]["queries"] == 1 and versus["categories"]["word"]["better"] == 1


def test_cli_report_names_the_changes(
    underscore: Candidate, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ds = str(make_dataset(tmp_path / "ds"))
    status = main(["bench", "--dataset", ds, "--backend", "native-index", "--tokenizer", "mytok:tokenize"])
    out = capsys.readouterr().out
    assert status in (0, 1)
    assert "## Candidate tokenizer mytok:tokenize against the shipped one" in out
    assert "[ds] tokens: 2 of 6 documents and 2 of 4 queries tokenize differently" in out
    assert "changed documents: d1, d4" in out and "changed queries: q1, q3" in out
    assert "relevant doc d1 (grade 2) lost token access_token_ttl; gained token access, token, ttl" in out
    assert "native-index better: ndcg@10" in out  # q1 finds d2 now
    assert "Candidate mytok:tokenize against the shipped tokenizer:" in out


def test_cli_tokenize_diff(underscore: Candidate, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tokenize", "--diff", "mytok:tokenize", "ACCESS_TOKEN_TTL 过期"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["span", "original", "shipped", "mytok:tokenize"]
    assert "-  0-16   ACCESS_TOKEN_TTL  access_token_ttl" in out
    assert out[-1] == "removed: access_token_ttl; added: access | token | ttl"
    assert main(["tokenize", "--diff", "mytok:tokenize", "--json", "a_b"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == ["a", "b"]
