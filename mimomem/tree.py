"""The memory tree on disk: where each layer lives, and the one gate every write passes.

``MemoryTree(root)`` knows the layer paths (global / project / session / task) and
writes, appends and deletes memory files only through :meth:`MemoryTree.write`,
:meth:`MemoryTree.append` and :meth:`MemoryTree.delete`, which all call the same
gate (:meth:`MemoryTree.check_write`).
"""

from __future__ import annotations

import os
from pathlib import Path

from . import locations
from .layout import check_id, check_task_id



class MemoryTree:
    """A memory tree rooted at ``root`` (default: ``<data>/memory``, see ``mimomem.locations``).

    ``write_enabled``: only a literal ``False`` switches memory writing off (MiMo-Code's
    rule: anything else, including ``None`` or junk, leaves writing on).  Reading and
    the path methods are never affected.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        write_enabled: object = True,
        mimocode: bool = False,
    ) -> None:
        self.root = Path(os.path.abspath(os.fspath(root))) if root is not None else locations.memory_root()
        self.write_enabled = write_enabled is not False
        self.mimocode = mimocode

    @classmethod
    def from_mimocode(
        cls, data: str | os.PathLike[str] | None = None, *, write_enabled: object = True
    ) -> MemoryTree:
        """Open an existing MiMo-Code tree in place (``$MIMOCODE_HOME/data/memory`` or XDG).

        Project ids are then read from (and created as) MiMo-Code's own
        ``<.git>/mimocode-project-id`` file, so both tools use the same ``projects/<pid>/``.
        """
        return cls(locations.mimocode_memory_root(data), write_enabled=write_enabled, mimocode=True)

    def __repr__(self) -> str:
        flags = "" if self.write_enabled else ", write_enabled=False"
        return f"MemoryTree({str(self.root)!r}{flags})"

    @property
    def data_dir(self) -> Path:
        """The data directory that holds this tree (the root's parent)."""
        return self.root.parent

    # --- layer paths (ids are validated; nothing is created) ---

    def global_memory(self) -> Path:
        """``global/MEMORY.md``: user-level memory shared by every project."""
        return self.root / "global" / "MEMORY.md"

    def project_dir(self, project_id: str) -> Path:
        """``projects/<pid>/``."""
        return self.root / "projects" / check_id(project_id, kind="project")

    def project_memory(self, project_id: str) -> Path:
        """``projects/<pid>/MEMORY.md``: the project's durable memory."""
        return self.project_dir(project_id) / "MEMORY.md"

    def project_topic(self, project_id: str, topic: str) -> Path:
        """``projects/<pid>/memory-<topic>.md``: spill-over of the project memory."""
        return self.project_dir(project_id) / f"memory-{check_id(topic, kind='topic')}.md"

    def session_dir(self, session_id: str) -> Path:
        """``sessions/<sid>/``."""
        return self.root / "sessions" / check_id(session_id, kind="session")

    def checkpoint(self, session_id: str) -> Path:
        """``sessions/<sid>/checkpoint.md``: the session checkpoint."""
        return self.session_dir(session_id) / "checkpoint.md"

    def checkpoint_topic(self, session_id: str, topic: str) -> Path:
        """``sessions/<sid>/checkpoint-<topic>.md``: spill-over of the checkpoint."""
        return self.session_dir(session_id) / f"checkpoint-{check_id(topic, kind='topic')}.md"

    def notes(self, session_id: str) -> Path:
        """``sessions/<sid>/notes.md``: the main agent's notes inbox."""
        return self.session_dir(session_id) / "notes.md"

    def tasks_dir(self, session_id: str) -> Path:
        """``sessions/<sid>/tasks/``."""
        return self.session_dir(session_id) / "tasks"

    def task_dir(self, session_id: str, task_id: str) -> Path:
        """``sessions/<sid>/tasks/<TID>/``: writable only by the subagent bound to TID."""
        return self.tasks_dir(session_id) / check_task_id(task_id)

    def progress(self, session_id: str, task_id: str) -> Path:
        """``sessions/<sid>/tasks/<TID>/progress.md``: the task's progress journal."""
        return self.task_dir(session_id, task_id) / "progress.md"
