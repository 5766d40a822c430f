"""The e2e dev set's sessions as scenarios for the real host: typed turns and scripted tool calls.

The readable source of the dev set (``sessions/<project>.yaml``: ``user``, ``say``, ``bash`` with
``out`` / ``error`` / ``bg``, ``bash_output``, ``read``, ``edit``, ``write``, ``reject``,
``snapshot``, ``compact``, ``ends: false``) becomes, per session, a ``Script`` the stand-in
plays and a small generated repository the host's tools act on:

- ``user``: a typed turn; ``say``: the model's text (on the next step, or the turn's last text);
- ``bash``: a ``Bash`` call of the same command.  The commands' programs (``pnpm``, ``uv``,
  ``git``...) are shell functions in the sandbox's ``~/.bashrc`` (the host snapshots the user's
  shell into the agent's Bash, and only there: hooks run the real programs) that print the
  recorded output and exit 1 where the event is an error; a ``./script`` is a file in the
  repository doing the same (left not executable when the session ``chmod +x``-es it);
  ``bg`` with its ``bash_output`` runs in the foreground printing what the output showed;
- ``read``: the file is given the recorded content, then read; ``edit``: the file is made to
  hold ``old``, read (the host edits only what was read), then edited; ``write``: written anew;
- ``reject``: the call is made and the host denies it (``--disallowedTools`` for that command);
- ``compact``: ``/compact``, the stand-in answering the host's summary request with the text;
- ``ends: false``: the session is killed after its last turn (no ``SessionEnd``).

Not reproduced: days and times (sessions run in order, today), ``truncate`` (the host writes its
own transcript), ``snapshot`` (the host takes its own).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mimomem.bench.host.grep_files import put_searched_files
from mimomem.bench.host.script import Script, Step, ToolCall, Turn, bash, edit, read, write
from mimomem.errors import DatasetError

STUB_DIR = ".mimomem-stub"
REAL = frozenset({"chmod", "mkdir", "touch", "ln"})
"""Programs that really run: they change what a later command of the session finds (``chmod +x``)."""
BUILTINS = frozenset(
    [
        "cd",
        "export",
        "source",
        ".",
        "echo",
        "set",
        "unset",
        "true",
        "false",
        "test",
        "[",
        "exit",
        "printf",
        "read",
        "eval",
        "exec",
        "time",
        "local",
        "return",
        "shift",
        "pushd",
        "popd",
        "alias",
        "type",
        "command",
        "builtin",
        "declare",
        "let",
        "wait",
        "trap",
        "umask",
        "ulimit",
    ]
)
_SEPARATORS = frozenset({"&&", "||", ";", "|", "(", ")", "&", "|&", ";;", "\n"})
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


@dataclass
class ScenarioSession:
    """One session of the dev set, ready for the host."""

    project: str
    name: str
    script: Script
    ends: bool = True
    disallowed: list[str] = field(default_factory=list)
    expected: list[tuple[str, str, bool]] = field(default_factory=list)
    """Each scripted ``bash`` call: (command, recorded output, recorded as an error)."""

    def extra_args(self) -> list[str]:
        return [arg for c in self.disallowed for arg in ("--disallowedTools", f"Bash({c})")]


def program_words(command: str) -> list[str]:
    """The programs a shell line runs (words in command position, assignments and builtins skipped)."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return []
    out, head = [], True
    for word in words:
        if word in _SEPARATORS or set(word) <= set("&|;()"):
            head = True
            continue
        if head and _ASSIGN.match(word):
            continue
        if head and word not in BUILTINS and word not in REAL:
            out.append(word)
        head = word in ("sudo", "env", "xargs", "time", "command")
    return out


AGENT_SHELL = '"source "*/shell-snapshots/*'
"""How the host (2.1.x) starts the agent's ``Bash`` commands: ``bash -c "source <shell snapshot> ... <command>"``.
Its own shells (the one making that snapshot runs ``sed`` and more after sourcing ``~/.bashrc``) look
different, and must get the real programs: a recorded output they printed would be gone before the
agent's call (every session's first scripted command showed nothing, found by an independent run)."""
SCRIPT = "--script"
"""The stub's first argument from a generated ``./script``: only the agent runs those."""
HOST_OWN = frozenset({"grep"})
"""Programs the host's shell snapshot replaces with its own (``grep`` is its bundled ugrep): the stub
never runs for them, so the files a recorded ``grep`` searched are written from its output before
the call (:mod:`~mimomem.bench.host.grep_files`); what that cannot rebuild counts among the outputs
that differ."""


