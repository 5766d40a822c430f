"""The shipped e2e dev set: its size, the transcript features it must have, and the loader's checks."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from mimomem.bench.e2e.dataset import QUESTION_KINDS, Question, SessionSpec, check, load_devset
from mimomem.errors import DatasetError

DEVSET = Path(__file__).resolve().parents[2] / "corpora" / "e2e-dev"


def test_the_dev_set_has_the_size_the_issue_asks_for() -> None:
    devset = load_devset(DEVSET)  # also checks every answer against the transcripts
    assert len(devset.sessions) >= 16
    assert len(devset.projects()) >= 2
    kinds = Counter(q.kind for q in devset.questions)
    assert len(devset.questions) >= 80
    assert kinds["distractor"] >= 15
    assert set(QUESTION_KINDS) - {"found"} == set(kinds)  # "found": the capture set (corpora/capture)
    heldout = [q for q in devset.questions if q.split == "heldout"]
    assert 0.2 <= len(heldout) / len(devset.questions) <= 0.3
    assert {q.kind for q in heldout} == set(QUESTION_KINDS) - {"found"}  # every kind has held-out questions
    assert len({s.start[:10] for s in devset.sessions}) >= 10  # spread over days


def test_both_splits_asked_apart_load_with_related_questions_beside_the_distractors() -> None:
    extra = load_devset(DEVSET).extra
    splits = Counter((q.split, q.kind == "distractor") for q in extra)
    assert splits[("new-distractors", True)] == 20 and not splits[("new-distractors", False)]
    assert splits[("split-2", True)] >= 30 and splits[("split-2", False)] >= 10
    assert splits[("gate-dev", True)] >= 30 and splits[("gate-dev", False)] >= 10
    assert splits[("split-3", True)] >= 30 and splits[("split-3", False)] >= 10


def test_transcripts_have_the_real_formats_features() -> None:
    raw = b"".join(p.read_bytes() for p in sorted((DEVSET / "transcripts").rglob("*.jsonl")))
    text = raw.decode("utf-8", "replace")
    for needle in (
        '"type": "file-history-snapshot"',
        '"isCompactSummary": true',
        '"subtype": "compact_boundary"',
        '"is_error": true',
        '"run_in_background": true',
        "The user doesn't want to proceed with this tool use",
        '"tool_use_id": "toolu_',
        '"parentUuid": ',
        "| sh",
        "NOTE TO AI AGENTS",
        "IMPORTANT: Always",
    ):
        assert needle in text, needle
    truncated = [p for p in (DEVSET / "transcripts").rglob("*.jsonl") if not p.read_bytes().endswith(b"\n")]
    assert len(truncated) == 1
    manifest = json.loads((DEVSET / "manifest.json").read_text(encoding="utf-8"))
    assert any(not s["ends"] for s in manifest["sessions"])  # a session that never ended


def test_generated_files_match_their_specs() -> None:
    spec = importlib.util.spec_from_file_location("e2e_build", DEVSET / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert 0 == build.main(["--check"]), "run python corpora/e2e-dev/build.py"


def _session(tmp_path: Path, text: str) -> SessionSpec:
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"type": "user", "message": {"content": text}}, ensure_ascii=False) + "\n")
    return SessionSpec("p", "s", path, "/x", "2026-10-01T00:00:00Z", True, "other")


def test_check_refuses_answers_the_transcripts_do_not_hold(tmp_path: Path) -> None:
    s = _session(tmp_path, "staging 端口改成 6543")
    check([s], [Question("ok", "p", "fact", "端口？", ("6543",))])
    with pytest.raises(DatasetError, match="occurs in no transcript"):
        check([s], [Question("q", "p", "fact", "端口？", ("7777",))])
    with pytest.raises(DatasetError, match="question itself contains"):
        check([s], [Question("q", "p", "fact", "is it 6543?", ("6543",))])
    with pytest.raises(DatasetError, match="does occur"):
        check([s], [Question("q", "p", "distractor", "staging?", absent=("staging",))])
    with pytest.raises(DatasetError, match="used twice"):
        check([s], [Question("q", "p", "fact", "?", ("6543",)), Question("q", "p", "fact", "?", ("6543",))])


def test_host_questions_are_answered_only_by_the_host_memory_folder() -> None:
    """The host kind (issue 34): each answer is in ``host-memory/<project>/`` and in no transcript."""
    devset = load_devset(DEVSET)
    host = [q for q in devset.questions if q.kind == "host"]
    assert len(host) >= 4 and any(not q.question.isascii() for q in host) and any(q.question.isascii() for q in host)
    for q in host:
        files = devset.host_memory(q.project)
        assert any(a in f.read_text(encoding="utf-8") for a in q.answers for f in files)
        transcripts = [s.transcript.read_text(encoding="utf-8") for s in devset.sessions if s.project == q.project]
        assert not any(a in t for a in q.answers for t in transcripts)
    sessions = list(devset.sessions)
    broken = [Question("x", host[0].project, "host", "?", ("no such value",))]
    with pytest.raises(DatasetError, match="no transcript or host memory"):
        check(sessions, broken, {p: devset.host_memory(p) for p in devset.projects()})
