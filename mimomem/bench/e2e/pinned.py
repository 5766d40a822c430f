"""What keeps a bench run's injected text the same from run to run.

The SessionStart text names the memory files by their absolute path, and every entry a prompt
receives by its path under the memory root (``projects/<project id>/MEMORY.md:40``).  With a fresh
temporary directory and a fresh UUID4 project id per run, those names - and so the token counts, by
some 30 tokens - changed with every run.  A bench sandbox therefore lives at a fixed path
(:func:`pinned_root`: the lowest free ``<prefix><n>``, ``n`` = 0 when no other run is going on), and
each project's id is derived from its name (:func:`pin_project_id`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

OWNER = ".owner-pid"
"""The file in a pinned root naming the process that holds it (a root whose process is gone is reclaimed)."""

SLOTS = 64


@contextlib.contextmanager
def pinned_root(prefix: str, parent: Path | None = None) -> Iterator[Path]:
    """A new private directory ``<parent>/<prefix><n>`` (default parent: the system's temporary directory)
    with the lowest ``n`` no running process holds; removed on exit.  Two runs at once get two
    directories; one left by a killed run is reclaimed."""
    base = Path(parent) if parent is not None else Path(tempfile.gettempdir())
    path = _claim(base, prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _claim(base: Path, prefix: str) -> Path:
    for n in range(SLOTS):
        path = base / f"{prefix}{n}"
        for _ in range(2):  # a second try once a dead run's directory is removed
            try:
                path.mkdir(mode=0o700)
            except FileExistsError:
                if _held(path):
                    break
                shutil.rmtree(path, ignore_errors=True)
                continue
            (path / OWNER).write_text(str(os.getpid()), encoding="ascii")
            return path
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))  # every slot held: a random name, as before


def _held(path: Path) -> bool:
    """Whether a live process holds ``path`` (a directory just created, its owner file not yet written, is held)."""
    try:
        pid = int((path / OWNER).read_text(encoding="ascii"))
    except FileNotFoundError:
        return path.is_dir()
    except (OSError, ValueError):
        return True
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def project_id_for(project: str) -> str:
    """The id a bench project is given: a UUID derived from its name, the same in every run."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"mimomem-bench:{project}"))


def pin_project_id(git_dir: Path, project: str) -> None:
    """Write the project's derived id into ``git_dir`` where mimomem looks for it, unless one is there."""
    from mimomem.tree.project import ID_FILE

    target = git_dir / ID_FILE
    if not target.exists():
        target.write_text(project_id_for(project) + "\n", encoding="ascii")
