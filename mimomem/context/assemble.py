"""Context assembly: the text mimomem puts in front of the model, within one token budget.

Two moments, as in the design's pyramid:

- **session start** (``session_context``): the memory instructions, the curated hard rules
  and outline, then the rebuild context (tasks, checkpoint, recent input, project memory,
  the project's recent sessions, global memory, notes, keys index) - the L1 layer, injected
  every session, most useful first: a cut for the host's character cap drops from the end;
- **each prompt** (``prompt_context``): curated memories that match the prompt (by recall
  and by their ``load_when`` scenarios), whole memory entries that pass the relevance gate
  (``entry_recall``), and
  the recall reminder - or nothing at all when nothing is relevant.

Every block carries its estimated token count; the total never exceeds the budget, and
anything cut or left out is named with the path or command that shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mimomem.common.secrets import redact_secrets
from mimomem.context.budgeted import read_budgeted
from mimomem.context.estimate import estimate_tokens
from mimomem.context.hosts import cut_utf16, utf16_len
from mimomem.context.instructions import memory_instructions, recall_reminder
from mimomem.context.rebuild import Block, rebuild_blocks
from mimomem.tree.where import Where

SESSION_BUDGET = 4000
"""Default tokens for the session-start context (Claude Code shows ~10,000 characters whole)."""

PROMPT_BUDGET = 1200
"""Default tokens for the per-prompt context: it is paid on every turn, so keep it small."""


class Context:
    """Assembled context: ordered blocks, the budget, and what was left out.

    A plain class, not a dataclass: the hook imports this module on every prompt, and
    ``dataclasses`` (with the ``inspect`` it imports) costs about 10 ms of a hook process.
    """

    __slots__ = ("blocks", "budget", "char_cap", "left_out")

    def __init__(
        self,
        budget: int,
        blocks: list[Block] | None = None,
        left_out: list[str] | None = None,
        char_cap: int | None = None,
    ) -> None:
        self.budget = budget
        self.blocks: list[Block] = [] if blocks is None else blocks
        self.left_out: list[str] = [] if left_out is None else left_out
        self.char_cap = char_cap
        """At most this many UTF-16 units of :attr:`text` (the host's output cap), when set."""

    def __repr__(self) -> str:
        return (
            f"Context(budget={self.budget!r}, blocks={self.blocks!r}, left_out={self.left_out!r},"
            f" char_cap={self.char_cap!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Context):
            return NotImplemented
        return (self.budget, self.blocks, self.left_out, self.char_cap) == (
            other.budget,
            other.blocks,
            other.left_out,
            other.char_cap,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass was

    @property
    def tokens(self) -> int:
        """Estimated tokens of :attr:`text`."""
        return estimate_tokens(self.text)

    @property
    def text(self) -> str:
        """The blocks joined, then a line naming what was left out; ``""`` when empty."""
        parts = [b.text.rstrip("\n") for b in self.blocks if b.text]
        if not parts:
            return ""
        if self.left_out:
            parts.append("Left out for the token budget: " + "; ".join(self.left_out) + ".")
        return "\n\n".join(parts) + "\n"

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form: each block with its tokens, the total and the budget."""
        return {
            "budget": self.budget,
            "tokens": self.tokens,
            "blocks": [
                {
                    "name": b.name,
                    "tokens": b.tokens,
                    "full_tokens": b.full_tokens,
                    "truncated": b.truncated,
                    "source": b.source,
                    "text": b.text,
                }
                for b in self.blocks
            ],
            "left_out": list(self.left_out),
            "text": self.text,
        }


def session_context(
    where: Where,
    *,
    budget: int = SESSION_BUDGET,
    recent_user: Sequence[str] = (),
    curated: bool = True,
    char_cap: int | None = None,
) -> Context:
    """Instructions + rebuild context + curated rules and outline, within ``budget`` tokens
    and ``char_cap`` UTF-16 units (the host's cap on one hook output, :mod:`mimomem.context.hosts`)."""
    ctx = Context(budget, char_cap=char_cap)
    instructions = _block("instructions", memory_instructions(where), "mimomem context")
    extra = _curated_session_blocks(where) if curated else []
    reserve = instructions.tokens + sum(b.tokens for b in extra) + _LEFT_OUT_RESERVE
    rebuilt = rebuild_blocks(where, max(0, budget - reserve), recent_user=recent_user)
    if any(b.text or b.full_tokens for b in rebuilt) or extra:  # a block cut to nothing is named as left out
        ctx.blocks = [instructions, *extra, *rebuilt]  # hard rules first (the instructions say what follows)
    else:
        ctx.blocks = [instructions]
    _note_left_out(ctx)
    return _enforce(ctx)


def prompt_context(
    where: Where, prompt: str, *, budget: int = PROMPT_BUDGET, search_limit: int = 3, char_cap: int | None = None
) -> Context:
    """What is relevant to ``prompt`` right now; an empty context when nothing is."""
    ctx = Context(budget, char_cap=char_cap)
    blocks = _curated_prompt_blocks(where, prompt) + _search_blocks(where, prompt, search_limit)
    if blocks:
        reminder = recall_reminder(where)
        if reminder:
            blocks.append(_block("reminder", reminder, ""))
    ctx.blocks = blocks
    return _enforce(ctx)


_LEFT_OUT_RESERVE = 60
"""Tokens kept free for the closing "Left out for the token budget" line."""


def _block(name: str, text: str, source: str) -> Block:
    tokens = estimate_tokens(text)
    return Block(name, text, tokens, tokens, False, source)


def _note_left_out(ctx: Context) -> None:
    for b in ctx.blocks:
        if not b.text and b.full_tokens:
            ctx.left_out.append(f"{b.name} (~{b.full_tokens} tokens, {b.source})")


def _over(ctx: Context) -> int:
    """How many tokens over the budget the context is, the character cap counted as tokens too."""
    over = ctx.tokens - ctx.budget
    if ctx.char_cap is not None:
        chars = utf16_len(ctx.text) - ctx.char_cap
        if chars > 0:
            over = max(over, 1, ctx.tokens * chars // max(1, utf16_len(ctx.text)) + 1)
    return over


OWN_WORDING = frozenset({"instructions", "reminder"})
"""Blocks of mimomem's own wording whose inserted paths are redacted where they are put in
(:mod:`mimomem.context.instructions`): not scanned again here."""


def _redacted(block: Block) -> Block:
    """``block`` with every likely secret replaced by ``[redacted <kind>]`` (a hand-edited file may hold one)."""
    if block.name in OWN_WORDING:
        return block
    text = redact_secrets(block.text)
    if text == block.text:
        return block
    tokens = estimate_tokens(text)
    return Block(block.name, text, tokens, max(tokens, block.full_tokens), block.truncated, block.source)


def _enforce(ctx: Context) -> Context:
    """Redact likely secrets, then drop or cut trailing blocks until the whole text fits the budget and
    the character cap (a hard guarantee); each cut names what was left out and where to read it.

    Everything injected into the model's context leaves mimomem: a secret in a memory file (typed
    by hand, or from before a scanner rule existed) is shown as ``[redacted <kind>]``.
    """
    ctx.blocks = [_redacted(b) for b in ctx.blocks]
    while ctx.blocks and _over(ctx) > 0:
        last = ctx.blocks[-1]
        if _cut_last(ctx, last):
            break
        ctx.blocks.pop()
        ctx.left_out.append(f"{last.name} (~{last.full_tokens} tokens, {last.source or 'mimomem context'})")
    if ctx.char_cap is not None and utf16_len(ctx.text) > ctx.char_cap:  # a last line longer than the cap
        ctx.blocks = [_block("cut", cut_utf16(ctx.text, ctx.char_cap - 200), "")]
        ctx.left_out = ["the rest of the memory context (run `mimomem search` for specifics)"]
    return ctx


def _cut_last(ctx: Context, last: Block, tries: int = 4) -> bool:
    """Cut the last block until the context fits (True), or give up (False: the caller drops it).

    Several tries, because a token estimate and the character cap disagree (CJK text has
    fewer characters per token than the first guess assumes).
    """
    room = last.tokens - _over(ctx) - 8
    for _ in range(tries):
        if room <= 20 or not last.text:
            return False
        cut = read_budgeted(last.text, room, source=last.source or "mimomem context")
        ctx.blocks[-1] = Block(last.name, cut.text, cut.tokens, last.full_tokens, True, last.source)
        over = _over(ctx)
        if over <= 0:
            return True
        room = min(room - 8, cut.tokens - over - 8)
    ctx.blocks[-1] = last
    return False


def _curated_session_blocks(where: Where) -> list[Block]:
    from mimomem.context.relevant import curated_session_text

    text = curated_session_text(where)
    return [_block("curated", text, "mimomem inspect")] if text else []


def _curated_prompt_blocks(where: Where, prompt: str) -> list[Block]:
    from mimomem.context.relevant import curated_prompt_text

    text = curated_prompt_text(where, prompt)
    return [_block("curated", text, "mimomem recall")] if text else []


def _search_blocks(where: Where, prompt: str, limit: int) -> list[Block]:
    """Whole memory entries that pass the relevance gate (:mod:`mimomem.context.entry_recall`)."""
    from mimomem.context.entry_recall import recall_text

    text = recall_text(where, prompt, limit=max(limit, 1) + 1)
    return [_block("entries", text, "mimomem search")] if text else []