def stub_script(home: Path) -> str:
    """``~/.mimomem-stub/stub NAME ARGS``: in the agent's shell, prints the current event's output once and
    passes a pipe through after; in any other shell, runs the real ``NAME``."""
    state = home / STUB_DIR
    return (
        "#!/bin/sh\n"
        f'd="{state}"\n'
        'name="$1"; shift\n'
        f'if [ "$name" != "{SCRIPT}" ] && [ -r "/proc/$PPID/cmdline" ]; then\n'
        '  shell=$(/usr/bin/tr "\\000" "\\n" < "/proc/$PPID/cmdline" | /usr/bin/sed -n 3p)\n'
        '  case "$shell" in\n'
        f"    {AGENT_SHELL}) ;;\n"
        '    *) exec /usr/bin/env "$name" "$@" ;;\n'
        "  esac\n"
        "fi\n"
        'code=$(/bin/cat "$d/code" 2>/dev/null || echo 0)\n'
        'if [ -f "$d/printed" ]; then\n'
        "  if [ -p /dev/stdin ]; then /bin/cat; fi\n"
        '  exit "$code"\n'
        "fi\n"
        ': > "$d/printed"\n'
        '/bin/cat "$d/out" 2>/dev/null\n'
        'exit "$code"\n'
    )


def install_stubs(home: Path, programs: set[str]) -> None:
    """The stub and a ``~/.bashrc`` that routes each of ``programs`` to it (in the agent's Bash only)."""
    state = home / STUB_DIR
    state.mkdir(parents=True, exist_ok=True)
    stub = state / "stub"
    stub.write_text(stub_script(home), encoding="utf-8")
    stub.chmod(0o755)
    names = sorted(p for p in programs if re.fullmatch(r"[A-Za-z0-9_.:+-]+", p) and "/" not in p)
    lines = [f'{name}() {{ "{stub}" {name} "$@"; }}' for name in names]
    (home / ".bashrc").write_text("# mimomem host scenarios: recorded programs\n" + "\n".join(lines) + "\n")


def _set_output(home: Path, out: str, error: bool) -> Callable[[], None]:
    def before() -> None:
        state = home / STUB_DIR
        state.mkdir(parents=True, exist_ok=True)
        (state / "out").write_text(out + ("\n" if out and not out.endswith("\n") else ""), encoding="utf-8")
        (state / "code").write_text("1" if error else "0", encoding="utf-8")
        (state / "printed").unlink(missing_ok=True)

    return before


def _both(first: Callable[[], None], second: Callable[[], None]) -> Callable[[], None]:
    def before() -> None:
        first()
        second()

    return before


def _put_file(path: Path, text: str) -> Callable[[], None]:
    def before() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    return before


def _holding(path: Path, old: str) -> Callable[[], None]:
    def before() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        current = path.read_text(encoding="utf-8") if path.is_file() else ""
        if old not in current:
            path.write_text(current + ("\n" if current and not current.endswith("\n") else "") + old + "\n")

    return before


def _absent(path: Path) -> Callable[[], None]:
    def before() -> None:
        path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)

    return before


