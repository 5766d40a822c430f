"""The per-prompt context from a saved plan: what the prompt hook serves without the library.

Every prompt runs the hook as a new process.  Opening the tree, the curated store and the
entry cache costs that process a few hundred modules' worth of imports and checks, although
between two prompts usually nothing in memory changed.  So the context is computed in two
steps, by one piece of code whichever process runs it:

- :func:`mimomem.context.plan.prompt_plan` (the library, the slow path) gathers everything
  the per-prompt context depends on except the prompt and the clock - the curated memories'
  recall index and scenarios, the entries in scope with their words, the reminder - as plain
  data, with the *stamp* (:mod:`mimomem.common.stamp`) of every file and directory it was read
  from, or "absent";
- :func:`mimomem.served.prompt.answer` turns a plan and a prompt into the context.  ``prompt_context`` is
  ``answer(prompt_plan(where), prompt)``.

The hook saves the plan (``<cache>/plans/<key>.plan``, keyed by the working directory, the
session, the transcript and mimomem's environment).  The next prompt's process loads it and
re-stamps every path it lists: all equal, it answers from the plan, importing only the
scoring code; any difference (a memory edited by hand, a new note, a new session, a file
removed) and it runs the slow path, which builds and saves a new plan.  The files stay the
truth: a plan is a cache, deleted at any time, and is never used when any input changed.
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Callable, Iterable, Mapping

from mimomem.common.light_typing import TYPE_CHECKING
from mimomem.common.nofollow import open_nofollow
from mimomem.common.span_file import Blobs, Spans, read
from mimomem.common.stamp import Stamp, all_current, pack

if TYPE_CHECKING:
    from typing import Any

PLAN_VERSION = 4
"""Bumped whenever a plan's content changes meaning: an older plan is then never used."""

ENV_PREFIXES = ("MIMOMEM_", "MIMOCODE_", "XDG_")
ENV_NAMES = (
    "HOME",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    "CODEX_HOME",
)
"""The environment a plan depends on (where memory, caches and configuration live; the hosts' memory
folders too: :data:`mimomem.tree.host_paths.ENV_NAMES`)."""


def plan_key(event: str, payload: Mapping[str, Any], env: Mapping[str, str]) -> tuple[Any, ...]:
    """What names a plan: the event, the payload's working directory (as given and resolved), session and
    transcript, the environment.

    Resolved too: a working directory through a symlink that now points at another repository is
    another project, although every path the plan stamped (the ``.git`` chain of where it pointed)
    is unchanged."""
    mine = tuple(sorted((k, v) for k, v in env.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES))
    fields = tuple(str(payload.get(name, "")) for name in ("cwd", "session_id", "transcript_path"))
    cwd = payload.get("cwd")
    try:
        resolved = os.path.realpath(cwd) if isinstance(cwd, str) and cwd else ""
    except (OSError, ValueError):
        resolved = ""
    return (PLAN_VERSION, event, fields, resolved, mine)


def plan_file(key: tuple[Any, ...], env: Mapping[str, str]) -> str:
    """Where the plan named ``key`` is saved: ``<cache>/plans/<digest>.plan``."""
    from mimomem.common.cache import cache_root
    from mimomem.common.hashing import hexdigest

    return os.path.join(
        cache_root(env), "plans", hexdigest(repr(key).encode("utf-8"), 16) + ".plan"
    )  # repr: marshal bytes vary


_MAGIC = b"mimoplan"
"""A plan file (:mod:`mimomem.common.span_file`): its header is the plan with its bulky bytes replaced by
their spans."""


def load_plan(
    path: str, key: tuple[Any, ...], *, first: Callable[[dict[str, Any]], bool] | None = None
) -> dict[str, Any] | None:
    """The plan saved at ``path`` for ``key`` when every input it lists is unchanged, else ``None``.

    The file is mapped, not read: the bulky parts (each file's entries, the postings and
    cross-language buckets, the recall index, the curated texts) are views of the mapping, so a
    prompt touches only the pages it uses.  ``first``: a cheaper test of the plan's data, made
    before the stamps are checked (``None`` when false)."""
    import mmap

    try:
        fd = open_nofollow(path)
    except OSError:
        return None
    try:
        import stat as _stat

        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        view = memoryview(mmap.mmap(fd, 0, access=mmap.ACCESS_COPY))
        plan = _joined(*read(view, _MAGIC))
    except (OSError, ValueError, EOFError, TypeError, KeyError, IndexError):  # missing, empty, damaged
        return None
    finally:
        os.close(fd)
    if not isinstance(plan, dict) or plan.get("key") != key or (first is not None and not first(plan)):
        return None
    if not fresh(plan.get("paths"), plan.get("stamps")):
        return None
    return plan


