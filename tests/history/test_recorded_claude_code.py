"""A transcript recorded from the real Claude Code 2.1.337 (``data/claude_code_2_1_337/record.py``
regenerates it), read by the digest, promotion and the importer.

When a new host version moves a marker (the ``Exit code N`` head of a Bash failure, the shape of a
``queued_command`` attachment) or writes a line type not seen here, these tests fail naming it:
re-record with the pinned host, then teach the reader the change.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mimomem.history.claude_code import HOST_LINES, IGNORED_TYPES, import_transcript
from mimomem.history.digest import digest_transcript
from mimomem.history.history_store import HistoryStore
from mimomem.passes.promote import read_episode
from mimomem.passes.promote_items import FAILURES, WORKFLOWS, items_of

FIXTURE = Path(__file__).parent / "data" / "claude_code_2_1_337" / "session.jsonl"
READ_TYPES = {"user", "assistant"}
LINE_TYPES = {
    "user",
    "assistant",
    "attachment",
    "api-request",
    "api-request-blob",
    "api-request-route",
    "api-request-shape",
    "queue-operation",
    "last-prompt",
    "atis-latch",
    "cost-state",
    "tools-used",
}
"""Every line type 2.1.337 wrote for the recorded session."""
QUEUED = "also: the deploy script lives in ops/deploy.sh"
_EXIT_ONLY = re.compile(r"(?:failed|failed \(tool output\)): (?:Exit code|exit code) -?\d+\b(?! \()")


def _lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def _results() -> list[dict[str, Any]]:
    return [
        block
        for line in _lines()
        if line["type"] == "user" and isinstance(line["message"]["content"], list)
        for block in line["message"]["content"]
        if block.get("type") == "tool_result"
    ]


def test_the_recording_is_the_pinned_hosts_and_its_line_types_are_known() -> None:
    lines = _lines()
    assert {line.get("version") for line in lines if "version" in line} == {"2.1.337"}
    types = {line["type"] for line in lines}
    assert types == LINE_TYPES, f"line types moved: new {types - LINE_TYPES}, gone {LINE_TYPES - types}"
    assert types - READ_TYPES <= IGNORED_TYPES  # every other type is skipped on purpose


def test_the_markers_the_reader_relies_on_are_where_they_were() -> None:
    failed = [r for r in _results() if r.get("is_error") is True]
    assert failed and all(re.match(r"Exit code \d+\n", r["content"]) for r in failed if isinstance(r["content"], str))
    assert any("ModuleNotFoundError" in r["content"] for r in failed)
    queued = [line["attachment"] for line in _lines() if line["type"] == "attachment"]
    queued = [a for a in queued if a.get("type") == "queued_command"]
    assert [(a["prompt"], a["commandMode"]) for a in queued] == [(QUEUED, "prompt")]


def test_the_digest_reads_the_errors_the_queued_text_and_leaves_mimomem_out() -> None:
    digest = digest_transcript(FIXTURE)
    assert QUEUED in digest.requests  # typed while the agent worked
    errors = {call: (message, fix) for call, message, fix in digest.errors}
    assert set(errors) == {"python3 app.py", "python3 -c 'import yaml_not_installed'"}  # mimomem's own: not here
    message, fix = errors["python3 app.py"]
    assert message.startswith("IndexError: list index out of range") and fix is not None and "edited app.py" in fix
    message, fix = errors["python3 -c 'import yaml_not_installed'"]
    assert message.startswith("ModuleNotFoundError: No module named 'yaml_not_installed'") and fix is None
    assert not any("mimomem" in command for command in digest.commands)
    assert not _EXIT_ONLY.search(digest.render(trigger="test"))


def test_promotion_keeps_no_junk_from_a_real_session() -> None:
    episode, *_ = read_episode(str(FIXTURE), FIXTURE.stem, 0, "")
    items = items_of(episode)
    texts = [i.text for i in items]
    assert not [t for t in texts if "mimomem" in t], texts  # never a workflow, failure or fix of its own
    assert not [t for t in texts if _EXIT_ONLY.search(t)], texts
    failures = [i.text for i in items if i.section == FAILURES]
    assert any("IndexError" in t and "edited app.py" in t for t in failures), failures
    assert not [i for i in items if i.section == WORKFLOWS and "mimomem" in i.text]
    assert QUEUED in [s.text for s in episode.typed()]


def test_the_importer_counts_host_lines_on_one_line_and_reads_the_queued_text(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "history.db") as store:
        report = import_transcript(store, FIXTURE)
        texts = [r[0] for r in store.conn.execute("SELECT text FROM parts WHERE kind = 'text'")]
    skipped = Counter(report.skipped)
    assert [why for why in skipped if "line type" in why] == []  # nothing unknown
    assert skipped[HOST_LINES] == sum(1 for line in _lines() if line["type"] not in READ_TYPES) - 1  # but queued
    assert any(QUEUED in t for t in texts)


@pytest.mark.parametrize("kind", ["hologram-v2"])
def test_a_new_line_type_is_named_once(tmp_path: Path, kind: str) -> None:
    copy = tmp_path / FIXTURE.name
    copy.write_text(
        FIXTURE.read_text(encoding="utf-8") + (json.dumps({"type": kind, "x": 1}) + "\n") * 3, encoding="utf-8"
    )
    with HistoryStore(tmp_path / "history.db") as store:
        report = import_transcript(store, copy)
    assert [(why, n) for why, n in report.skipped.items() if "line type" in why] == [(f"unknown line type {kind!r}", 3)]
