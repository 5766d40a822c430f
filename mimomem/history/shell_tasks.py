"""Fetched code run through a task runner: a ``Makefile`` target or a ``package.json`` script whose
recipe runs fetched code, then ``make <target>`` / ``npm run <script>`` in a later call.

The recipe is read where the session saw it (a read tool's output, a write's content) and judged with
:func:`mimomem.history.shell.runs_fetched_code`; the later command names the target by the runners'
own syntax.  A target never seen is not judged: the check follows what the session showed.
"""

from __future__ import annotations

import json
import os
import re
import shlex

from mimomem.history.shell import text_runs_fetched_code

_NUMBERED = re.compile(r"^\s*\d+\t", re.M)
"""The Read tool's line numbers (``     12\t…``)."""
_TARGET = re.compile(r"^([A-Za-z0-9_./%-]+(?:[ \t]+[A-Za-z0-9_./%-]+)*)[ \t]*::?(?!=)")
MAKEFILES = ("makefile", "gnumakefile", "justfile")
RUN_WORDS = {"npm": ("run", "run-script"), "pnpm": ("run",), "yarn": ("run",), "bun": ("run",)}
"""Script runners and the subcommand that runs a ``package.json`` script (yarn / pnpm may omit it)."""


def unsafe_targets(path: str, text: str) -> set[str]:
    """The targets or scripts of a task file (by its name) whose recipe runs fetched code; ``""`` stands
    for a Makefile's first target (what a bare ``make`` runs)."""
    name = os.path.basename(path).casefold()
    body = _NUMBERED.sub("", text)
    if name == "package.json":
        return _scripts(body)
    if name in MAKEFILES or name.endswith(".mk"):
        return _recipes(body)
    return set()


def _scripts(text: str) -> set[str]:
    try:
        scripts = json.loads(text).get("scripts", {})
    except (ValueError, AttributeError):
        return set()
    return (
        {k for k, v in scripts.items() if isinstance(v, str) and text_runs_fetched_code(v)}
        if isinstance(scripts, dict)
        else set()
    )


def _recipes(text: str) -> set[str]:
    out: set[str] = set()
    targets: list[str] = []
    first = True
    for line in text.splitlines():
        found = _TARGET.match(line)
        if found and not line.startswith(("\t", " ")):
            targets = found.group(1).split()
            if first and not targets[0].startswith("."):
                targets.append("")
                first = False
            inline = line[found.end() :].split(";", 1)
            if len(inline) == 2 and text_runs_fetched_code(inline[1]):
                out.update(targets)
        elif line.startswith(("\t", "    ")) and targets and text_runs_fetched_code(line.strip().lstrip("@-+")):
            out.update(targets)
    return out


def targets_run(command: str) -> list[str]:
    """The targets or scripts ``command`` runs (``make a b`` -> a, b; bare ``make`` -> ``""``; ``npm run x``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    out: list[str] = []
    for n, word in enumerate(words):
        name = os.path.basename(word)
        rest = [w for w in words[n + 1 :] if not w.startswith("-") and "=" not in w]
        if name in ("make", "gmake", "just"):
            cut = next((i for i, w in enumerate(rest) if w in ("&&", "||", ";", "|")), len(rest))
            out += rest[:cut] or [""]
        elif name in RUN_WORDS and rest:
            if rest[0] in RUN_WORDS[name] and len(rest) > 1:
                out.append(rest[1])
            elif name in ("yarn", "pnpm") and rest[0] not in ("install", "add", "remove"):
                out.append(rest[0])
    return out
