"""What we ship builds natively: sdist from this checkout -> fresh venv -> ``native_available()``.

The slow test compiles the extension once from the sdist, as ``pip install mimomem-*.tar.gz``
does, without optimization (``MIMOMEM_UNOPTIMIZED_BUILD=1``: what is checked is that the sdist
builds and installs a working native package, and -O3 costs ten times the CPU).  It reuses this
environment's build requirements (``pip install '.[test]'`` installs them) with
``--no-build-isolation``, so nothing is downloaded; where they are missing (an older dev
venv) a throwaway build environment gets them from the package index.  The fresh venv sees this
environment's site-packages through a ``.pth`` file for the runtime dependencies, after its own.
A pure run (``MIMOMEM_PURE=1`` or ``--no-native``) skips it: the native run covers packaging.

The same installed venv then plays a new user's first hour, with the venv not on ``PATH``:
``install claude-code`` from a subdirectory, the hooks run as Claude Code runs them,
``uninstall`` restores the settings file, and ``mimomem bench`` runs in an empty directory
from the corpora the package carries.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import site
import subprocess
import sys
import tarfile
from collections.abc import Iterable
from fnmatch import fnmatch
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
GENERATED = (".so", ".pyd", ".c", ".cpp", ".html", ".pyc", ".pyo")
# top-level entries of the sdist: the build's inputs and setuptools' own metadata, nothing else
SDIST_TOP_LEVEL = {
    "MANIFEST.in",
    "PKG-INFO",
    "README.md",
    "_native",
    "corpora",
    "mimomem",
    "mimomem.egg-info",
    "pyproject.toml",
    "setup.cfg",
    "setup.py",
}
PROBE = """
import json, mimomem, mimomem._native
print(json.dumps([mimomem.native_available(), mimomem.__file__, mimomem._native.__file__]))
"""
FILES_PROBE = (
    "import json, importlib.metadata as m; print(json.dumps([str(f) for f in m.distribution('mimomem').files]))"
)


def run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; on failure, fail the test with its output."""
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would make a subprocess import or build something else."""
    drop = {
        "PYTHONPATH",
        "PYTHONHOME",
        "PYTHONSAFEPATH",
        "MIMOMEM_PURE",
        "MIMOMEM_PURE_BUILD",
        # CI exports it (the extension must build there); a test that wants it says so in ``extra``
        "MIMOMEM_REQUIRE_NATIVE",
        "PIP_REQUIRE_VIRTUALENV",
    }
    return {**{k: v for k, v in os.environ.items() if k not in drop}, **extra}


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def venv_site(python: Path) -> Path:
    return Path(
        run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=python.parent).strip()
    )


def build_requirements() -> list[str]:
    """``[build-system] requires`` of pyproject.toml."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10: the table is simple enough to read directly
        block = re.search(r"^\[build-system\]\s*requires\s*=\s*\[(.*?)\]", text, re.M | re.S)
        assert block is not None, "pyproject.toml has no [build-system] requires"
        return re.findall(r'"([^"]+)"', block.group(1))
    return list(tomllib.loads(text)["build-system"]["requires"])


def satisfied(requirement: str) -> bool:
    req = Requirement(requirement)
    try:
        return req.specifier.contains(metadata.version(req.name), prereleases=True)
    except metadata.PackageNotFoundError:
        return False


def this_environment() -> list[Path]:
    """The site-packages directories this interpreter imports third-party packages from."""
    dirs = [*site.getsitepackages(), *([site.getusersitepackages()] if site.ENABLE_USER_SITE else [])]
    return [Path(d) for d in dirs if Path(d).is_dir()]


