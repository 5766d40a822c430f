"""The per-prompt context from a saved plan: what the prompt hook serves without the library.

Every prompt runs the hook as a new process.  Opening the tree, the curated store and the
entry cache costs that process a few hundred modules' worth of imports and checks, although
between two prompts usually nothing in memory changed.  So the context is computed in two
steps, by one piece of code whichever process runs it:

- :func:`mimomem.context.plan.prompt_plan` (the library, the slow path) gathers everything
  the per-prompt context depends on except the prompt and the clock - the curated memories'
  recall index and scenarios, the entries in scope with their words, the reminder - as plain
  data, with a *stamp* (mtime, size, inode, mode; or "absent") of every file and directory it
  was read from;
- :func:`answer` turns a plan and a prompt into the context.  ``prompt_context`` is
  ``answer(prompt_plan(where), prompt)``.

The hook saves the plan (``<cache>/plans/<key>.plan``, keyed by the working directory, the
session, the transcript and mimomem's environment).  The next prompt's process loads it and
re-stamps every path it lists: all equal, it answers from the plan, importing only the
scoring code; any difference (a memory edited by hand, a new note, a new session, a file
removed) and it runs the slow path, which builds and saves a new plan.  The files stay the
truth: a plan is a cache, deleted at any time, and is never used when any input changed.
"""

import marshal
import os
from collections.abc import Iterable, Mapping
from typing import Any

PLAN_VERSION = 1
"""Bumped whenever a plan's content changes meaning: an older plan is then never used."""

ENV_PREFIXES = ("MIMOMEM_", "MIMOCODE_", "XDG_")
ENV_NAMES = ("HOME",)
"""The environment a plan depends on (where memory, caches and configuration live)."""

Stamp = tuple[int, int, int, int] | None
"""A path's ``(mtime_ns, size, inode, mode)`` (symlinks followed), ``None`` when absent."""


def stamp(path: str) -> Stamp:
    """The stamp of ``path`` now (see :data:`Stamp`)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode)


def tree_stamps(top: str) -> list[tuple[str, Stamp]]:
    """Stamps of ``top`` and of every directory and file below it (symlinked directories are
    stamped, not entered); just ``top``'s (``None``) when it does not exist."""
    out: list[tuple[str, Stamp]] = [(top, stamp(top))]
    if out[0][1] is None:
        return out
    pending = [top]
    while pending:
        directory = pending.pop()
        try:
            with os.scandir(directory) as found:
                entries = sorted(found, key=lambda e: e.name)
        except OSError:
            continue  # unreadable now: its own stamp is recorded, a later change shows there
        for entry in entries:
            out.append((entry.path, stamp(entry.path)))
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
            except OSError:
                continue
    return out


def plan_key(event: str, payload: Mapping[str, Any], env: Mapping[str, str]) -> tuple[Any, ...]:
    """What names a plan: the event, the payload's working directory, session and transcript, the environment."""
    mine = tuple(sorted((k, v) for k, v in env.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES))
    fields = tuple(str(payload.get(name, "")) for name in ("cwd", "session_id", "transcript_path"))
    return (PLAN_VERSION, event, fields, mine)


def plan_file(key: tuple[Any, ...], env: Mapping[str, str]) -> str:
    """Where the plan named ``key`` is saved: ``<cache>/plans/<digest>.plan``."""
    from mimomem.common.cache import cache_root
    from mimomem.common.digest import hexdigest

    return os.path.join(
        cache_root(env), "plans", hexdigest(repr(key).encode("utf-8"), 16) + ".plan"
    )  # repr: marshal bytes vary


