"""``mimomem install claude-code``: merge mimomem's hooks into a Claude Code settings file.

Whatever the file already holds is kept; a mimomem hook already present is not added
twice; the previous file is copied to ``<file>.bak`` before the new one replaces it
atomically.  ``--print`` shows the JSON to paste instead of writing anything.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from mimomem.errors import UsageError

HOOK_COMMAND = "mimomem hook claude-code"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd")
TIMEOUT_SECONDS = 10


def hooks_config(command: str = HOOK_COMMAND) -> dict[str, Any]:
    """The ``hooks`` settings that run ``command`` on every event mimomem handles."""
    entry = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    return {"hooks": {event: [{"matcher": "", "hooks": [dict(entry)]}] for event in EVENTS}}


def settings_path(scope: str, cwd: str | os.PathLike[str] | None = None) -> Path:
    """``~/.claude/settings.json`` (user) or ``<cwd>/.claude/settings.json`` (project)."""
    if scope == "user":
        return Path(os.path.expanduser("~")) / ".claude" / "settings.json"
    if scope == "project":
        return Path(os.path.abspath(os.fspath(cwd or os.getcwd()))) / ".claude" / "settings.json"
    raise UsageError(f"unknown settings scope {scope!r}; use 'user' or 'project'")


def merge(settings: dict[str, Any], command: str = HOOK_COMMAND) -> tuple[dict[str, Any], list[str]]:
    """``settings`` with mimomem's hooks added; also the events that were added."""
    merged = json.loads(json.dumps(settings))
    hooks = merged.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise UsageError("the settings file's 'hooks' is not an object; fix it by hand, then retry")
    added = []
    for event, groups in hooks_config(command)["hooks"].items():
        current = hooks.setdefault(event, [])
        if not isinstance(current, list):
            raise UsageError(f"the settings file's hooks.{event} is not a list; fix it by hand, then retry")
        if not any(_runs(group, command) for group in current):
            current.extend(groups)
            added.append(event)
    return merged, added


def _runs(group: Any, command: str) -> bool:
    return isinstance(group, dict) and any(
        isinstance(h, dict) and h.get("command") == command for h in group.get("hooks", []) or []
    )


def install(path: Path, command: str = HOOK_COMMAND) -> list[str]:
    """Merge the hooks into the settings file at ``path``; returns the events added."""
    from mimomem.common.files import atomic_write

    current: dict[str, Any] = {}
    if path.exists():
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path} is not valid JSON ({exc}); fix it or move it away, then retry") from None
        if not isinstance(loaded, dict):
            raise UsageError(f"{path} does not hold a JSON object; fix it or move it away, then retry")
        current = loaded
    merged, added = merge(current, command)
    if not added:
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        shutil.copy2(path, path.with_name(path.name + ".bak"))
    atomic_write(path, json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    return added
