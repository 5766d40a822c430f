"""Where each coding host keeps the memory its own model writes, for one project; and the switch that leaves it out.

mimomem reads these files (never writes, moves or deletes them: :mod:`mimomem.tree.host_files`)
so that per-prompt recall and ``mimomem search`` also find what the host remembered.

- **Claude Code** (observed in 2.1.337): the auto-memory folder
  ``<config>/projects/<key>/memory/`` (``<config>`` is ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``)
  with one fact per file and the ``MEMORY.md`` index.  ``<key>`` is the project's directory with
  every character but ``A-Z a-z 0-9`` replaced by ``-`` (each UTF-16 unit: a CJK character is one
  ``-``, an emoji two); past 200 characters it is the first 200, ``-`` and a base-36 hash of the
  whole path (:func:`claude_project_key`).  The project's directory is the *main* repository's
  top directory (a git worktree shares its repository's memory), else the working directory.
  ``autoMemoryDirectory`` in the user's or the project's Claude Code settings, or
  ``$CLAUDE_COWORK_MEMORY_PATH_OVERRIDE``, moves the folder; ``$CLAUDE_CODE_REMOTE_MEMORY_DIR``
  replaces ``<config>`` as its base.  Account memory (``<config>/memory/personal/``) is read too.
- **Codex** (``memories = true``): ``$CODEX_HOME`` or ``~/.codex``, ``memories/MEMORY.md`` (the
  consolidated handbook) and ``memories/memory_summary.md`` (what Codex injects); the raw
  per-thread files (``raw_memories.md``, ``rollout_summaries/``) are not read: they repeat them.
- **Gemini CLI** (``save_memory``): ``~/.gemini/GEMINI.md`` and the project's ``GEMINI.md`` and
  ``.gemini/GEMINI.md``, only their ``## Gemini Added Memories`` section (the rest is the user's
  own instructions, which Gemini CLI loads whole).

The switch: ``MIMOMEM_HOST_MEMORY`` (``0`` / ``off`` / ``false`` / ``no``: none; or a comma list
of hosts, ``claude-code,gemini``: only those), else ``host_memory`` in
``$XDG_CONFIG_HOME/mimomem/config.json`` (``false``, or a list of hosts).  Default: all.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping

from mimomem.common.light_typing import NamedTuple

HOSTS = ("claude-code", "codex", "gemini")
"""The hosts whose memory files are read, by the names the switch uses."""

HOST_NAMES = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI"}

VARIABLE = "MIMOMEM_HOST_MEMORY"
CONFIG_KEY = "host_memory"
_OFF = frozenset({"0", "off", "false", "no", "none"})
_ON = frozenset({"1", "on", "true", "yes", "all"})

KEY_CHARS = 200
"""Claude Code keeps this many characters of a sanitized project path before adding a hash."""

ENV_NAMES = (
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    "CODEX_HOME",
)
"""The environment the host memory folders depend on (with ``HOME``): part of a plan's key."""


class Source(NamedTuple):
    """One place a host keeps memory: a folder of memory files or one file."""

    host: str
    path: str
    folder: bool
    kind: str
    """``auto`` (Claude Code's project memory), ``account``, ``memories`` (Codex), ``saved`` (Gemini)."""


def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def config_file(env: Mapping[str, str]) -> str:
    """``$XDG_CONFIG_HOME/mimomem/config.json`` (``~/.config`` when unset or relative)."""
    base = env.get("XDG_CONFIG_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(_home(env), ".config")
    return os.path.join(base, "mimomem", "config.json")


def enabled_hosts(env: Mapping[str, str]) -> tuple[str, ...]:
    """The hosts whose memory is read (see the module docstring); ``()`` when switched off."""
    raw = env.get(VARIABLE)
    if raw is not None and raw.strip():
        return _hosts_of(raw.strip().lower().replace(" ", "").split(","))
    value = _config_value(config_file(env))
    if value is None or value is True:
        return HOSTS
    if value is False:
        return ()
    if isinstance(value, list):
        return _hosts_of([str(v).lower() for v in value])
    return HOSTS  # a value of another shape: the default, as for a config that cannot be read


def _hosts_of(words: list[str]) -> tuple[str, ...]:
    if len(words) == 1 and words[0] in _OFF:
        return ()
    if len(words) == 1 and words[0] in _ON:
        return HOSTS
    return tuple(h for h in HOSTS if h in words)


def _config_value(path: str) -> object:
    """``host_memory`` of the config file, ``None`` when missing, unreadable or not JSON."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(64 * 1024))
    except (OSError, ValueError):
        return None
    return data.get(CONFIG_KEY) if isinstance(data, dict) else None


def claude_config_dir(env: Mapping[str, str]) -> str:
    """``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    configured = env.get("CLAUDE_CONFIG_DIR")
    return configured if configured else os.path.join(_home(env), ".claude")


def _java_hash(text: str) -> int:
    """The 32-bit ``(h << 5) - h + unit`` hash of ``text``'s UTF-16 units, as Claude Code computes it."""
    data = text.encode("utf-16-le", "surrogatepass")
    h = 0
    for i in range(0, len(data), 2):
        h = ((h << 5) - h + (data[i] | data[i + 1] << 8)) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def claude_project_key(path: str) -> str:
    """The folder name Claude Code gives ``path`` under ``<config>/projects/`` (module docstring)."""
    key = "".join(c if c.isascii() and c.isalnum() else "-" * (2 if ord(c) > 0xFFFF else 1) for c in path)
    if len(key) <= KEY_CHARS:
        return key
    return f"{key[:KEY_CHARS]}-{_base36(abs(_java_hash(path)))}"


def project_dir(cwd: str) -> str:
    """The directory Claude Code keys a project's memory by: the main repository's top directory
    for ``cwd`` inside git (a worktree's too), else ``cwd`` itself."""
    here = os.path.abspath(cwd)
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git):
            return here
        if os.path.isfile(dot_git):
            return _main_worktree(here, dot_git)
        parent = os.path.dirname(here)
        if parent == here:
            return os.path.abspath(cwd)
        here = parent


