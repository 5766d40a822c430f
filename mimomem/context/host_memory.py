"""The hosts' own memory files in mimomem's recall: entries with provenance ``host``, the index cap made visible.

Claude Code, Codex and Gemini CLI each keep a memory their model writes
(:mod:`mimomem.tree.host_paths` says where).  Per-prompt recall ranks their facts with
mimomem's own entries (:mod:`mimomem.served.entry_recall`), so a fact only the host remembered
reaches the prompt that needs it, in Chinese as in English.  Such an entry is shown as what it
is: its file, its host, "model-written" - background, never an instruction; it is never
promoted into mimomem's rules (nothing of mimomem writes from these rows), and an entry that
repeats one of mimomem's own is left out in favour of mimomem's.

Claude Code loads only the head of its ``MEMORY.md`` index (:func:`mimomem.tree.host_files.index_gauge`);
:func:`cap_text` is the ``SessionStart`` block naming the entries past it, so the agent can read them.

Every path read here is also stamped in the hooks' plans (:func:`stamps`): a host memory edited,
added or removed is what the next prompt sees.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Mapping
from typing import Any

from mimomem.served.entries import split_entries
from mimomem.tree import host_files, host_paths

SPLIT_CHARS = 1500
"""A host memory file whose body is longer is recalled paragraph by paragraph, else as one entry."""

MAX_PAST_NAMED = 25
"""Index entries past the cap named in the ``SessionStart`` block at most (the rest are counted)."""


def _env(env: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if env is None else env


def recall_files(cwd: str | None, env: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
    """Each host memory file to recall (path -> ``(host, kind)``), in source order; Claude Code's
    ``MEMORY.md`` is not one (it holds pointers to the files, which are recalled themselves)."""
    out: dict[str, tuple[str, str]] = {}
    for source in host_paths.sources(cwd, _env(env)):
        if source.folder:
            files, _ = host_files.listing(source.path)
            for path in files:
                if os.path.basename(path) != host_files.INDEX:
                    out[path] = (source.host, source.kind)
        elif os.path.isfile(source.path) and not os.path.islink(source.path):
            out[source.path] = (source.host, source.kind)
    return out


def stamp_paths(cwd: str | None, env: Mapping[str, str] | None = None) -> list[tuple[str, Any]]:
    """Stamps of everything the host memory of ``cwd`` is read from: each source (a folder whole),
    the switch's config file and Claude Code's settings and folders."""
    from mimomem.common.stamp import stamped, tree_stamps

    env = _env(env)
    out: list[tuple[str, Any]] = []
    for source in host_paths.sources(cwd, env):
        out += tree_stamps(source.path) if source.folder else stamped([source.path])
    return out + stamped(host_paths.inputs(cwd, env))


def rows(path: str, host: str, kind: str) -> list[tuple[Any, ...]]:
    """The entry-cache rows of one host memory file (see :mod:`mimomem.context.entry_cache`):
    ``(path, line, text, section, label, date, words)``; ``[]`` when it cannot be read."""
    from mimomem.text.stopwords import stem
    from mimomem.text.tokens import tokenize_many

    try:
        text, problem = host_files.read_text(path)
        date = _dt.datetime.fromtimestamp(os.stat(path).st_mtime, _dt.timezone.utc).strftime("%Y-%m-%d")
    except (OSError, ValueError):
        return []
    entries = _entries(path, host, text, problem)
    if not entries:
        return []
    words = tokenize_many([extra + " " + body for _, body, _, extra in entries])
    return [
        (path, line, body, "", label, date, tuple(sorted({stem(t) for t in w})))
        for (line, body, label, _), w in zip(entries, words, strict=True)
    ]


def _entries(path: str, host: str, text: str, problem: str) -> list[tuple[int, str, str, str]]:
    """``(line, text, label, extra words)`` of each entry of a host memory file."""
    if host == "gemini":
        saved, first = host_files.gemini_saved(text)
        label = label_of(host, "", "", problem)
        return [(first + e.line - 1, e.text, label, "") for e in split_entries(saved, path)]
    if host == "codex":
        label = label_of(host, "", "", problem)
        return [(e.line, e.text, label, "") for e in split_entries(text, path)]
    fact = host_files.parse(path, text, problem)
    body = fact.body.strip()
    if not body and not fact.description:
        return []
    lead = fact.body[: len(fact.body) - len(fact.body.lstrip())].count("\n")
    label = label_of(host, fact.type, fact.name, fact.problem)
    extra = f"{fact.name} {fact.description}"
    if len(body) <= SPLIT_CHARS:
        shown = body if not fact.description or fact.description in body else f"{fact.description}\n{body}"
        return [(fact.line + lead, shown, label, extra)]
    return [(fact.line + e.line - 1, e.text, label, extra) for e in split_entries(fact.body, path)]


def label_of(host: str, kind: str, name: str, problem: str = "") -> str:
    """What an entry is, as the injected text says it: ``Claude Code memory (model-written, project): name``."""
    what = ", ".join(x for x in ("model-written", kind) if x)
    label = f"{host_paths.HOST_NAMES.get(host, host)} memory ({what})"
    label += f": {name}" if name else ""
    return label + (f" [{problem}]" if problem else "")


def is_host_path(path: str) -> bool:
    """Whether an entry's path is a host memory file's (absolute) rather than the memory tree's (relative)."""
    return os.path.isabs(path)


