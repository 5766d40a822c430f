"""What one part says, whatever harness wrote it: the shell command, the files edited, and
the user's standing instructions and decisions (English and Chinese).

Harnesses name the same tools differently (Claude Code ``Bash`` / ``Edit`` with
``file_path``; MiMo-Code and OpenCode ``bash`` / ``edit`` with ``filePath``, ``apply_patch``
with a patch text), so these functions look at the tool name case-insensitively and at
every spelling of the argument.  Commands are normalised so that runs differing only in
whitespace, a ``cd … &&`` prefix, an output filter, a commit message, a hash or a temp
path count as the same command.
"""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from mimomem.history.shell import runs_fetched_code

SHELL_TOOLS = frozenset({"bash", "shell", "exec", "run_terminal_cmd", "execute_command", "terminal"})
EDIT_TOOLS = frozenset({"edit", "write", "multiedit", "notebookedit", "patch", "apply_patch", "create", "str_replace"})
READ_TOOLS = frozenset({"read", "view", "cat"})
_PATH_KEYS = ("file_path", "filePath", "notebook_path", "path", "filename")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$", re.M)


def command_of(tool: str | None, data: Any) -> str | None:
    """The shell command a tool call ran, or None when it is not a shell call."""
    if not tool or tool.lower() not in SHELL_TOOLS or not isinstance(data, dict):
        return None
    for key in ("command", "cmd"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return " ".join(value)
    return None


def files_of(tool: str | None, data: Any, *, reads: bool = False) -> list[str]:
    """Files a tool call edited or wrote (with ``reads``: read too)."""
    name = (tool or "").lower()
    wanted = EDIT_TOOLS | (READ_TOOLS if reads else frozenset())
    if name not in wanted or not isinstance(data, dict):
        return []
    found = [data[k] for k in _PATH_KEYS if isinstance(data.get(k), str) and data[k]]
    for key in ("patch", "patchText", "input"):
        if isinstance(data.get(key), str):
            found += _PATCH_FILE.findall(data[key])
    return list(dict.fromkeys(found))


# --- commands ---

_CD_PREFIX = re.compile(r"^(?:cd\s+(?:\"[^\"]*\"|'[^']*'|\S+)\s*(?:&&|;)\s*)+")
_FILTER_SUFFIX = re.compile(r"(?:\s*2>&1)?(?:\s*\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?)+\s*$|\s*2>&1\s*$")
_MESSAGE_ARG = re.compile(
    r"(\s(?:-m|--message|-am)\s+)(?:\"(?:[^\"\\]|\\.)*\"|'[^']*'|\$\(cat <<'?EOF'?.*?EOF\s*\))", re.S
)
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I)
_HASH = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b")
_TEMP = re.compile(r"(?:/private)?/(?:tmp|var/folders)/[^\s'\"]+")
_MULTI_WORD = frozenset(
    {
        "git",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "cargo",
        "go",
        "docker",
        "kubectl",
        "uv",
        "poetry",
        "make",
        "pip",
        "gh",
        "npx",
        "pnpx",
        "just",
        "deno",
        "dotnet",
        "mvn",
        "gradle",
        "terraform",
    }
)
TRIVIAL = frozenset(
    {
        "ls",
        "cd",
        "pwd",
        "cat",
        "echo",
        "head",
        "tail",
        "grep",
        "rg",
        "find",
        "wc",
        "which",
        "true",
        "clear",
        "sleep",
        "mkdir",
        "date",
        "whoami",
        "env",
        "tree",
        "sed",
        "awk",
        "less",
        "file",
        "git status",
        "git diff",
        "git log",
        "git show",
        "git branch",
    }
)
"""Commands too common to be a workflow or a piece of knowledge on their own."""


@functools.lru_cache(maxsize=4096)
def normalize_command(command: str) -> str:
    """The command with trivially varying parts folded (see the module docstring).

    Cached: a history runs the same few commands thousands of times.
    """
    text = " ".join(command.replace("\\\n", " ").split())
    text = _CD_PREFIX.sub("", text)
    text = _FILTER_SUFFIX.sub("", text)
    text = _MESSAGE_ARG.sub(r"\1<message>", text)
    text = _UUID.sub("<id>", text)
    text = _HASH.sub("<hash>", text)
    text = _TEMP.sub("<tmp>", text)
    return text.strip()


@functools.lru_cache(maxsize=4096)
def command_family(normalized: str) -> str:
    """The program a command runs, with its sub-command for tools like git/pnpm/cargo (``pnpm run``)."""
    words = [w for w in normalized.split() if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", w)]
    while words and words[0] in ("sudo", "time", "env", "command", "exec", "nohup"):
        words = words[1:]
    if not words:
        return ""
    if words[0] in ("python", "python3") and len(words) > 2 and words[1] == "-m":
        return " ".join(words[:3])
    if words[0] in _MULTI_WORD and len(words) > 1:
        return f"{words[0]} {words[1]}"
    return words[0]


def is_trivial(normalized: str) -> bool:
    """True for navigation and inspection commands (``ls``, ``git status``...)."""
    family = command_family(normalized)
    first = family.split(" ", 1)[0]
    return family in TRIVIAL or first in TRIVIAL or normalized in TRIVIAL


def first_line(text: str | None, limit: int = 160) -> str:
    """The first non-empty line of ``text``, whitespace collapsed, clipped to ``limit``."""
    for line in (text or "").splitlines():
        flat = " ".join(line.split())
        if flat:
            return flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return ""


def error_signature(error: str | None) -> str:
    """The first line of an error with numbers, paths and hashes folded, for counting repeats."""
    line = first_line(error, 200)
    line = _UUID.sub("<id>", line)
    line = _HASH.sub("<hash>", line)
    line = re.sub(r"(?:/[^\s:'\"]+)+", "<path>", line)
    return re.sub(r"\d+", "N", line).lower()


# --- statements ---


class Statement(NamedTuple):
    """A sentence the user said that reads as a standing rule or a decision."""

    text: str
    kind: str  # "rule" | "decision"


_RULE = re.compile(
    r"\bremember:|\b(?:always|never|from now on|going forward|remember (?:that|to)|don'?t ever|do not ever|"
    r"make sure (?:to|you) always|stop using)\b"
    r"|记住|以后都|以后一律|以后不要|以后别|以后用|今后|从现在起|从今以后|总是|永远不要|永远别|不要再|别再|一律|务必|始终|每次都",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:we(?:'ve| have)? decided|decided to|let'?s use|let'?s go with|let us use|we(?:'ll| will) use|"
    r"decision:|we(?:'re| are) going with|the plan is to)\b"
    r"|我们决定|决定用|决定了|就用|改用|统一用|采用|定了|约定|规定",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])|(?<=\.)(?=\s)|\n+")
