"""The commands and paths mimomem's injected instructions name, run by the agent inside the real host.

``agent_commands`` reads them out of the injected text, the way an agent would act on them:
each backticked ``mimomem ...`` command (its placeholders filled), each absolute path named
(read it, or list the directory), and the instructed append to the session's ``notes.md``.
``measure`` runs a session that states a rule and a fact, then a second session whose model runs
every one of those commands as a ``Bash`` call; ``CommandOutcome.ok`` is exit code 0.

A test that every named command works (issue 31.3) is::

    report = measure(root, host, route)
    assert report.failing == [], report.table()
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mimomem.bench.host.binary import Host
from mimomem.bench.host.extract import Injection, injected_in
from mimomem.bench.host.sandbox import Sandbox
from mimomem.bench.host.script import Script, Step, Turn, bash
from mimomem.bench.host.session import run_session
from mimomem.bench.host.standin import Request, StandIn

_BACKTICKED = re.compile(r"`([^`\n]+)`")
_PLACEHOLDER = re.compile(r"<[^<>\n]+>")
_CAPS = re.compile(r"\b[A-Z]{3,}\b")
_PATH = re.compile(r"(?<![\w.`~>])(/[^\s`'\"()<>,;]+)")
_NOTES = re.compile(r"append to (notes\.md)")

FILL_QUERY = "staging port"
FILL_TEXT = "checked from the host: the invoice service listens on 8087"


@dataclass(frozen=True)
class NamedCommand:
    """One thing the instructions tell the agent to do: ``kind`` (command, path, append) and the shell line."""

    kind: str
    named: str
    line: str


@dataclass(frozen=True)
class CommandOutcome:
    command: NamedCommand
    exit_code: int
    output: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


@dataclass
class CommandReport:
    """Each named command's outcome in one route."""

    route: str
    outcomes: list[CommandOutcome] = field(default_factory=list)

    @property
    def failing(self) -> list[CommandOutcome]:
        return [o for o in self.outcomes if not o.ok]

    @property
    def passed(self) -> int:
        return sum(o.ok for o in self.outcomes)

    def table(self) -> str:
        rows = [f"{self.route}: {self.passed} of {len(self.outcomes)} named commands exit 0"]
        for o in self.outcomes:
            first = (o.output.strip().splitlines() or [""])[0][:100]
            rows.append(f"  [{'ok' if o.ok else f'exit {o.exit_code}'}] {o.command.kind}: {o.command.line}  -> {first}")
        return "\n".join(rows)


def _fill(command: str) -> str:
    filled = _PLACEHOLDER.sub(FILL_QUERY, command)
    return _CAPS.sub(lambda m: FILL_TEXT if m.group(0) == "TEXT" else m.group(0), filled)


def _is_mimomem(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    head = [w for w in words[:4] if "=" not in w or w.startswith("/")]
    return any(Path(w).name == "mimomem" for w in head[:1]) or ("mimomem" in words[:4] and "-m" in words[:4])


def agent_commands(text: str) -> list[NamedCommand]:
    """The commands and paths ``text`` (injected instructions) names, as Bash lines an agent would run."""
    out: list[NamedCommand] = []
    seen: set[str] = set()

    def add(kind: str, named: str, line: str) -> None:
        if line not in seen:
            seen.add(line)
            out.append(NamedCommand(kind, named, line))

    commands = [c for c in _BACKTICKED.findall(text) if _is_mimomem(c)]
    for command in commands:
        add("command", command, _fill(command))
    bare = _BACKTICKED.sub(" ", text)
    session_dir = None
    for path in _PATH.findall(bare):
        path = path.rstrip(".:_")
        if path.endswith("/"):
            session_dir = session_dir or path.rstrip("/")
            add("path", path, f"ls -d {shlex.quote(path.rstrip('/'))}")
        else:
            add("path", path, f"head -c 200 {shlex.quote(path)}")
    if session_dir and _NOTES.search(bare):
        notes = f"{session_dir}/notes.md"
        entry = "## [turn 1 · $(date -u +%Y-%m-%dT%H:%MZ)]\\n- checked from the host\\n"
        add("append", "append to notes.md", f'printf "{entry}" >> {shlex.quote(notes)}')
    return out


def _commands_in(body: Mapping[str, Any]) -> list[NamedCommand]:
    found: list[Injection] = injected_in(Request("/v1/messages", dict(body)))
    return agent_commands("\n".join(i.text for i in found))


def measure(root: Path, host: Host, route: str) -> CommandReport:
    """Install by ``route`` in a sandbox under ``root``, run a first session (a rule, a fact), then a
    second whose model runs every command its injected instructions name; the outcomes."""
    sandbox = Sandbox(root, host, route=route).prepare()
    named: list[NamedCommand] = []

    def react(body: Mapping[str, Any]) -> Sequence[Step]:
        named.extend(_commands_in(body))
        return [Step(tools=(bash(c.line, "as the memory instructions say"),)) for c in named]

    with StandIn() as model:
        first = Script([Turn("Rule: run `make check` before every commit. The staging DB port is 6543.")])
        run_session(sandbox, model, first)
        sandbox.settle()
        second = run_session(sandbox, model, Script([Turn("Check what memory knows about staging.", react=react)]))
    results = {r.command: r for r in second.tool_results()}
    report = CommandReport(route)
    for command in named:
        result = results.get(command.line)
        if result is None:
            report.outcomes.append(CommandOutcome(command, -1, "(the host never ran it)"))
        else:
            report.outcomes.append(CommandOutcome(command, result.exit_code, result.printed))
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mimomem.bench.host.commands [ROUTE...]``: the table for each route (default: both)."""
    import sys
    import tempfile

    from mimomem.bench.host.binary import find_host

    routes = list(argv if argv is not None else sys.argv[1:]) or ["settings", "plugin"]
    host = find_host()
    failed = 0
    for route in routes:
        with tempfile.TemporaryDirectory(prefix=f"mimomem-host-{route}-") as root:
            report = measure(Path(root), host, route)
        print(report.table())
        failed += len(report.failing)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
