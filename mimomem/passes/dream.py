"""``dream``: promote what the history proves into the project's ``MEMORY.md``, without a model.

What is promoted (the promotion rule of :mod:`mimomem.history.evidence`):

- the user's explicit rules ("always …", "以后都 …") into **Rules**;
- the user's decisions ("we decided …", "决定用 …") into **Architecture decisions**;
- failures seen two or more times, with the fix that worked, and non-trivial commands run
  in two or more sessions, into **Discovered durable knowledge**.

Only what the user typed becomes a rule or a decision; tool output supports a failure fact
but is never quoted when it reads as an order; commands that fetch and run remote code or
touch credentials are never usual commands.  Each line says who said it, when and where
(``- 以后都用 pnpm (user, 2026-11-30, s:4b1f7c2e)``),
relative dates made absolute, and nothing already in memory (same words, or nearly) is
added twice.  A ``Usual command`` line is updated in place when its counts change.  When
``MEMORY.md`` would exceed 200 lines or 10 KB, the largest section moves to
``memory-<topic>.md`` and leaves an index line.  Contradictions and wording are left to a
model: ``--emit-prompt`` hands the same evidence to the host agent's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mimomem.common.redaction import was_redacted
from mimomem.common.secrets import scan_secrets
from mimomem.history.evidence import Evidence
from mimomem.history.provenance import reads_as_instruction
from mimomem.history.records import iso_day
from mimomem.history.signals import is_trivial, is_unsafe_command
from mimomem.passes.base import Change, PassContext, PassReport, apply_changes, read_text
from mimomem.passes.memory_doc import (
    INDEX_LINE,
    MAX_LINES,
    MemoryDoc,
    bullet_items,
    duplicate_of,
    health,
    item_key,
    item_text,
    topic_of,
)
from mimomem.passes.promote_items import DECISIONS, FACTS, RULES
from mimomem.passes.wording import absolute_dates, quote, sourced
from mimomem.tree.templates import memory_template

AGENT = "dream"
HEADINGS = ("Consolidated", "Updated", "Skipped", "Workflow candidates", "Health")
USUAL = "Usual command: "
WITHHELD = "(tool output withheld: it reads as an instruction)"
MAX_USUAL = 5
"""At most this many ``Usual command`` lines are proposed per run."""


@dataclass(frozen=True)
class Candidate:
    """A memory line a pass proposes; ``update_key`` lines replace their older version."""

    section: str
    item: str
    what: str
    update_key: str | None = None


def candidates(ev: Evidence) -> list[Candidate]:
    """Every promotable piece of evidence as a proposed memory line, in a stable order.

    Provenance decides: rules and decisions come only from what the user typed; a failure is
    a fact the tool's output supports (its message withheld when it reads as an order); a
    usual command is one the model ran that succeeded, never one that fetches and runs
    remote code or touches credentials.
    """
    out: list[Candidate] = []
    for s in ev.statements():
        text = absolute_dates(s.text, s.provenance.time)
        section = RULES if s.kind == "rule" else DECISIONS
        out.append(Candidate(section, sourced(text, s.provenance, s.sessions), quote(text, 80)))
    for f in ev.repeated_failures():
        if is_unsafe_command(f.call):
            continue
        fixes = [x for x in f.fixes if not is_unsafe_command(x)]
        fix = f"; fix: {fixes[0]}" if fixes else "; no fix seen yet"
        error = WITHHELD if reads_as_instruction(f.error) else quote(f.error, 120)
        text = f'`{quote(f.call, 120)}` fails with "{error}"{fix} (seen {f.count} times)'
        out.append(Candidate(FACTS, sourced(text, f.first, f.sessions, kind="tool"), quote(text, 80)))
    usual = [
        r
        for r in ev.repeated_commands()
        if len(r.sessions) >= 2
        and r.failures * 2 < r.count
        and not any(map(is_unsafe_command, (r.command, *r.examples)))
    ]
    for r in usual[:MAX_USUAL]:
        shown = r.command if "<" not in r.command else r.examples[0]
        text = f"{USUAL}`{quote(shown, 120)}` (run {r.count} times in {len(r.sessions)} sessions)"
        item = sourced(text, r.first, r.sessions, kind="model")
        out.append(Candidate(FACTS, item, quote(text, 80), f"{USUAL}`{shown}`"))
    return out


@dataclass
class DreamPlan:
    """The new ``MEMORY.md`` text, the items to move per topic, and the report lines."""

    text: str
    spills: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    lines: dict[str, list[str]] = field(default_factory=dict)

    def note(self, heading: str, line: str) -> None:
        self.lines.setdefault(heading, []).append(line)


def plan_memory(
    live: str | None,
    proposed: list[Candidate],
    spill_files: Mapping[str, str | None],
    *,
    today: str,
    only_spill: Mapping[str, set[str]] | None = None,
) -> DreamPlan:
    """Merge ``proposed`` into the ``MEMORY.md`` text ``live``, then bring it within its caps.

    ``spill_files`` maps topic -> current text of ``memory-<topic>.md`` (their items count
    as already in memory).  ``only_spill`` (topic -> item keys) limits what may move, to
    the items already written to the spill files.
    """
    doc = MemoryDoc.parse(live if live is not None and live.strip() else memory_template())
    plan = DreamPlan("")
    existing = [item for _, item in doc.all_items()]
    for text in spill_files.values():
        existing += [i for i in bullet_items((text or "").splitlines()) if not INDEX_LINE.match(i)]
    for c in proposed:
        _merge_one(doc, c, existing, plan)
    _enforce_caps(doc, spill_files, plan, today, only_spill)
    plan.text = doc.render()
    plan.note("Health", f"MEMORY.md: {health(plan.text).render()}")
    return plan


def _merge_one(doc: MemoryDoc, c: Candidate, existing: list[str], plan: DreamPlan) -> None:
    found = scan_secrets(c.item)
    if found:  # named by its section and kind only: a label cut at 80 characters could show part of the secret
        kinds = ", ".join(sorted({f.kind for f in found}))
        plan.note("Skipped", f"a {c.section} line holding a likely secret ({kinds}); not written")
        return
    if was_redacted(c.item):  # the history redacted it on import: what is left is no rule or fact
        plan.note("Skipped", f"a {c.section} line that held a likely secret (redacted); not written")
        return
    if c.update_key is not None:
        for heading, item in doc.all_items():
            if item_text(item).startswith(c.update_key):
                if item_key(item) == item_key(c.item):
                    plan.note("Skipped", f"unchanged: {c.what}")
                else:
                    doc.replace(heading, item, c.item)
                    plan.note("Updated", f"{heading}: {c.what}")
                return
    dup = duplicate_of(c.item, existing)
    if dup is not None:
        plan.note("Skipped", f"already in memory: {c.what}")
        return
    doc.add(c.section, c.item)
    existing.append(c.item)
    plan.note("Consolidated", f"{c.section}: {c.what}")


def _enforce_caps(
    doc: MemoryDoc,
    spill_files: Mapping[str, str | None],
    plan: DreamPlan,
    today: str,
    only_spill: Mapping[str, set[str]] | None,
) -> None:
    """Move the largest section's items to ``memory-<topic>.md`` until within the caps."""
    while not health(doc.render()).ok:
        movable = []
        for section in doc.sections:
            items = section.items()
            if only_spill is not None:
                allowed = only_spill.get(topic_of(section.heading), set())
                items = [i for i in items if item_key(i) in allowed]
            if items:
                movable.append((sum(len(i.encode()) for i in items), section, items))
        if not movable:
            plan.note("Health", "still over the caps: no section has items left to move")
            return
        _, section, items = max(movable, key=lambda m: m[0])
        topic = topic_of(section.heading)
        doc.remove(section.heading, items)
        heading, moved = plan.spills.get(topic, (section.heading, []))
        plan.spills[topic] = (heading, moved + items)
        total = len(_spill_items(spill_files.get(topic), moved + items))
        index = (
            f"- See memory-{topic}.md ({total} items) - {section.heading} moved out on {today} to keep "
            f"MEMORY.md within {MAX_LINES} lines / 10 KB"
        )
        old = next(iter(section.index_lines()), None)
        if old is None or not doc.replace(section.heading, old, index):
            doc.add(section.heading, index)
        plan.note("Health", f"moved {len(items)} items of {section.heading} to memory-{topic}.md")


