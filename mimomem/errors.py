"""Exception classes shared by every part of mimomem (and by both implementations).

Every class derives from ``MimomemError`` and from one (or two) of four kinds, so a caller can
catch a whole family: ``InputError`` (fix the argument), ``RefusedError`` (nothing was written,
the message says why), ``StoreError`` (a file or database is unusable) and ``UnavailableError``
(this install lacks something).  ``CuratedError`` and ``HistoryError`` group the errors of those
two stores; each class also derives from the matching builtin (``ValueError``, ``PermissionError``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Finding(Protocol):
    """What an error needs of a secret finding (``mimomem.common.secrets.SecretFinding``): its own words.

    A protocol, so that this ground floor imports nothing of the floors above it.
    """

    def describe(self) -> str: ...


class MimomemError(Exception):
    """Base class of every error mimomem raises on purpose."""


# --- the four kinds of error: catch one of these to handle a whole family ---


class InputError(MimomemError):
    """An argument, name or setting the caller gave is invalid; the message says what to pass instead."""


class RefusedError(MimomemError):
    """mimomem refused to write or store something (a gate rule, a secret, a duplicate); nothing was written."""


class StoreError(MimomemError):
    """A file, database or cache mimomem reads is unusable (damaged, foreign, too new, locked or full)."""


class UnavailableError(MimomemError):
    """Something this install or machine lacks (an extension, a package, a tokenizer, a model endpoint)."""


# --- files every store reads (mimomem.common) ---


class FrontmatterYamlError(StoreError, ValueError):
    """A memory file's frontmatter is not valid YAML (``args[0]``: PyYAML's error); the parser reports
    it as the file's problem (``Document.problem``), naming the line to fix."""


# --- memory tree (locations, project identity, layout, write gate) ---


class LocationError(InputError, ValueError):
    """A data directory or memory root setting is unusable."""


class InvalidMemoryIdError(InputError, ValueError):
    """A project, session or task id is not a safe single path component."""


class ProjectIdError(StoreError, RuntimeError):
    """The project id file in the git directory is unreadable or holds an unsafe value."""


class WriteDeniedError(RefusedError, PermissionError):
    """The write gate refused a write; the message says which paths are allowed."""


class WritingDisabledError(WriteDeniedError):
    """Memory writing is switched off; nothing in the memory tree may be written."""


class BadMemoryPathError(WriteDeniedError):
    """The target is not a valid ``<scope>/<scope_id>/<key>.md`` memory path."""


class OutsideAllowedAreaError(WriteDeniedError):
    """The target lies outside the memory tree and the worktree (or the agent's sandbox)."""


class NotInWriterAllowlistError(WriteDeniedError):
    """The checkpoint writer may only write its own allowlisted memory files."""


class ReservedTaskPathError(WriteDeniedError):
    """``tasks/<TID>/`` is writable only by the subagent bound to that task."""


class NotOwnerError(WriteDeniedError):
    """The target belongs to another session or project."""


class ReservedForRoleError(WriteDeniedError):
    """The target is another caller's: global memory the user's, a checkpoint the checkpoint
    writer's, curated memory files the curated store's (``remember``, then the user's acceptance)."""


class InvalidFileNameError(BadMemoryPathError):
    """A name the disk cannot hold as given: not valid UTF-8, or too long for an atomic write."""


class InvalidAgentNameError(InputError, ValueError):
    """The agent name holds control characters or only looks like a restricted agent's name."""


class MemoryRootNotFoundError(LocationError):
    """An explicitly given memory root does not exist (a typo must not create a database elsewhere)."""


class SecretRefusedError(RefusedError, ValueError):
    """Text about to be written contains a likely secret (kind and line given, value never)."""

    def __init__(self, where: str, findings: Sequence[Finding]) -> None:
        self.where = where
        self.findings = list(findings)
        shown = "; ".join(f.describe() for f in self.findings[:5])
        more = f" and {len(self.findings) - 5} more" if len(self.findings) > 5 else ""
        super().__init__(
            f"refused to write {where}: likely secret: {shown}{more}. Remove it (store a reference "
            f"such as an environment variable name instead), or, if it is not a secret, add the "
            f"marker `mimomem:allow-secret` on that line"
        )


# --- text engine ---


class UnknownModeError(InputError, ValueError):
    """The tokenizer mode is not one of ``MODES``."""


class GlossaryError(StoreError, ValueError):
    """A glossary file could not be read."""


# --- search cache ---


