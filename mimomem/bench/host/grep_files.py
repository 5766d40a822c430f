"""The files a recorded ``grep`` searched, rebuilt from what it printed, for the real host.

The host's shell snapshot replaces ``grep`` with its own bundled ugrep, so a scenario's ``grep`` is
never the stub that prints the recorded output: it searches the generated repository, where the file
does not exist ("No such file or directory"), and what the session showed the agent is lost.  So
before such a call the files it would have searched are written from its recorded output:

- ``path:N:line`` (``-rn``, or ``-n`` over several files): ``line`` at line ``N`` of ``path``;
- ``N:line`` (``-n`` over one file) and a bare ``line`` (one file): lines of the file the command names;
- ``path:line`` (``-r`` without ``-n``): a line of ``path``;
- ``-l`` / ``-rl`` (paths only): each file holds the pattern on a line of its own.

Lines already in a file stay; other line numbers are left empty (an empty line matches no pattern).
Only relative paths inside the project are written.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

_WITH_VALUE = frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file", "--max-count"})
_FILE_LINE = re.compile(r"^([^\s:]+):(\d+)[:-](.*)$")
_LINE = re.compile(r"^(\d+)[:-](.*)$")
_FILE_TEXT = re.compile(r"^([^\s:]+\.[\w]+|[^\s:]*/[^\s:]+):(.*)$")


def grep_call(command: str) -> tuple[set[str], str, list[str]] | None:
    """(short options, pattern, file arguments) of the ``grep`` a command runs, None when it runs none."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if "grep" not in words:
        return None
    args = words[words.index("grep") + 1 :]
    for stop in ("|", "&&", "||", ";"):
        args = args[: args.index(stop)] if stop in args else args
    flags: set[str] = set()
    pattern: str | None = None
    files: list[str] = []
    it = iter(args)
    for word in it:
        if word in _WITH_VALUE:
            value = next(it, "")
            pattern = value if word in ("-e", "--regexp") else pattern
        elif word.startswith("--"):
            continue
        elif word.startswith("-") and len(word) > 1:
            flags.update(word[1:])
        elif pattern is None:
            pattern = word
        else:
            files.append(word)
    return flags, pattern or "", files


def searched_files(command: str, output: str) -> dict[str, dict[int, str]]:
    """Relative path -> {line number: text} of the files ``command``'s grep must find to print ``output``."""
    call = grep_call(command)
    if call is None:
        return {}
    flags, pattern, files = call
    one = files[0] if len(files) == 1 and "r" not in flags and "R" not in flags else None
    out: dict[str, dict[int, str]] = {}
    for n, line in enumerate(output.splitlines(), 1):
        if not line.strip():
            continue
        if "l" in flags:
            out.setdefault(line.strip(), {})[1] = pattern
            continue
        found = _FILE_LINE.match(line) if one is None else None
        if found:
            out.setdefault(found.group(1), {})[int(found.group(2))] = found.group(3)
            continue
        found = _LINE.match(line) if "n" in flags else None
        if found and one is not None:
            out.setdefault(one, {})[int(found.group(1))] = found.group(2)
            continue
        found = _FILE_TEXT.match(line) if one is None else None
        if found:
            lines = out.setdefault(found.group(1), {})
            lines[len(lines) + 1] = found.group(2)
        elif one is not None:
            out.setdefault(one, {})[n] = line
    return {path: lines for path, lines in out.items() if _inside(path)}


def _inside(path: str) -> bool:
    return not path.startswith(("/", "~")) and ".." not in Path(path).parts


def put_searched_files(project_dir: Path, command: str, output: str) -> Callable[[], None]:
    """Before the call: write the files :func:`searched_files` names into ``project_dir``."""

    def before() -> None:
        for rel, lines in searched_files(command, output).items():
            path = project_dir / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            have = path.read_text(encoding="utf-8").split("\n") if path.is_file() else []
            size = max([len(have), *lines])
            text = [lines.get(i + 1, have[i] if i < len(have) else "") for i in range(size)]
            path.write_text("\n".join(text) + "\n", encoding="utf-8")

    return before