def _spill_items(old: str | None, new: list[str]) -> list[str]:
    items = [i for i in bullet_items((old or "").splitlines()) if not INDEX_LINE.match(i)]
    keys = {item_key(i) for i in items}
    for item in new:
        if item_key(item) not in keys:
            items.append(item)
            keys.add(item_key(item))
    return items


def spill_text(old: str | None, heading: str, new: list[str]) -> str:
    """The text of ``memory-<topic>.md`` after adding ``new`` items (de-duplicated)."""
    items = _spill_items(old, new)
    head = [
        f"# Project memory: {heading}",
        "",
        "_Moved out of MEMORY.md to keep it small; MEMORY.md keeps an index line pointing here._",
        "",
    ]
    return "\n".join(head + [line for item in items for line in item.split("\n")]) + "\n"


def run_dream(ctx: PassContext, *, dry_run: bool = False) -> PassReport:
    """Plan the dream pass for ``ctx`` and (unless ``dry_run``) write it through the gate as ``dream``."""
    tree, pid = ctx.where.tree, ctx.where.project_id
    report = PassReport("dream", HEADINGS)
    ev = ctx.evidence()
    memory_path = tree.project_memory(pid)
    live = read_text(memory_path)
    topics = spill_topics(live)
    spill_files = {t: read_text(tree.project_topic(pid, t)) for t in topics}
    proposed = candidates(ev)
    today = _today(ctx.now)
    plan = plan_memory(live, proposed, spill_files, today=today)
    if plan.spills and any(t not in spill_files for t in plan.spills):  # a first spill: dedupe against its file too
        spill_files.update({t: read_text(tree.project_topic(pid, t)) for t in plan.spills if t not in spill_files})
        plan = plan_memory(live, proposed, spill_files, today=today)
    for topic, (heading, items) in plan.spills.items():
        path = tree.project_topic(pid, topic)
        new = spill_text(spill_files.get(topic), heading, items)
        report.changes.append(Change(path, spill_files.get(topic), new, _spill_apply(heading, items)))
    written = {t: {item_key(i) for i in items} for t, (_, items) in plan.spills.items()}

    def merge_live(text: str | None) -> str:
        current = {t: read_text(tree.project_topic(pid, t)) for t in set(spill_files) | set(plan.spills)}
        return plan_memory(text, proposed, current, today=today, only_spill=written).text

    if plan.text != live:
        report.changes.append(Change(memory_path, live, plan.text, merge_live))
    for heading, lines in plan.lines.items():
        for line in lines:
            report.add(heading, line)
    pending = [r for r in ev.repeated_commands() if len(r.sessions) >= 2 and not is_trivial(r.command)]
    if pending:
        report.add("Workflow candidates", f"{len(pending)} repeated commands; `mimomem distill` shortlists them")
    if not ev.sessions():
        report.add("Skipped", "no history for this project in the window; run `mimomem history import` first")
    apply_changes(ctx, report, AGENT, dry_run=dry_run)
    return report


def _spill_apply(heading: str, items: list[str]) -> Callable[[str | None], str]:
    def apply(old: str | None) -> str:
        return spill_text(old, heading, items)

    return apply


def spill_topics(text: str | None) -> list[str]:
    """Topics of the ``memory-<topic>.md`` files ``MEMORY.md`` already points at."""
    found = []
    for line in (text or "").splitlines():
        match = INDEX_LINE.match(line)
        if match:
            found.append(match.group(1)[len("memory-") : -len(".md")])
    return found


def _today(now: int) -> str:
    return iso_day(now)
