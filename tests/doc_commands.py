"""Every shell command and Python example of README.md and docs/*.md, run as written.

``examples()`` reads the ```` ```sh ```` and ```` ```python ```` blocks of the documents; each is run as
written (a page's shell lines in order, in one shell, so ``export`` carries) in a sandbox: a fresh
home and data directory, the working directory a git project, and the few files the examples
name (``progress.md``, ``~/old-notes``, ``~/notes/memory``, ``~/beir/scifact``, ``mytok.py``,
``your-project``).  A
command passes when it exits 0 or 1 (1: the command's "no", such as a search that found nothing)
with no traceback.  The few that cannot run here are listed in ``EXCUSED`` with the reason and
what covers them instead; a new command in the docs that is neither run nor excused fails
``tests/cli/test_doc_commands.py`` until it is one or the other.

Used twice: by ``tests/cli/test_doc_commands.py`` with the ``mimomem`` this suite runs (in CI, the
one installed from a fresh clone) and by ``tests/test_packaging.py`` with a wheel installed in its
own virtual environment, off PATH (slow: CI runs it once, in the native pass).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

BLOCK = re.compile(r"^(?P<indent> *)```(?P<lang>sh|python)\n(?P<body>.*?)^(?P=indent)```", re.S | re.M)


class Example(NamedTuple):
    """One shell line or one Python block of a document."""

    page: str  # README.md, docs/guide.md, ...
    line: int
    lang: str  # "sh" or "python"
    text: str


EXCUSED: dict[str, str] = {
    'python3 -m venv .venv && .venv/bin/pip install -q ".[bench]"': "the quick start's install: .ci/run installs "
    "a fresh clone this way; tests/test_packaging.py installs the package and runs `mimomem bench` from it",
    'python3 -m venv .venv && .venv/bin/pip install -q ".[test]"': "the quick start's test command: .ci/run runs "
    "it from a fresh clone (.ci/commands)",
    "pip install /path/to/this/repository": "an install from a checkout: tests/test_packaging.py installs it",
    'pip install -e ".[test,bench]"': "an install from a checkout (tests/test_packaging.py builds in place)",
    "MIMOMEM_REQUIRE_NATIVE=1 pip install .": "an install from a checkout: .ci/run installs with it",
    "MIMOMEM_PURE_BUILD=1 pip install .": "an install from a checkout (tests/test_packaging.py builds the package)",
    "pytest -q -n 2 --dist loadfile": "the test suite itself (.ci/run)",
    "pytest -q tests/search": "the test suite itself (.ci/run)",
    "pytest benchmarks/bench_": "the benchmark suites, never part of the test run",
    "mimomem bench --scale 1000,10000,100000": "minutes (100,000 generated documents); "
    "benchmarks/bench_cli_scale.py records it",
    "mimomem history import --mimocode": "needs a MiMo-Code database (tests/history imports fixtures)",
    "mimomem history import --opencode": "needs an OpenCode database (tests/history imports fixtures)",
    "from claude_agent_sdk import": "an Agent SDK harness fragment (`repo`, an async loop): tests/integrations",
    "import dataclasses": "an Agent SDK harness fragment (`options`, `repo`): tests/integrations",
    "# mytok.py": "the candidate module of the tokenizer recipe: written as mytok.py for the recipe's commands",
}
"""Examples not run here (by the start of their text), with the reason and what runs them instead."""

HEAVY_PAGES = ("docs/benchmarks.md",)
"""Pages whose commands run the whole benchmark, each for several seconds: only from the wheel."""


def examples(documents: list[Path] = DOCUMENTS) -> list[Example]:
    """Every shell line (comments and blank lines left out) and Python block of ``documents``."""
    out = []
    for document in documents:
        text = document.read_text(encoding="utf-8")
        page = document.relative_to(ROOT).as_posix() if document.is_relative_to(ROOT) else document.name
        for block in BLOCK.finditer(text):
            body = textwrap.dedent(block["body"])
            first = text.count("\n", 0, block.start()) + 2
            if block["lang"] == "python":
                out.append(Example(page, first, "python", body))
                continue
            for offset, line in enumerate(body.splitlines()):
                if line.strip() and not line.lstrip().startswith("#"):
                    out.append(Example(page, first + offset, "sh", line.strip()))
    return out


def excuse(example: Example) -> str | None:
    """Why ``example`` is not run (None: it is)."""
    return next((why for start, why in EXCUSED.items() if example.text.lstrip().startswith(start)), None)


def candidate_module() -> str:
    """The tokenizer recipe's ``mytok.py`` (docs/benchmarks.md)."""
    return next(e.text for e in examples() if e.lang == "python" and e.text.startswith("# mytok.py"))


