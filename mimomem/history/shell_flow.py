"""Where fetched content goes in a parsed command line: a taint walk over bashlex's tree.

A fetcher (``curl``, ``wget``, …) is a *source*: its standard output, the files it writes, a variable
assigned from it and a substitution around it carry fetched content, and so does whatever a command
makes of tainted input (its output, a ``tee`` / ``cp`` / ``mv`` copy, the files an archive unpacks).
A command line is *unsafe* when tainted content reaches a position that runs code, whatever the
spelling that gets it there:

- an interpreter reading its program from standard input (no script argument, ``-``, ``-s``,
  ``/dev/stdin``) whose input is tainted, through a pipe, ``< file``, ``< <(…)`` or ``<<< "$(…)"``;
- an interpreter, ``source`` / ``.`` or ``eval`` whose script or code argument is tainted
  (``bash <(curl …)``, ``python3 -c "$(wget -qO- …)"``, ``eval "$X"``);
- a command word that is itself tainted (``$(curl …)``), or names a tainted file (``./i.sh``,
  ``sudo ./installer.run``, ``tool`` after ``wget -O /usr/local/bin/tool``), or a local file run
  after an archive of fetched content was unpacked;
- code handed to another shell (``bash -c '…'``, ``su -c '…'``, ``ssh host '…'``), walked in turn
  with the same standard input; ``xargs`` running an interpreter on tainted input.

Wrappers (``sudo -u x``, ``env -i PATH=…``, ``busybox``, ``nohup``, …) and interpreters named by an
absolute path, a version suffix, ``$SHELL`` or ``$(which bash)`` are resolved to the program they
run.  The vocabulary is in :mod:`mimomem.history.shell_words`.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from mimomem.history.shell_words import (
    ASSIGN,
    CMD_SHELLS,
    CODE_FLAGS,
    COPIERS,
    EXTRACTORS,
    FETCHERS,
    INTERPRETER_VALUE_OPTIONS,
    INTERPRETERS,
    MODULE_FLAGS,
    OWN_CODE_FLAGS,
    REMOTE,
    SHELL_VARIABLES,
    SHELLS,
    SSH_VALUE_OPTIONS,
    STDIN_SCRIPTS,
    VALUE_OPTIONS,
    WRAPPERS,
    program,
)

MAX_DEPTH = 4
"""Code strings within code strings walked (``bash -c "ssh h 'sh -c …'"``); deeper is unsafe if it fetches."""
_LOOSE = re.compile(r"[\s|;&'\"()<>`$]+")
"""What separates words of a code string read loosely (quotes of any depth dropped)."""
_SKIP = frozenset({"operator", "reservedword", "pipe"})
_SCRIPT_SUFFIXES = (".sh", ".py", ".pl", ".rb", ".js", ".ps1", ".run", ".bin", ".bat", ".cmd", ".exe", ".vbs")
"""A file named bare that the shell (or Windows' ``cmd``) runs as a program (``a.bat``, ``./x`` has a slash)."""
_CODE_WRAPPERS = frozenset({"su", "runuser", "script"})
"""Wrappers whose ``-c`` / ``--command`` is a code string for a shell."""


@dataclass
class Flow:
    """What the walk of one command line found."""

    files: set[str] = field(default_factory=set)
    """Basenames of files holding fetched content."""
    executable: set[str] = field(default_factory=set)
    """Those made executable or put in a ``bin`` directory (runnable by their bare name)."""
    variables: set[str] = field(default_factory=set)
    unpacked: bool = False
    """An archive of fetched content was unpacked: a local file run after it may be one of its files."""
    unsafe: bool = False
    written: list[str] = field(default_factory=list)
    """Basenames of the files fetches wrote, in order (to follow them into later tool calls)."""
    run: list[str] = field(default_factory=list)
    """Basenames of the files this line runs or makes executable."""
    called: list[str] = field(default_factory=list)
    """Programs this line runs by a bare name (``tool init``): a fetched file put on the PATH may be one."""
    texts: list[str] = field(default_factory=list, repr=False)
    """The command lines being walked, innermost last (to read a word as the shell does)."""


def analyse(command: str, *, stdin: bool = False, flow: Flow | None = None, depth: int = 0) -> Flow:
    """Walk ``command`` (raises bashlex's errors when it is not valid bash)."""
    import bashlex

    flow = flow if flow is not None else Flow()
    trees = bashlex.parse(command)
    flow.texts.append(command)
    try:
        for tree in trees:
            _walk(tree, stdin, flow, depth)
    finally:
        flow.texts.pop()
    return flow


def _dequoted(node: Any, flow: Flow) -> str:
    """A word as the shell passes it on, quotes removed (bashlex keeps quotes of a word spelled in pieces,
    ``'a'"b"``)."""
    word = str(node.word)
    if not any(q in word for q in "'\"\\") or not flow.texts:
        return word
    try:
        pieces = shlex.split(flow.texts[-1][node.pos[0] : node.pos[1]])
    except ValueError:
        return word
    return pieces[0] if len(pieces) == 1 else word


def _nested(code: str, stdin: bool, flow: Flow, depth: int) -> None:
    """Walk a code string another shell runs; one that cannot be parsed is unsafe when it fetches."""
    words = [program(w) for w in _LOOSE.split(code) if w]
    if depth >= MAX_DEPTH:
        flow.unsafe |= any(w in FETCHERS for w in words)
        return
    try:
        analyse(code, stdin=stdin, flow=flow, depth=depth + 1)
    except Exception:
        flow.unsafe |= any(w in FETCHERS for w in words) and any(w in INTERPRETERS for w in words)


def _walk(node: Any, stdin: bool, flow: Flow, depth: int) -> bool:
    """Walk ``node`` with tainted (or clean) standard input; returns whether its output is tainted."""
    kind = getattr(node, "kind", "")
    if kind == "pipeline":
        tainted, literal = stdin, None
        for part in node.parts:
            if part.kind not in _SKIP:
                if literal and _reads_code(part):
                    _nested(literal, False, flow, depth)  # `echo "curl … | sh" | sh`: the text is the code
                literal = _echoed(part, flow)
                tainted = _walk(part, tainted, flow, depth)
        return tainted
    if kind == "command":
        return _command(node, stdin, flow, depth)
    if kind in ("word", "assignment"):
        return _word(node, flow, depth)
    out = False
    for attr in ("parts", "list"):
        for child in getattr(node, attr, None) or []:
            if getattr(child, "kind", "") not in _SKIP:
                out |= _walk(child, stdin, flow, depth)
    return out


def _echoed(node: Any, flow: Flow) -> str | None:
    """The text ``echo`` / ``printf`` writes (their words after the options), else None."""
    if getattr(node, "kind", "") != "command":
        return None
    words = [_dequoted(w, flow) for w in node.parts if w.kind == "word"]
    if not words or program(words[0]) not in ("echo", "printf"):
        return None
    args = [w for w in words[1:] if not w.startswith("-")]
    if program(words[0]) == "printf" and len(args) > 1:
        args = args[1:]  # the format, then the text it prints
    return " ".join(args) or None


def _reads_code(node: Any) -> bool:
    """A shell reading its program from standard input (no script argument)."""
    if getattr(node, "kind", "") != "command":
        return False
    words = [str(w.word) for w in node.parts if w.kind == "word"]
    names = [program(w) for w in words]
    start = next((i for i, n in enumerate(names) if n not in WRAPPERS and not _option(words[i])), len(words))
    return start < len(words) and names[start] in SHELLS and all(w.startswith("-") for w in words[start + 1 :])


def _option(word: str) -> bool:
    return word.startswith("-") or bool(ASSIGN.match(word))


def _substitutions(node: Any) -> list[Any]:
    """The command and process substitutions of a word, outermost only."""
    found, stack = [], list(getattr(node, "parts", None) or [])
    while stack:
        current = stack.pop()
        if current.kind in ("commandsubstitution", "processsubstitution"):
            found.append(current)
        else:
            stack += list(getattr(current, "parts", None) or [])
    return found


def _word(node: Any, flow: Flow, depth: int) -> bool:
    """Whether a word carries fetched content (a substitution of a fetch, a tainted variable)."""
    if not hasattr(node, "kind"):
        return False
    tainted = False
    for sub in _substitutions(node):
        tainted |= _walk(sub.command, False, flow, depth)
    stack = list(getattr(node, "parts", None) or [])
    while stack:
        current = stack.pop()
        if current.kind == "parameter" and current.value in flow.variables:
            tainted = True
        elif current.kind not in ("commandsubstitution", "processsubstitution"):
            stack += list(getattr(current, "parts", None) or [])
    if node.kind == "assignment" and tainted:
        flow.variables.add(node.word.split("=", 1)[0])
    return tainted


def _name(node: Any) -> str:
    """The program a command word names: ``$SHELL`` a shell, ``$(which bash)`` bash, else its basename."""
    parts = list(getattr(node, "parts", None) or [])
    if len(parts) == 1 and parts[0].kind == "parameter" and parts[0].value in SHELL_VARIABLES:
        return "sh"
    if len(parts) == 1 and parts[0].kind == "commandsubstitution":
        inner = [w.word for w in getattr(parts[0].command, "parts", []) if getattr(w, "kind", "") == "word"]
        if len(inner) >= 2 and inner[0] in ("which", "command", "type", "whereis"):
            return program(inner[-1])
    word = str(node.word)
    return program(word.split()[0] if word.strip() and " " in word.strip() else word)  # env -S 'bash -e'


class _Words:
    """The words of a simple command with their taint, and where the program it runs starts."""

    def __init__(self, node: Any, flow: Flow, depth: int) -> None:
        self.nodes = [p for p in node.parts if p.kind == "word"]
        self.values = [_dequoted(w, flow) for w in self.nodes]
        self.tainted = [_word(w, flow, depth) for w in self.nodes]
        self.via_xargs = False
        self.code: tuple[str, bool] | None = None
        """A code string a wrapper hands to a shell (``su -c '…'``) and whether it is tainted."""
        self.start = self._unwrap()

    def _unwrap(self) -> int:
        values, i = self.values, 0
        while i < len(values):
            name = program(values[i])
            if ASSIGN.match(values[i]):
                i += 1
                continue
            if name not in WRAPPERS:
                break
            self.via_xargs |= name == "xargs"
            takes = VALUE_OPTIONS.get(name, frozenset())
            i += 1
            while i < len(values) and (values[i].startswith("-") or ASSIGN.match(values[i])):
                if name in _CODE_WRAPPERS and values[i] in ("-c", "--command") and i + 1 < len(values):
                    self.code = (values[i + 1], self.tainted[i + 1])
                    return len(values)
                i += 2 if values[i] in takes else 1
            if name in ("timeout", "nice") and i < len(values) and values[i][:1].isdigit():
                i += 1
        return i


def _command(node: Any, stdin: bool, flow: Flow, depth: int) -> bool:
    """Walk one simple command; returns whether its standard output is tainted."""
    for part in node.parts:
        if part.kind == "assignment":
            _word(part, flow, depth)
    stdin, outputs = _redirects(node, stdin, flow, depth)
    words = _Words(node, flow, depth)
    if words.code is not None:
        flow.unsafe |= words.code[1]
        _nested(words.code[0], stdin, flow, depth)
        return stdin
    run, tainted = words.values[words.start :], words.tainted[words.start :]
    if not run:
        return stdin or any(words.tainted)
    if tainted[0]:
        flow.unsafe = True  # the command word is fetched content: `$(curl …)`
    name = _name(words.nodes[words.start])
    if name in FETCHERS:
        out = _fetch(name, run[1:], outputs, flow)
    else:
        _consume(name, run, tainted, stdin, words.via_xargs, flow, depth)
        out = stdin or any(tainted)
        if out and outputs:
            _taint_files(outputs, flow)
            out = False
    return out


def _redirects(node: Any, stdin: bool, flow: Flow, depth: int) -> tuple[bool, list[str]]:
    """Standard input as the redirects leave it, and the files standard output is sent to."""
    outputs = []
    for part in node.parts:
        if part.kind != "redirect":
            continue
        target: Any = getattr(part, "output", None)
        if not hasattr(target, "kind"):
            continue  # a descriptor duplication (2>&1)
        if part.type in ("<", "<<<"):
            tainted = _word(target, flow, depth)
            stdin = tainted or (part.type == "<" and os.path.basename(target.word) in flow.files)
        elif part.type in (">", ">>", ">|", "&>", "&>>"):
            outputs.append(target.word)
    return stdin, outputs


def _taint_files(paths: list[str], flow: Flow, *, fetched: bool = False) -> None:
    for path in paths:
        if not path or path == "-" or path.startswith("/dev/"):
            continue
        base = os.path.basename(path.rstrip("/"))
        flow.files.add(base)
        if fetched:
            flow.written.append(base)
        if "/bin/" in path:
            flow.executable.add(base)


def _fetch(name: str, args: list[str], outputs: list[str], flow: Flow) -> bool:
    """Record the files a fetch writes; returns whether it writes to standard output."""
    files, to_stdout = list(outputs), not outputs
    urls = [a.rstrip("/").rsplit("/", 1)[-1] for a in args if "://" in a]
    named = False
    for i, arg in enumerate(args):
        nxt = args[i + 1] if i + 1 < len(args) else ""
        short = arg[1:] if arg.startswith("-") and not arg.startswith("--") else ""
        value = ""
        if arg.startswith(("--output=", "--output-document=", "--out=")):
            value = arg.split("=", 1)[1]
        elif arg in ("--output", "--output-document", "--out") or (short and short[-1] == _output_flag(name)):
            value = nxt
        elif short and short[-1] != _output_flag(name) and _output_flag(name) in short[:-1]:
            value = short.split(_output_flag(name), 1)[1]  # `-oFILE`, `-qO-`
        elif name == "curl" and (arg == "--remote-name" or arg == "--remote-name-all" or (short and "O" in short)):
            files += urls
            named, to_stdout = True, False
            continue
        else:
            continue
        named = True
        if value in ("-", "/dev/stdout"):
            to_stdout = not outputs
        else:
            files.append(value)
            to_stdout = False
    if name in ("wget", "aria2c", "fetch") and not named and not outputs:
        files += urls
        to_stdout = False
    _taint_files(files, flow, fetched=True)
    return to_stdout


def _output_flag(name: str) -> str:
    return "O" if name == "wget" else "o"


def _consume(
    name: str, run: list[str], tainted: list[bool], stdin: bool, via_xargs: bool, flow: Flow, depth: int
) -> None:
    """What a command that is not a fetch does with tainted input: run it, copy it, unpack it."""
    args = run[1:]
    bases = [os.path.basename(a.strip("\"'").rstrip("/")) for a in args]
    if name in INTERPRETERS:
        _interpreter(name, args, tainted[1:], stdin, via_xargs, flow, depth)
    elif name in REMOTE:
        _remote(args, tainted[1:], stdin, flow, depth)
    elif name in CMD_SHELLS:
        code = [i for i, a in enumerate(args) if a.casefold() in ("/c", "/k")]
        if code:
            flow.unsafe |= any(tainted[code[0] + 2 :])
            _nested(" ".join(args[code[0] + 1 :]), stdin, flow, depth)
    elif name in EXTRACTORS:
        flow.unpacked |= stdin or any(b in flow.files for b in bases)
    elif name in COPIERS and len(args) >= 2:
        if any(b in flow.files for b in bases[:-1]):
            _taint_files([args[-1]], flow)
            if name == "install" or "/bin/" in args[-1]:
                flow.executable.add(bases[-1])
    elif name == "chmod":
        flow.run += [b for a, b in zip(args, bases, strict=True) if not a.startswith(("-", "+")) and b]
        flow.executable |= {b for b in bases if b in flow.files}
    elif name == "tee" and stdin:
        _taint_files([a for a in args if not a.startswith("-")], flow)
    else:
        _runs_file(run[0], flow)
        flow.unsafe |= name in flow.executable
        if "/" not in run[0]:
            flow.called.append(name)


def _runs_file(path: str, flow: Flow) -> None:
    """A file run: unsafe when it holds fetched content (or may be a file of a fetched archive)."""
    path = path.strip("\"'")
    if "/" not in path and not path.casefold().endswith(_SCRIPT_SUFFIXES):
        return
    base = os.path.basename(path)
    flow.run.append(base)
    flow.unsafe |= base in flow.files or (flow.unpacked and not path.startswith(("/", "~")))


def _interpreter(
    name: str, args: list[str], tainted: list[bool], stdin: bool, via_xargs: bool, flow: Flow, depth: int
) -> None:
    """An interpreter (or ``source`` / ``eval``): unsafe when its program is tainted, however it gets it."""
    if via_xargs and stdin:
        flow.unsafe = True  # fetched text handed over as arguments: `… | xargs bash -c`
    if name == "eval":
        flow.unsafe |= any(tainted)
        _nested(" ".join(args), stdin, flow, depth)
        return
    if name in ("iex", "invoke-expression"):
        flow.unsafe |= stdin or any(tainted)
        return
    code_flags = CODE_FLAGS | OWN_CODE_FLAGS.get(name, frozenset())
    script, script_tainted, from_stdin, j = None, False, False, 0
    while j < len(args):
        arg = args[j]
        shell_code = arg.startswith("-") and arg[1:].isalpha() and arg.endswith("c")  # -c, -lc, -xc
        if shell_code if name in SHELLS else arg in code_flags:
            if j + 1 < len(args):
                flow.unsafe |= tainted[j + 1]
                if name in SHELLS:
                    _nested(args[j + 1], stdin, flow, depth)
            return
        if arg in MODULE_FLAGS:
            return  # `python3 -m json.tool`: a module of its own reads the input as data
        if arg == "--" and name not in ("source", "."):
            if j + 1 < len(args) and not from_stdin:
                script, script_tainted = args[j + 1], tainted[j + 1]
            break
        if arg in STDIN_SCRIPTS or not arg.startswith(("-", "+")) or name in ("source", "."):
            script, script_tainted = arg, tainted[j]
            break
        from_stdin |= arg == "-s" and name in SHELLS
        j += 2 if arg in INTERPRETER_VALUE_OPTIONS else 1
    if script is None or script in STDIN_SCRIPTS or from_stdin:
        flow.unsafe |= stdin
        return
    flow.unsafe |= script_tainted
    base = os.path.basename(script.strip("\"'"))
    flow.run.append(base)
    flow.unsafe |= base in flow.files or (flow.unpacked and not script.startswith(("/", "~")))


def _remote(args: list[str], tainted: list[bool], stdin: bool, flow: Flow, depth: int) -> None:
    """``ssh host [command]``: the command is code for the remote shell, which reads stdin without one."""
    j = 0
    while j < len(args) and args[j].startswith("-"):
        j += 2 if args[j] in SSH_VALUE_OPTIONS else 1
    remote = args[j + 1 :]
    if not remote:
        flow.unsafe |= stdin
        return
    flow.unsafe |= any(tainted[j + 1 :])
    _nested(" ".join(remote), stdin, flow, depth)
