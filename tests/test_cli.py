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
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    result = subprocess.run(
        [sys.executable, "-m", "mimomem", "tokenize", "用pnpm部署", "--json"],
        capture_output=True, text=True, env=env, timeout=120, encoding="utf-8",
    )
    assert result.returncode == 0, result.stderr
    assert [t["text"] for t in json.loads(result.stdout)] == ["用", "pnpm", "部署"]
