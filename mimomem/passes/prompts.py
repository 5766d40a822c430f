"""``--emit-prompt``: one text holding a pass's instructions and the evidence mimomem gathered.

The host agent's own model does the wording: the agent runs ``mimomem dream --emit-prompt``
(or ``distill`` / ``checkpoint``), follows the text, and writes the result back through
``mimomem write … --agent <pass>``, so the write gate still applies.  The shape is fixed:

    <mimomem-pass name="dream" project="shop-api" window="last 7 days" sessions="4">
    # Task            what to do, in a few sentences
    # Rules           what may be promoted and how lines look
    # Evidence        statements, repeated failures, repeated commands, files (each with provenance)
    # Current file    the file to rewrite, verbatim, fenced (when the pass edits one)
    # Write back      the exact command that writes the result
    # Report          the headings of the final report
    </mimomem-pass>

The instructions are mimomem's own wording.
"""

from __future__ import annotations

from mimomem.common.secrets import redact_secrets
from mimomem.history.evidence import Evidence, Window
from mimomem.passes.base import PassContext, read_text
from mimomem.passes.distill import find_workflows
from mimomem.passes.memory_doc import MAX_BYTES, MAX_LINES
from mimomem.passes.wording import quote

MAX_ITEMS = 40
"""Evidence items per block at most (the newest or most frequent)."""

DREAM_TASK = """Consolidate this project's durable knowledge into its MEMORY.md. The history below is the
source of truth; MEMORY.md is an index of it. Add what the evidence proves, merge duplicates,
rewrite relative dates as YYYY-MM-DD, and delete lines the evidence contradicts (say which)."""

DREAM_RULES = f"""- Promote only: an explicit user statement (rule), a clear decision, or what was seen two or more
  times.
- Sections: Rules (standing instructions), Architecture decisions (decision + date + reason),
  Discovered durable knowledge (facts learned the hard way). Leave Project context to the user.
- One line per entry, ending with its source: `- <entry> (YYYY-MM-DD, [session <id>])`.
- Keep the file under {MAX_LINES} lines and {MAX_BYTES // 1024} KB; move a large section to memory-<topic>.md and
  leave `- See memory-<topic>.md (N items) - <what it holds>` in its place.
- Never copy secrets, tokens or passwords; refer to where they are kept instead."""

DISTILL_TASK = """Find workflows this project repeats and package only the solid ones as skills. Zero new skills
is a valid outcome: default to a shortlist."""

DISTILL_RULES = """- A workflow qualifies when it happened in two or more sessions with the same inputs, has a clear
  end, and is not covered by an existing skill, command or agent.
- A skill is `.claude/skills/<name>/SKILL.md` with YAML frontmatter `name` (lowercase, hyphens) and
  `description` (when to use it), then the steps as exact commands and the known failures with fixes.
- Never create anything for a one-off, and never include secrets."""

CHECKPOINT_TASK = """Rewrite this session's checkpoint so the session can resume from it alone. Keep all eleven
`## §N` headings in order with their italic instruction lines; replace only the content under them."""

CHECKPOINT_RULES = """- §1 quotes the user's latest explicit request verbatim (cut quotes over 200 characters).
- §8 lists errors and their fixes, newest first; §6 the files that matter; §4 the task tree.
- Copy commands, ports, paths and DSNs literally. Stay within each section's token budget.
- Sort the notes inbox into the sections; only then reset notes.md to its template."""


def _quote(text: str, limit: int = 200) -> str:
    """``quote`` of ``text`` with its likely secrets redacted first (a cut could leave part of one)."""
    return quote(redact_secrets(text), limit)


def render_evidence(ev: Evidence, *, files: bool = True) -> list[str]:
    """The evidence blocks of a prompt, every item with its provenance."""
    out = ["# Evidence", ""]
    blocks = [
        ("Explicit statements", [f"- {s.kind}: {_quote(s.text)} ({s.provenance.render()})" for s in ev.statements()]),
        (
            "Repeated failures and their fixes",
            [
                f'- `{_quote(f.call, 120)}` failed {f.count} times with "{_quote(f.error, 120)}"; '
                f"fix: {f.fixes[0] if f.fixes else 'none seen'} ({f.first.render()})"
                for f in ev.repeated_failures()
            ],
        ),
        (
            "Repeated commands",
            [
                f"- `{_quote(r.command, 120)}`: {r.count} runs in {len(r.sessions)} sessions, {r.failures} failed "
                f"({r.first.render()})"
                for r in ev.repeated_commands()
            ],
        ),
    ]
    if files:
        blocks.append(
            (
                "Files edited most",
                [f"- {f.path}: {f.edits} edits in {len(f.sessions)} sessions" for f in ev.files_touched()],
            )
        )
    for title, items in blocks:
        out += [f"## {title}", "", *(items[:MAX_ITEMS] or ["(none)"]), ""]
    return out