def gauge(cwd: str | None, env: Mapping[str, str] | None = None) -> host_files.IndexGauge | None:
    """How full Claude Code's ``MEMORY.md`` index of ``cwd``'s project is; ``None`` without one
    (or with Claude Code's memory switched off here)."""
    env = _env(env)
    if "claude-code" not in host_paths.enabled_hosts(env):
        return None
    folder = host_paths.claude_memory_dir(cwd, env)
    if folder is None:
        return None
    index = os.path.join(folder, host_files.INDEX)
    try:
        if os.path.islink(folder):
            return None
        text, _ = host_files.read_text(index, limit=4 * 1024 * 1024)
    except (OSError, ValueError):
        return None
    return host_files.index_gauge(index, text)


def cap_text(cwd: str | None, env: Mapping[str, str] | None = None) -> str:
    """The ``SessionStart`` block saying Claude Code's index is past what it loads, naming the entries
    past it; ``""`` when it is not (or there is none)."""
    found = gauge(cwd, env)
    if found is None or not found.over:
        return ""
    folder = os.path.dirname(found.path)
    out = [
        "## Claude Code memory past its index cap",
        f"`{found.path}` has {found.lines} lines ({found.chars:,} characters); Claude Code loads only the first"
        f" {found.loaded_lines} (its cap: {host_files.INDEX_LINES} lines, {host_files.INDEX_CHARS:,} characters),"
        f" so {len(found.past)} entries are not in your context. Read the file when one matters"
        f" (model-written notes in `{folder}`):",
    ]
    for line, title, target in found.past[:MAX_PAST_NAMED]:
        out.append(f"- {title}" + (f" ({target})" if target else f" (MEMORY.md line {line})"))
    rest = len(found.past) - MAX_PAST_NAMED
    if rest > 0:
        out.append(f"- … and {rest} more: MEMORY.md from line {found.past[MAX_PAST_NAMED][0]}")
    return "\n".join(out) + "\n"


def gauge_line(found: host_files.IndexGauge | None) -> str:
    """One line for ``mimomem paths``: lines and characters used of the cap."""
    if found is None:
        return "no MEMORY.md index"
    state = f"{found.lines - found.loaded_lines} lines past the cap" if found.over else "within the cap"
    return (
        f"{found.lines}/{host_files.INDEX_LINES} lines, {found.chars:,}/{host_files.INDEX_CHARS:,} characters ({state})"
    )