class SchemaTooNewError(StoreError, RuntimeError):
    """The database was written by a newer mimomem; delete it (it is a cache) or upgrade."""


class ForeignDatabaseError(StoreError, ValueError):
    """The database file named is not mimomem's (another program's data): it is left as it was."""


class CorruptDatabaseError(StoreError, RuntimeError):
    """The index database is damaged or not a database; delete it (it is a cache of the files)."""


class IndexFileError(StoreError, ValueError):
    """A saved ``BM25Index`` file is damaged or from another engine or version; delete it (it is a cache)."""


class UnknownBackendError(InputError, ValueError):
    """The backend name is not one of ``SEARCH_BACKENDS`` (for ``mimomem bench``: ``BENCH_BACKENDS``)."""


class InvalidLimitError(InputError, ValueError):
    """``limit`` is not an integer in the allowed range."""


class InvalidFloorError(InputError, ValueError):
    """The relative score floor is not a number between 0 and 1."""


class InvalidRetrievalError(InputError, ValueError):
    """``retrieval`` is not ``RetrievalOptions``, ``"auto"`` or ``"off"``."""


class InvalidScopeError(InputError, ValueError):
    """The scope filter is not one of ``SCOPES``."""


class InvalidTypeError(InputError, ValueError):
    """The type filter is not one of ``TYPES`` (the memory search's: ``SEARCH_TYPES``, curated categories too)."""


# --- curated store ---


class CuratedError(MimomemError):
    """Base class of curated-memory errors."""


class InvalidCuratedIdError(CuratedError, InputError, ValueError):
    """A memory id is not ``<category>/<slug>`` with a known category and a safe slug."""


class OutsideRootError(CuratedError, RefusedError, PermissionError):
    """The path would leave the memory root (``..``, an absolute path or a symlink out)."""


class MemoryNotFoundError(CuratedError, InputError, KeyError):
    """No memory has this id in the roots searched."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "memory not found"


class DuplicateMemoryError(CuratedError, RefusedError, ValueError):
    """The new memory nearly repeats a live one; supersede that one instead."""

    def __init__(self, message: str, existing_id: str) -> None:
        super().__init__(message)
        self.existing_id = existing_id


class NoProjectRootError(CuratedError, InputError, ValueError):
    """A project-scope operation was asked for, but no project root is known."""


class InvalidMemoryError(CuratedError, InputError, ValueError):
    """A field of a memory to be written is invalid (empty summary, bad load_when...)."""


class DiskFullError(CuratedError, StoreError, OSError):
    """The disk or the user's quota is full (ENOSPC/EDQUOT); the write was undone: free space and retry."""

    def __init__(self, message: str, code: int, filename: str | None = None) -> None:
        super().__init__(code, message)
        self.message = message
        self.filename = filename

    def __str__(self) -> str:
        return self.message


class StaleListingError(CuratedError, StoreError):
    """A memory file changed since its root was listed (``args[0]``: its id); the store lists the root and
    reads again, so a caller never sees it."""


# --- the SQLite extension (mimomem.sqlite) ---


class SqliteExtensionError(UnavailableError, RuntimeError):
    """The FTS5 tokenizer extension cannot be loaded into this connection; the message says what instead."""


class ExtensionNotBuiltError(SqliteExtensionError):
    """This install has no ``libmimomem`` (built without SQLite's headers): rebuild with them."""


class LoadExtensionUnsupportedError(SqliteExtensionError):
    """This Python's ``sqlite3`` cannot load extensions; use apsw, another Python build, or the shadow column."""


class StaleTokenizerIndexError(SqliteExtensionError, StoreError):
    """An FTS5 table was indexed by another version of the tokenizer; rebuild it (the message says how)."""


# --- context assembly ---


class TokenizerUnavailableError(UnavailableError, RuntimeError):
    """An exact token count was asked for, but no offline cl100k_base tokenizer is installed."""


# --- benchmark ---


class BackendUnavailableError(UnavailableError, RuntimeError):
    """The backend exists but cannot run here (a package is missing)."""


class ResultFileError(StoreError, ValueError):
    """A saved result file cannot be read or is not a benchmark result."""


class DatasetError(StoreError, ValueError):
    """A dataset directory is missing a file or holds a malformed line."""


class CorporaNotFoundError(UnavailableError, FileNotFoundError):
    """No ``corpora/`` directory was found for the default benchmark run."""


class BenchDependencyError(UnavailableError, ImportError):
    """An optional package the requested output needs is not installed."""


