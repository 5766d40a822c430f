"""What a project or session id may look like: one safe path component.

Kept apart from :mod:`mimomem.tree.layout` (which imports the errors) so the ``SessionStart``
hook's served path can check a session id without importing more than ``re``.
"""

from __future__ import annotations

import re

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeGuard

SAFE_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")
"""Project and session ids: one path component, no leading dot, at most 128 characters."""


def is_safe_id(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a safe project or session id (:data:`SAFE_ID_RE`, and no ``..``)."""
    return isinstance(value, str) and SAFE_ID_RE.fullmatch(value) is not None and ".." not in value