_QUESTION = re.compile(r"[?？]\s*$|[吗呢么]\s*[。.]?\s*$")
_VAGUE = re.compile(r"^(?:\S+\s+){0,4}(?:it|this|that|them|so)[.!]?$|^.{0,10}(?:这个|那个|这样|它)[。！]?$", re.I)
"""A short sentence whose object is only a pronoun ("we decided to keep it") says nothing on its own."""
STATEMENT_LIMIT = 200


def statements_in(text: str) -> list[Statement]:
    """The sentences of ``text`` that state a rule (always / never / 以后都 …) or a decision.

    Questions are left out (``should we always …?``), as are fragments under four
    characters; a sentence longer than :data:`STATEMENT_LIMIT` is cut with ``…``.
    """
    out: list[Statement] = []
    for raw in _SENTENCE_END.split(text):
        sentence = " ".join(raw.split()).strip(" -*>")
        if len(sentence) < 4 or _QUESTION.search(sentence) or "```" in sentence:
            continue
        kind = "rule" if _RULE.search(sentence) else "decision" if _DECISION.search(sentence) else None
        if kind is None or _VAGUE.search(sentence):
            continue
        sentence = sentence.rstrip("。.!！;；,，")
        if len(sentence) > STATEMENT_LIMIT:
            sentence = sentence[: STATEMENT_LIMIT - 1] + "…"
        out.append(Statement(sentence, kind))
    return out


# --- commands never to promote ---

_CREDENTIALS = re.compile(
    r"~/\.ssh|\.ssh/|id_rsa|id_ed25519|\.aws/credentials|\.netrc|\.npmrc|\.pypirc|\.docker/config\.json|\.kube/config"
    r"|\b(?:gh|glab)\s+auth\b|\bvault\s+(?:login|read|kv\s+get)|\baws\s+configure|\b(?:npm|docker|helm|podman)\s+login"
    r"|\bgcloud\s+auth|\baz\s+login|\bsecurity\s+find-(?:generic|internet)-password|\bgpg\s+--export-secret"
    r"|\bpass\s+(?:show|insert)|\b(?:export|set)\s+\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY)\w*="
    r"|\bprintenv\b|\bcat\s+\S*\.env\b|credentials?\.json|\bkeychain\b|\bssh-add\b",
    re.I,
)


def is_unsafe_command(command: str) -> bool:
    """True for a command that fetches and runs remote code (``curl … | sh``, ``iex (iwr …)``,
    ``bash <(curl …)``, and however else it is spelled: :func:`mimomem.history.shell.runs_fetched_code`
    parses the command) or touches credentials: never a usual command, never promoted."""
    flat = " ".join(command.split())
    return bool(_CREDENTIALS.search(flat)) or runs_fetched_code(command)


# --- mimomem's own calls ---

_OWN_PROGRAM = re.compile(r"(?:^|/)mimomem(?:\.exe)?$")
_WRAPPERS = frozenset({"sudo", "env", "exec", "time", "nohup", "command", "sh", "bash", "zsh", "uv", "uvx", "pipx"})
_SEGMENT = re.compile(r"\|\|?|&&|;|\n|\$\(|`")
_OWN_PATH = re.compile(r"(?:^|/)mimomem/memory/(?:sessions|projects|global)/")


def is_own_command(command: str) -> bool:
    """Whether ``command`` runs mimomem itself in any of its pieces (``mimomem note``, the absolute
    path of an installation's entry point or of the plugin's runner, ``python -m mimomem``, a ``run``
    wrapper before it), or appends to its memory files (``printf ... >> …/mimomem/memory/sessions/…``)."""
    for segment in _SEGMENT.split(command):
        words = [w.strip("'\"") for w in segment.split()]
        while words and (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]) or words[0] in _WRAPPERS):
            words = words[1:] if words[0] not in ("uv", "pipx") else words[2:]  # `uv run mimomem`
        if not words:
            continue
        if _OWN_PROGRAM.search(words[0]):
            return True
        if re.fullmatch(r"(?:\S*/)?python[0-9.]*", words[0]) and "mimomem" in words[1:4] and "-m" in words[1:4]:
            return True
    return any(is_own_path(w.strip("'\"")) for w in command.split() if "/" in w)


def is_own_path(path: str) -> bool:
    """Whether ``path`` is one of mimomem's memory files (under ``…/mimomem/memory/``)."""
    return bool(_OWN_PATH.search(path))
