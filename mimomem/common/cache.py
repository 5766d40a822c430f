"""Where mimomem keeps caches that can be deleted at any time (jieba's dictionary, curated snapshots).

``$MIMOMEM_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/mimomem`` (``~/.cache`` when unset
or relative, as the XDG spec says).  Nothing is created here: each user makes its own
sub-directory when it first writes.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """Where mimomem keeps caches that can be deleted at any time."""
    explicit = os.environ.get("MIMOMEM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: relative values are invalid and ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mimomem"
