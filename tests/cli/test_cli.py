"""The ``mimomem tokenize`` command: one token per line, or JSON with offsets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mimomem.cli import main

DOC = "我们决定使用端口5433，数据库是postgres"


def test_tokenize_prints_token_offsets_and_original_text(capsys):
    assert main(["tokenize", "部署ＡＰＩ v1.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["部署\t0\t2\t部署", "api\t2\t5\tＡＰＩ", "v1\t6\t8\tv1", "2\t9\t10\t2"]


def test_tokenize_json_is_a_list_of_tokens(capsys):
    assert main(["tokenize", DOC, "--json"]) == 0
    tokens = json.loads(capsys.readouterr().out)
    assert tokens[6:8] == [{"text": "端口", "start": 6, "end": 8}, {"text": "5433", "start": 8, "end": 12}]
    assert tokens[-1] == {"text": "postgres", "start": 17, "end": 25}
    for t in tokens:
        assert set(t) == {"text", "start", "end"}


def test_tokenize_jieba_mode(capsys):
    assert main(["tokenize", "中华人民共和国", "--mode", "jieba", "--json"]) == 0
    words = [t["text"] for t in json.loads(capsys.readouterr().out)]
    assert words[-1] == "中华人民共和国" and "人民" in words


def test_tokenize_empty_text_prints_nothing(capsys):
    assert main(["tokenize", "，。！"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["tokenize", "", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_unknown_mode_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tokenize", "x", "--mode", "trigram"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_python_dash_m_runs_the_command():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-m", "mimomem", "tokenize", "用pnpm部署", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        encoding="utf-8",
    )
    assert result.returncode == 0, result.stderr
    assert [t["text"] for t in json.loads(result.stdout)] == ["用", "pnpm", "部署"]


# -- bad input: one line on stderr, exit 2, nothing created ------------------------------------


def _one_error_line(err: str, command: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mimomem {command}: error: "), err
    assert "Traceback" not in err
    return lines[0]


def _memory_root(tmp_path: Path) -> Path:
    root = tmp_path / "data" / "memory"
    (root / "global").mkdir(parents=True)
    (root / "global" / "MEMORY.md").write_text("部署脚本用 pnpm\n", encoding="utf-8")
    return root


def test_search_missing_root_fails_and_creates_no_database(tmp_path, capsys):
    missing = tmp_path / "nowhere" / "memory"
    for command in (["search", "x"], ["reconcile"], ["index", "stats"]):
        assert main([*command, "--root", str(missing)]) == 2
        assert "no such directory" in _one_error_line(capsys.readouterr().err, command[0])
    assert list(tmp_path.iterdir()) == []  # no mimomem.db next to the missing root


def test_search_root_that_is_a_file(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["search", "x", "--root", str(f)]) == 2
    assert "not a directory" in _one_error_line(capsys.readouterr().err, "search")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_db_that_is_a_directory_or_in_a_missing_directory(tmp_path, capsys):
    root = _memory_root(tmp_path)
    assert main(["search", "x", "--root", str(root), "--db", str(tmp_path)]) == 2
    assert "is a directory" in _one_error_line(capsys.readouterr().err, "search")
    assert main(["search", "x", "--root", str(root), "--db", str(tmp_path / "no" / "x.db")]) == 2
    assert "does not exist" in _one_error_line(capsys.readouterr().err, "search")
    assert not (tmp_path / "no").exists()


def test_corrupt_database_says_delete_it(tmp_path, capsys):
    root = _memory_root(tmp_path)
    db = tmp_path / "mimomem.db"  # named as mimomem names its index: a damaged cache
    db.write_bytes(b"this is not sqlite" * 100)
    foreign = tmp_path / "bad.db"  # any other file: the user's, never to be deleted
    foreign.write_bytes(b"this is not sqlite" * 100)
    for command in (["search", "部署"], ["reconcile"], ["index", "stats"]):
        assert main([*command, "--root", str(root), "--db", str(db)]) == 2
        line = _one_error_line(capsys.readouterr().err, command[0])
        assert str(db) in line and "delete it" in line
        assert main([*command, "--root", str(root), "--db", str(foreign)]) == 2
        line = _one_error_line(capsys.readouterr().err, command[0])
        assert str(foreign) in line and "delete" not in line and "pass another --db" in line
    db.unlink()
    assert main(["search", "部署", "--root", str(root), "--db", str(db)]) == 0  # rebuilt from the files
    assert "global/MEMORY.md" in capsys.readouterr().out


def test_search_rejects_bad_limit_and_backend(tmp_path, capsys, monkeypatch):
    root = _memory_root(tmp_path)
    for limit in ("0", "500"):
        assert main(["search", "x", "--root", str(root), "--limit", limit]) == 2
        assert "1..200" in _one_error_line(capsys.readouterr().err, "search")
    monkeypatch.setenv("MIMOMEM_BACKEND", "nope")
    assert main(["search", "x", "--root", str(root)]) == 2
    assert "valid backends" in _one_error_line(capsys.readouterr().err, "search")


def test_search_fts5_syntax_is_plain_text(tmp_path, capsys):
    root = _memory_root(tmp_path)
    for query in ('"unbalanced', "NEAR(a b) OR col:x *^", "", "((("):
        assert main(["search", query, "--root", str(root), "--db", str(tmp_path / "m.db")]) == 1  # found nothing
        captured = capsys.readouterr()
        assert captured.err == "" and "No matches" in captured.out


def test_relative_mimomem_home_is_an_error(monkeypatch, capsys):
    monkeypatch.setenv("MIMOMEM_HOME", "relative")
    for command in (["paths"], ["search", "x"]):
        assert main(command) == 2
        assert "absolute path" in _one_error_line(capsys.readouterr().err, command[0])


def test_paths_refuses_missing_project_and_task_without_session(tmp_path, capsys):
    assert main(["paths", "--project", str(tmp_path / "nope"), "--root", str(tmp_path / "m")]) == 2
    assert "no such directory" in _one_error_line(capsys.readouterr().err, "paths")
    assert main(["paths", "--task", "T1", "--root", str(tmp_path / "m")]) == 2
    assert "--session" in _one_error_line(capsys.readouterr().err, "paths")
    assert list(tmp_path.iterdir()) == []


def test_curated_commands_refuse_a_missing_project_directory(tmp_path, capsys):
    missing = tmp_path / "nope"
    for command in (["remember", "facts", "a fact"], ["recall", "x"], ["inspect"], ["inject", "x"]):
        assert main([*command, "--project", str(missing), "--global-root", str(tmp_path / "g")]) == 2
        assert "no such directory" in _one_error_line(capsys.readouterr().err, command[0])
    assert not missing.exists()


def test_recall_limit_and_inject_sizes_are_checked(tmp_path, capsys):
    roots = ["--project", str(tmp_path), "--global-root", str(tmp_path / "g")]
    for limit in ("0", "500", "-1"):
        assert main(["recall", "x", "--limit", limit, *roots]) == 2
        assert "--limit" in _one_error_line(capsys.readouterr().err, "recall")
    assert main(["inject", "x", "--max-bodies", "-1", *roots]) == 2
    assert "--max-bodies" in _one_error_line(capsys.readouterr().err, "inject")


def test_bench_refuses_file_outputs_before_running(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    for option in ("--report", "--run-file"):
        assert main(["bench", "--failures", option, str(f)]) == 2
        captured = capsys.readouterr()
        assert "is a file" in _one_error_line(captured.err, "bench") and captured.out == ""
    assert main(["bench", "--failures", "--save", str(tmp_path)]) == 2
    assert "is a directory" in _one_error_line(capsys.readouterr().err, "bench")


def _run(args, env=None, **kw):
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, **(env or {})}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-m", "mimomem", *args], env=env, **kw)


@pytest.mark.parametrize("many", [False, True])
def test_closed_stdout_pipe_exits_quietly(tmp_path, many):
    # `mimomem ... | head -1`: the reader goes away; no traceback, no "Exception ignored".
    text = "部署 " * 8000 if many else "部署"
    proc = _run(["tokenize", text], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # before the child writes: its first write (or final flush) hits EPIPE
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0
    assert err == ""


def test_search_into_closed_pipe_exits_quietly(tmp_path):
    root = _memory_root(tmp_path)
    proc = _run(["search", "部署", "--root", str(root)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0
    assert err == ""


def test_remember_refuses_text_from_invalid_utf8(tmp_path, capsys, monkeypatch):
    # Undecodable bytes in argv or stdin arrive as lone surrogates (surrogateescape).
    roots = ["--project", str(tmp_path), "--global-root", str(tmp_path / "g")]
    assert main(["remember", "facts", "bad \udcff summary", *roots]) == 2
    assert "the summary is not valid UTF-8" in _one_error_line(capsys.readouterr().err, "remember")
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("body \udcff\udcfe\n"))
    assert main(["remember", "facts", "good summary", "-", *roots]) == 2
    assert "the body is not valid UTF-8" in _one_error_line(capsys.readouterr().err, "remember")
    assert not (tmp_path / ".memory" / "facts").exists()


def test_keyboard_interrupt_is_one_line_and_exit_130(monkeypatch, capsys):
    import mimomem.text.tokens

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(mimomem.text.tokens, "tokenize", interrupted)
    assert main(["tokenize", "x"]) == 130
    assert capsys.readouterr().err == "mimomem tokenize: interrupted\n"


def test_os_errors_name_the_path_and_the_settings(tmp_path, capsys, monkeypatch):
    f = tmp_path / "file"
    f.write_text("x")
    monkeypatch.setenv("MIMOMEM_HOME", str(f))  # data dir would be inside a file
    assert main(["search", "x"]) == 2
    line = _one_error_line(capsys.readouterr().err, "search")
    assert "Not a directory" in line and "MIMOMEM_HOME" in line and "[Errno" not in line


def test_global_root_that_is_a_file(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["recall", "x", "--project", str(tmp_path), "--global-root", str(f)]) == 2
    assert "--global-root" in _one_error_line(capsys.readouterr().err, "recall")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["nosuch"],
        ["search"],
        ["search", "x", "--limit", "abc"],
        ["search", "x", "--backend", "nope"],
        ["index"],
        ["rules", "accept"],
        ["bench", "--scale"],
    ],
)
def test_usage_errors_are_one_line_pointing_at_help(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mimomem") and lines[0].endswith("--help`"), lines
