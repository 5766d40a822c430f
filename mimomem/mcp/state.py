"""What one server connection works in: the project, the session, and the warm stores.

The project comes from ``--project`` (default: the working directory), the session from
``--session``, else the environment (``MIMOMEM_SESSION``, else the host's: Claude Code gives the
servers it starts ``CLAUDE_CODE_SESSION_ID``, the session its hooks see), else the session id the
client sends in a request's ``_meta`` (``sessionId``), else a new id per connection
(``mcp-<12 hex>``).  Every library call runs on a worker thread under one lock, so concurrent
tool calls never share the search index or the curated store mid-operation, and a call the
client abandons still finishes (writes are all-or-nothing).  Library refusals come back as
``ToolError`` with the library's own message.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

import anyio
import anyio.to_thread
from mcp.server.mcpserver.exceptions import ToolError

from mimomem.common.secrets import redact_secrets
from mimomem.curated.store import CuratedMemory
from mimomem.errors import MimomemError
from mimomem.search.memory_index import MemoryIndex
from mimomem.tree.agents import claim
from mimomem.tree.layout import check_id
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.where import Where, locate, session_from_env

log = logging.getLogger("mimomem.mcp")

T = TypeVar("T")

SESSION_META_KEYS = ("sessionId", "session_id", "mimomem/sessionId")
"""Keys of a request's ``_meta`` read as the client's session id (MCP itself defines none on stdio)."""

MAX_ERROR_CHARS = 600
"""An unexpected error's message is cut to this length in the tool result (the traceback goes to stderr)."""


@dataclass(frozen=True)
class Options:
    """How ``mimomem mcp`` was started."""

    project: str = "."
    session: str | None = None
    agent: str = "main"
    root: str | None = None
    claude_code: bool = False


def new_session_id() -> str:
    """A fresh session id for a connection whose client names none: ``mcp-<12 hex digits>``."""
    return f"mcp-{uuid.uuid4().hex[:12]}"


class MemoryState:
    """The tree, the session and the warm search index and curated store of one connection."""

    def __init__(self, options: Options, *, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        claim(options.agent, "mcp", env)  # a server serves an agent: never the user, never a look-alike name
        self.options = options
        self.tree = MemoryTree(options.root)
        named = check_id(options.session, kind="session") if options.session else session_from_env(env)
        self.pinned = named is not None
        self.session_id = named if named is not None else new_session_id()
        self._places: dict[str, Where] = {}
        self._index: MemoryIndex | None = None
        self._curated: CuratedMemory | None = None
        self._lock: anyio.Lock | None = None

    # -- where ----------------------------------------------------------------------------------
    def adopt_session(self, meta: Mapping[str, Any] | None) -> None:
        """Switch to the session id the client sent in ``_meta`` (unless one was given at start)."""
        if self.pinned or not meta:
            return
        for key in SESSION_META_KEYS:
            value = meta.get(key)
            if isinstance(value, str) and value:
                self.session_id = check_id(value, kind="session")
                return

    def where(self) -> Where:
        """The project and current session (resolved once per session id)."""
        sid = self.session_id
        if sid not in self._places:
            self._places[sid] = locate(self.options.project, session_id=sid, tree=self.tree)
        return self._places[sid]

    @property
    def index(self) -> MemoryIndex:
        """The search index, opened on first use and kept warm (it reconciles on each search)."""
        if self._index is None:
            self._index = MemoryIndex(self.tree, progress=False, claude_code=self.options.claude_code)
        return self._index

    def curated(self) -> CuratedMemory:
        """The curated store of the project (and the global curated root), kept warm."""
        if self._curated is None:
            self._curated = CuratedMemory(project_root=self.where().worktree)
        return self._curated

    def close(self) -> None:
        """Close the search index."""
        if self._index is not None:
            self._index.close()
            self._index = None

    # -- running library calls ------------------------------------------------------------------
    async def run(self, fn: Callable[..., T], *args: Any, meta: Mapping[str, Any] | None = None, **kwargs: Any) -> T:
        """``fn(self, where, *args, **kwargs)`` on a worker thread, one call at a time; errors as ``ToolError``."""
        if self._lock is None:
            self._lock = anyio.Lock()
        async with self._lock:
            return await anyio.to_thread.run_sync(partial(self._call, fn, meta, *args, **kwargs))

    def _call(self, fn: Callable[..., T], meta: Mapping[str, Any] | None, *args: Any, **kwargs: Any) -> T:
        try:
            self.adopt_session(meta)
            result = fn(self, self.where(), *args, **kwargs)
        except ToolError as exc:
            raise ToolError(redact_secrets(str(exc))) from exc
        except MimomemError as exc:  # a refusal: the message says what is allowed
            raise ToolError(redact_secrets(str(exc))) from exc
        except sqlite3.DatabaseError as exc:
            raise ToolError(
                f"search index {self.tree.data_dir / 'mimomem.db'}: {exc}; it is only a cache of the memory "
                "files: retry, or delete it to have it rebuilt"
            ) from exc
        except UnicodeError as exc:
            raise ToolError(f"{exc}; memory files and arguments must be UTF-8 text") from exc
        except OSError as exc:
            raise ToolError(f"{exc.strerror or exc}: {exc.filename or ''}; nothing else was changed") from exc
        except Exception as exc:  # a bug: keep the server up, say so, log the traceback on stderr
            log.exception("unexpected error in %s", getattr(fn, "__name__", "a tool"))
            text = redact_secrets(f"{type(exc).__name__}: {exc}")[:MAX_ERROR_CHARS]
            raise ToolError(
                f"internal error ({text}); the server is still running and the traceback is on its stderr"
            ) from exc
        # every text a tool, resource or prompt returns leaves mimomem: no likely secret in it
        return cast(T, redact_secrets(result)) if isinstance(result, str) else result