def _main_worktree(top: str, dot_git: str) -> str:
    """The main repository's directory of a linked worktree at ``top`` (``top`` when it cannot be told)."""
    try:
        with open(dot_git, encoding="utf-8") as handle:
            line = handle.read(4096).strip()
        if not line.startswith("gitdir:"):
            return top
        git_dir = os.path.normpath(os.path.join(top, line[len("gitdir:") :].strip()))
        common = git_dir
        try:
            with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
                common = os.path.normpath(os.path.join(git_dir, handle.read(4096).strip()))
        except OSError:
            pass
        return os.path.dirname(common) if os.path.basename(common) == ".git" else top
    except (OSError, UnicodeDecodeError):
        return top


def settings_files(env: Mapping[str, str], project: str | None) -> list[str]:
    """The Claude Code settings that may name ``autoMemoryDirectory``, the first that does winning:
    the project's local then shared settings, then the user's."""
    out = [os.path.join(project, ".claude", n) for n in ("settings.local.json", "settings.json")] if project else []
    return [*out, os.path.join(claude_config_dir(env), "settings.json")]


def _auto_memory_setting(env: Mapping[str, str], project: str | None) -> str | None:
    for path in settings_files(env, project):
        try:
            with open(path, "rb") as handle:
                data = json.loads(handle.read(1024 * 1024))
        except (OSError, ValueError):
            continue
        value = data.get("autoMemoryDirectory") if isinstance(data, dict) else None
        if isinstance(value, str) and value.strip():
            if value.startswith("~/"):
                return os.path.join(_home(env), value[2:])
            return value if os.path.isabs(value) else None
    return None


def claude_memory_dir(cwd: str | None, env: Mapping[str, str]) -> str | None:
    """Claude Code's auto-memory folder for a session started in ``cwd`` (``None``: no project)."""
    override = env.get("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE")
    if override and os.path.isabs(override):
        return os.path.normpath(override)
    if cwd is None:
        return None
    project = project_dir(cwd)
    configured = _auto_memory_setting(env, project)
    if configured is not None:
        return os.path.normpath(configured)
    base = env.get("CLAUDE_CODE_REMOTE_MEMORY_DIR") or claude_config_dir(env)
    return os.path.join(base, "projects", claude_project_key(project), "memory")


def sources(cwd: str | None, env: Mapping[str, str]) -> list[Source]:
    """Every host memory source for a session in ``cwd`` that the switch leaves on (present or not)."""
    hosts = enabled_hosts(env)
    out: list[Source] = []
    if "claude-code" in hosts:
        auto = claude_memory_dir(cwd, env)
        if auto is not None:
            out.append(Source("claude-code", auto, True, "auto"))
        out.append(Source("claude-code", os.path.join(claude_config_dir(env), "memory", "personal"), True, "account"))
    if "codex" in hosts:
        codex = env.get("CODEX_HOME") or os.path.join(_home(env), ".codex")
        for name in ("MEMORY.md", "memory_summary.md"):
            out.append(Source("codex", os.path.join(codex, "memories", name), False, "memories"))
    if "gemini" in hosts:
        out.append(Source("gemini", os.path.join(_home(env), ".gemini", "GEMINI.md"), False, "saved"))
        if cwd is not None:
            top = project_dir(cwd)
            for rel in ("GEMINI.md", os.path.join(".gemini", "GEMINI.md")):
                out.append(Source("gemini", os.path.join(top, rel), False, "saved"))
    return out


def inputs(cwd: str | None, env: Mapping[str, str]) -> list[str]:
    """Paths besides the sources whose change may change the sources: the switch's config file and
    Claude Code's settings files.  Not ``~/.claude`` nor its ``projects`` folder: the host writes there
    during a session (a plan stamping them would be rebuilt at every prompt), and a memory folder
    created later already shows as a changed stamp of its own path (absent, then present)."""
    project = project_dir(cwd) if cwd is not None else None
    return [config_file(env), *settings_files(env, project)]
