"""The curated commands end to end: remember, recall, rules, inject, inspect, forget, import."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mimomem.cli import main


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    assert 0 == main(
        ["remember", "facts", "Redis runs on port 6380", "Not the default port.", "--when", "deploy", *roots]
    )
    assert "remembered facts/redis-runs-on-port-6380" in capsys.readouterr().out
    assert 0 == main(["remember", "rules", "Squash merges only", "--author", "model", *roots])
    assert "rule-proposal" in capsys.readouterr().out
    assert 0 == main(["recall", "redis port", *roots])
    out = capsys.readouterr().out
    assert "## facts/redis-runs-on-port-6380" in out and "why: matched" in out
    assert 0 == main(["rules", "accept", "rules/squash-merges-only", *roots])
    capsys.readouterr()
    assert 0 == main(["inject", "redis", *roots])
    assert "- Squash merges only" in capsys.readouterr().out
    assert 0 == main(["inspect", *roots])
    assert "0 problems" in capsys.readouterr().out
    assert 2 == main(["remember", "facts", "key", "AKIA" + "Q7X2M9K4P1Z8R5T3", *roots])
    err = capsys.readouterr().err
    assert "aws-access-key-id" in err and "Q7X2M9K4" not in err
    assert 2 == main(["forget", "../../etc/passwd", *roots])
    assert 0 == main(["forget", "facts/redis-runs-on-port-6380", *roots])
    assert 1 == main(["recall", "redis", *roots])
    assert 0 == main(["remember", "facts", "global fact about kafka", "--global", *roots])
    assert (tmp_path / "g" / "facts" / "global-fact-about-kafka.md").exists()


def test_cli_inspect_fails_on_problems_and_fix_recompiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    main(["remember", "facts", "something to index", *roots])
    (tmp_path / "p" / ".memory" / "ROOT.md").write_text("hand edited\n")
    capsys.readouterr()
    assert 1 == main(["inspect", *roots])
    assert "drift" in capsys.readouterr().out
    assert 0 == main(["inspect", "--fix", *roots])


def test_cli_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.md").write_text(f"# Note {i} about topic{i}\n\nbody {i}\n")
    (tmp_path / "p").mkdir()  # --project must name an existing directory
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    assert 0 == main(["import", str(notes), *roots])
    assert "imported 3 memories" in capsys.readouterr().out
    assert os.path.exists(tmp_path / "p" / ".memory" / "facts" / "note-0-about-topic0.md")
