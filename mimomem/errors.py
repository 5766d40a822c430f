"""Exception classes shared by every part of mimomem (and by both implementations)."""

from __future__ import annotations


class MimomemError(Exception):
    """Base class of every error mimomem raises on purpose."""
