"""What a stretch of one session did, from its transcript parts: the digest's and promotion's input.

:class:`Episode` collects, in order, what the user typed (with time and session), how much
was pasted, the tool calls the model made with their outcome, and each failure paired
with what actually fixed it: the edits and the other commands that succeeded between the
failure and the next success of the same program, or a different command that succeeded
(never "the same call, retried" when something else changed in between).  A tool use the
user rejected is not a failure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from mimomem.history.fix_diff import LONG, command_change, is_typo, line_change, retries
from mimomem.history.provenance import ASSISTANT, PASTED, TOOL_CALL, TOOL_RESULT, TYPED
from mimomem.history.shell import file_flow
from mimomem.history.shell_tasks import targets_run, unsafe_targets
from mimomem.history.signals import (
    command_family,
    command_of,
    files_of,
    first_line,
    is_own_command,
    is_own_path,
    is_trivial,
    is_unsafe_command,
    normalize_command,
)
from mimomem.history.transcript import Part

REJECTED = ("The user doesn't want to proceed with this tool use", "[Request interrupted by user")
"""Starts of a tool result that says the user refused the call (not a failure)."""

_CLIP = 160
OUTPUT_CHARS = 16000
"""Characters of a tool's result kept on its call (a config file's line 400 is still in it)."""


@dataclass(frozen=True)
class Said:
    """A stretch of text with its provenance kind, session and time."""

    text: str
    kind: str
    session_id: str
    time: int | None
    at: int = 0
    """How many tool calls came before it (so the calls that followed can be found)."""
    order: int = 0
    """Its place among the episode's typed, pasted and model texts."""


@dataclass
class Call:
    """One tool call: what ran, on what, and how it ended (ok, error, rejected, pending)."""

    tool: str
    summary: str
    command: str | None
    files: tuple[str, ...]
    change: str
    session_id: str
    time: int | None
    status: str = "pending"
    result: str = ""
    output: str = ""
    """The result's text (clipped to :data:`OUTPUT_CHARS`): what a tool revealed."""
    reads: tuple[str, ...] = ()
    """Files a read tool read."""
    runs_fetched: bool = False
    """It fetched a file a later call of the session ran, or ran (or made executable) such a file."""
    lines: str = ""
    """What an edit of several lines changed (:func:`~mimomem.history.fix_diff.line_change`); ``change``
    holds one-line edits only, so a value read and then written by a larger edit is not "used"."""

    @property
    def edit(self) -> str:
        """What an edit changed, one line or several: how a fix is told."""
        return self.lines or self.change

    @property
    def unsafe(self) -> bool:
        """Runs fetched code, in this call or across calls (:func:`~mimomem.history.shell.file_flow`),
        or touches credentials: never a workflow, a fix or a usual command."""
        return self.runs_fetched or (self.command is not None and is_unsafe_command(self.command))


@dataclass(frozen=True)
class Fix:
    """A failed call, its error's first line, and what fixed it (``""`` when nothing did yet)."""

    call: Call
    error: str
    fix: str
    fixed_by: tuple[Call, ...] = ()

    @property
    def flaky(self) -> bool:
        """The same command passed when run again with nothing changed between: a flaky retry, no fix."""
        return self.fix == RERUN

    @property
    def typo(self) -> bool:
        """The command passed once a misspelt word of it was corrected, nothing else changed: no lesson."""
        return self.fix == TYPO