def fresh(paths: object, stamps: object) -> bool:
    """Whether every path (``NUL``-separated) still has the stamp recorded for it (packed)."""
    if not isinstance(paths, str) or not isinstance(stamps, bytes) or not paths:
        return False
    return all_current(paths.split("\0"), stamps)  # all stamped: unchanged is the usual case


def save_plan(
    path: str, key: tuple[Any, ...], stamps: Iterable[tuple[str, Stamp | None]], data: Mapping[str, Any]
) -> None:
    """Save a plan (best effort: a plan that cannot be saved costs the next prompt time, never an answer)."""
    from mimomem.common.files import atomic_write

    listed = dict(stamps)
    recorded = b"".join(map(pack, listed.values()))
    try:
        blobs = Blobs()
        header = _split({"key": key, "paths": "\0".join(listed), "stamps": recorded, **data}, blobs)
        blob = blobs.file(_MAGIC, marshal.dumps(header))
        from mimomem.common.private import private_dir

        private_dir(os.path.dirname(path))
        atomic_write(path, blob, durable=False)
        prune_plans(os.path.dirname(path), keep=path)
    except Exception:  # a plan is a cache: one that cannot be saved never costs an answer
        pass


MAX_PLANS = 24
"""Plans kept in the plans directory (each session saves one per working directory): the oldest go."""


def prune_plans(directory: str, *, keep: str, limit: int = MAX_PLANS) -> int:
    """Remove the least recently written plans beyond ``limit`` (never ``keep``); how many went."""
    try:
        with os.scandir(directory) as found:
            plans = [(e.stat(follow_symlinks=False).st_mtime_ns, e.path) for e in found if e.name.endswith(".plan")]
    except OSError:
        return 0
    removed = 0
    for _, old in sorted(plans, reverse=True)[limit:]:
        if old != keep:
            try:
                os.unlink(old)
                removed += 1
            except OSError:
                continue
    return removed


def _split(plan: dict[str, Any], bulk: Blobs) -> dict[str, Any]:
    """``plan`` with its bulky bytes put in ``bulk``: the header, their spans in their place."""
    put = bulk.put
    header = dict(plan)
    entries = plan.get("entries")
    if isinstance(entries, dict) and "index" in entries:  # a prompt plan's (a session plan has none)
        blobs, index = entries["index"]
        xlang = entries["xlang"]
        header["entries"] = {
            **entries,
            "index": (tuple(map(put, blobs)), {**index, "buckets": tuple(map(put, index["buckets"]))}),
            "xlang": xlang["file"]  # the path of the one lookup file every plan shares, or (no such file) its data
            if "file" in xlang
            else {"words": tuple(map(put, xlang["words"])), "heads": {c: put(b) for c, b in xlang["heads"].items()}},
        }
    curated = plan.get("curated")
    if isinstance(curated, dict) and "index" in curated:
        native, scalars, buffer, offsets, ids = curated["index"]
        header["curated"] = {
            **curated,
            "index": (native, scalars, put(buffer), offsets, ids),
            "show": {k: put(b) for k, b in curated["show"].items()},
        }
    return header


def _joined(header: dict[str, Any], bulk: memoryview) -> dict[str, Any]:
    """The plan of :func:`_split`'s ``header``, its bulky parts views of ``bulk`` made when used."""
    from mimomem.text.xlang import mapped

    entries = header.get("entries")
    if isinstance(entries, dict) and "index" in entries:
        spans, index = entries["index"]
        xlang = entries["xlang"]
        entries["index"] = (Spans(bulk, spans), {**index, "buckets": Spans(bulk, index["buckets"])})
        if isinstance(xlang, str):  # the shared lookup file; gone or damaged, the plan is stale (rebuilt)
            entries["xlang"] = mapped(xlang)
        else:
            entries["xlang"] = {"words": Spans(bulk, xlang["words"]), "heads": Spans(bulk, xlang["heads"])}
    curated = header.get("curated")
    if isinstance(curated, dict) and "index" in curated:
        native, scalars, (at, size), offsets, ids = curated["index"]
        curated["index"] = (native, scalars, bulk[at : at + size], offsets, ids)
        curated["show"] = Spans(bulk, curated["show"])
    return header