@pytest.fixture(scope="module")
def build_env(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """(python that builds, site dirs that hold the build requirements and the runtime dependencies)."""
    if os.environ.get("MIMOMEM_PURE", "") not in ("", "0"):
        pytest.skip("pure-Python run: the sdist is built and checked in the native run")
    if importlib.util.find_spec("pip") is None:
        pytest.fail("pip is not installed in this environment: the packaging test installs with it")
    missing = [req for req in build_requirements() if not satisfied(req)]
    if not missing:
        return Path(sys.executable), this_environment()
    # not installed with '.[test]': get the build requirements once, into a throwaway venv
    venv = tmp_path_factory.mktemp("build-env")
    run([sys.executable, "-m", "venv", venv], cwd=venv)
    python = venv_python(venv)
    run([python, "-m", "pip", "install", "-q", *missing], cwd=venv, env=clean_env())
    return python, [venv_site(python), *this_environment()]


class Sdist(NamedTuple):
    path: Path  # the .tar.gz
    source: Path  # the copy of the checkout it was built from (others may be editing the checkout meanwhile)


@pytest.fixture(scope="module")
def sdist(build_env: tuple[Path, list[Path]], tmp_path_factory: pytest.TempPathFactory) -> Sdist:
    """The sdist of this checkout, built the PEP 517 way (what ``python -m build --sdist`` calls).

    Built from a copy without the checkout's ``*.egg-info``: setuptools adds every file its old
    SOURCES.txt lists, which would hide a file that MANIFEST.in no longer ships.
    """
    python, _ = build_env
    src, out = tmp_path_factory.mktemp("src") / "mimomem", tmp_path_factory.mktemp("dist")
    shutil.copytree(ROOT, src, ignore=not_source, symlinks=True)
    code = f"import setuptools.build_meta as b; print(b.build_sdist({str(out)!r}))"
    name = run([python, "-c", code], cwd=src, env=clean_env()).strip().splitlines()[-1]
    return Sdist(out / name, src)


def not_source(directory: str, names: list[str]) -> set[str]:
    """What copying the checkout leaves out: VCS data, build metadata, caches and virtual environments."""
    skipped = {".git", "build", "dist", "__pycache__", ".hypothesis", ".benchmarks", ".tox", ".nox"}
    return {
        name
        for name in names
        if name in skipped or name.endswith((".egg-info", "_cache")) or (Path(directory, name) / "pyvenv.cfg").exists()
    }


def generated(paths: Iterable[str]) -> set[str]:
    """Those of ``paths`` (relative to the checkout) that are build products: by suffix or by .gitignore."""
    patterns = [line.strip().rstrip("/") for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()]
    patterns = [pattern.lstrip("/") for pattern in patterns if pattern and not pattern.startswith(("#", "!"))]

    def is_generated(path: str) -> bool:
        parts = path.split("/")
        return path.endswith(GENERATED) or any(
            fnmatch(path, pattern) if "/" in pattern else any(fnmatch(part, pattern) for part in parts)
            for pattern in patterns
        )

    return {path for path in paths if is_generated(path)}


@pytest.mark.slow
def test_sdist_holds_the_native_sources_and_nothing_generated(sdist: Sdist) -> None:
    with tarfile.open(sdist.path) as tar:
        files = {member.name.split("/", 1)[1] for member in tar.getmembers() if member.isfile()}
    on_disk = {f"_native/{p.name}" for p in (sdist.source / "_native").iterdir() if p.is_file()}
    sources = on_disk - generated(on_disk)
    assert {"_native/_native.pyx", "_native/_bm25.pxi", "_native/_tokenizer.pxi", "_native/fts5_mimomem.cc"} <= sources
    assert sources <= files, f"_native sources missing from the sdist (MANIFEST.in): {sorted(sources - files)}"
    assert {"mimomem/py.typed", "mimomem/data/synonyms.tsv", "README.md"} <= files
    shipped = generated(name for name in files if not name.startswith("mimomem.egg-info/"))  # setuptools' own
    assert not shipped, f"generated files in the sdist (MANIFEST.in): {sorted(shipped)}"
    assert {name.split("/", 1)[0] for name in files} <= SDIST_TOP_LEVEL


class Installed(NamedTuple):
    venv: Path
    python: Path
    scripts: Path  # the venv's bin/ (Scripts\\ on Windows), never on PATH in these tests


@pytest.fixture(scope="module")
def installed(sdist: Sdist, build_env: tuple[Path, list[Path]], tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """A fresh venv with the sdist installed (pip builds a wheel from it and installs that)."""
    _, site_dirs = build_env
    tmp_path = tmp_path_factory.mktemp("installed")
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    python = venv_python(venv)
    # after its own site-packages: dependencies, pip and the build requirements, never this checkout
    (venv_site(python) / "_mimomem_test_env.pth").write_text("".join(f"{d}\n" for d in site_dirs), encoding="utf-8")
    pip = [python, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index"]
    # --ignore-installed: this environment's own mimomem (visible through the .pth) is not ours to replace;
    # unoptimized: the same sources at -O0 build in 8 s of CPU instead of 84 (the CI's own install is -O3)
    env = clean_env(MIMOMEM_REQUIRE_NATIVE="1", MIMOMEM_UNOPTIMIZED_BUILD="1")
    run([*pip, "--ignore-installed", "--no-cache-dir", sdist.path], cwd=tmp_path, env=env)  # type: ignore[list-item]
    return Installed(venv, python, venv / ("Scripts" if os.name == "nt" else "bin"))


@pytest.mark.slow
def test_sdist_installs_native_into_a_fresh_venv(sdist: Sdist, installed: Installed, tmp_path: Path) -> None:
    python, venv = installed.python, installed.venv
    native, init_file, native_file = json.loads(run([python, "-c", PROBE], cwd=tmp_path, env=clean_env()))
    assert native is True
    assert Path(init_file).resolve().is_relative_to(venv.resolve()), init_file
    assert Path(native_file).resolve().is_relative_to(venv.resolve()), native_file

    files = json.loads(run([python, "-c", FILES_PROBE], cwd=tmp_path, env=clean_env()))
    package = [f for f in files if f.startswith("mimomem/") and "__pycache__" not in f]
    libraries = sorted(Path(f).name.split(".")[0] for f in package if f.endswith((".so", ".pyd", ".dylib", ".dll")))
    assert libraries == ["_native", "libmimomem"]  # the Python extension and the SQLite one (mimomem.sqlite)
    assert [f for f in package if Path(f).name.startswith("libmimomem.")] == [
        f for f in package if f.startswith("mimomem/sqlite/lib/libmimomem.")
    ]
    assert not [f for f in package if f.endswith((".c", ".cpp", ".pyx", ".pxi", ".html"))]
    assert {"mimomem/py.typed", "mimomem/data/synonyms.tsv", "mimomem/_corpora/failures/cases.json"} <= set(package)
    # bench --e2e's dev set (issue 35: "cannot read .../corpora/e2e-dev/manifest.json" from a wheel)
    assert {"mimomem/_corpora/e2e-dev/manifest.json", "mimomem/_corpora/e2e-dev/questions.jsonl"} <= set(package)
    assert len([f for f in package if f.startswith("mimomem/_corpora/e2e-dev/transcripts/")]) >= 10
    # ... and the sessions bench --e2e --host claude-code plays through the real host
    assert "mimomem/_corpora/e2e-dev/sessions/lanhai-billing.yaml" in package
    devset = run(
        [python, "-c", "from mimomem.bench.e2e import default_devset; print(default_devset())"], tmp_path, clean_env()
    )
    assert Path(devset.strip()).resolve().is_relative_to(venv.resolve()), devset
    sources = (sdist.source / "mimomem").rglob("*.py")
    modules = {p.relative_to(sdist.source).as_posix() for p in sources if "__pycache__" not in p.parts}
    missing = modules - set(package)
    assert not missing, f"modules not packaged (a package directory without __init__.py?): {sorted(missing)}"
    run([installed.scripts / "mimomem", "--help"], cwd=tmp_path, env=clean_env())


def off_path(tmp_path: Path) -> dict[str, str]:
    """A user's environment where the venv is not on PATH (nothing activated), with private data dirs."""
    return clean_env(
        PATH=os.defpath,
        HOME=str(tmp_path / "home"),
        MIMOMEM_HOME=str(tmp_path / "data"),
        MIMOMEM_CACHE_DIR=str(tmp_path / "cache"),
    )


def hook(command: str, event: dict[str, str], env: dict[str, str], cwd: Path) -> dict[str, object]:
    """Run a settings file's hook command as Claude Code does (``sh -c``, the payload on stdin)."""
    done = subprocess.run(
        ["sh", "-c", command], input=json.dumps(event), cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and done.stderr == "", (command, done.returncode, done.stderr)
    return dict(json.loads(done.stdout)["hookSpecificOutput"])


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="Claude Code runs hook commands with sh")
def test_a_first_hour_from_the_installed_wheel_off_path(installed: Installed, tmp_path: Path) -> None:
    """Install from a subdirectory writes the repository's settings, the hooks run without PATH,
    uninstall restores the file byte for byte, and ``mimomem bench`` runs in an empty directory."""
    mimomem, env = installed.scripts / "mimomem", off_path(tmp_path)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "scripts").mkdir()
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir()
    original = b'{"model": "sonnet",  "env": {"A": "1"}}\n'
    settings.write_bytes(original)

    out = run([mimomem, "install", "claude-code"], cwd=repo / "scripts", env=env)
    assert str(settings.resolve()) in out and not (repo / "scripts" / ".claude").exists()
    hooks = json.loads(settings.read_text(encoding="utf-8"))["hooks"]
    command = hooks["SessionStart"][0]["hooks"][0]["command"]
    assert command.startswith(str(installed.scripts)), command
    start = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(repo), "source": "startup"}
    assert hook(command, start, env, repo)["additionalContext"]
    prompt = {"hook_event_name": "UserPromptSubmit", "session_id": "s1", "cwd": str(repo), "prompt": "部署前要做什么？"}
    done = subprocess.run(
        ["sh", "-c", command], input=json.dumps(prompt), cwd=repo, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and done.stderr == ""

    run([mimomem, "uninstall", "claude-code"], cwd=repo / "scripts", env=env)
    assert settings.read_bytes() == original
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]

    empty = tmp_path / "empty"
    empty.mkdir()
    failures = run([mimomem, "bench", "--failures"], cwd=empty, env=env)
    assert "unicode61" in failures
    everything = run([mimomem, "bench"], cwd=empty, env=env)
    assert "agent-memory" in everything and "memory-en" in everything
    assert list(empty.iterdir()) == []


@pytest.mark.slow
def test_an_in_place_build_says_what_it_built_and_makes_the_sqlite_lib_dir(
    build_env: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    """Issue 35: a build without a compiler fell back to pure Python where no one saw it (pip -q), the SQLite
    extension's error then blamed SQLite's headers, and ``build_ext --inplace`` (``pip install -e``) lost
    ``libmimomem.so`` because ``mimomem/sqlite/lib/`` is not in the source tree."""
    python, site_dirs = build_env
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=lambda d, names: not_source(d, names) | {n for n in names if n.endswith(".so")})
    shutil.rmtree(src / "mimomem" / "sqlite" / "lib", ignore_errors=True)
    (src / "mimomem" / "_build.json").unlink(missing_ok=True)
    no_compiler = clean_env(CC="false", CXX="false", LDSHARED="false", LDCXXSHARED="false")
    run([python, "setup.py", "build_ext", "--inplace"], cwd=src, env=no_compiler)
    said = json.loads((src / "mimomem" / "_build.json").read_text(encoding="utf-8"))
    assert said["native"].startswith("not built: compiling it failed"), said
    assert said["sqlite"].startswith("not built: compiling it failed"), said
    # -S: no .pth files, so an editable install of the checkout cannot lend its extension to this tree
    tree = clean_env(PYTHONPATH=os.pathsep.join(map(str, [src, *site_dirs])))
    version = run([python, "-S", "-m", "mimomem", "--version"], cwd=tmp_path, env=tree)
    assert "pure Python: the native extension was not built at install: compiling it failed" in version
    probe = "import mimomem.sqlite as s\ntry:\n    s.loadable_path()\nexcept Exception as e:\n    print(e)"
    error = run([python, "-S", "-c", probe], cwd=tmp_path, env=tree)
    assert "compiling it failed" in error and "C++ compiler" in error and "libsqlite3-dev" not in error

    run([python, "setup.py", "build_ext", "--inplace"], cwd=src, env=clean_env(MIMOMEM_UNOPTIMIZED_BUILD="1"))
    assert json.loads((src / "mimomem" / "_build.json").read_text(encoding="utf-8")) == {
        "native": "built",
        "sqlite": "built",
    }
    assert (src / "mimomem" / "sqlite" / "lib" / "libmimomem.so").is_file()
    assert run([python, "-S", "-m", "mimomem", "--version"], cwd=tmp_path, env=tree).strip().endswith("(native)")


@pytest.mark.slow
@pytest.mark.skipif(os.name == "nt", reason="the docs' commands are POSIX shell")
def test_every_docs_command_runs_from_the_installed_wheel_off_path(installed: Installed, tmp_path: Path) -> None:
    """Every command and Python example of README.md and docs/*.md, as written, by the wheel's mimomem off PATH
    (tests/doc_commands.py: sandbox, excuses); then bench_hook.py from the repository root, as
    benchmarks/README.md runs it, which crashed with a wheel install (its breakdown imported the source tree)."""
    from doc_commands import pages, run_page, sandbox

    problems: list[str] = []
    for page in pages():
        cwd, env = sandbox(tmp_path / page.replace("/", "-"), installed.scripts)
        problems += [p for p in (r.problem() for r in run_page(page, installed.python, cwd, env)) if p]
    assert problems == [], "\n".join(problems)
    hook = [installed.python, "benchmarks/bench_hook.py", "--runs", "1", "--files", "30", "--memories", "10"]
    out = run([*hook, "--scenario", "mixed", "--max-ratio", "1000"], cwd=ROOT, env=off_path(tmp_path))  # type: ignore[list-item]
    assert "mimomem from an installed package" in out and "prompt hook / python -c pass" in out


def test_no_generated_file_is_tracked_by_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = run(["git", "ls-files"], cwd=ROOT).splitlines()
    assert not generated(tracked)


def test_the_test_extra_holds_the_build_requirements() -> None:
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11+")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    installed = [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["test"]]
    needed = {Requirement(req).name.lower() for req in project["build-system"]["requires"]}
    missing = needed - {Requirement(req).name.lower() for req in installed}
    assert not missing, f"pip install '.[test]' must bring the build requirements (test_packaging builds): {missing}"
