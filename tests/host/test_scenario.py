"""The dev set's sessions as host scenarios (no host needed): turns, tool calls, stubs, repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

from mimomem.bench.host.scenario import (
    install_stubs,
    load_scenarios,
    made_executable,
    program_words,
    repository_files,
)

DEVSET = Path(__file__).resolve().parents[2] / "corpora" / "e2e-dev"


def test_program_words_are_the_programs_a_line_runs() -> None:
    line = "export A=1 && FOO=bar pnpm test -- --run | tee log; cd x && ./deploy/push.sh staging || sudo systemctl up"
    assert program_words(line) == ["pnpm", "tee", "./deploy/push.sh", "sudo", "systemctl"]
    assert program_words("lsof -ti:4173 | xargs kill") == ["lsof", "xargs", "kill"]
    assert program_words("chmod +x deploy/push.sh") == []  # really runs: a later command depends on it
    assert program_words("echo 'unterminated") == []


def test_sessions_become_turns_steps_and_denials(tmp_path: Path) -> None:
    scenarios = {s.name: s for s in load_scenarios(DEVSET, tmp_path, tmp_path / "home")}
    assert len(scenarios) == 18
    first = scenarios["a1-setup"]
    prompts = [t.prompt for t in first.script.turns]
    assert prompts[0].startswith("帮我看一下这个仓库怎么跑起来") and len(prompts) == 3
    tools = [c.name for t in first.script.turns for s in t.steps for c in s.tools]
    assert tools[:3] == ["Read", "Bash", "Bash"] and "Write" in tools
    assert first.script.turns[0].steps[0].text.startswith("好的，我先看一下 README")  # the say before the read
    assert first.script.turns[-1].final.startswith("63 个测试都过了")
    assert (
        first.expected[0]
        == (
            "poetry install",
            first.expected[0][1],
            True,
        )
        and "Poetry was unable" in first.expected[0][1]
    )
    compacted = scenarios["a7-ruff-compact"]
    assert "/compact" in [t.prompt for t in compacted.script.turns]
    assert compacted.script.compact_summary.startswith("Summary of the conversation so far")
    deploy = scenarios["a6-staging-deploy"]
    assert deploy.disallowed == ["git push origin main --force"]
    assert deploy.extra_args() == ["--disallowedTools", "Bash(git push origin main --force)"]
    assert scenarios["b9-unfinished"].ends is False
    edits = [c for t in compacted.script.turns for s in t.steps for c in s.tools if c.name == "Edit"]
    assert edits and all(Path(str(c.input["file_path"])).is_relative_to(tmp_path / "lanhai-billing") for c in edits)


def test_stub_prints_the_recorded_output_once_and_exits_with_its_status(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install_stubs(home, {"pnpm", "git", "tee"})
    bashrc = (home / ".bashrc").read_text()
    assert "pnpm() {" in bashrc and "git() {" in bashrc
    scenarios = load_scenarios(DEVSET, tmp_path, home)
    step = next(s for t in scenarios[0].script.turns for s in t.steps if s.tools[0].name == "Bash")
    assert step.before is not None
    step.before()  # poetry install: an error
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        ["bash", "-c", f"source {home}/.bashrc; pnpm install | tee /dev/null"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and run.stdout.count("Poetry was unable to find a compatible version") == 1


def test_repository_holds_the_scripts_the_sessions_run() -> None:
    files = repository_files(DEVSET, "lanhai-billing")
    assert "deploy/push.sh" in files and files["deploy/push.sh"].startswith("#!/bin/sh")
    assert "deploy/push.sh" in made_executable(DEVSET, "lanhai-billing")
