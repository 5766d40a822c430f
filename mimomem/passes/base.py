"""What every pass shares: where it works, the evidence window, planned changes and the report.

A pass first *plans*: it reads the memory files and the history and produces
:class:`Change` objects (old text, new text) and a :class:`PassReport`.  ``--dry-run``
shows the changes as unified diffs; otherwise each change is applied with
:meth:`MemoryTree.update <mimomem.tree.memory_tree.MemoryTree.update>`, which re-reads the live
file under the tree's lock, so the pass merges into what is there *now*, and passes the
write gate as the pass's own agent (``dream``, ``distill``, ``checkpoint-writer``).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mimomem.common.private import private_dir
from mimomem.common.secrets import redact_secrets
from mimomem.history.evidence import Evidence, Window
from mimomem.history.history_store import HistoryStore
from mimomem.tree.where import Where
from mimomem.tree.writer import Writer

DAY_MS = 86_400_000


@dataclass
class PassContext:
    """One pass's inputs: the caller's memory location, the history store and the time window."""

    where: Where
    store: HistoryStore
    project_dir: str
    now: int
    days: int | None = None
    _evidence: Evidence | None = field(default=None, repr=False)

    @classmethod
    def open(
        cls,
        where: Where,
        store: HistoryStore,
        *,
        cwd: str | os.PathLike[str] | None = None,
        days: int | None = None,
        now: int | None = None,
    ) -> PassContext:
        """The context for ``where``: history of its repository (or of ``cwd`` outside git)."""
        if days is not None and days < 0:
            raise ValueError(f"days must be 0 (all history) or more, got {days}")
        root = where.worktree if where.worktree is not None else Path(os.path.realpath(cwd or os.getcwd()))
        return cls(where, store, str(root), int(time.time() * 1000) if now is None else now, days or None)

    def window(self, *, session_id: str | None = None) -> Window:
        """This project's history over the last ``days`` (all of it when ``days`` is None)."""
        since = None if self.days is None else self.now - self.days * DAY_MS
        return Window(project=self.project_dir, since=since, session_id=session_id)

    def evidence(self) -> Evidence:
        """The evidence of :meth:`window`, loaded once."""
        if self._evidence is None:
            self._evidence = Evidence.gather(self.store, self.window())
        return self._evidence

    def writer(self, agent: str) -> Writer:
        """``agent`` writing in this project and session, as the write gate judges it."""
        return self.where.writer(agent)


@dataclass
class Change:
    """A planned change of one file; ``apply`` gets the live text and returns the text to write."""

    path: Path
    old: str | None
    new: str
    apply: Callable[[str | None], str | None]

    def diff(self) -> str:
        """The change as a unified diff (``/dev/null`` for a new file)."""
        before = [] if self.old is None else self.old.splitlines(keepends=True)
        after = self.new.splitlines(keepends=True)
        name = str(self.path)
        lines = difflib.unified_diff(before, after, "/dev/null" if self.old is None else f"a{name}", f"b{name}")
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass
class PassReport:
    """What a pass found and did, by heading (``Consolidated``, ``Skipped``, ``Health``…)."""

    name: str
    headings: tuple[str, ...]
    sections: dict[str, list[str]] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    undo: list[str] = field(default_factory=list)
    dry_run: bool = False

    def add(self, heading: str, line: str) -> None:
        """Add ``line`` under ``heading``."""
        self.sections.setdefault(heading, []).append(line)

    def render(self, *, diffs: bool = False) -> str:
        """The report as Markdown (with the diffs of a dry run when ``diffs``)."""
        out = [f"# mimomem {self.name}" + (" (dry run: nothing written)" if self.dry_run else "")]
        for heading in self.headings:
            out += ["", f"## {heading}"]
            out += [f"- {line}" for line in self.sections.get(heading, [])] or ["- (none)"]
        if self.written:
            out += ["", "## Written", *[f"- {path}" for path in self.written]]
        if self.undo:
            out += ["", "## Undo copies", *[f"- {line}" for line in self.undo]]
        if diffs and self.changes:
            out += ["", "## Diff", "", "```diff", *[c.diff().rstrip("\n") for c in self.changes], "```"]
        return redact_secrets("\n".join(out) + "\n")  # printed, and logged by the automatic passes

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (diffs included)."""
        return {
            "pass": self.name,
            "dry_run": self.dry_run,
            **{
                h.lower().replace(" ", "_"): [redact_secrets(s) for s in self.sections.get(h, [])]
                for h in self.headings
            },
            "written": self.written,
            "undo": self.undo,
            "diffs": [redact_secrets(c.diff()) for c in self.changes],
        }


def apply_changes(ctx: PassContext, report: PassReport, agent: str, *, dry_run: bool) -> None:
    """Write ``report.changes`` through the tree as ``agent`` (unless ``dry_run``).

    The text a change replaces is first saved as an undo copy (:func:`save_undo`), named in
    the report."""
    report.dry_run = dry_run
    if dry_run:
        return
    by = ctx.writer(agent)
    tree = ctx.where.tree
    for change in report.changes:
        saved: list[Path] = []
        path, changed = tree.update(change.path, _keeping_undo(tree, change, saved), by)
        if changed:
            report.written.append(str(path))
            report.undo += [f"{path} was {copy} (restore: cp {copy} {path})" for copy in saved]


def _keeping_undo(tree: Any, change: Change, saved: list[Path]) -> Callable[[str | None], str | None]:
    def apply(live: str | None) -> str | None:
        new = change.apply(live)
        if live is not None and new is not None and new != live:
            saved.append(save_undo(tree, change.path, live))
        return new

    return apply


UNDO_DIR = "undo"
"""Beside the memory tree (``<data>/undo/``): the text every pass replaced, numbered per file."""


UNDO_KEPT = 10
"""Undo copies kept per file: the newest ten (each pass that rewrote it; older ones are removed)."""


def save_undo(tree: Any, path: Path, text: str) -> Path:
    """Keep ``text`` (``path``'s content before a pass rewrote it) as ``<data>/undo/<path>.<N>``.

    ``N`` counts up from the highest copy there and an existing copy is never overwritten
    (``O_EXCL``); only the newest :data:`UNDO_KEPT` copies of a file are kept (before: every
    session's promotion left one more, 499 copies of ``MEMORY.md`` after 500 sessions).  The
    copy is private to the user (0600), since memory may quote what the user said."""
    root = Path(os.path.realpath(tree.root))
    real = Path(os.path.realpath(path))
    rel = real.relative_to(root) if real.is_relative_to(root) else Path("outside", *real.parts[1:])
    folder = Path(tree.data_dir) / UNDO_DIR / rel.parent
    private_dir(folder)
    numbers = _copies(folder, rel.name)
    number = 1 + max(numbers, default=0)
    data = text.encode("utf-8")
    while True:
        copy = folder / f"{rel.name}.{number}"
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            number += 1
            continue
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        break
    for old in sorted(numbers)[: max(0, len(numbers) + 1 - UNDO_KEPT)]:
        with contextlib.suppress(OSError):
            os.unlink(folder / f"{rel.name}.{old}")
    return copy


def _copies(folder: Path, name: str) -> list[int]:
    """The numbers ``N`` of the undo copies ``<name>.<N>`` in ``folder``."""
    found = []
    for entry in os.scandir(folder):
        head, _, tail = entry.name.rpartition(".")
        if head == name and tail.isdigit() and tail.isascii():
            found.append(int(tail))
    return found


def read_text(path: Path) -> str | None:
    """The file's text, or None when it does not exist."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
