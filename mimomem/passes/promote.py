"""``promote``: turn a session into durable project memory at PreCompact / SessionEnd, without a model.

Reads the session's transcript from where the last promotion stopped (the one reader,
:mod:`mimomem.history.transcript`; provenance decided per part), finds what is worth
keeping (:mod:`mimomem.passes.promote_items`) and merges it into ``projects/<pid>/MEMORY.md``
through the write gate as the checkpoint writer:

- each line says who said it, when and where (``(user, 2026-11-28, s:4b1f7c2e)``);
- nothing already in memory (the same words, or nearly) is added again, so promoting the
  same stretch twice changes nothing;
- a newer value of the same key (:mod:`mimomem.passes.supersede`) replaces the older,
  which moves to ``memory-history.md`` - kept, never injected as current;
- ``MEMORY.md`` stays within its caps (the largest section spills to ``memory-<topic>.md``);
- the session's brief (goal, decisions, fixes, open threads) goes to ``memory-sessions.md``,
  which the next session's start shows.

:func:`promote_pending` promotes every session of the project with unpromoted bytes (those
that never ended too) until a deadline; :func:`detach` hands the rest to a background
process.  The model path (``dream --model`` / ``--emit-prompt``) stays an option on top.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mimomem.common.redaction import redaction_window, was_redacted
from mimomem.common.secrets import scan_secrets
from mimomem.history.episode import Episode, clip
from mimomem.history.evidence_items import Provenance
from mimomem.history.jsonl import read_jsonl
from mimomem.history.records import iso_day
from mimomem.history.shell import text_runs_fetched_code
from mimomem.history.transcript import message_of, parts
from mimomem.passes.base import read_text, save_undo
from mimomem.passes.dream import Candidate, plan_memory, spill_text, spill_topics
from mimomem.passes.memory_doc import INDEX_LINE, MemoryDoc, bullet_items, duplicate_of, item_text
from mimomem.passes.promote_found import FOUND, found_supersedes
from mimomem.passes.promote_items import DECISIONS, FACTS, RULES, Item, items_of
from mimomem.passes.promote_state import (
    Marker,
    marker_path,
    markers,
    merge_brief,
    project_lock,
    read_marker,
    register,
    render_briefs,
    retire,
    write_marker,
)
from mimomem.passes.session_brief import brief_of
from mimomem.passes.supersede import obsoletes, supersedes, without_clauses
from mimomem.passes.supersede_memory import among_several, corrected, holder_of_named
from mimomem.passes.supersede_restated import RESTATED, restated_candidates
from mimomem.passes.wording import sourced
from mimomem.tree.agents import CHECKPOINT_WRITER
from mimomem.tree.where import Where

KEYED = (RULES, DECISIONS, FACTS)
DONE = (FOUND,)
"""Sections whose items an edit makes obsolete: a value the agent read from a file that a later edit
changed (:func:`~mimomem.passes.supersede.obsoletes`)."""
"""Sections whose items a newer value supersedes.  In :data:`FOUND` only a value a tool revealed
supersedes, and only an older value of that section (the agent's diagnoses never do)."""

HISTORY_TOPIC, SESSIONS_TOPIC = "history", "sessions"


@dataclass
class Promotion:
    """What one promotion did."""

    sessions: int = 0
    added: list[str] = field(default_factory=list)
    superseded: list[str] = field(default_factory=list)
    skipped: int = 0
    pending: int = 0


def item_line(item: Item) -> str:
    """The memory bullet of ``item`` with its provenance."""
    return sourced(item.text, Provenance(item.session_id, item.time), kind=item.kind)


def plan(
    live: str | None, items: list[Item], spill_files: dict[str, str | None], *, today: str
) -> tuple[Any, list[str]]:
    """(dream plan of the new ``MEMORY.md``, superseded history lines) for adding ``items`` to ``live``."""
    doc = MemoryDoc.parse(live if live and live.strip() else "# Project memory\n")
    spilled = [i for text in spill_files.values() for i in bullet_items((text or "").splitlines())]
    accepted: list[Candidate] = []
    history: list[str] = []
    when: dict[str, int] = {}  # an item kept in this plan -> when it was said
    for item in items:
        restated = item.kind == RESTATED  # kept only as a newer value of something (supersede_restated)
        item = replace(item, kind="user") if restated else item
        said = [o for h, o in doc.all_items() if h in KEYED] + [c.item for c in accepted if c.section in KEYED]
        fixed = corrected(item.text, item.session_id, said) if item.section in KEYED else None
        item = replace(item, text=fixed) if fixed else item  # "不对，是 1000": the item it corrects, corrected
        line = item_line(item)
        if scan_secrets(line) or was_redacted(line):  # a line that held a secret is no rule nor fact
            continue
        present = [i for _, i in doc.all_items()] + [c.item for c in accepted]
        keyed = KEYED if item.section in KEYED else (FOUND,) if item.section == FOUND and item.kind == "tool" else ()
        named = set(holder_of_named(line, said)) if item.section in KEYED else set()  # the one item holding it
        older = {old for h, old in doc.all_items() if h in keyed and (old in named or _supersedes(h, line, old))}
        replaced = [
            c for c in accepted if c.section in keyed and (c.item in named or _supersedes(c.section, line, c.item))
        ]
        chosen = set(among_several(line, [*older, *(c.item for c in replaced)]))  # several: the one it names
        older, replaced = {o for o in older if o in chosen}, [c for c in replaced if c.item in chosen]
        if restated:  # a candidate retires only what was said before it, and is kept only if it does
            replaced = [c for c in replaced if when.get(c.item, 0) <= (item.time or 0)]
            clause = any(without_clauses(line, o) is not None for h, o in doc.all_items() if h in keyed)
            if not older and not replaced and not clause:
                continue
        known = present + [i for i in spilled if not INDEX_LINE.match(i)]
        if not older and not replaced and duplicate_of(line, known) is not None:
            continue  # the same again (a newer value of a near-identical line is not a duplicate)
        if keyed:
            for heading, old in doc.all_items():
                mine = heading == FOUND and found_supersedes(line, old) is not None  # decided by source and key
                rest = without_clauses(line, old) if heading in keyed and old not in older and not mine else None
                if heading in keyed and old in older:
                    doc.remove(heading, [old])
                elif rest is not None:  # a newer value of one clause: the rest of the old item stays
                    doc.replace(heading, old, rest)
                else:
                    continue
                history.append(_history_line(old, line, iso_day(item.time) if item.time else today))
            for c in replaced:
                accepted.remove(c)
                history.append(_history_line(c.item, line, iso_day(item.time) if item.time else today))
        for heading, old in [(h, o) for h, o in doc.all_items() if h in DONE and obsoletes(line, o)]:
            doc.remove(heading, [old])  # a value read from a file since edited
            history.append(_history_line(old, line, iso_day(item.time) if item.time else today))
        for c in [c for c in accepted if c.section in DONE and obsoletes(line, c.item)]:
            accepted.remove(c)
            history.append(_history_line(c.item, line, iso_day(item.time) if item.time else today))
        accepted.append(Candidate(item.section, line, clip(item.text, 80)))
        when[line] = item.time or 0
    return plan_memory(doc.render(), accepted, spill_files, today=today), history


def _supersedes(heading: str, new: str, old: str) -> bool:
    """Whether ``new`` retires ``old`` (of section ``heading``): a value a tool revealed by its source
    and key (:func:`~mimomem.passes.promote_found.found_supersedes`), anything else by its wording."""
    by_source = found_supersedes(new, old) if heading == FOUND else None
    return supersedes(new, old) if by_source is None else by_source


def superseded_texts(history: str | None) -> tuple[str, ...]:
    """The old items ``memory-history.md`` holds (each line's text before `` - superseded``)."""
    lines = (line[2:].split(" - superseded ", 1)[0] for line in (history or "").splitlines() if line.startswith("- "))
    return tuple(without_cite(text) for text in lines if text)


def without_cite(text: str) -> str:
    """An item's text without its provenance ``(user, 2026-…, s:…)``."""
    return re.sub(r"\s*\([a-z]+, \d{4}-\d{2}-\d{2}[^)]*\)\s*$", "", text)


def _history_line(old: str, new: str, today: str) -> str:
    return f"- {item_text(old)} - superseded {today} by: {clip(item_text(new), 120)}"


def promotable(episode: Episode, worktree: Any = None) -> list[Item]:
    """What promotion keeps of ``episode``: its items (:func:`items_of`), the project's paths shown
    relative to ``worktree``, none running fetched code.  The one list promotion and the capture
    benchmark both plan from."""
    items = items_of(episode)
    items += restated_candidates(episode, items)  # kept only when they retire an older value
    return without_fetched_code([_relative(i, worktree) for i in items], episode)


def without_fetched_code(items: list[Item], episode: Episode) -> list[Item]:
    """``items`` but those holding a command that runs fetched code (its words in code spans or bare,
    :func:`~mimomem.history.shell.text_runs_fetched_code`) and the pieces of a line of the session
    that holds one (``chmod +x b.sh`` and ``./b.sh`` cut from ``curl -o b.sh …; chmod +x b.sh; ./b.sh``):
    the one point before project memory and the session brief, whatever section found them."""
    unsafe = [_flat(line) for s in episode.said for line in s.text.splitlines() if text_runs_fetched_code(line)]
    ran = [_flat(c.summary) for c in episode.calls if c.runs_fetched]  # a download run by a later call
    return [
        i
        for i in items
        if not text_runs_fetched_code(i.text)
        and not any(_flat(i.text).rstrip("…") in line for line in unsafe)
        and not any(command in _flat(i.text) for command in ran)
    ]


def _flat(text: str) -> str:
    return " ".join(text.replace("`", "").split())


def read_episode(transcript: str, session_id: str, offset: int, head: str) -> tuple[Episode, int, str, int]:
    """(episode, end offset, head mark, lines skipped) of ``transcript`` from ``offset`` (main thread only).

    A line that cannot be read or taken apart is skipped and counted; the offset moves past it.
    """
    episode = Episode()
    skips: Counter[str] = Counter()

    def line(at: int, obj: dict[str, Any]) -> None:
        if obj.get("isSidechain") is True:
            return
        try:
            message = message_of(obj, default_sid=session_id, offset=at, skips=skips)
            for part in parts(message) if message is not None else ():
                episode.add(part)
        except (TypeError, ValueError, AttributeError, RecursionError):
            skips["line not promotable"] += 1

    with redaction_window():  # this read's texts only (the digest read the same transcript before)
        result = read_jsonl(transcript, line, offset=offset, head=head)
    return episode, result.end, result.head, sum(skips.values()) + sum(result.skipped.values())


def promote_marker(where: Where, marker: Marker, *, now: int) -> Promotion:
    """Promote what is new in one session's transcript (the caller holds the project lock)."""
    done = Promotion()
    try:
        episode, end, head, skipped = read_episode(marker.transcript, marker.session_id, marker.offset, marker.head)
    except OSError:
        return done  # missing or not a regular file: left for a later call
    done.skipped = skipped
    items = promotable(episode, where.worktree)
    today = iso_day(now)
    tree, pid = where.tree, where.project_id
    by = where.writer(CHECKPOINT_WRITER)
    memory = tree.project_memory(pid)
    live = read_text(memory)
    topics = set(spill_topics(live)) - {HISTORY_TOPIC, SESSIONS_TOPIC}
    spills = {t: read_text(tree.project_topic(pid, t)) for t in topics}
    planned, history = plan(live, items, spills, today=today)
    for topic, (heading, moved) in planned.spills.items():
        tree.update(tree.project_topic(pid, topic), _spill(heading, moved), by)
    if history:
        tree.update(tree.project_topic(pid, HISTORY_TOPIC), _append_history(history), by)
    tree.update(memory, _keeping_undo(tree, memory, lambda text: plan(text, items, spills, today=today)[0].text), by)
    done.added = planned.lines.get("Consolidated", [])
    done.superseded = history
    times = [t for t in (s.time for s in episode.said) if t is not None] + [c.time for c in episode.calls if c.time]
    marker.time = max([marker.time or 0, *times]) or now
    kept = [i for i in items if i.kind != RESTATED]  # a candidate that retired nothing is no item
    marker.brief = merge_brief(marker.brief, brief_of(episode, kept, where.worktree))
    marker.offset, marker.head = end, head
    write_marker(where, marker)
    gone = superseded_texts(read_text(tree.project_topic(pid, HISTORY_TOPIC)))
    tree.update(tree.project_topic(pid, SESSIONS_TOPIC), lambda _old: render_briefs(markers(where), gone), by)
    done.sessions = 1
    return done


def _keeping_undo(tree: Any, path: Any, rewrite: Callable[[str | None], str]) -> Callable[[str | None], str]:
    """``rewrite``, keeping an undo copy (passes.base.save_undo) when it drops a line of the live text.

    Promotion only adds lines, except where a newer value supersedes an older one or a section
    spills: those lines move to other files, and the copy lets the user undo the move."""

    def apply(live: str | None) -> str:
        new = rewrite(live)
        if live is not None and set(live.splitlines()) - set(new.splitlines()):
            save_undo(tree, path, live)
        return new

    return apply


def _relative(item: Item, root: Any) -> Item:
    """``item`` with the project's own paths shown relative to its root."""
    prefix = f"{root}{os.sep}" if root is not None else ""
    return replace(item, text=item.text.replace(prefix, "")) if prefix and prefix in item.text else item


def _spill(heading: str, moved: list[str]) -> Callable[[str | None], str]:
    return lambda old: spill_text(old, heading, moved)


def _append_history(lines: list[str]) -> Callable[[str | None], str]:
    def apply(old: str | None) -> str:
        text = old or "# Project memory: superseded values\n\n_Kept as history; never injected as current._\n\n"
        present = set(text.splitlines())
        return text.rstrip("\n") + "\n" + "".join(line + "\n" for line in lines if line not in present)

    return apply


def promote_pending(where: Where, *, deadline: float, only: str | None = None, lock_wait: float = 0.3) -> Promotion:
    """Promote every session of the project with unpromoted bytes (or just ``only``) until ``deadline``.

    ``deadline`` is a ``time.monotonic()`` value.  What is left when it passes, or when the
    project lock stays busy, is counted in ``pending`` (the markers keep it for later).
    """
    total = Promotion()
    if not where.tree.write_enabled or where.worktree is None:
        return total
    with project_lock(where, timeout=lock_wait) as held:
        found = markers(where)
        todo = [m for m in found if m.pending() and (only is None or m.session_id == only)]
        if not held:
            total.pending = len(todo)
            return total
        retire(where, [m for m in found if m not in todo])  # bounded state: old promoted sessions go
        for n, marker in enumerate(todo):
            if time.monotonic() >= deadline:
                total.pending = len(todo) - n
                break
            fresh = read_marker(marker_path(where, marker.session_id), marker.session_id) or marker
            done = promote_marker(where, fresh, now=int(time.time() * 1000))
            total.sessions += done.sessions
            total.added += done.added
            total.superseded += done.superseded
            total.skipped += done.skipped
    return total


def detach(where: Where) -> None:
    """Promote the project's pending sessions in a background process (outlives the hook)."""
    from mimomem.common.detach import spawn_detached  # looked up when called: the one way to start a worker

    spawn_detached(
        [sys.executable, "-m", "mimomem.passes.promote", str(where.worktree), where.session_id or ""], detach_log(where)
    )


def detach_log(where: Where) -> Path:
    """The log of the project's background promotions (``<data>/state/promote/<project id>.log``)."""
    return where.tree.data_dir / "state" / "promote" / f"{where.project_id}.log"


def run_background(project: str, session_id: str) -> int:
    """What the detached process does: promote everything pending of ``project``."""
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    return promote_all(locate(project, session_id=session_id or None, tree=MemoryTree()))


def promote_all(where: Where) -> int:
    """Promote everything pending of the project (a background process's work: waits for the lock); one log line."""
    done = promote_pending(where, deadline=time.monotonic() + 600, lock_wait=60)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    print(f"{stamp} promoted {done.sessions} session(s), {len(done.added)} item(s), {done.pending} pending", flush=True)
    return 0


__all__ = [
    "Promotion",
    "detach",
    "detach_log",
    "item_line",
    "plan",
    "promote_all",
    "promote_marker",
    "promote_pending",
    "register",
]

if __name__ == "__main__":  # pragma: no cover - run by detach() in a detached process
    sys.exit(run_background(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""))