def _fence(text: str | None) -> list[str]:
    body = (text or "(the file does not exist yet)").rstrip("\n")
    fence = "````" if "```" in body else "```"
    return [f"{fence}markdown", body, fence]


def _open(name: str, ctx: PassContext, ev: Evidence) -> list[str]:
    window = "all history" if ctx.days is None else f"last {ctx.days} day" + ("s" if ctx.days != 1 else "")
    head = f'<mimomem-pass name="{name}" project="{ctx.where.project_name}" window="{window}"'
    return [head + f' sessions="{len(ev.sessions())}">', ""]


def dream_prompt(ctx: PassContext) -> str:
    """The dream pass for the host agent's model."""
    ev = ctx.evidence()
    path = ctx.where.tree.project_memory(ctx.where.project_id)
    out = [*_open("dream", ctx, ev), "# Task", "", DREAM_TASK, "", "# Rules", "", DREAM_RULES, ""]
    out += render_evidence(ev)
    out += [f"# Current file: {path}", "", *_fence(read_text(path)), ""]
    out += [
        "# Write back",
        "",
        "Write the whole new file with:",
        "",
        "    mimomem write project --agent dream < MEMORY.md",
        "",
    ]
    out += ["# Report", "", "End with: Consolidated / Updated / Deleted / Skipped / Health (lines/200, KB/10).", ""]
    return "\n".join([*out, "</mimomem-pass>"]) + "\n"


def distill_prompt(ctx: PassContext) -> str:
    """The distill pass for the host agent's model."""
    ev = ctx.evidence()
    shortlist, weak = find_workflows(ev)
    out = [*_open("distill", ctx, ev), "# Task", "", DISTILL_TASK, "", "# Rules", "", DISTILL_RULES, ""]
    out += render_evidence(ev, files=False)
    out += ["## Candidate workflows (repeated in two or more sessions)", ""]
    out += [f"- {f.name}: {f.label()} ({len(f.sessions)} sessions)" for f in shortlist] or ["(none)"]
    out += ["", "## Repeated inside one session only (needs more evidence)", ""]
    out += [f"- {f.label()} ({f.runs} runs)" for f in weak[:MAX_ITEMS]] or ["(none)"]
    out += ["", "# Write back", "", "Create each skill with:", ""]
    out += ["    mimomem write .claude/skills/<name>/SKILL.md --agent distill < SKILL.md", ""]
    out += ["# Report", "", "End with: Shortlist / Created / Skipped / Needs more evidence.", ""]
    return "\n".join([*out, "</mimomem-pass>"]) + "\n"


def checkpoint_prompt(ctx: PassContext) -> str:
    """The checkpoint pass for the host agent's model (needs a session)."""
    from mimomem.errors import PassError

    sid = ctx.where.session_id
    if sid is None:
        raise PassError("checkpoint needs a session: pass --session SID or set MIMOMEM_SESSION")
    tree = ctx.where.tree
    ev = Evidence.gather(ctx.store, Window(session_id=sid))
    out = [*_open("checkpoint", ctx, ev), "# Task", "", CHECKPOINT_TASK, "", "# Rules", "", CHECKPOINT_RULES, ""]
    out += render_evidence(ev)
    out += ["## Failures in this session (newest first)", ""]
    out += [
        f'- `{_quote(f.call, 120)}`: "{_quote(f.error, 120)}"; {f.fix or "not fixed"}' for f in reversed(ev.failures())
    ]
    out += ["", f"# Notes inbox: {tree.notes(sid)}", "", *_fence(read_text(tree.notes(sid))), ""]
    out += [f"# Current file: {tree.checkpoint(sid)}", "", *_fence(read_text(tree.checkpoint(sid))), ""]
    out += ["# Write back", "", "Write the whole new file with:", ""]
    out += ["    mimomem write checkpoint --agent checkpoint-writer < checkpoint.md", ""]
    out += ["# Report", "", "End with: Filled / Kept / Validation.", ""]
    return "\n".join([*out, "</mimomem-pass>"]) + "\n"


def pass_prompt(name: str, ctx: PassContext) -> str:
    """The ``--emit-prompt`` text of pass ``name``, likely secrets redacted: it leaves mimomem (printed or sent)."""
    render = {"dream": dream_prompt, "distill": distill_prompt}.get(name, checkpoint_prompt)
    return redact_secrets(render(ctx))
