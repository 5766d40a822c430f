"""``mimomem install / uninstall claude-code``: mimomem's hooks in a Claude Code settings file.

Whatever the file already holds is kept; a mimomem hook already present is not added twice (one
from another installation, or the old PATH-dependent ``mimomem hook claude-code``, is pointed at
this one).  Before the file is replaced (atomically) the previous one is copied to the next free
``<file>.bak.N``: backups are numbered and never overwritten.  A symlinked settings file is
updated at its target.  Numbers are kept only when they are written back with the same value,
so a file holding one that cannot be (``1e400``) is refused rather than rewritten as invalid JSON.

``uninstall`` removes exactly the entries mimomem's install adds; when nothing else changed
since, the file is restored byte for byte from the backup that matches (or removed if install
created it), otherwise the user's edits are kept.
"""

from __future__ import annotations

import contextlib
import json
import os
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, NamedTuple

from mimomem.common.nofollow import open_nofollow
from mimomem.errors import SettingsFileError, UsageError
from mimomem.hooks.command import hook_command, is_mimomem_hook

EVENTS = ("SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd")
TIMEOUT_SECONDS = 10
BACKUP_SUFFIX = ".bak."
"""Backups are ``settings.json.bak.1``, ``.bak.2``, ...: the next free number, never overwritten."""


def hooks_config(command: str | None = None) -> dict[str, Any]:
    """The ``hooks`` settings that run ``command`` (default: this installation's) on every event."""
    entry = {"type": "command", "command": command or hook_command(), "timeout": TIMEOUT_SECONDS}
    return {"hooks": {event: [{"matcher": "", "hooks": [dict(entry)]}] for event in EVENTS}}


def settings_path(scope: str, project: str | os.PathLike[str] | None = None) -> Path:
    """``~/.claude/settings.json`` (user) or ``<project>/.claude/settings.json`` (project)."""
    if scope == "user":
        return Path(os.path.expanduser("~")) / ".claude" / "settings.json"
    if scope == "project":
        return Path(os.path.abspath(os.fspath(project or os.getcwd()))) / ".claude" / "settings.json"
    raise UsageError(f"unknown settings scope {scope!r}; use 'user' or 'project'")


def merge(settings: dict[str, Any], command: str) -> tuple[dict[str, Any], list[str]]:
    """``settings`` with mimomem's hooks added (or repointed at ``command``); the events changed."""
    merged = json.loads(json.dumps(settings))
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise SettingsFileError("the settings file's 'hooks' is not an object; fix it by hand, then retry")
    changed = []
    for event, groups in hooks_config(command)["hooks"].items():
        current = hooks.setdefault(event, [])
        if not isinstance(current, list):
            raise SettingsFileError(f"the settings file's hooks.{event} is not a list; fix it by hand, then retry")
        ours = [h for h in _entries(current) if is_mimomem_hook(h.get("command"))]
        if not ours:
            current.extend(groups)
            changed.append(event)
        elif any(h["command"] != command for h in ours):
            for h in ours:
                h["command"] = command
            changed.append(event)
    return merged, changed


def strip(settings: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``settings`` without mimomem's hook entries (and the groups, events, ``hooks`` left empty)."""
    stripped = json.loads(json.dumps(settings))
    hooks = stripped.get("hooks")
    if not isinstance(hooks, dict):
        return stripped, []
    removed = []
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list) or not any(is_mimomem_hook(h.get("command")) for h in _entries(groups)):
            continue
        removed.append(event)
        for group in groups:
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                group["hooks"] = [
                    h for h in group["hooks"] if not (isinstance(h, dict) and is_mimomem_hook(h.get("command")))
                ]
        hooks[event] = [g for g in groups if not (isinstance(g, dict) and g.get("hooks") == [])]
        if not hooks[event]:
            del hooks[event]
    if removed and not hooks:
        del stripped["hooks"]
    return stripped, removed


def _entries(groups: list[Any]) -> list[dict[str, Any]]:
    """The hook entries (objects) of an event's groups."""
    return [
        h
        for g in groups
        if isinstance(g, dict) and isinstance(g.get("hooks"), list)
        for h in g["hooks"]
        if isinstance(h, dict)
    ]


class Change(NamedTuple):
    """What ``install`` or ``uninstall`` did to the settings file."""

    path: Path  # the file written (a symlink's target)
    events: list[str]  # events whose mimomem hook was added, repointed or removed
    backup: Path | None  # where the previous file was copied, if it existed
    restored: bool = False  # uninstall: the file is byte for byte what it was before install


def install(path: Path, command: str | None = None) -> Change:
    """Merge the hooks into the settings file at ``path`` (its directory must exist)."""
    from mimomem.common.files import atomic_write

    target = _target(path)
    raw, current = read_settings(target)
    merged, changed = merge(current, command or hook_command())
    if not changed:
        return Change(target, [], None)
    backup = _backup(target, raw)
    atomic_write(target, dumps(merged), private=False)  # the host's settings keep their mode
    return Change(target, changed, backup)


