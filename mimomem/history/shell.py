"""Whether a shell command runs code it fetched, found by parsing the command, not by its spelling.

The command is parsed with bashlex (a bash parser); a command that fetches (curl, wget, …) is
*unsafe* when what it fetched reaches an interpreter, however that is spelled:

- through a pipe, past ``tee`` / ``sudo`` / ``env`` / ``xargs`` and an absolute interpreter path
  (``curl … | sudo -E /usr/bin/env bash -s --``); an interpreter that is given code of its own
  (``python3 -c '…'``, ``python -m json.tool``, ``jq``) only reads the fetched text as data;
- through a substitution used as code: ``bash -c "$(curl …)"``, ``eval "$(wget -qO- …)"``,
  ``python3 <(curl …)``, ``source <(curl …)``, or ``$(curl …)`` as the command itself;
- through a file: a fetch that writes a file (``-o f``, ``-O``, ``> f``, ``tee f``) followed in the
  same command line by a command that runs a file (an interpreter with a script argument,
  ``./f``, ``/tmp/f``, ``source f``).

When the command cannot be parsed (bashlex is missing, or the text is not valid bash), a fallback
errs on the safe side: a fetcher word followed anywhere by an interpreter word, ``eval``,
``source``, ``$(`` or ``<(`` is unsafe.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from typing import Any

FETCHERS = frozenset(
    [
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "http",
        "https",
        "httpie",
        "xh",
        "iwr",
        "irm",
        "invoke-webrequest",
        "invoke-restmethod",
        "lwp-request",
        "GET",
    ]
)
INTERPRETERS = frozenset(
    [
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "ash",
        "csh",
        "tcsh",
        "python",
        "python2",
        "python3",
        "perl",
        "ruby",
        "node",
        "nodejs",
        "php",
        "pwsh",
        "powershell",
        "deno",
        "bun",
        "lua",
        "tclsh",
        "osascript",
        "iex",
        "invoke-expression",
        "source",
        ".",
        "eval",
        "exec",
    ]
)
WRAPPERS = frozenset(
    [
        "sudo",
        "doas",
        "env",
        "nohup",
        "time",
        "command",
        "exec",
        "nice",
        "ionice",
        "stdbuf",
        "xargs",
        "timeout",
        "chroot",
        "su",
    ]
)
"""Programs that run the program named after them (and their options)."""
_CODE_FLAGS = frozenset({"-c", "-m", "-e", "--eval", "-E", "-r", "--command", "-Command", "-command"})
_STDIN_FLAGS = frozenset({"-", "-s", "--", "/dev/stdin"})
_VERSIONED = re.compile(r"^(python|pip|perl|ruby|node|php|lua)[0-9.]*$")
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program(word: str) -> str:
    """The program a command word names: basename, version suffix folded (``/usr/bin/python3.12`` -> python)."""
    base = os.path.basename(word.strip("\"'")) or word
    found = _VERSIONED.match(base)
    return found.group(1) if found else base.casefold()


def _is_interpreter(name: str) -> bool:
    return name in INTERPRETERS


def _words(node: Any) -> list[Any]:
    return [p for p in getattr(node, "parts", []) if getattr(p, "kind", "") == "word"]


def _unwrap(words: list[str]) -> list[str]:
    """The words of the command a wrapper runs (``sudo -E env X=1 bash -s`` -> ``bash -s``)."""
    rest = list(words)
    while rest:
        head = program(rest[0])
        if _ASSIGN.match(rest[0]):
            rest = rest[1:]
        elif head in WRAPPERS:
            rest = rest[1:]
            while rest and (rest[0].startswith("-") or _ASSIGN.match(rest[0])):
                rest = rest[1:]
            if head == "timeout" and rest and rest[0][:1].isdigit():
                rest = rest[1:]
        else:
            break
    return rest


class _Command:
    """One simple command of the parse: its words and what it reads from and writes to."""

    def __init__(self, node: Any, text: str) -> None:
        self.words = [w.word for w in _words(node)]
        self.run = _unwrap(self.words)
        self.via_xargs = "xargs" in [program(w) for w in self.words[: len(self.words) - len(self.run)]]
        self.name = program(self.run[0]) if self.run else ""
        self.substitutions: list[str] = []
        self.redirect_out: list[str] = []
        for part in getattr(node, "parts", []):
            if getattr(part, "kind", "") == "redirect" and getattr(part, "type", "") in (">", ">>", ">|"):
                target = getattr(part, "output", None)
                if target is not None and getattr(target, "kind", "") == "word":
                    self.redirect_out.append(target.word)
        for w in _words(node):
            for sub in _descendants(w):
                if getattr(sub, "kind", "") in ("commandsubstitution", "processsubstitution"):
                    self.substitutions.append(text[sub.pos[0] : sub.pos[1]])

    def fetches(self) -> bool:
        return self.name in FETCHERS

    def runs_stdin(self) -> bool:
        """An interpreter that reads its code from stdin (no code argument of its own)."""
        if not _is_interpreter(self.name) or self.name in ("eval", "exec"):
            return self.via_xargs and self.name == "eval"
        args = self.run[1:]
        if self.via_xargs:
            return True  # xargs hands the fetched text over as arguments: `… | xargs bash -c`
        if any(a in _CODE_FLAGS for a in args):
            return False
        scripts = [a for a in args if not a.startswith("-") and a not in _STDIN_FLAGS]
        return not scripts or any(a in _STDIN_FLAGS for a in args)

    def written_files(self) -> list[str]:
        """Files a fetch writes: curl ``-o f`` / ``-O`` (the URL's name), wget ``-O f`` or by default
        the URL's name, a ``> f`` redirect."""
        out = list(self.redirect_out)
        args = self.run[1:]
        urls = [a.rstrip("/").rsplit("/", 1)[-1] for a in args if "://" in a]
        named = False
        for i, arg in enumerate(args):
            nxt = args[i + 1] if i + 1 < len(args) else ""
            short = arg[1:] if arg.startswith("-") and not arg.startswith("--") else ""
            if "=" in arg and arg.startswith(("--output=", "--output-document=")):
                out.append(arg.split("=", 1)[1])
                named = True
            elif arg in ("--output", "--output-document") or (
                short and short[-1] == ("O" if self.name == "wget" else "o")
            ):
                out.append(nxt)
                named = True
            elif self.name == "curl" and (arg == "--remote-name" or (short and "O" in short)):
                out += urls
                named = True
        if self.name == "wget" and not named and not self.redirect_out:
            out += urls
        return [f for f in out if f and f != "-" and not f.startswith("/dev/")]

    def runs_file(self) -> list[str]:
        """Files this command runs: an interpreter's script, a path run as a program, ``source f``."""
        if not self.run:
            return []
        if _is_interpreter(self.name):
            if any(a in _CODE_FLAGS for a in self.run[1:]):
                return []
            return [a for a in self.run[1:] if not a.startswith("-")][:1]
        if "/" in self.run[0]:
            return [self.run[0]]
        return []


def _descendants(node: Any) -> list[Any]:
    out = []
    stack = [node]
    while stack:
        current = stack.pop()
        out.append(current)
        for attr in ("parts", "list"):
            stack += list(getattr(current, attr, None) or [])
        for attr in ("command", "output"):
            child = getattr(current, attr, None)
            if child is not None and hasattr(child, "kind"):
                stack.append(child)
    return out


def _simple_commands(tree: Any, text: str) -> list[tuple[Any, _Command]]:
    """(enclosing pipeline or None, command) in order, substitutions' commands included."""
    found: list[tuple[Any, _Command]] = []

    def walk(node: Any, pipeline: Any) -> None:
        kind = getattr(node, "kind", "")
        if kind == "pipeline":
            for part in node.parts:
                walk(part, node)
            return
        if kind == "command":
            found.append((pipeline, _Command(node, text)))
            return
        for attr in ("parts", "list"):
            for child in getattr(node, attr, None) or []:
                walk(child, None)

    walk(tree, None)
    return found


def _fetches_text(text: str) -> bool:
    return any(program(w) in FETCHERS for w in re.findall(r"[\w./-]+", text))


def _parsed_unsafe(command: str) -> bool:
    import bashlex

    trees = bashlex.parse(command)
    fetched_files: list[str] = []
    for tree in trees:
        commands = _simple_commands(tree, command)
        seen_fetch_in: dict[int, bool] = {}
        for pipeline, cmd in commands:
            key = id(pipeline) if pipeline is not None else -1
            if pipeline is not None and seen_fetch_in.get(key) and cmd.runs_stdin():
                return True
            if cmd.fetches():
                if pipeline is not None:
                    seen_fetch_in[key] = True
                fetched_files += cmd.written_files()
            elif pipeline is not None and seen_fetch_in.get(key) and cmd.name == "tee":
                fetched_files += [a for a in cmd.run[1:] if not a.startswith("-")]
            if any(_fetches_text(sub) for sub in cmd.substitutions):
                code_use = _is_interpreter(cmd.name) or not cmd.run or cmd.run[0].startswith(("$(", "`", "<("))
                if code_use:
                    return True
            if cmd.fetches():
                continue
            names = {os.path.basename(f) for f in fetched_files}
            if any(os.path.basename(f.strip("\"'")) in names for f in cmd.runs_file()):
                return True
            if fetched_files and cmd.name in ("chmod",) and any(os.path.basename(a) in names for a in cmd.run):
                continue
    return False


_FALLBACK = re.compile(
    r"\b(?:curl|wget|fetch|aria2c|iwr|irm|invoke-webrequest|invoke-restmethod)\b.*"
    r"(?:\b(?:ba|z|da|k|fi)?sh\b|\bpython[0-9.]*\b|\bperl\b|\bruby\b|\bnode\b|\bphp\b|\bpwsh\b|\bpowershell\b|\biex\b"
    r"|\beval\b|\bsource\b|\$\(|<\(|`)"
    r"|(?:\$\(|<\(|`)\s*(?:curl|wget)\b",
    re.I | re.S,
)


@functools.lru_cache(maxsize=4096)
def runs_fetched_code(command: str) -> bool:
    """True when ``command`` feeds fetched content to an interpreter (see the module docstring)."""
    if not _fetches_text(command):
        return False
    try:
        return _parsed_unsafe(command) or _fetched_then_run_anyway(command)
    except Exception:
        return bool(_FALLBACK.search(command)) or _fetched_then_run_anyway(command)


def file_flow(command: str, *, following: bool = True) -> tuple[list[str], list[str]]:
    """(basenames of files a fetch in ``command`` writes, basenames of files it runs or makes
    executable): to find a download run in another tool call (``curl -o x.sh …``, then ``bash x.sh``
    or ``./x.sh``), as unsafe as the two joined by ``;``.  ``([], [])`` when it cannot be parsed, or
    when ``following`` is false (no earlier fetch to follow) and it fetches nothing."""
    if not following and not _fetches_text(command):
        return [], []
    written: list[str] = []
    run: list[str] = []
    try:
        import bashlex

        trees = bashlex.parse(command)
        for tree in trees:
            for _pipeline, cmd in _simple_commands(tree, command):
                if cmd.fetches():
                    written += [os.path.basename(f.strip("\"'")) for f in cmd.written_files()]
                    continue
                run += [os.path.basename(f.strip("\"'")) for f in cmd.runs_file()]
                if cmd.name == "chmod":
                    run += [os.path.basename(a) for a in cmd.run[1:] if not a.startswith(("-", "+"))]
    except Exception:
        return [], []
    return [w for w in written if w], [r for r in run if r]


def _fetched_then_run_anyway(command: str) -> bool:
    """A fetch and ``iex`` / ``Invoke-Expression`` / ``DownloadString`` (PowerShell, which bash cannot parse)."""
    return bool(re.search(r"\b(?:iex|invoke-expression)\b|downloadstring\s*\(", command, re.I))


_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_SCRIPT_CHANGE = re.compile(r"(?<=[^\x00-\x7f])(?=[!-~])|(?<=[!-~])(?=[^\x00-\x7f])")
"""Where prose in another script meets a command (``就这样：curl …``): a word boundary, as a space is."""
_STARTS = FETCHERS | INTERPRETERS | WRAPPERS


def _command_start(word: str) -> bool:
    """A word a command line can start with: a fetcher, an interpreter, a wrapper, a path run as a
    program (``./b.sh``, ``/usr/bin/env``) or a substitution (``$(``, ``<(``)."""
    return (
        program(word) in _STARTS
        or word.startswith(("./", "$(", "<(", "`"))
        or (word.startswith("/") and "://" not in word)
    )


def text_runs_fetched_code(text: str) -> bool:
    """True when prose or a note holds a command line that runs fetched code (:func:`runs_fetched_code`).

    Tried: each code span, the code spans read as one command line (`` `curl -o f …` then `bash f` ``),
    and each line of the text from every word a command can start with (prose before a command is no
    command, and prose in another script ends where the command begins and begins where it ends, with or
    without a space), whole and as the run of commands those words begin (``curl -o f … then env bash f``).
    """
    if not _fetches_text(text):
        return False
    spans = [m.group(2).strip() for m in _SPAN.finditer(text)]
    tries = spans + (["; ".join(spans)] if len(spans) > 1 else [])
    for line in _SPAN.sub(lambda m: m.group(2), text).splitlines():
        words = _SCRIPT_CHANGE.sub(" ", line).split()
        starts = [i for i, w in enumerate(words) if _command_start(w)]
        tries += [" ".join(words[i:]) for i in starts]
        prose = [i for i, w in enumerate(words) if not any(c.isascii() for c in w)]
        tries += [" ".join(words[i : min([p for p in prose if p > i], default=len(words))]) for i in starts]
        bounds = [*starts, len(words)]
        tries += ["; ".join(" ".join(words[a:b]) for a, b in itertools.pairwise(bounds))] if len(starts) > 1 else []
    return any(runs_fetched_code(t) for t in tries if _fetches_text(t))