class _Builder:
    """Turns one session's events into turns."""

    def __init__(self, project_dir: Path, home: Path) -> None:
        self.project_dir = project_dir
        self.home = home
        self.turns: list[Turn] = []
        self.prompt: str | None = None
        self.steps: list[Step] = []
        self.said = ""
        self.disallowed: list[str] = []
        self.expected: list[tuple[str, str, bool]] = []
        self.compact = ""

    def close_turn(self) -> None:
        if self.prompt is not None:
            final, self.said = self.said or "Done.", ""
            self.turns.append(Turn(self.prompt, tuple(self.steps), final))
        self.prompt, self.steps = None, []

    def tool(self, call: ToolCall, before: Callable[[], None] | None = None) -> None:
        if self.prompt is None:
            self.prompt = "Continue."
        self.steps.append(Step(self.said, (call,), before))
        self.said = ""

    def event(self, ev: dict[str, Any], following: dict[str, Any] | None) -> None:
        path = self.project_dir / str(ev.get("read") or ev.get("edit") or ev.get("write") or "")
        if "user" in ev:
            self.close_turn()
            self.prompt = str(ev["user"])
        elif "say" in ev:
            self.said = (self.said + "\n\n" + str(ev["say"])).strip()
        elif "bash" in ev:
            out, error = str(ev.get("out") or ""), bool(ev.get("error"))
            if ev.get("bg"):
                later = following if following and "bash_output" in following else {}
                out, error = str(later.get("out") or ""), bool(later.get("error"))
            stub = _set_output(self.home, out, error)
            if HOST_OWN & set(program_words(str(ev["bash"]))) and not error:  # the host's own grep searches files
                stub = _both(stub, put_searched_files(self.project_dir, str(ev["bash"]), out))
            self.tool(bash(str(ev["bash"])), stub)
            self.expected.append((str(ev["bash"]), out, error))
        elif "read" in ev:
            self.tool(read(str(path)), _put_file(path, str(ev.get("out") or "")))
        elif "edit" in ev:
            self.tool(read(str(path)), _holding(path, str(ev["old"])))
            self.tool(edit(str(path), str(ev["old"]), str(ev["new"])))
        elif "write" in ev:
            self.tool(write(str(path), str(ev.get("content") or "")), _absent(path))
        elif "reject" in ev:
            command = str(ev["reject"].get("bash", ""))
            self.disallowed.append(command)
            self.tool(bash(command))
        elif "compact" in ev:
            self.close_turn()
            self.compact = str(ev["compact"])
            self.turns.append(Turn("/compact"))


def load_scenarios(devset: Path, sandbox_root: Path, home: Path) -> list[ScenarioSession]:
    """Every session of every ``sessions/*.yaml`` in ``devset``, in start order (day, time)."""
    import yaml

    found: list[tuple[tuple[int, str], ScenarioSession]] = []
    sources = sorted((devset / "sessions").glob("*.yaml"))
    if not sources:
        raise DatasetError(f"{devset} has no sessions/*.yaml: the real-host run plays the dev set's sessions from them")
    for source in sources:
        try:
            spec = yaml.safe_load(source.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise DatasetError(f"cannot read {source}: {exc}") from None
        project = str(spec["project"])
        for session in spec.get("sessions") or []:
            builder = _Builder(sandbox_root / project, home)
            events = list(session.get("events") or [])
            for i, ev in enumerate(events):
                if "bash_output" in ev or "snapshot" in ev:
                    continue
                builder.event(ev, events[i + 1] if i + 1 < len(events) else None)
            builder.close_turn()
            script = Script(builder.turns, compact_summary=builder.compact)
            scenario = ScenarioSession(project, str(session["name"]), script, session.get("ends", True) is not False)
            scenario.disallowed, scenario.expected = builder.disallowed, builder.expected
            found.append(((int(session.get("day", 0)), str(session.get("at", ""))), scenario))
    return [s for _, s in sorted(found, key=lambda pair: pair[0])]


def programs_of(devset: Path) -> set[str]:
    """Every program any ``bash`` or ``reject`` event of the dev set runs."""
    import yaml

    programs: set[str] = set()
    for source in sorted((devset / "sessions").glob("*.yaml")):
        spec = yaml.safe_load(source.read_text(encoding="utf-8"))
        for session in spec.get("sessions") or []:
            for ev in session.get("events") or []:
                command = ev.get("bash") or (ev.get("reject") or {}).get("bash") if isinstance(ev, dict) else None
                if command:
                    programs.update(program_words(str(command)))
    return programs


def repository_files(devset: Path, project: str) -> dict[str, str]:
    """The generated repository's starting files: each ``./script`` the sessions run, calling the stub."""
    import yaml

    files: dict[str, str] = {"README.md": f"# {project}\n"}
    for source in sorted((devset / "sessions").glob("*.yaml")):
        spec = yaml.safe_load(source.read_text(encoding="utf-8"))
        if str(spec.get("project")) != project:
            continue
        for session in spec.get("sessions") or []:
            for ev in session.get("events") or []:
                for word in program_words(str(ev.get("bash") or "")) if isinstance(ev, dict) else []:
                    if word.startswith("./"):
                        files[word[2:]] = f'#!/bin/sh\nexec "$HOME/{STUB_DIR}/stub" {SCRIPT} "$@"\n'
    return files


def made_executable(devset: Path, project: str) -> set[str]:
    """Scripts a session ``chmod +x``-es: left not executable in the generated repository."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in (devset / "sessions").glob("*.yaml"))
    return {m.group(1).removeprefix("./") for m in re.finditer(r"chmod \+x (\S+)", text)} if project else set()
