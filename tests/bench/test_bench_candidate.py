"""Loading a candidate tokenizer: every bad spec is one clear line (exit 2), and the swap is scoped."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mimomem import Token, native_available, tokenize
from mimomem.bench.candidate import load_tokenizer, shipped_tokens, use_tokenizer
from mimomem.cli import main
from mimomem.errors import DatasetError, TokenizerSpecError

ROOT = Path(__file__).resolve().parents[2]

MODULES = {
    "good": "from mimomem import Token\ndef tok(text, mode='b'):\n    return [Token(w, 0, 1) for w in text.split()]\n",
    "tuples": "def tok(text):\n    return [(w, 0, 1) for w in text.split()]\n",
    "strings": "def tok(text):\n    return text.split()\n",
    "text": "def tok(text):\n    return text\n",
    "empty_token": "def tok(text):\n    return [('', 0, 0)]\n",
    "raises": "def tok(text):\n    raise RuntimeError('boom')\n",
    "broken": "import no_such_module_anywhere\n",
    "syntax": "def tok(:\n",
    "value": "tok = 42\n",
}


@pytest.fixture
def modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, source in MODULES.items():
        (tmp_path / f"cand_{name}.py").write_text(source, encoding="utf-8")
        monkeypatch.delitem(sys.modules, f"cand_{name}", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cand_good", "is not MODULE:FUNCTION; pass e.g. mymod:tokenize"),
        ("cand_good:tok:x", "is not MODULE:FUNCTION"),
        ("no_such_candidate:tok", "cannot import 'no_such_candidate'.*PYTHONPATH"),
        ("cand_broken:tok", "cannot import 'cand_broken'.*no_such_module_anywhere"),
        ("cand_syntax:tok", "importing 'cand_syntax' .* raised SyntaxError"),
        ("cand_good:nope", "module 'cand_good' has no 'nope'"),
        ("cand_value:tok", "cand_value:tok is a int, not a function"),
        ("cand_strings:tok", "returned an item 'x'|returned an item '部署脚本用pnpm，端口5433'"),
        ("cand_text:tok", "returned a str; a candidate must return what mimomem.tokenize does"),
        ("cand_empty_token:tok", "returned an item"),
        ("cand_raises:tok", "cand_raises:tok raised RuntimeError: boom on the text"),
    ],
)
def test_bad_specs_are_specific_errors(modules: Path, spec: str, message: str) -> None:
    with pytest.raises(TokenizerSpecError, match=message):
        load_tokenizer(spec)


def test_tuples_are_accepted(modules: Path) -> None:
    assert load_tokenizer("cand_tuples:tok").tokenize("a b") == [Token("a", 0, 1), Token("b", 0, 1)]


@pytest.mark.parametrize("command", ["bench", "tokenize"])
def test_cli_errors_are_one_line_exit_2(modules: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    for spec, words in (("cand_value:tok", "not a function"), ("nowhere:tok", "PYTHONPATH"), ("x", "MODULE:FUNCTION")):
        args = ["bench", "--dataset", str(modules), "--tokenizer", spec] if command == "bench" else []
        args = args or ["tokenize", "--diff", spec, "text"]
        assert main(args) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        (line,) = captured.err.strip().splitlines()
        assert words in line and "Traceback" not in line


def test_the_swap_is_scoped_and_reentrant(modules: Path) -> None:
    wrapper = (
        "from mimomem import tokenize as t\ndef tok(text):\n    return [x._replace(text=x.text + '!') for x in t(text)]"
    )
    (modules / "cand_wrap.py").write_text(wrapper, encoding="utf-8")
    candidate = load_tokenizer("cand_wrap:tok")
    from mimomem.search import db

    with use_tokenizer(candidate):
        # mimomem.tokenize is the candidate now, and the candidate's own call of it got the shipped one
        assert [t.text for t in tokenize("部署 pnpm")] == ["部署!", "pnpm!"]
        assert db.shadow_tokens("部署 pnpm") == "部署! pnpm!"
        assert [t.text for t in shipped_tokens("部署")] == ["部署"]
    assert [t.text for t in tokenize("部署 pnpm")] == ["部署", "pnpm"]
    assert db.shadow_tokens("部署 pnpm") == "部署 pnpm"


def test_readme_recipe_runs_as_written(tmp_path: Path) -> None:
    """Steps 1-2 of "Validate a tokenizer change", run as written by the installed ``mimomem`` command in an
    empty directory: the candidate is found in the working directory without PYTHONPATH=. (which put the
    source tree first, so the run was pure Python without a word), and the dataset by its shipped name."""
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    section = page[page.index("## Validate a tokenizer change") : page.index("<!-- /section:bench -->")]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    commands = re.search(r"```sh\n(.*?)```", section, re.S)
    assert code is not None and commands is not None
    (tmp_path / "mytok.py").write_text(textwrap.dedent(code.group(1)), encoding="utf-8")
    script = Path(sys.executable).with_name("mimomem")  # the console script: the working directory is not on sys.path
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "mimomem"]
    outputs = []
    for line in textwrap.dedent(commands.group(1)).splitlines():
        words = shlex.split(line)
        env = dict(os.environ)
        while "=" in words[0]:
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        assert words[0] == "mimomem"
        env["HOME"] = env["XDG_CACHE_HOME"] = env["XDG_DATA_HOME"] = str(tmp_path)
        run = subprocess.run([*command, *words[1:]], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode in (0, 1), run.stderr
        assert "Traceback" not in run.stderr and "WARNING" not in run.stderr
        outputs.append(run.stdout)
    assert f"native extension: {'yes' if native_available() else 'no'}" in outputs[1]
    assert "removed: access_token_ttl; added: access | token | ttl" in outputs[0]
    assert "## Candidate tokenizer mytok:tokenize against the shipped one" in outputs[1]
    assert re.search(r"\[agent-memory\] tokens: \d+ of 345 documents and \d+ of \d+ queries", outputs[1])
    assert "relevant doc am-0171 (grade 2) lost token access_token_ttl" in outputs[1]


def test_a_candidate_in_the_working_directory_needs_no_pythonpath(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recipe needed PYTHONPATH=., which in a checkout also put the unbuilt source tree first -> found in cwd."""
    (tmp_path / "cwdtok.py").write_text("from mimomem import tokenize\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "cwdtok", raising=False)
    assert load_tokenizer("cwdtok:tokenize").tokenize("部署") == tokenize("部署")
    assert str(tmp_path) not in sys.path  # only the file was loaded; the directory was not put first
    (tmp_path / "cwdbroken.py").write_text("import no_such_module_anywhere\n", encoding="utf-8")
    with pytest.raises(TokenizerSpecError, match="no_such_module_anywhere"):
        load_tokenizer("cwdbroken:tok")
    assert "cwdbroken" not in sys.modules


def test_a_shipped_dataset_is_named_without_its_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mimomem.bench.datasets import load_dataset

    monkeypatch.chdir(tmp_path)
    assert load_dataset("failures").name == "failures"
    with pytest.raises(DatasetError, match=r"not a directory.*name of a shipped dataset"):
        load_dataset("no-such-set")
