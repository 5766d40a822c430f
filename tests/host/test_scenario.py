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


def _agent_shell(home: Path, command: str) -> subprocess.CompletedProcess[str]:
    """``command`` as the host runs the agent's Bash: ``bash -c "source <shell snapshot> && ..."``."""
    snapshots = home / ".claude" / "shell-snapshots"
    snapshots.mkdir(parents=True, exist_ok=True)
    snapshot = snapshots / "snapshot-bash-1-test.sh"
    snapshot.write_text((home / ".bashrc").read_text())
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        ["bash", "-c", f"source {snapshot} 2>/dev/null || true && {command}"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_stub_prints_the_recorded_output_once_and_exits_with_its_status(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install_stubs(home, {"pnpm", "git", "tee"})
    bashrc = (home / ".bashrc").read_text()
    assert "pnpm() {" in bashrc and "git() {" in bashrc
    scenarios = load_scenarios(DEVSET, tmp_path, home)
    step = next(s for t in scenarios[0].script.turns for s in t.steps if s.tools[0].name == "Bash")
    assert step.before is not None
    step.before()  # poetry install: an error
    run = _agent_shell(home, "pnpm install | tee /dev/null")
    assert run.returncode == 1 and run.stdout.count("Poetry was unable to find a compatible version") == 1


def test_the_hosts_own_shells_run_the_real_programs_and_leave_the_output(tmp_path: Path) -> None:
    """The host makes its shell snapshot by sourcing ``~/.bashrc`` in ``bash -c -l`` and running ``sed``
    (and more) there: a stubbed program called so runs for real, and the recorded output waits for the
    agent's call (before, every session's first scripted command showed nothing)."""
    home = tmp_path / "home"
    install_stubs(home, {"pnpm", "sed"})
    scenarios = load_scenarios(DEVSET, tmp_path, home)
    step = next(s for t in scenarios[0].script.turns for s in t.steps if s.tools[0].name == "Bash")
    assert step.before is not None
    step.before()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    making = subprocess.run(
        ["bash", "-c", "-l", f"source {home}/.bashrc < /dev/null\necho alias x | sed -e 's/x/y/'"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert making.returncode == 0 and making.stdout == "alias y\n"
    run = _agent_shell(home, "pnpm install")
    assert run.returncode == 1 and "Poetry was unable to find a compatible version" in run.stdout


def test_repository_holds_the_scripts_the_sessions_run() -> None:
    files = repository_files(DEVSET, "lanhai-billing")
    assert "deploy/push.sh" in files and files["deploy/push.sh"].startswith("#!/bin/sh")
    assert "deploy/push.sh" in made_executable(DEVSET, "lanhai-billing")
