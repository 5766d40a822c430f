"""What changed between a failure and the run that passed: the lines an edit changed, the words a
command gained or lost.

A fix is most often a difference: a line of a config file (``-Xmx512m`` -> ``-Xmx2g``), a line an edit
added to a teardown (``await redis.quit()``), a flag or an environment variable added to the same
command (``--batch-size 500``, ``MAIL_BACKEND=console``), a flag dropped (``-race``).  These functions
say that difference short, from the edit's two texts and the two commands' words, whatever the
language or the tool.  A difference of one word that is a near spelling of the other
(``test_paser.py`` -> ``test_parser.py``, ``tset`` -> ``test``) is a typo corrected, no lesson.
"""

from __future__ import annotations

import difflib
import re
import shlex

LINE = 100
"""Characters of one changed line shown at most."""
LONG = 60
"""A changed line longer than this is told by the words that changed, not whole."""
MAX_WORDS = 6
"""Words a command gained or lost, shown at most (more: the commands are not one command retried)."""


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def line_change(old: str, new: str) -> str:
    """The lines an edit of several lines changed: ```a` -> `b``` for one line replaced, ``added `x```,
    ``removed `y```, or both; ``""`` when nothing but blank space changed."""
    was = [" ".join(line.split()) for line in old.splitlines() if line.strip()]
    now = [" ".join(line.split()) for line in new.splitlines() if line.strip()]
    gone = [line for line in was if line not in now]
    added = [line for line in now if line not in was]
    if len(gone) == 1 and len(added) == 1:
        if max(len(gone[0]), len(added[0])) > LONG:
            return _within(gone[0], added[0])
        return f"`{gone[0]}` -> `{added[0]}`"
    parts = []
    if gone:
        parts.append("removed " + ", ".join(f"`{_clip(line, LINE)}`" for line in gone[:2]))
    if added:
        parts.append("added " + ", ".join(f"`{_clip(line, LINE)}`" for line in added[:2]))
    return "; ".join(parts)


def _within(old: str, new: str) -> str:
    """A long line changed, told by the words that changed and one before them (``tanuki_core)`` ->
    ``tanuki_core ${CMAKE_DL_LIBS})``): the change itself, not the first hundred characters."""
    a, b = old.split(), new.split()
    ops = [o for o in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if o[0] != "equal"]
    if not ops:
        return ""
    i1, j1 = max(ops[0][1] - 1, 0), max(ops[0][3] - 1, 0)
    i2, j2 = ops[-1][2], ops[-1][4]
    was, now = " ".join(a[i1:i2]), " ".join(b[j1:j2])
    return f"`{_clip(was, LINE)}` -> `{_clip(now, LINE)}`"


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:  # an unbalanced quote: the words as typed
        return command.split()


def word_change(failed: str, passed: str) -> tuple[list[str], list[str]]:
    """(words ``passed`` has that ``failed`` lacks, words ``failed`` has that ``passed`` lacks), in order."""
    a, b = _words(failed), _words(passed)
    return [w for w in b if w not in a], [w for w in a if w not in b]


def settings(command: str) -> set[str]:
    """The words of ``command`` that set something: options, their values, ``NAME=value``."""
    words = _words(command)
    return {w for n, w in enumerate(words) if w.startswith("-") or "=" in w or (n and words[n - 1].startswith("-"))}


def command_change(failed: str, passed: str) -> str:
    """The options and settings a command gained and lost when it passed (``added `--no-cache`; without
    `-race```); ``""`` when anything else changed (another subcommand, another program chained) or
    too much to be one command changed."""
    added, dropped = word_change(failed, passed)
    if not (added or dropped) or len(added) + len(dropped) > MAX_WORDS:
        return ""
    if not (set(added) <= settings(passed) and set(dropped) <= settings(failed)):
        return ""
    parts = []
    if added:
        parts.append(f"added `{_clip(' '.join(added), LINE)}`")
    if dropped:
        parts.append(f"without `{_clip(' '.join(dropped), LINE)}`")
    return "; ".join(parts)


def is_typo(failed: str, passed: str) -> bool:
    """Whether ``passed`` is ``failed`` with one word's spelling corrected: one letter added, dropped or
    changed, or two swapped (a digit changed is another value, not a typo)."""
    added, dropped = word_change(failed, passed)
    if len(added) != 1 or len(dropped) != 1:
        return False
    a, b = dropped[0], added[0]
    if min(len(a), len(b)) < 3:
        return False
    ops = [o for o in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if o[0] != "equal"]
    touched = "".join(a[i1:i2] + b[j1:j2] for _, i1, i2, j1, j2 in ops)
    if not touched.isalpha():
        return False  # a digit changed: another version, port or size - a real change
    changed = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in ops)
    return changed <= 1 or (changed <= 2 and sorted(a) == sorted(b))


_SETTING = re.compile(r"[A-Za-z_]\w*=\S*")
_PREFIXES = frozenset(["sudo", "time", "env", "nice", "nohup", "exec", "command", "npx", "pnpx", "bunx"])
_LAUNCHERS = frozenset(
    [
        "uv run",
        "poetry run",
        "pipenv run",
        "pdm run",
        "hatch run",
        "rye run",
        "pnpm exec",
        "yarn exec",
        "npm exec",
        "bundle exec",
        "python -m",
        "python3 -m",
    ]
)
"""Programs that run another named after them: the program that ran is the one after them."""
_SEGMENT = re.compile(r"&&|\|\||[;|]")


def _runs(command: str) -> list[tuple[str, list[str]]]:
    """(program, its first two arguments that are no option) of each command of a compound, launchers
    and settings before the program left out (``uv run pytest`` and ``python -m pytest`` run pytest)."""
    out = []
    for segment in _SEGMENT.split(command):
        words = _words(segment)
        while words and (_SETTING.fullmatch(words[0]) or words[0] in _PREFIXES):
            words = words[1:]
        if len(words) > 1 and f"{words[0]} {words[1]}" in _LAUNCHERS:
            words = words[2:]
        if words:
            program = words[0].rsplit("/", 1)[-1]
            out.append((program, [w for w in words[1:] if not w.startswith("-")][:2]))
    return out


def retries(failed: str, command: str) -> bool:
    """Whether ``command`` runs what ``failed`` ran again - the same program on the same first
    arguments, options and settings aside (``go test ./...`` retries ``go test -race ./...``,
    ``python -m pytest tests`` retries ``pytest tests``; ``pip install wheel`` does not retry ``pip
    install -r requirements.txt``, ``npm run lint`` does not retry ``npm run build``)."""
    for program, args in _runs(failed):
        for other, more in _runs(command):
            n = min(len(args), len(more))
            if program == other and args[:n] == more[:n]:
                return True
    return False
