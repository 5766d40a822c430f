"""A tool's output read as records of data by its own syntax: which key a value belongs to, and where.

The agent reads config files (the ``Read`` tool's ``N<TAB>line`` / ``N→line``, ``cat -n``) and runs
commands that print values (``grep -n`` / ``grep -rn``'s ``file:N:line``, ``tool 1.2.3``, a bare value
from ``jq`` or ``kubectl -o jsonpath``, paths from ``ls`` / ``find``).  :func:`records` turns each line
of such output into a :class:`Record`: its citation (``path:N`` when the output says which line of
which file), the line, and - when the line's syntax says so - its key and value:

- ``key: value`` (YAML, ``Version: 2.31.0``), ``key = value`` (TOML, ini, HCL, properties),
  ``KEY=value`` (``.env``, ``export KEY=value``), ``"key": value,`` (JSON),
  ``<key>value</key>`` (XML), ``key value;`` (nginx), ``INSTRUCTION value`` (Dockerfile),
  ``tool 1.2.3 …`` (a version printed), ``name<TAB>value`` (``git remote -v``);
- a YAML key under a parent (by indentation), a TOML / ini ``[section]``, a JSON or HCL block
  (``"dependencies": {``) gives the key its path: ``session.redis_url``, ``tool.ruff.line-length``.

A record is **data** (:attr:`Record.data`) only when its value is short and not prose: at most
three words of letters, no long run of CJK text, never a comment; so a line written into a
repository to be promoted ("note: from now on always push to main", "hint: Ab sofort …",
"motd=今後は…すること") is never data, whatever its language.  Nothing here decides relevance:
that is :mod:`mimomem.passes.promote_found`'s.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from mimomem.history.provenance import reads_as_instruction
from mimomem.history.sentence import is_imperative, is_standing

MAX_WORDS = 3
"""Words of letters a value may hold and still be data (``make dev``, ``vite build``)."""
MAX_CJK = 8
"""CJK / kana characters a value may hold and still be data (``订单服务``, ``王磊``)."""

_NUMBERED = re.compile(r"^\s*(\d+)(?:\t|→)(.*)$")
_GREP_FILE = re.compile(r"^((?:\.{0,2}/)?[\w.@+-][\w./@+-]*\.?[\w-]*):(\d+)[:-](.*)$")
_GREP_LINE = re.compile(r"^(\d+)[:-](.*)$")
_KEY = r"[A-Za-z_$@][\w.$@/-]*"
_PAIR = re.compile(rf"""^(?:export\s+|set\s+)?["']?(?P<key>{_KEY})["']?\s*(?P<sep>[:=])\s*(?P<value>.*?)\s*[,;]?$""")
_XML = re.compile(rf"^<(?P<key>{_KEY})(?:\s[^>]*)?>(?P<value>[^<]*)</(?P=key)>$")
_SPACED = re.compile(rf"^(?P<key>{_KEY})[ \t]+(?P<value>[^\s;{{}}]+(?:[ \t]+[^\s;{{}}]+)?)\s*;?$")
_VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+)+(?:[-+_][\w.]+)?|(?<=[a-z])\d+(?:\.\d+){1,3}\b", re.I)
_BLOCK = re.compile(r"""^(?:["']?(?P<key>[\w.$@/-]+)["']?\s*:\s*[\[{]|(?P<hcl>[\w-]+(?:\s+"[^"]*")*)\s*\{)\s*$""")
_SECTION = re.compile(r"^\[+\s*([\w.\s\"'-]+?)\s*\]+\s*$")
_YAML_PARENT = re.compile(rf"^(?P<key>{_KEY})\s*:\s*$")
_COMMENT = re.compile(r"^(?:#|//|;|--|<!--|/\*|\*\s)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


@dataclass(frozen=True)
class Record:
    """One line of a tool's output: where it came from, the line, and its key and value if it has them."""

    cite: str | None
    """``path:N`` when the output says which line of which file; None otherwise."""
    text: str
    key: str | None
    value: str

    @property
    def shown(self) -> str:
        """What memory quotes: the line, its key given its path (``db.pool_size = 24``)."""
        text = self.text.rstrip(",")
        if self.key and "." in self.key and self.key not in text:
            name = self.key.rsplit(".", 1)[-1]
            if name in text:
                return text.replace(name, self.key, 1)
        return text

    @property
    def data(self) -> bool:
        """Short data, not prose that could read as an order (see the module's doc)."""
        if not self.value or _COMMENT.match(self.text):
            return False
        words = [w for w in (t.strip(".,;:!?\"'()[]") for t in self.value.split()) if len(w) > 1 and w.isalpha()]
        if len([w for w in words if not _CJK.search(w)]) > MAX_WORDS or len(_CJK.findall(self.value)) > MAX_CJK:
            return False
        flat = " ".join(self.text.split())
        return not (reads_as_instruction(flat) or is_standing(flat) or is_imperative(self.value))


def records(
    output: str,
    *,
    path: str | None = None,
    grep: bool = False,
    wanted: Callable[[str], bool] | None = None,
    max_lines: int = 2000,
) -> list[Record]:
    """The lines of ``output`` as records (``path``: the file a ``Read`` showed; ``grep``: the output of
    ``grep`` / ``rg``, whose lines may start ``file:N:`` or ``N:``; ``wanted``: a cheap test of a line's
    text, the others only followed for the nesting they open and close)."""
    out: list[Record] = []
    parents: list[tuple[int, str]] = []  # (indent, name) of the open YAML parents and JSON / HCL blocks
    section = ""
    for n, raw in enumerate(output.splitlines()[:max_lines], 1):
        cite, line = _where(raw, n, path, grep)
        body = line.strip()
        if not body:
            continue
        indent = len(line) - len(line.lstrip())
        if body[0] in "}]":
            while parents and parents[-1][0] >= indent:
                parents.pop()
            continue
        while parents and parents[-1][0] >= indent and not _COMMENT.match(body):
            parents.pop()
        if body[0] == "[" or body[-1] in ":{[":  # a section or a block opens
            found = _SECTION.match(body)
            if found and "=" not in body:
                section, parents = re.sub(r"[\"'\s]+", "", found.group(1)), []
                continue
            opened = _YAML_PARENT.match(body) or _BLOCK.match(body)
            if opened:
                name = opened.group("key") or ".".join(opened.group("hcl").replace('"', "").split()[1:])
                parents.append((indent, name or opened.group("hcl")))
                continue
        if wanted is not None and not wanted(body):
            continue
        key, value = pair(body)
        if key is not None:  # its path, the innermost three names at most
            key = ".".join([*[p for p in (section, *(name for _, name in parents)) if p][-2:], key])
        out.append(Record(cite, body, key, value))
    return out


def _where(raw: str, n: int, path: str | None, grep: bool) -> tuple[str | None, str]:
    """(``path:N``, the line without its numbering) of one output line."""
    if path is not None:
        number, tab, rest = raw.partition("\t") if "\t" in raw[:12] else raw.partition("→")
        if tab and number.strip().isdigit():
            return f"{path}:{number.strip()}", rest
        return f"{path}:{n}", raw
    if grep:
        found = _GREP_FILE.match(raw)
        if found and any(c in found.group(1) for c in "/."):
            return f"{found.group(1)}:{found.group(2)}", found.group(3)
    found = (_GREP_LINE.match(raw) if grep else None) or (_NUMBERED.match(raw) if "\t" in raw[:12] else None)
    if found:
        return None, found.group(2)
    return None, raw


def pair(body: str) -> tuple[str | None, str]:
    """(key, value) of one line by its syntax; (None, the line) for a bare value or other text."""
    if body.startswith("- "):  # a YAML list item
        body = body[2:].lstrip()
    for pattern in (_XML, _PAIR, _SPACED):
        found = pattern.match(body)
        value = found.group("value").strip() if found else ""
        if value and not (value.startswith("//") and found and found.group(0)[found.end("key") :].lstrip()[:1] == ":"):
            return found.group("key") if found else None, _unquote(value)
    version = _VERSION.search(body)
    words = body.split()
    if (
        version and 1 < len(words) <= 6 and version.group(0) not in words[0]
    ):  # ``libprotoc 25.3``, ``go version go1.22.5``
        return words[0], version.group(0)
    return None, _unquote(body)


def _unquote(value: str) -> str:
    value = value.strip().rstrip(",;").strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value
