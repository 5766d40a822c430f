"""Regression tests for the CLI and benchmark faults of the hardening issue, one test per fault."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.bench import report
from mimomem.cli import main
from mimomem.cli.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "memory"
    for rel, text in (
        ("global/MEMORY.md", "部署脚本用 pnpm 而不是 npm\n"),
        ("projects/p1/MEMORY.md", "postgres listens on 5433\n"),
    ):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def _search(root: Path, *args: str) -> list[str]:
    return ["search", *args, "--root", str(root), "--db", str(root.parent / "m.db")]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "MIMOMEM_HOME"))}
    env["HOME"] = str(tmp_path / "home")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def _run(tmp_path: Path, *args: str, close_stdout: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mimomem", *args]
    if close_stdout:  # exactly what `mimomem ... >&-` does in a shell
        command = ["sh", "-c", '"$0" "$@" >&-', *command]
    return subprocess.run(
        command,
        capture_output=not close_stdout,
        stderr=subprocess.PIPE if close_stdout else None,
        text=True,
        env=_env(tmp_path),
        timeout=120,
        check=False,
    )


# -- 1. the tree's folder names given as scopes --------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (["--scope", "projects"], "--scope project"),
        (["--scope", "sessions"], "--scope session"),
        (["--scope", "cc"], "--scope claude-code"),
    ],
)
def test_fault_folder_names_as_scopes(tmp_path, capsys, old, new):
    """`search --scope projects` (the folder's name) was a bare "invalid choice" -> exit 2 naming the scope to use."""
    root = _tree(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(_search(root, "postgres", *old))
    assert 2 == exited.value.code
    err = capsys.readouterr().err
    assert f"use {new}" in err and "Traceback" not in err


def test_fault_old_backend_name_is_a_clear_error(tmp_path, capsys):
    """The 0.1 name `native-scan` is gone: `search --backend native-scan` and `bench` name the valid backends."""
    root = _tree(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(_search(root, "postgres", "--backend", "native-scan"))
    assert 2 == exited.value.code
    assert "native-index" in capsys.readouterr().err
    assert 2 == main(["bench", "--failures", "--json", "--backend", "native-scan"])
    assert "valid backends" in capsys.readouterr().err


# -- 2. tracebacks ------------------------------------------------------------------------------


def test_fault_huge_max_bodies(tmp_path):
    """`inject --max-bodies 99999999999999999999` printed an OverflowError traceback -> one line, exit 2."""
    roots = ["--project", str(tmp_path), "--global-root", str(tmp_path / "g")]
    assert 0 == main(["remember", "facts", "deploy uses pnpm", "deploy body", *roots])
    done = _run(tmp_path, "inject", "deploy", "--max-bodies", "99999999999999999999", *roots)
    assert 2 == done.returncode
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "mimomem inject: error: --max-bodies must be an integer 0..200, got 99999999999999999999"
    ]


@pytest.mark.parametrize("command", [["search", "部署"], ["tokenize", "部署"], ["index", "stats"]])
def test_fault_closed_stdout(tmp_path, command):
    """`mimomem search x >&-` printed an AttributeError traceback -> one line on stderr, exit 2."""
    root = _tree(tmp_path)
    extra = ["--root", str(root)] if command[0] != "tokenize" else []
    done = _run(tmp_path, *command, *extra, close_stdout=True)
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"mimomem {command[0]}: error: standard output is closed; run it with output to a terminal, file or pipe"
    ]
    assert 2 == done.returncode


# -- 3. one exit-status rule for "found nothing" --------------------------------------------------


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_fault_no_results_exit_status(tmp_path, capsys, json_flag):
    """search with no results exited 0 while recall exited 1 -> both exit 1 (grep's rule), text and JSON."""
    root = _tree(tmp_path)
    roots = ["--project", str(tmp_path), "--global-root", str(tmp_path / "g")]
    assert 1 == main(_search(root, "nothing-like-this", *json_flag))
    assert 1 == main(["recall", "nothing-like-this", *json_flag, *roots])
    assert 0 == main(_search(root, "部署", *json_flag))
    assert 0 == main(["remember", "facts", "deploy uses pnpm", *roots])
    assert 0 == main(["recall", "deploy", *json_flag, *roots])
    capsys.readouterr()
    assert "search or recall found nothing" in (build_parser().epilog or "")
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    development = page[page.index("## Development") : page.index("## Architecture")]
    assert "search or recall found nothing" in " ".join(development.replace("`", "").split())


# -- 4. filters --------------------------------------------------------------------------------


def test_fault_unknown_type(tmp_path, capsys):
    """`search --type bogus` printed "No matches" -> a usage error listing the valid types."""
    root = _tree(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(_search(root, "部署", "--type", "bogus"))
    assert 2 == exc.value.code
    err = capsys.readouterr().err
    assert "invalid choice: 'bogus'" in err and "memory" in err and "feedback" in err


@pytest.mark.parametrize(
    ("filters", "named"),
    [
        (["--scope-id", "nope"], "--scope-id nope"),
        (["--scope", "session"], "--scope session"),
        (["--type", "checkpoint"], "--type checkpoint"),
        (["--scope", "global", "--scope-id", "nope"], "--scope-id nope"),
    ],
)
def test_fault_filter_that_empties_the_result(tmp_path, capsys, filters, named):
    """`search 部署 --scope-id nope` printed a bare "No matches" -> it names the filter and the matches without it."""
    root = _tree(tmp_path)
    assert 1 == main(_search(root, "部署", *filters))
    out = capsys.readouterr().out
    assert f"no matches with {named} (there is 1 match without it)" in out
    assert 1 == main(_search(root, "部署", *filters, "--json"))
    hints = json.loads(capsys.readouterr().out)["hints"]
    assert hints[0] == f"no matches with {named} (there is 1 match without it)"


# -- 5. dates in index stats --json ---------------------------------------------------------------


def test_fault_index_stats_dates(tmp_path, capsys):
    """`index stats --json` printed last_reconcile as raw epoch seconds -> an ISO 8601 UTC string (+ _epoch)."""
    root = _tree(tmp_path)
    assert 0 == main(["index", "stats", "--json", "--root", str(root), "--db", str(tmp_path / "m.db")])
    info = json.loads(capsys.readouterr().out)
    stamp = info["last_reconcile"]
    assert isinstance(stamp, str) and stamp.endswith("Z")
    when = dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    assert abs(when.timestamp() - info["last_reconcile_epoch"]) < 1
    assert abs(when.timestamp() - dt.datetime.now(dt.timezone.utc).timestamp()) < 600


# -- 6. bench --report --------------------------------------------------------------------------


def _bench_result(*, scale: bool) -> dict:
    backends = [
        {
            "backend": "fts5-bigram",
            "ndcg@10": 0.8,
            "recall@10": 0.8,
            "recall@100": 0.8,
            "mrr@10": 0.8,
            "zero_result_share": 0.0,
            "latency_ms": {"p50": 0.1, "p95": 0.2},
            "cpu_ms": None,
            "build_s": 0.1,
            "index_bytes": {"disk": 10, "memory": None},
            "categories": {},
            "queries": {},
        }
    ]
    datasets = [
        {"name": name, "path": name, "documents": docs, "queries": 2, "categories": [], "backends": backends}
        for name, docs in (("a", 10), ("b", 345), ("c", 110))
    ]
    point = {
        "backend": "fts5-bigram",
        "documents": 1000,
        "build_s": 1.0,
        "latency_ms": {"p50": 0.1, "p95": 0.2},
        "cpu_ms": None,
        "queries_with_hits": 1,
        "index_bytes": {"disk": 10, "memory": None},
        "rss_growth_bytes": None,
    }
    return {
        "machine": {"python": "3", "sqlite": "3", "cpu_count": 2, "memory_bytes": 1, "platform": "x", "native": True},
        "timing": "once",
        "backends": ["fts5-bigram"],
        "skipped_backends": {},
        "datasets": datasets,
        "failures": None,
        "scale": {"seed": 1, "queries": 1, "points": [point]} if scale else None,
    }


@pytest.mark.parametrize("scale", [False, True])
def test_fault_scaling_chart_only_with_scale(tmp_path, monkeypatch, scale):
    """`bench --report` without --scale drew a scaling chart of three unrelated datasets -> only with --scale."""
    drawn: list[str] = []

    def fake(*args):
        path = args[-1]
        drawn.append(path.name)
        path.write_bytes(b"png")

    for chart in ("quality_chart", "scaling_chart", "category_chart"):
        monkeypatch.setattr(report, chart, fake)
    monkeypatch.setattr(report, "charts_available", lambda: True)  # the charts are faked: matplotlib not needed
    written = report.write_report(_bench_result(scale=scale), tmp_path / "rep")
    text = (tmp_path / "rep" / "report.md").read_text(encoding="utf-8")
    assert ("scaling.png" in drawn) is scale
    assert ("![scaling](scaling.png)" in text) is scale
    assert [p.name for p in written] == ["report.md", "quality.png", *(["scaling.png"] if scale else [])]


def test_fault_report_dir_parents(tmp_path, capsys):
    """`bench --report /nonexistent/dir` created directories up to the root -> refused; only the last is created."""
    deep = tmp_path / "no" / "such" / "dir"
    for option in ("--report", "--run-file"):
        assert 2 == main(["bench", "--failures", option, str(deep)])
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.splitlines() == [
            f"mimomem bench: error: {option} {deep}: its parent directory {deep.parent} does not exist; "
            "create it first or fix the path"
        ]
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(FileNotFoundError):
        report.write_report(_bench_result(scale=False) | {"datasets": []}, deep)
    assert list(tmp_path.iterdir()) == []
    report.write_report(_bench_result(scale=False) | {"datasets": []}, tmp_path / "new")
    assert (tmp_path / "new" / "report.md").is_file()