@dataclass
class Episode:
    """Typed text, pasted text, calls and failures of a stretch of transcript, in order."""

    said: list[Said] = field(default_factory=list)
    model: list[Said] = field(default_factory=list)
    """What the model wrote to the user (its explanations), in order."""
    calls: list[Call] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    pasted: int = 0
    _by_id: dict[str, Call] = field(default_factory=dict, repr=False)
    _pending: list[_Open] = field(default_factory=list, repr=False)
    _own: set[str] = field(default_factory=set, repr=False)
    _fetched: dict[str, list[Call]] = field(default_factory=dict, repr=False)
    _on_path: set[str] = field(default_factory=set, repr=False)
    """Fetched files put in a bin directory or made executable: a bare call of one runs fetched code."""
    _tasks: set[str] = field(default_factory=set, repr=False)
    """Makefile targets and package.json scripts seen to run fetched code (:mod:`~mimomem.history.shell_tasks`)."""

    def typed(self) -> list[Said]:
        """What the user typed, in order."""
        return [s for s in self.said if s.kind == TYPED]

    def add(self, part: Part) -> None:
        """Take one transcript part (main thread only; the caller skips sidechains).

        mimomem's own calls (``note``, ``search``, an edit of its memory files) are left out
        whole: the memory's bookkeeping is never a workflow, a failure or a fix."""
        if part.kind in (TYPED, PASTED, ASSISTANT):
            if part.text.strip():
                said = Said(part.text.strip(), part.kind, part.session_id, part.time, len(self.calls), self._order())
                (self.model if part.kind == ASSISTANT else self.said).append(said)
                self.pasted += part.kind == PASTED
        elif part.kind == TOOL_CALL:
            call = _call(part)
            if is_own_call(call):
                if part.call_id:
                    self._own.add(part.call_id)
                return
            self.calls.append(call)
            data = part.input if isinstance(part.input, dict) else {}
            written = data.get("content", data.get("new_string"))
            if isinstance(written, str):
                for path in call.files:
                    self._tasks |= unsafe_targets(path, written)
            if call.command is not None:
                self._follow_fetched(call)
                call.runs_fetched |= any(t in self._tasks for t in targets_run(call.command))
            if part.call_id:
                self._by_id[part.call_id] = call
        elif part.kind == TOOL_RESULT:
            found = self._by_id.pop(part.call_id, None) if part.call_id else None
            if found is not None:
                self._result(found, part)

    def _follow_fetched(self, call: Call) -> None:
        """Mark ``call`` when it runs a file an earlier call downloaded, and the calls that downloaded it."""
        assert call.command is not None
        following = any(name in call.command for name in self._fetched)  # parse only what could run one
        flow = file_flow(call.command, following=following)
        ran = [n for n in flow.run if n in self._fetched] + [n for n in flow.called if n in self._on_path]
        for name in ran:
            call.runs_fetched = True
            self._on_path.add(name)  # made executable (chmod) or run: callable by name from now on
            for earlier in self._fetched[name]:
                earlier.runs_fetched = True
        for name in flow.written:
            self._fetched.setdefault(name, []).append(call)
        self._on_path.update(flow.on_path)

    def _order(self) -> int:
        return len(self.said) + len(self.model)

    def _result(self, call: Call, part: Part) -> None:
        for path in call.reads if not part.is_error else ():
            self._tasks |= unsafe_targets(path, part.text)
        call.result = failure_text(part.text) if part.is_error else first_line(part.text, 300)
        call.output = part.text[:OUTPUT_CHARS]
        if part.is_error and part.text.lstrip().startswith(REJECTED):
            call.status = "rejected"
            return
        call.status = "error" if part.is_error else "ok"
        if call.status == "error":
            for o in self._pending:
                if o.tried is not None and _retry(o.failed, call):
                    o.tried = None  # it failed again after what was tried: that was no fix
            if not any(_same(o.failed, call) and o.failed.result == call.result for o in self._pending):
                self._pending.append(_Open(call))
            return
        done = []
        for o in self._pending:
            if _retry(o.failed, call):
                done.append(o)
                continue
            if o.tried is None and _same(o.failed, call):
                o.tried, o.cut = call, len(o.between)  # the same program otherwise: its fix unless retried later
            o.between.append(call)
        for o in done:
            self._pending.remove(o)
            self.fixes.append(
                Fix(
                    o.failed, o.failed.result or "(no message)", fix_text(o.failed, call, o.between), (*o.between, call)
                )
            )

    def finish(self) -> list[Fix]:
        """Every failure with its fix, in the order they failed, those still unfixed last (fix ``""``):
        one that only another command of its program passed after is fixed by that command."""
        fixed, open_ones = list(self.fixes), []
        for o in self._pending:
            if o.tried is None:
                open_ones.append(Fix(o.failed, o.failed.result or "(no message)", ""))
                continue
            before = o.between[: o.cut]
            fix = fix_text(o.failed, o.tried, before)
            fixed.append(Fix(o.failed, o.failed.result or "(no message)", fix, (*before, o.tried)))
        order = {id(c): n for n, c in enumerate(self.calls)}
        fixed.sort(key=lambda f: order.get(id(f.call), 0))
        return [*fixed, *open_ones]


@dataclass
class _Open:
    """A failure not fixed yet: the calls that passed since, and the first of them that ran the same
    program otherwise (``npm install`` after ``npm ci``) - its fix unless the failed command is run again."""

    failed: Call
    between: list[Call] = field(default_factory=list)
    tried: Call | None = None
    cut: int = 0


def _retry(failed: Call, call: Call) -> bool:
    """Whether ``call`` runs ``failed`` again: the same command inside a compound too, the same program on
    the same first arguments (:func:`~mimomem.history.fix_diff.retries`), or the same tool and target."""
    if failed.command is None:
        return call.command is None and call.tool == failed.tool and (call.files == failed.files or not failed.files)
    if call.command is None:
        return False  # a compound led by a trivial command still retries (`mkdir -p logs && LOG_DIR=… cmd`)
    return normalize_command(failed.command) in normalize_command(call.command) or retries(failed.command, call.command)


def _same(failed: Call, call: Call) -> bool:
    """Whether ``call`` is another try of ``failed``: the same command (inside a compound too), the
    same program (a non-trivial shell call: ``npm install`` after ``npm ci``), or the same tool and target."""
    if failed.command is not None:
        if call.command is None or is_trivial(normalize_command(call.command)):
            return False
        was, now = normalize_command(failed.command), normalize_command(call.command)
        if was in now:  # retried, maybe inside a compound: `git mv a b && pnpm test`
            return True
        return _program(call.command) == _program(failed.command)
    return call.tool == failed.tool and (call.files == failed.files or not failed.files)