def uninstall(path: Path) -> Change:
    """Remove what ``install`` added to the settings file at ``path``."""
    from mimomem.common.files import atomic_write

    target = _target(path)
    raw, current = read_settings(target)
    stripped, removed = strip(current)
    if not removed:
        return Change(target, [], None)
    original = _matching_backup(target, stripped)
    if original is not None:  # nothing else changed: the file as it was, and its backup (the same bytes) gone
        atomic_write(target, original[1], private=False)
        original[0].unlink()
        return Change(target, removed, None, restored=True)
    if stripped == {} and not _backups(target):
        _remove_created(target)  # install created the file and it holds nothing else
        return Change(target, removed, None, restored=True)
    backup = _backup(target, raw)
    atomic_write(target, dumps(stripped), private=False)
    return Change(target, removed, backup)


def _target(path: Path) -> Path:
    """The file to write: ``path``, or a symlink's final target.

    Its directory (``.claude``) is created if missing, but only inside a directory that exists:
    a mistyped project is an error, not a new tree of directories.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if not target.parent.is_dir():
        if not target.parent.parent.is_dir():
            raise SettingsFileError(f"{target.parent.parent} does not exist; check the directory, then retry")
        target.parent.mkdir(exist_ok=True)
    if target.exists() and not target.is_file():
        raise SettingsFileError(f"{target} is not a regular file; move it away, then retry")
    return target


def _remove_created(path: Path) -> None:
    """Delete ``path``, and its directory if that is left empty (install created both)."""
    path.unlink()
    with contextlib.suppress(OSError):  # other files live there
        path.parent.rmdir()


def read_settings(path: Path) -> tuple[bytes | None, dict[str, Any]]:
    """The settings file's bytes (``None`` if missing) and its object, or a ``SettingsFileError``."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None, {}
    return raw, loads(raw, path)


def loads(raw: bytes, path: Path) -> dict[str, Any]:
    """The JSON object in ``raw``; refuses what ``dumps`` could not write back unchanged."""
    try:
        loaded = json.loads(
            raw.decode("utf-8"), parse_float=_exact_float, parse_constant=_no_constant, object_pairs_hook=_unique_keys
        )
    except SettingsFileError as exc:
        raise SettingsFileError(f"{path}: {exc}; fix it by hand, then retry") from None
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise SettingsFileError(f"{path} is not valid JSON ({exc}); fix it or move it away, then retry") from None
    if not isinstance(loaded, dict):
        raise SettingsFileError(f"{path} does not hold a JSON object; fix it or move it away, then retry")
    return loaded


def dumps(settings: dict[str, Any]) -> bytes:
    """The file's new bytes: indented JSON, non-ASCII kept as is where UTF-8 can hold it."""
    text = json.dumps(settings, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate escape (\ud800) stays an escape
        return (json.dumps(settings, indent=2, allow_nan=False) + "\n").encode("ascii")


def _exact_float(text: str) -> float:
    value = float(text)
    try:
        same = Decimal(repr(value)) == Decimal(text)
    except InvalidOperation:  # inf, nan
        same = False
    if not same:
        raise SettingsFileError(f"the number {text[:40]} cannot be written back as the same JSON number")
    return value


def _no_constant(text: str) -> Any:
    raise SettingsFileError(f"{text} is not a JSON value")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise SettingsFileError(f"the key {key[:40]!r} appears twice in one object (only one would be kept)")
        result[key] = value
    return result


def _backups(path: Path) -> list[Path]:
    """The numbered backups of ``path``, newest (highest number) first."""
    numbered = []
    for sibling in path.parent.glob(path.name + BACKUP_SUFFIX + "*"):
        number = sibling.name[len(path.name + BACKUP_SUFFIX) :]
        if number.isdigit():
            numbered.append((int(number), sibling))
    return [p for _, p in sorted(numbered, reverse=True)]


def _backup(path: Path, raw: bytes | None) -> Path | None:
    """Copy ``raw`` (the file's current bytes) to the next free numbered backup; never overwrite one."""
    if raw is None:
        return None
    backups = _backups(path)
    number = int(backups[0].name.rsplit(".", 1)[1]) + 1 if backups else 1
    while True:
        backup = path.with_name(f"{path.name}{BACKUP_SUFFIX}{number}")
        try:
            fd = open_nofollow(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:  # another install got there first
            number += 1
            continue
        with os.fdopen(fd, "wb") as file:
            file.write(raw)
        return backup


def _matching_backup(path: Path, stripped: dict[str, Any]) -> tuple[Path, bytes] | None:
    """The newest backup that holds exactly ``stripped`` and no mimomem hook (the file before install)."""
    for backup in _backups(path):
        try:
            raw = backup.read_bytes()
            before, ours = strip(loads(raw, backup))
        except (OSError, SettingsFileError):
            continue
        if not ours and before == stripped:
            return backup, raw
    return None