def sandbox(tmp: Path, scripts: Path) -> tuple[Path, dict[str, str]]:
    """A git project to run in and an environment: private home and data, ``scripts`` first on PATH."""
    home, project = tmp / "home", tmp / "project"
    for repo in (project, project / "your-project"):
        repo.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (project / "progress.md").write_text("## §1 Goal\n把部署脚本改成 pnpm\n", encoding="utf-8")
    (project / "mytok.py").write_text(candidate_module(), encoding="utf-8")
    (home / "old-notes").mkdir(parents=True)
    (home / "old-notes" / "db-port.md").write_text("# 数据库端口\n\nstaging 数据库端口是 5433。\n", encoding="utf-8")
    shutil.copytree(ROOT / "corpora" / "failures", home / "beir" / "scifact")
    notes = home / "notes" / "memory" / "projects" / "shop"  # the search page's existing memory tree
    notes.mkdir(parents=True)
    (notes / "MEMORY.md").write_text("# Project memory\n\n## Rules\n- 数据库端口是 5433\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MIMOMEM_", "XDG_", "PYTHON", "CLAUDE"))}
    if os.environ.get("MIMOMEM_PURE"):
        env["MIMOMEM_PURE"] = os.environ["MIMOMEM_PURE"]
    env.update(
        HOME=str(home),
        PATH=os.pathsep.join([str(scripts), os.defpath]),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        GIT_CONFIG_GLOBAL=os.devnull,
    )
    return project, env


class Ran(NamedTuple):
    example: Example
    status: int
    stdout: str
    stderr: str

    def problem(self) -> str | None:
        """What is wrong with this run (None: it exited 0 or 1 without a traceback, or raised an error that the
        example itself names as what happens where it cannot work, such as ``LoadExtensionUnsupportedError``)."""
        if self.status in (0, 1) and "Traceback" not in self.stderr:
            return None
        raised = re.findall(r"^mimomem\.errors\.(\w+):", self.stderr, re.M)
        if raised and raised[-1] in self.example.text:
            return None
        return (
            f"{self.example.page}:{self.example.line}: `{self.example.text[:120]}` exited {self.status}\n{self.stderr}"
        )


def run_page(page: str, python: Path, cwd: Path, env: Mapping[str, str], timeout: int = 900) -> list[Ran]:
    """Run ``page``'s examples as written, shell lines in order in one shell, then each Python block."""
    mine = [e for e in examples() if e.page == page and excuse(e) is None]
    lines = [e for e in mine if e.lang == "sh"]
    runs: list[Ran] = []
    if lines:
        logs = cwd.parent / "logs"
        logs.mkdir(exist_ok=True)
        script = ["set +e"]
        for n, e in enumerate(lines):  # one shell: `export` carries to the next line, as in a terminal
            script += [
                f"cd {shlex.quote(str(cwd))}",  # each line from the project (a `cd` does not carry)
                f"{{ {e.text}\n}} >{logs}/{n}.out 2>{logs}/{n}.err </dev/null",
                f"echo $? >{logs}/{n}.rc",
            ]
        subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd, env=dict(env), timeout=timeout, check=False)
        for n, e in enumerate(lines):
            read = lambda suffix, n=n: (logs / f"{n}.{suffix}").read_text(encoding="utf-8", errors="replace")  # noqa: E731
            runs.append(Ran(e, int(read("rc").strip() or -1), read("out"), read("err")))
    for e in (e for e in mine if e.lang == "python"):
        done = subprocess.run(
            [str(python), "-c", e.text], cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout
        )
        runs.append(Ran(e, done.returncode, done.stdout, done.stderr))
    return runs


def pages() -> list[str]:
    """Every document with an example to run."""
    return sorted({e.page for e in examples() if excuse(e) is None})
