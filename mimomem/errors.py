"""Exception classes shared by every part of mimomem (and by both implementations)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mimomem.common.secrets import SecretFinding


class MimomemError(Exception):
    """Base class of every error mimomem raises on purpose."""


# --- memory tree (locations, project identity, layout, write gate) ---


class LocationError(MimomemError, ValueError):
    """A data directory or memory root setting is unusable."""


class InvalidMemoryId(MimomemError, ValueError):
    """A project, session or task id is not a safe single path component."""


class ProjectIdError(MimomemError, RuntimeError):
    """The project id file in the git directory is unreadable or holds an unsafe value."""


class WriteDenied(MimomemError, PermissionError):
    """The write gate refused a write; the message says which paths are allowed."""


class WritingDisabled(WriteDenied):
    """Memory writing is switched off; nothing in the memory tree may be written."""


class BadMemoryPath(WriteDenied):
    """The target is not a valid ``<scope>/<scope_id>/<key>.md`` memory path."""


class OutsideAllowedArea(WriteDenied):
    """The target lies outside the memory tree and the worktree (or the agent's sandbox)."""


class NotInWriterAllowlist(WriteDenied):
    """The checkpoint writer may only write its own allowlisted memory files."""


class ReservedTaskPath(WriteDenied):
    """``tasks/<TID>/`` is writable only by the subagent bound to that task."""


class NotOwner(WriteDenied):
    """The target belongs to another session or project."""


class SecretRefused(MimomemError, ValueError):
    """Text about to be written contains a likely secret (kind and line given, value never)."""

    def __init__(self, where: str, findings: Sequence[SecretFinding]) -> None:
        self.where = where
        self.findings = list(findings)
        shown = "; ".join(f.describe() for f in self.findings[:5])
        more = f" and {len(self.findings) - 5} more" if len(self.findings) > 5 else ""
        super().__init__(
            f"refused to write {where}: likely secret: {shown}{more}. Remove it (store a reference "
            f"such as an environment variable name instead), or, if it is not a secret, add the "
            f"marker `mimomem:allow-secret` on that line"
        )
