"""Where mimomem keeps caches that can be deleted at any time (jieba's dictionary, curated snapshots).

``$MIMOMEM_CACHE_DIR`` when set (an absolute path: a relative one is refused, since it would
be taken from whatever directory a hook runs in and put copies of memory into the user's
repository), else ``$XDG_CACHE_HOME/mimomem`` (``~/.cache`` when unset or relative, as the
XDG spec says).  Nothing is created here: each user makes its own
sub-directory when it first writes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from mimomem.common.light_typing import TYPE_CHECKING

if TYPE_CHECKING:  # the prompt hook's served path names its plan file without pathlib
    from pathlib import Path


CACHE_ENV = "MIMOMEM_CACHE_DIR"


def cache_root(env: Mapping[str, str] | None = None) -> str:
    """Where mimomem keeps caches (a string; ``env`` defaults to the process environment)."""
    env = os.environ if env is None else env
    explicit = env.get(CACHE_ENV)
    if explicit:
        if not os.path.isabs(explicit):
            from mimomem.errors import LocationError

            raise LocationError(
                f"{CACHE_ENV} must be an absolute path, got {explicit!r} (a relative one would put copies of "
                f"memory into whatever directory a hook runs in); set it to an absolute directory or unset it "
                f"to use $XDG_CACHE_HOME/mimomem"
            )
        return os.path.normpath(explicit)
    base = env.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: relative values are invalid and ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "mimomem")


def cache_dir() -> Path:
    """Where mimomem keeps caches that can be deleted at any time."""
    from pathlib import Path

    return Path(cache_root())