class ScaleError(InputError, ValueError):
    """A requested corpus size is out of range."""


class TokenizerSpecError(InputError, ValueError):
    """A candidate tokenizer (``MODULE:FUNCTION``) cannot be imported, called or used."""


class HostUnavailableError(UnavailableError, RuntimeError):
    """The real agent host (Claude Code's CLI, bundled in the ``claude-agent-sdk`` wheel) is missing or cannot run."""


class HostSessionError(UnavailableError, RuntimeError):
    """A session driven through the real host failed (it timed out, or the CLI exited with an error)."""


# --- command line ---


class UsageError(InputError, ValueError):
    """A command-line argument is invalid; the message says which and what to pass."""


# --- agent harness setup ---


class SettingsFileError(StoreError, ValueError):
    """An agent harness's settings file (or where it would go) cannot be updated safely; nothing was written."""


class HookCommandError(UnavailableError, RuntimeError):
    """The hook command install would write does not run here; nothing was written."""


class HookInputError(InputError, ValueError):
    """A hook's payload from the host cannot be used; the message is the one line the hook prints on stderr."""


# --- in-process integrations (mimomem.integrations) ---


class AgentSdkMissingError(UnavailableError, ImportError):
    """The Claude Agent SDK integration needs ``claude-agent-sdk`` and ``mcp`` 2: ``pip install "mimomem[host]"``."""


class AgentSdkOptionsError(InputError, ValueError):
    """The harness's ``ClaudeAgentOptions`` cannot take mimomem's hooks or server; the message says what to change."""


# --- trajectory history and write-back passes ---


class HistoryError(MimomemError):
    """Base class of trajectory-history errors."""


class HistorySourceError(HistoryError, StoreError, ValueError):
    """A history source (transcript folder, agent database) cannot be read as that kind of source."""


class HistoryLockedError(HistorySourceError):
    """An agent database is locked by a running agent; retry once it is idle."""


class TranscriptReadError(HistoryError, StoreError, OSError):
    """A session transcript cannot be read (missing, unreadable); the message names it and why."""


class PassError(InputError, ValueError):
    """A dream, distill or checkpoint pass cannot run as asked; the message says what to change."""


class ModelEndpointError(PassError, UnavailableError):
    """The model endpoint failed or answered something unusable; rerun with --no-model or --emit-prompt."""


__all__ = [
    "AgentSdkMissingError",
    "AgentSdkOptionsError",
    "BackendUnavailableError",
    "BadMemoryPathError",
    "BenchDependencyError",
    "CorporaNotFoundError",
    "CorruptDatabaseError",
    "CuratedError",
    "DatasetError",
    "DiskFullError",
    "DuplicateMemoryError",
    "ExtensionNotBuiltError",
    "ForeignDatabaseError",
    "FrontmatterYamlError",
    "GlossaryError",
    "HistoryError",
    "HistoryLockedError",
    "HistorySourceError",
    "HookCommandError",
    "HookInputError",
    "HostSessionError",
    "HostUnavailableError",
    "IndexFileError",
    "InputError",
    "InvalidAgentNameError",
    "InvalidCuratedIdError",
    "InvalidFileNameError",
    "InvalidFloorError",
    "InvalidLimitError",
    "InvalidMemoryError",
    "InvalidMemoryIdError",
    "InvalidRetrievalError",
    "InvalidScopeError",
    "InvalidTypeError",
    "LoadExtensionUnsupportedError",
    "LocationError",
    "MemoryNotFoundError",
    "MemoryRootNotFoundError",
    "MimomemError",
    "ModelEndpointError",
    "NoProjectRootError",
    "NotInWriterAllowlistError",
    "NotOwnerError",
    "OutsideAllowedAreaError",
    "OutsideRootError",
    "PassError",
    "ProjectIdError",
    "RefusedError",
    "ReservedForRoleError",
    "ReservedTaskPathError",
    "ResultFileError",
    "ScaleError",
    "SchemaTooNewError",
    "SecretRefusedError",
    "SettingsFileError",
    "SqliteExtensionError",
    "StaleListingError",
    "StaleTokenizerIndexError",
    "StoreError",
    "TokenizerSpecError",
    "TokenizerUnavailableError",
    "TranscriptReadError",
    "UnavailableError",
    "UnknownBackendError",
    "UnknownModeError",
    "UsageError",
    "WriteDeniedError",
    "WritingDisabledError",
]
"""Every error class, sorted (``tests/test_public_api.py`` checks that no exception class of the package is missing)."""
