"""The write gate: may ``agent`` write ``target``, and if not, what may it write instead.

Every change :class:`~mimomem.tree.memory_tree.MemoryTree` makes passes :func:`check_write`
first; this module holds the whole decision and nothing else (no file is opened here).
The verdict is taken on the fully resolved real path (symlinks followed, ``..`` folded),
so no spelling of a path can change it.  The rules, in order:

0. The agent name is checked first (:func:`mimomem.tree.agents.check_agent`): control
   characters and look-alikes of a restricted agent (``checkpoint‐writer``, ``dгeam``)
   are refused, so a near miss never runs with the main agent's rights.
1. A target with a NUL byte, a name that is not UTF-8 (surrogates in the ``str``) or
   longer than :data:`~mimomem.tree.names.MAX_NAME_BYTES` (room for the atomic write's
   temp file), or that names a case / Unicode-compatibility variant of the memory root,
   the worktree or a reserved name (``sessions``, ``tasks``, ``MEMORY.md``,
   ``checkpoint.md``, ``.git``…), is refused: on case-insensitive or
   normalization-insensitive filesystems (macOS, Windows) such a name opens the
   protected file itself.  Free-form names are written exactly as given (no
   normalization), so what was judged is what is written.
2. Inside the memory tree:

   - writing disabled (``write_enabled=False``) refuses everything;
   - only ``global/<key>.md``, ``projects/<pid>/<key>.md`` and
     ``sessions/<sid>/<key>.md`` shapes (no sub-directories, MiMo-Code's
     ``<scope>/<id>/<key>.md``), no hidden components; a task's own
     ``sessions/<sid>/tasks/<TID>/`` is the one deeper area (below);
   - ``sessions/<sid>/tasks/`` is reserved: the subagent bound to ``task_id`` may write
     its own ``tasks/<TID>/**.md`` and the checkpoint writer ``tasks/<TID>/<file>.md``;
     nobody else writes there;
   - an agent bound to a task writes nothing else in the tree;
   - ``checkpoint-writer`` may write only its project's ``MEMORY.md`` /
     ``memory-<topic>.md`` and its session's ``checkpoint.md`` /
     ``checkpoint-<topic>.md`` / ``notes.md`` (plus the task files above);
   - ownership: ``sessions/<sid>/`` must be the caller's ``session_id`` and
     ``projects/<pid>/`` its ``project_id``.  ``allow_foreign=True`` lifts this one
     rule (for a user's own maintenance tools, never for agents).
3. Outside the tree: ``checkpoint-writer`` writes nothing; ``dream`` and ``distill``
   only ``<worktree>/.mimomem/`` (a memory area, refused too when writing is
   disabled), and ``distill`` also the skill files it creates,
   ``<worktree>/.claude/skills/<name>/SKILL.md`` (``name`` lower-case letters, digits
   and hyphens); any other agent only inside ``worktree`` (never its ``.git``).
   Everything else is refused.

4. Reserved for one role (:func:`mimomem.tree.agents.role_of`: user, main agent, subagent,
   checkpoint writer, pass), whatever the front end (CLI, MCP server, hooks, passes):

   - ``global/`` is the user's: only ``user``, ``dream`` and ``distill`` (which act for
     the user) write it; an agent's text would reach every other project's sessions;
   - ``sessions/<sid>/checkpoint.md`` / ``checkpoint-<topic>.md`` only the checkpoint
     writer (and the user); the main agent notes what it found, the checkpoint pass folds it in;
   - ``<worktree>/.memory/`` (curated memory) nobody through the tree: it is written by
     ``remember``, whose rules are proposals until the user accepts them.

A refusal is a ``WriteDeniedError`` subclass whose message lists what the caller *may*
write (see :meth:`WriteGate.allowed`).
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path
from typing import Protocol

from mimomem.errors import (
    BadMemoryPathError,
    InvalidFileNameError,
    InvalidMemoryIdError,
    NotInWriterAllowlistError,
    NotOwnerError,
    OutsideAllowedAreaError,
    ReservedForRoleError,
    ReservedTaskPathError,
    WritingDisabledError,
)
from mimomem.tree.agents import (
    CHECKPOINT_WRITER,
    RESTRICTED_AGENTS,
    SANDBOXED_AGENTS,
    USER,
    check_agent,
    role_of,
)
from mimomem.tree.layout import TASK_ID_RE, check_id, check_task_id
from mimomem.tree.names import MAX_NAME_BYTES, NAME_MAX, is_utf8, printable
from mimomem.tree.vocabulary import LAYER_DIRS
from mimomem.tree.writer import Writer


class GatedTree(Protocol):
    """What the gate needs to know about a memory tree (``MemoryTree`` has it)."""

    root: Path
    write_enabled: bool
    worktree_dotdir: str


def check_write(tree: GatedTree, target: str | os.PathLike[str], by: Writer) -> Path:
    """Decide whether ``by`` may write ``target`` in ``tree``; return the real path to write to.

    ``by`` is the whole caller (:class:`~mimomem.tree.writer.Writer`): its ``agent``, session,
    project, task and worktree, ``allow_foreign`` and ``delegated`` (a pass, or the checkpoint
    writer, worded by the host agent's own model, whose text is the agent's: ``mimomem write
    --agent dream`` typed in an agent's shell): global memory stays closed to a delegated writer.

    Raises a ``WriteDeniedError`` subclass (the rules are in this module's docstring) or
    ``InvalidMemoryIdError`` for a malformed id argument.  A relative ``target`` is taken
    relative to ``by.worktree`` (or the current directory when no worktree is given).
    """
    return WriteGate(tree, by).judge(target)


# --- reserved names and their look-alikes ---

_TREE_RESERVED = ("global", "projects", "sessions", "tasks", "MEMORY.md", "checkpoint.md", "notes.md", "progress.md")
_TREE_RESERVED_PREFIXES: tuple[str, ...] = ("memory-", "checkpoint-")
_WORKTREE_RESERVED = (".git", ".mimomem", ".mimocode", ".memory")
CURATED_DIR = ".memory"
"""The project's curated memory root inside the worktree: written only by the curated store."""


def fold(text: str) -> str:
    """The spelling a forgiving filesystem sees: NFKC, case folded, without format
    characters (HFS+ ignores U+200C, U+FEFF…) and, per component, without trailing
    dots and spaces (NTFS drops them)."""
    kept = "".join(ch for ch in unicodedata.normalize("NFKC", text) if unicodedata.category(ch) != "Cf")
    return os.sep.join(part.rstrip(". ") for part in kept.casefold().split(os.sep))


SKILL_NAME_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
"""Skill directory names ``distill`` may create under ``<worktree>/.claude/skills/``."""

_FOLDED_TREE = {fold(name): name for name in _TREE_RESERVED}
_FOLDED_WORKTREE = {fold(name): name for name in _WORKTREE_RESERVED}


# --- path arithmetic on resolved, absolute paths ---


def _under(base: str, target: str) -> bool:
    return target == base or target.startswith(base.rstrip(os.sep) + os.sep)


def _strictly_under(base: str, target: str) -> bool:
    return target != base and _under(base, target)


def _rel(base: str, target: str) -> list[str]:
    return target[len(base.rstrip(os.sep)) + 1 :].split(os.sep)


# --- the decision ---


class WriteGate:
    """One caller's gate: its identity and the resolved areas every target is judged against."""

    def __init__(self, tree: GatedTree, by: Writer) -> None:
        self.tree = tree
        self.agent = check_agent(by.agent)
        self.sid = None if by.session_id is None else check_id(by.session_id, kind="session")
        self.pid = None if by.project_id is None else check_id(by.project_id, kind="project")
        self.tid = None if by.task_id is None else check_task_id(by.task_id)
        self.role = role_of(self.agent, self.tid)
        self.delegated = by.delegated is True
        self.allow_foreign = by.allow_foreign is True
        self.root = os.path.realpath(tree.root)
        self.worktree: str | None = None
        worktree = by.worktree
        if worktree is not None:
            if not os.fspath(worktree):
                raise ValueError("worktree is empty; pass the worktree directory, or None (or '/') when there is none")
            wt = os.path.realpath(os.fspath(worktree))
            if "\x00" in wt:
                raise BadMemoryPathError("worktree path contains a NUL byte")
            self.worktree = None if wt == os.sep else wt  # MiMo: "/" means "not in git"
        self.dotdir = None if self.worktree is None else os.path.join(self.worktree, tree.worktree_dotdir)

    # -- resolving --

    def resolve(self, target: str | os.PathLike[str]) -> str:
        raw = os.fspath(target)
        if not isinstance(raw, str):
            raise BadMemoryPathError(f"target must be a str path, not {type(raw).__name__}")
        if "\x00" in raw:
            raise BadMemoryPathError(f"target {raw!r} contains a NUL byte; nothing was written. {self.allowed()}")
        if not is_utf8(raw):
            raise InvalidFileNameError(
                f"target {printable(raw)!r} is not valid UTF-8 (undecodable bytes shown as \\xNN); "
                f"name files in UTF-8; nothing was written. {self.allowed()}"
            )
        if not raw:
            raise BadMemoryPathError(f"target is empty. {self.allowed()}")
        if not os.path.isabs(raw):
            raw = os.path.join(self.worktree or os.getcwd(), raw)
        real = os.path.realpath(raw)
        # realpath stops at a symlink loop and returns a path that still holds a link.
        existing = real
        while not os.path.lexists(existing):
            existing = os.path.dirname(existing)
        if os.path.islink(existing) or os.path.realpath(existing) != existing:
            raise BadMemoryPathError(f"target {raw!r} goes through a symlink loop; nothing was written")
        return real

    # -- the verdict --

    def judge(self, target: str | os.PathLike[str]) -> Path:
        real = self.resolve(target)
        shown = f"{os.fspath(target)!s}" + ("" if real == os.fspath(target) else f" (resolves to {real})")
        self.refuse_long_names(real, shown)
        self.refuse_variants(real, shown)
        if _strictly_under(self.root, real):
            self.judge_memory(real, shown)
        elif real == self.root or _under(real, self.root):
            raise OutsideAllowedAreaError(
                f"{shown} is the memory root or one of its parents, not a file. {self.allowed()}"
            )
        else:
            self.judge_outside(real, shown)
        return Path(real)

    def refuse_long_names(self, real: str, shown: str) -> None:
        """Names the disk cannot hold, or that leave no room for the atomic write's temp file."""
        parts = real.split(os.sep)
        for part in parts:
            if len(part.encode("utf-8")) > NAME_MAX:
                raise InvalidFileNameError(
                    f"{shown}: a name of {len(part.encode('utf-8'))} bytes is longer than the {NAME_MAX} bytes a "
                    f"file name may have; use a shorter name. {self.allowed()}"
                )
        size = len(parts[-1].encode("utf-8"))
        if size > MAX_NAME_BYTES:
            raise InvalidFileNameError(
                f"{shown}: the name is {size} bytes; at most {MAX_NAME_BYTES} bytes (UTF-8) can be written "
                f"atomically (the temporary file beside it needs the rest of {NAME_MAX}); use a shorter name. "
                f"{self.allowed()}"
            )

    def refuse_variants(self, real: str, shown: str) -> None:
        folded = fold(real)
        for area in filter(None, (self.root, self.dotdir, self.worktree)):
            if _under(fold(area), folded) and not _under(area, real):
                raise BadMemoryPathError(
                    f"{shown} differs from {area} only in letter case or Unicode form; "
                    f"use the exact spelling. {self.allowed()}"
                )
        if _strictly_under(self.root, real):
            parts, reserved, prefixes = _rel(self.root, real), _FOLDED_TREE, _TREE_RESERVED_PREFIXES
        elif self.worktree is not None and _strictly_under(self.worktree, real):
            parts, reserved, prefixes = _rel(self.worktree, real), _FOLDED_WORKTREE, ()
        else:
            return
        for part in parts:
            canonical = reserved.get(fold(part))
            if canonical is not None and part != canonical:
                raise BadMemoryPathError(
                    f"{shown}: name {part!r} is a variant of the reserved {canonical!r}. {self.allowed()}"
                )
            for prefix in prefixes:
                if fold(part).startswith(prefix) and not part.startswith(prefix):
                    raise BadMemoryPathError(
                        f"{shown}: name {part!r} must start with lower-case {prefix!r}. {self.allowed()}"
                    )

    def judge_memory(self, real: str, shown: str) -> None:
        if not self.tree.write_enabled:
            raise WritingDisabledError(self.disabled_message(shown))
        parts = _rel(self.root, real)
        self.check_shape(parts, shown)
        scope = parts[0]
        if scope == "sessions" and len(parts) >= 4 and parts[2] == "tasks":
            self.judge_task_path(parts, shown)
            return
        if self.tid is not None:
            raise ReservedTaskPathError(
                f"{shown}: an agent bound to task {self.tid} may write only its own task directory. {self.allowed()}"
            )
        if self.agent == CHECKPOINT_WRITER:
            self.judge_writer(parts, shown)
        if len(parts) > (2 if scope == "global" else 3):
            raise BadMemoryPathError(
                f"{shown}: memory files sit directly in global/, projects/<pid>/ or sessions/<sid>/ "
                f"(no sub-directories; only a task writes below sessions/<sid>/tasks/<TID>/). {self.allowed()}"
            )
        self.judge_role(parts, shown)
        self.judge_owner(parts, shown)

    def check_shape(self, parts: list[str], shown: str) -> None:
        scope = parts[0]
        if scope not in LAYER_DIRS:
            raise BadMemoryPathError(
                f"{shown}: memory files live under global/, projects/<pid>/ or sessions/<sid>/. {self.allowed()}"
            )
        if len(parts) < (2 if scope == "global" else 3):
            raise BadMemoryPathError(f"{shown} is not a <scope>/<scope_id>/<key>.md path. {self.allowed()}")
        if not parts[-1].endswith(".md") or parts[-1] == ".md":
            raise BadMemoryPathError(f"{shown}: memory files must be Markdown ending in .md. {self.allowed()}")
        for part in parts:
            if part.startswith(".") or any(ord(ch) < 32 or ord(ch) == 127 for ch in part):
                raise BadMemoryPathError(
                    f"{shown}: hidden names and control characters are not allowed. {self.allowed()}"
                )
        if scope != "global":
            try:
                check_id(parts[1], kind="scope")
            except InvalidMemoryIdError as exc:
                raise BadMemoryPathError(f"{shown}: {exc}. {self.allowed()}") from None

    def judge_role(self, parts: list[str], shown: str) -> None:
        """Global memory is the user's, a checkpoint the checkpoint writer's (module doc, rule 4)."""
        name = parts[-1]
        if parts[0] == "global" and (self.role not in ("user", "pass") or self.delegated):
            who = f"the {self.role}" + (", worded by the host agent," if self.delegated else "")
            raise ReservedForRoleError(
                f"{shown}: global memory is the user's, never written by {who} "
                f"({self.agent!r}): ask the user to change it, or write this project's memory instead "
                f"(target=project, `mimomem write project`). {self.allowed()}"
            )
        checkpoint = parts[0] == "sessions" and (name == "checkpoint.md" or name.startswith("checkpoint-"))
        if checkpoint and self.role not in ("user", "checkpoint writer"):
            raise ReservedForRoleError(
                f"{shown}: the checkpoint is written only by the checkpoint writer, not the {self.role} "
                f"({self.agent!r}): record what you found with memory_note / `mimomem note`; the checkpoint "
                f"pass (`mimomem checkpoint`, or the MCP tool memory_checkpoint) folds it in. {self.allowed()}"
            )

    def judge_curated(self, real: str, shown: str) -> None:
        """``<worktree>/.memory/`` is the curated store's; a rule reaches it only as a proposal."""
        assert self.worktree is not None
        if _rel(self.worktree, real)[0] == CURATED_DIR:
            raise ReservedForRoleError(
                f"{shown} is curated memory, written only through remember (memory_remember, "
                f"`mimomem remember`): a rule is stored as a proposal until the user accepts it "
                f"(`mimomem rules accept ID`). {self.allowed()}"
            )

    def judge_task_path(self, parts: list[str], shown: str) -> None:
        own_task = self.tid is not None and parts[3] == self.tid and len(parts) >= 5
        writer_task = self.agent == CHECKPOINT_WRITER and len(parts) == 5 and TASK_ID_RE.fullmatch(parts[3])
        if not (own_task or writer_task):
            raise ReservedTaskPathError(
                f"{shown} is reserved: tasks/<TID>/ is written only by the subagent bound to that task "
                f"(pass task_id) and by the checkpoint-writer. {self.allowed()}"
            )
        self.judge_owner(parts, shown)

    def judge_writer(self, parts: list[str], shown: str) -> None:
        name = parts[-1]
        ok = len(parts) == 3 and (
            (parts[0] == "projects" and (name == "MEMORY.md" or name.startswith("memory-")))
            or (parts[0] == "sessions" and (name in ("checkpoint.md", "notes.md") or name.startswith("checkpoint-")))
        )
        if not ok:
            raise NotInWriterAllowlistError(f"{shown} is not in the checkpoint-writer allowlist. {self.allowed()}")

    def judge_owner(self, parts: list[str], shown: str) -> None:
        if self.allow_foreign or parts[0] == "global":
            return
        own = self.sid if parts[0] == "sessions" else self.pid
        kind = "session" if parts[0] == "sessions" else "project"
        if own is None:
            raise NotOwnerError(
                f"{shown} is in {kind} {parts[1]!r} but no {kind}_id was given; pass {kind}_id= "
                f"to write your own {kind}'s files (allow_foreign=True is for maintenance tools). {self.allowed()}"
            )
        if parts[1] != own:
            raise NotOwnerError(f"{shown} belongs to another {kind} ({parts[1]!r}, yours is {own!r}). {self.allowed()}")

    def judge_outside(self, real: str, shown: str) -> None:
        if self.agent == CHECKPOINT_WRITER:
            raise OutsideAllowedAreaError(
                f"agent {self.agent!r} may only write under the memory tree; refused {shown}. {self.allowed()}"
            )
        if self.agent in SANDBOXED_AGENTS:
            in_dotdir = self.dotdir is not None and _strictly_under(self.dotdir, real)
            if in_dotdir or (self.agent == "distill" and self.is_skill_file(real)):
                if not self.tree.write_enabled:
                    raise WritingDisabledError(self.disabled_message(shown))
                return
            raise OutsideAllowedAreaError(
                f"agent {self.agent!r} may only write under the memory tree or "
                f"<worktree>/{self.tree.worktree_dotdir}/; refused {shown}. {self.allowed()}"
            )
        if self.worktree is not None and _strictly_under(self.worktree, real):
            if ".git" in _rel(self.worktree, real):
                raise OutsideAllowedAreaError(f"{shown} is inside a .git directory. {self.allowed()}")
            self.judge_curated(real, shown)
            if self.dotdir is not None and _under(self.dotdir, real) and not self.tree.write_enabled:
                raise WritingDisabledError(self.disabled_message(shown))
            return
        raise OutsideAllowedAreaError(f"{shown} is outside the memory tree and outside the worktree. {self.allowed()}")

    def is_skill_file(self, real: str) -> bool:
        """Whether ``real`` is ``<worktree>/.claude/skills/<name>/SKILL.md``, the skill file distill may create."""
        if self.worktree is None or not _strictly_under(self.worktree, real):
            return False
        parts = _rel(self.worktree, real)
        return (
            len(parts) == 4
            and parts[:2] == [".claude", "skills"]
            and parts[3] == "SKILL.md"
            and SKILL_NAME_RE.fullmatch(parts[2]) is not None
        )

    # -- messages --

    def allowed(self) -> str:
        """What this caller may write, as canonical paths."""
        tree = self.tree
        if not tree.write_enabled:
            return "Memory writing is disabled; no memory path is writable."
        lines: list[str] = []
        sid, pid = self.sid or "<your session_id>", self.pid or "<your project_id>"
        sdir = os.path.join(self.root, "sessions", sid)
        pdir = os.path.join(self.root, "projects", pid)
        if self.tid is not None:
            lines.append(f"{sdir}/tasks/{self.tid}/<name>.md (your task's files, e.g. progress.md)")
        elif self.agent == CHECKPOINT_WRITER:
            lines += [
                f"{pdir}/MEMORY.md or {pdir}/memory-<topic>.md",
                f"{sdir}/checkpoint.md, {sdir}/checkpoint-<topic>.md or {sdir}/notes.md",
                f"{sdir}/tasks/<TID>/<name>.md",
            ]
        else:
            lines += [
                f"{pdir}/MEMORY.md (edit Rules / Architecture decisions / Discovered durable knowledge)",
                f"{sdir}/notes.md (append '## [turn N · YYYY-MM-DDTHH:MM:SSZ]' entries)",
            ]
            if self.role in ("user", "pass"):
                lines.append(f"other <key>.md files directly in {sdir}/, {pdir}/ or {self.root}/global/")
            else:
                lines.append(f"other <key>.md files directly in {sdir}/ (not checkpoint*.md) or {pdir}/")
            if self.agent in SANDBOXED_AGENTS:
                lines.append(f"{self.dotdir or '<worktree>/' + tree.worktree_dotdir}/...")
                if self.agent == "distill":
                    lines.append(f"{self.worktree or '<worktree>'}/.claude/skills/<name>/SKILL.md")
            elif self.worktree is not None:
                lines.append(f"files inside the worktree {self.worktree}/ (not .git)")
        return "Allowed: " + "; ".join(lines) + "."

    def disabled_message(self, shown: str) -> str:
        return (
            f"Memory WRITING is disabled (MemoryTree(write_enabled=False)); refused {shown}. "
            "Do NOT retry with another memory path: every memory write is refused while writing is off. "
            "Existing memory is still READABLE: search it (mimomem search) or read the files explicitly. "
            "To re-enable, open the tree with write_enabled=True."
        )


__all__ = [
    "CHECKPOINT_WRITER",
    "CURATED_DIR",
    "RESTRICTED_AGENTS",
    "SANDBOXED_AGENTS",
    "USER",
    "GatedTree",
    "WriteGate",
    "check_write",
    "fold",
    "role_of",
]