def load_plan(path: str, key: tuple[Any, ...]) -> dict[str, Any] | None:
    """The plan saved at ``path`` for ``key`` when every input it lists is unchanged, else ``None``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        import stat as _stat

        if not _stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            plan = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    finally:
        os.close(fd)
    if not isinstance(plan, dict) or plan.get("key") != key or not fresh(plan.get("paths"), plan.get("stamps")):
        return None
    return plan


def fresh(paths: object, stamps: object) -> bool:
    """Whether every path still has the stamp recorded for it."""
    if not isinstance(paths, tuple) or not isinstance(stamps, tuple) or len(paths) != len(stamps):
        return False
    return tuple(map(stamp, paths)) == stamps  # all stamped (C-level map): unchanged is the usual case


def save_plan(path: str, key: tuple[Any, ...], stamps: Iterable[tuple[str, Stamp]], data: Mapping[str, Any]) -> None:
    """Save a plan (best effort: a plan that cannot be saved costs the next prompt time, never an answer)."""
    from mimomem.common.files import atomic_write

    listed = dict(stamps)
    plan = {"key": key, "paths": tuple(listed), "stamps": tuple(listed.values()), **data}
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, marshal.dumps(plan), durable=False)
    except (OSError, ValueError):
        pass


def answer(
    plan: Mapping[str, Any],
    prompt: str,
    *,
    budget: int,
    search_limit: int = 3,
    char_cap: int | None = None,
    now: float | None = None,
) -> Any:
    """The per-prompt context (a :class:`~mimomem.context.fitting.Context`) for ``prompt`` from ``plan``.

    ``now``: the clock for curated recall's decay (default: the time now)."""
    import time

    from mimomem.context.entry_cache import EntryIndex
    from mimomem.context.entry_recall import entries_text
    from mimomem.context.fitting import Context, enforce, make_block

    ctx = Context(budget, char_cap=char_cap)
    blocks = []
    curated = curated_text(plan["curated"], prompt, time.time() if now is None else now)
    if curated:
        blocks.append(make_block("curated", curated, "mimomem recall"))
    entries = plan["entries"]
    found = entries_text(
        EntryIndex(*entries["index"]), prompt, limit=max(search_limit, 1) + 1, template=entries["template"]
    )
    if found:
        blocks.append(make_block("entries", found, "mimomem search"))
    if blocks and plan["reminder"]:
        blocks.append(make_block("reminder", plan["reminder"], ""))
    ctx.blocks = blocks
    return enforce(ctx)


MAX_BODY_CHARS = 600
"""Longer curated bodies are cut (with a pointer to the file) in per-prompt context."""


def curated_text(part: Mapping[str, Any] | None, prompt: str, now_ts: float, *, limit: int = 4) -> str:
    """Curated memories for ``prompt``: scenario matches first, then recall; ``""`` if none.

    ``part``: the plan's curated part (:func:`mimomem.context.plan.curated_part`), ``None``
    when there is no curated store."""
    if part is None or not prompt.strip():
        return ""
    from mimomem.curated.scoring import max_multiplier, scenario_applies, top_scored
    from mimomem.text.bm25 import BM25Index
    from mimomem.text.query import parse_query
    from mimomem.text.tokens import tokenize

    chosen: dict[tuple[str, str], str] = {}
    have = {t.text for t in tokenize(prompt)}
    for scope, memory_id, scenarios in part["routes"]:
        if any(scenario_applies(terms, have) for terms in scenarios):
            chosen[(scope, memory_id)] = "scenario"
    parsed = parse_query(prompt)
    if parsed and part["docs"]:
        index = BM25Index()
        for doc_key, joined in part["docs"]:
            index.add_joined(doc_key, joined)
        info, half_life = part["info"], part["half_life"]
        mult = max_multiplier(part["bounds"], now_ts, half_life, part["max_hits"])
        best = top_scored(lambda k: index.search(parsed, k), info, limit, now_ts, half_life, part["hits"], mult)
        for *_, doc_key in best:
            scope, memory_id = info[doc_key][:2]
            chosen.setdefault((scope, memory_id), "recall")
    if not chosen:
        return ""
    show = part["show"]
    out = ["## Relevant curated memory"]
    for (scope, memory_id), reason in list(chosen.items())[:limit]:
        summary, body = show[(scope, memory_id)]
        body = body.strip()
        if len(body) > MAX_BODY_CHARS:
            body = body[:MAX_BODY_CHARS] + f"… (full text: mimomem recall {memory_id})"
        out.append(f"### {summary} ({scope}:{memory_id}, by {reason})")
        if body:
            out.append(body)
    return "\n".join(out) + "\n"
