"""Whether a PowerShell command runs code it fetched, by following the fetched content (bash cannot parse it).

A small tokenizer reads PowerShell's lexical syntax (quoted strings with their escapes, variables,
type literals, sub-expressions, pipelines, statements, comments) and a walk follows what a fetch
returns — ``Invoke-WebRequest`` / ``Invoke-RestMethod`` (and their aliases), ``Net.WebClient``'s
``DownloadString`` — through variables, sub-expressions, member access, interpolated strings and the
pipeline's filters, and what a fetch writes (``-OutFile``, ``DownloadFile``, ``Start-BitsTransfer``,
``Out-File``) through the files' names, to a place that evaluates it: ``Invoke-Expression`` / ``iex``
(an argument or its pipeline input), ``[scriptblock]::Create``, ``powershell`` / ``pwsh`` reading
its command from stdin or as ``-Command``, or a downloaded script run by path, ``&``, ``.`` or
``-File``.  Fetched data formatted, converted or saved and never run is safe, and so is
``Invoke-Expression`` of the command's own text.  The names here are PowerShell's own cmdlets,
aliases and parameters: the syntax of the language, not spellings of unsafe commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(
    r"""(?P<comment><\#.*?\#>|\#[^\n]*)
    |(?P<sq>'(?:[^']|'')*'?)
    |(?P<dq>"(?:[^"`]|`.)*"?)
    |(?P<sub>\$\()
    |(?P<var>\$\{[^}]*\}|\$[A-Za-z_][\w]*(?::[\w]+)?)
    |(?P<type>\[[A-Za-z_][\w.]*(?:\[\])?\](?=\s*::|\s*\)|\s*\$|\s*\(|\s*$))
    |(?P<punct>::|[|;(){}\n,=&]|\.(?=[A-Za-z_]))
    |(?P<word>[^\s|;(){}"',=&]+)
    """,
    re.X | re.S,
)
FETCH_COMMANDS = frozenset({"iwr", "irm", "invoke-webrequest", "invoke-restmethod", "curl", "wget"})
FETCH_METHODS = frozenset({"downloadstring", "downloaddata", "getstringasync", "getstring", "readtoend"})
SAVE_METHODS = frozenset({"downloadfile"})
EVALUATORS = frozenset({"iex", "invoke-expression"})
HOSTS = frozenset({"powershell", "powershell.exe", "pwsh", "pwsh.exe"})
SAVERS = frozenset({"out-file", "set-content", "add-content", "tee-object", "tee"})
READERS = frozenset({"get-content", "gc", "cat", "type"})
FILTERS = frozenset(
    {"select-object", "select", "foreach-object", "%", "foreach", "where-object", "?", "where", "out-string"}
    | {"tee-object", "tee", "write-output", "echo"}
)
"""Cmdlets whose output is (a part of) their pipeline input."""
RUNNERS = frozenset({"invoke-command", "icm", "start-job", "start-threadjob"})
"""Cmdlets that run a ``-ScriptBlock`` given to them."""
_PATH_PARAMS = frozenset({"-outfile", "-destination", "-filepath", "-path", "-literalpath", "-o"})
_SCRIPT_SUFFIXES = (".ps1", ".psm1", ".bat", ".cmd", ".exe", ".sh", ".py", ".vbs", ".js")


@dataclass
class _Flow:
    tainted_vars: set[str] = field(default_factory=set)
    files: set[str] = field(default_factory=set)
    unsafe: bool = False


def _mark(flow: _Flow, unsafe: bool) -> None:
    """Record an unsafe use (the condition is evaluated first: it may record one itself)."""
    flow.unsafe = flow.unsafe or unsafe


def tokens(code: str) -> list[tuple[str, str]]:
    """``(kind, text)`` of each token: sq / dq strings, sub (``$(``), var, type, punct, word."""
    out: list[tuple[str, str]] = []
    end = -1
    for m in _TOKEN.finditer(code):
        kind = m.lastgroup or "word"
        if kind == "comment":
            continue
        if kind in ("word", "var") and out and out[-1][0] in ("word", "var") and m.start() == end:
            out[-1] = ("word", out[-1][1] + m.group())  # one argument: $env:TEMP\i.ps1
        else:
            out.append((kind, m.group()))
        end = m.end()
    return out


def _base(path: str) -> str:
    path = path.strip("'\"")
    return re.split(r"[\\/]", path)[-1].casefold()


def _split(toks: list[tuple[str, str]], seps: str) -> list[list[tuple[str, str]]]:
    """``toks`` split at the separators ``seps`` outside brackets."""
    parts: list[list[tuple[str, str]]] = [[]]
    depth = 0
    for kind, text in toks:
        if kind in ("punct", "sub") and text in ("(", "{", "$("):
            depth += 1
        elif kind == "punct" and text in (")", "}"):
            depth -= 1
        if depth == 0 and kind == "punct" and text in seps:
            parts.append([])
            continue
        parts[-1].append((kind, text))
    return [p for p in parts if p]


def _groups(toks: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """The arguments of a command: runs of tokens joined without a space are one in PowerShell, but
    here a bracketed group, a member access or a call after a primary stays with it."""
    out: list[list[tuple[str, str]]] = []
    depth = 0
    for kind, text in toks:
        opens = kind == "sub" or (kind == "punct" and text in ("(", "{"))
        member = kind == "punct" and text in (".", "::")
        joins = out and (depth > 0 or member or out[-1][-1] in _MEMBER or (opens and _call_after(out[-1])))
        if joins:
            out[-1].append((kind, text))
        else:
            out.append([(kind, text)])
        depth += opens - (kind == "punct" and text in (")", "}"))
    return out


_MEMBER = (("punct", "."), ("punct", "::"))


def _call_after(group: list[tuple[str, str]]) -> bool:
    """Does a bracket here call the member before it (``$wc.DownloadString(``, ``::Create(``)?"""
    return len(group) > 1 and group[-1][0] == "word" and group[-2] in (("punct", "."), ("punct", "::"))


def _value(group: list[tuple[str, str]], flow: _Flow) -> bool:
    """Is this expression (an argument, a sub-expression, a string) fetched content?"""
    tainted = False
    i = 0
    while i < len(group):
        kind, text = group[i]
        low = text.casefold()
        if kind == "var" and low.lstrip("$").strip("{}") in flow.tainted_vars:
            tainted = True
        elif kind == "dq":
            body = text[1:-1]
            names = {m.casefold() for m in re.findall(r"\$\{?([A-Za-z_]\w*)", body)}
            tainted |= bool(names & flow.tainted_vars) or ("$(" in body and _code(_inner_sub(body), flow))
        elif kind == "word" and low in FETCH_METHODS and group[i - 1 : i] == [("punct", ".")]:
            tainted = True  # (New-Object Net.WebClient).DownloadString(url)
        elif kind == "word" and low in SAVE_METHODS and group[i - 1 : i] == [("punct", ".")]:
            _saves_from_call(group[i + 1 :], flow)
        elif kind == "word" and low == "create" and group[i - 1 : i] == [("punct", "::")]:
            j, inner = _bracketed(group, i + 1)
            if inner is not None and _code(inner, flow):
                flow.unsafe = True  # [scriptblock]::Create(fetched): a script block is made to be run
            i = j
            continue
        elif (kind == "sub" or (kind, text) == ("punct", "(")) and i + 1 < len(group):
            j, inner = _bracketed(group, i)
            if inner is not None and _code(inner, flow):
                tainted = True
            i = j
            continue
        i += 1
    return tainted


def _inner_sub(inner: str) -> list[tuple[str, str]]:
    start = inner.find("$(")
    return tokens(inner[start + 2 : inner.rfind(")")]) if start != -1 else []


def _bracketed(group: list[tuple[str, str]], i: int) -> tuple[int, list[tuple[str, str]] | None]:
    """The tokens inside the bracket opening at ``i`` and the index after its close."""
    if i >= len(group) or group[i] not in (("punct", "("), ("sub", "$("), ("punct", "{")):
        return i + 1, None
    depth = 0
    for j in range(i, len(group)):
        kind, text = group[j]
        depth += (kind == "sub" or (kind == "punct" and text in ("(", "{"))) - (kind == "punct" and text in (")", "}"))
        if depth == 0:
            return j + 1, group[i + 1 : j]
    return len(group), group[i + 1 :]


def _saves_from_call(rest: list[tuple[str, str]], flow: _Flow) -> None:
    """``.DownloadFile(url, path)``: the path's file holds fetched content."""
    _, inner = _bracketed(rest, 0)
    args = _split(inner or [], ",")
    if len(args) >= 2:
        flow.files.add(_base(args[1][-1][1]))


def _code(toks: list[tuple[str, str]], flow: _Flow) -> bool:
    """Run the statements ``toks``; True when the last one's output is fetched content."""
    out = False
    for statement in _split(toks, ";\n"):
        out = _statement(statement, flow)
    return out


def _statement(toks: list[tuple[str, str]], flow: _Flow) -> bool:
    target = None
    if len(toks) > 2 and toks[0][0] == "var" and toks[1] == ("punct", "="):
        target, toks = toks[0][1].casefold().lstrip("$").strip("{}"), toks[2:]
    out = False
    for element in _split(toks, "|"):
        out = _element(element, out, flow)
    if target is not None:
        (flow.tainted_vars.add if out else flow.tainted_vars.discard)(target)
    return out


def _element(toks: list[tuple[str, str]], stdin: bool, flow: _Flow) -> bool:
    """One pipeline element given fetched input or not; True when its output is fetched content."""
    call = toks[0] in (("punct", "&"), ("punct", "."), ("word", "."))  # the call and dot-source operators
    if call:
        toks = toks[1:]
    groups = _groups(toks)
    if not groups:
        return False
    head = groups[0]
    name = head[0][1].casefold() if len(head) == 1 and head[0][0] == "word" else ""
    args = groups[1:]
    if name in HOSTS:  # before the scripts run by path: powershell.exe is a program, not a download
        _host(args, stdin, flow)
        return False
    if call or name.endswith(_SCRIPT_SUFFIXES):
        target = _base(name) if name else ""
        _mark(flow, target in flow.files or (not name and _value(head, flow)))
        return False
    if name in FETCH_COMMANDS:
        saved = _param(args, _PATH_PARAMS)
        if saved is not None:
            flow.files.add(_base(saved))
            return False
        return True
    if name == "start-bitstransfer":
        saved = _param(args, frozenset({"-destination"}))
        if saved is not None:
            flow.files.add(_base(saved))
        return False
    if name in EVALUATORS:
        _mark(flow, stdin or any(_value(g, flow) for g in args))
        return False
    if name in RUNNERS:
        _mark(flow, any(_value(g, flow) for g in args))
        return False
    if name in SAVERS:
        saved = _param(args, _PATH_PARAMS) or next((g[0][1] for g in args if not g[0][1].startswith("-")), None)
        if stdin and saved is not None:
            flow.files.add(_base(saved))
        return stdin and name.startswith("tee")
    if name in READERS:
        return any(_base(g[0][1]) in flow.files for g in args if not g[0][1].startswith("-"))
    if name in FILTERS:
        return stdin or any(_value(g, flow) for g in args)
    if not name:  # an expression: (iwr …).Content, $s, "…$(irm …)…", [Net.WebClient]::new().DownloadString(…)
        return _value([t for g in groups for t in g], flow)
    for g in args:
        _value(g, flow)  # a sub-expression's own calls (a [scriptblock]::Create inside) still count
    return False


def _param(args: list[list[tuple[str, str]]], names: frozenset[str]) -> str | None:
    """The value of the first of ``names`` among the arguments (``-OutFile x`` or ``-OutFile:x``)."""
    for k, g in enumerate(args):
        word = g[0][1]
        key, _, attached = word.partition(":")
        if key.casefold() in names:
            if attached:
                return attached
            if k + 1 < len(args):
                return "".join(t for _, t in args[k + 1])
    return None


def _host(args: list[list[tuple[str, str]]], stdin: bool, flow: _Flow) -> None:
    """``powershell`` / ``pwsh``: its ``-Command`` code (a string read as PowerShell), ``-File`` script, or stdin."""
    k = 0
    while k < len(args):
        word = args[k][0][1].casefold()
        if word in ("-c", "-command", "-com", "-comm"):
            rest = args[k + 1 :]
            if len(rest) == 1 and rest[0][0][0] in ("sq", "dq") and len(rest[0]) == 1:
                body = rest[0][0][1][1:-1]
                _mark(flow, analyse(body, flow))
            else:
                words = " ".join("".join(t for _, t in g) for g in rest)
                _mark(flow, _code([t for g in rest for t in g], flow) or analyse(words, flow))
            return
        if word in ("-f", "-file") and k + 1 < len(args):
            _mark(flow, _base(args[k + 1][0][1]) in flow.files)
            return
        if word == "-":
            _mark(flow, stdin)
            return
        k += 1
    _mark(flow, stdin)  # no command, no file: it reads its commands from the pipe


def analyse(command: str, flow: _Flow | None = None) -> bool:
    """True when the PowerShell ``command`` evaluates content it fetched (see the module docstring)."""
    flow = flow if flow is not None else _Flow()
    _code(tokens(command), flow)
    return flow.unsafe


__all__ = ["analyse", "tokens"]