def _program(command: str) -> str:
    return command_family(normalize_command(command)).split(" ", 1)[0]


RERUN = "it succeeded when run again, with nothing changed in between"
"""What :func:`fix_text` says when nothing but running the same command again made it pass."""
TYPO = "a misspelt word of it was corrected"
"""What :func:`fix_text` says when the command passed once one word's spelling was corrected."""


def fix_text(failed: Call, success: Call, between: list[Call]) -> str:
    """What fixed ``failed``: the edits and other commands between it and ``success``, or ``success``."""
    steps = [c for c in between if c.status == "ok" and (c.files or _worth_naming(c.command))]
    shown = [_step(c) for c in steps[-3:]]
    if success.command is not None and failed.command is not None:
        if normalize_command(success.command) != normalize_command(failed.command):
            if not steps and is_typo(failed.command, success.command):
                return TYPO
            change = command_change(failed.command, success.command)
            shown.append(f"`{clip(success.summary, 120)}` instead" + (f" ({change})" if change else ""))
    elif success.summary != failed.summary:
        shown.append(f"`{clip(success.summary, 120)}`")
    if not shown:
        return RERUN
    return "; ".join(shown)


def _worth_naming(command: str | None) -> bool:
    return command is not None and not is_trivial(normalize_command(command))


def _step(call: Call) -> str:
    if call.files:
        what = f"edited {', '.join(call.files)}"
        return what + (f" ({call.edit})" if call.edit else "")
    return f"ran `{clip(call.summary, 120)}`"


def _call(part: Part) -> Call:
    tool = part.tool or "?"
    data: Any = part.input if isinstance(part.input, dict) else {}
    command = command_of(tool, data)
    files = tuple(files_of(tool, data))
    if command is not None:
        summary = " ".join(command.split())
    elif files:
        summary = f"{tool} {', '.join(files)}"
    else:
        summary = tool
    reads = tuple(files_of(tool, data, reads=True)) if not files else ()
    call = Call(tool, clip(summary, 400), command, files, _change(data), part.session_id, part.time, reads=reads)
    old, new = data.get("old_string"), data.get("new_string")
    several = isinstance(old, str) and isinstance(new, str) and ("\n" in old.strip() or "\n" in new.strip())
    if isinstance(old, str) and isinstance(new, str) and (several or len(new) > LONG):
        call.lines = line_change(old, new)  # several lines, or one too long to show whole: what changed
    return call


def _change(data: dict[str, Any]) -> str:
    """What an edit changed, short: ``old`` -> ``new`` of one line, or the lines it added."""
    old, new = data.get("old_string"), data.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        return ""
    old, new = old.strip(), new.strip()
    if old and new.startswith(old) and new != old:
        return f"added `{clip(new[len(old) :], 100)}`"
    if "\n" in old or "\n" in new or not 0 < len(old) <= 120 or not 0 < len(new) <= 160:
        return ""
    return f"`{clip(old, 100)}` -> `{clip(new, 100)}`"


def clip(text: str, limit: int = _CLIP) -> str:
    """``text`` on one line, cut at ``limit`` characters with ``…``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def is_own_call(call: Call) -> bool:
    """Whether ``call`` is mimomem's own: a ``mimomem`` command, or an edit of its memory files."""
    if call.command is not None:
        return is_own_command(call.command)
    return bool(call.files) and all(is_own_path(f) for f in call.files)


_EXIT_LINE = re.compile(r"^Exit code (-?\d+)$")
_ERROR_LINE = re.compile(
    r"\b(?:error|err!|fatal|fail|failed|failure|exception|traceback|denied|refused|cannot|can't|couldn't|unable|invalid|"
    r"not found|no such|no module|missing|unknown|unrecognized|undefined|timed out|panic)\b|错误|失败|异常",
    re.I,
)
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b")


def failure_text(text: str, limit: int = 300) -> str:
    """What a failed call's output says went wrong, on one line: the error line(s), not the host's
    status line.  Claude Code's Bash result starts ``Exit code N`` and then the command's output;
    that line is dropped (kept as ``(exit N)`` after the error), and of the output the line that
    names the error is taken: a traceback's last exception line, else the first line that reads as
    an error (error, failed, not found, denied ...), else the last line printed."""
    lines = [" ".join(raw.split()) for raw in text.splitlines()]
    lines = [line for line in lines if line]
    code = None
    if lines and (found := _EXIT_LINE.match(lines[0])):
        code, lines = found.group(1), lines[1:]
    if not lines:
        return f"exit code {code}, no output" if code is not None else ""
    exceptions = [line for line in lines if _EXCEPTION.match(line)]
    if any(line.startswith("Traceback (most recent call last)") for line in lines) and exceptions:
        picked = exceptions[-1]
    else:
        errors = [line for line in lines if _ERROR_LINE.search(line)]
        picked = errors[0] if errors else lines[-1]
    picked = clip(picked, limit - 12)
    return f"{picked} (exit {code})" if code is not None else picked
