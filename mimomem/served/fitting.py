"""Context blocks and fitting them into a token budget and the host's character cap.

The text a hook hands the model is a list of :class:`Block` in a :class:`Context`;
:func:`enforce` redacts likely secrets and cuts from the end until the whole fits.  Kept
apart from assembly (:mod:`mimomem.context.assemble`) because the prompt hook's served path
(:mod:`mimomem.served.plans`) fits its blocks with this code without importing the tree.
"""

from __future__ import annotations

from mimomem.common.launcher import agent_run
from mimomem.common.light_typing import TYPE_CHECKING, NamedTuple
from mimomem.common.secrets import redact_secrets
from mimomem.served.budgeted import read_budgeted
from mimomem.served.estimate import estimate_joined, estimate_tokens
from mimomem.served.hosts import cut_utf16, utf16_len

if TYPE_CHECKING:
    from typing import Any


class Block(NamedTuple):
    """One block of context: a name, the text (heading included), its tokens, what was cut."""

    name: str
    text: str
    tokens: int
    full_tokens: int
    truncated: bool
    source: str


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
        """Estimated tokens of :attr:`text` (from its pieces: a long block's counts are remembered)."""
        return estimate_joined(*self._pieces())

    @property
    def text(self) -> str:
        """The blocks joined, then a line naming what was left out; ``""`` when empty."""
        return "".join(self._pieces())

    def _pieces(self) -> list[str]:
        parts = [b.text.rstrip("\n") for b in self.blocks if b.text]
        if self.left_out:  # alone too: a budget too small for any block still says what it left out
            parts.append("Left out for the token budget: " + "; ".join(self.left_out) + ".")
        pieces = [piece for part in parts for piece in (part, "\n\n")]
        return [*pieces[:-1], "\n"] if pieces else []

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


PROMPT_BUDGET = 1200
"""Default tokens for the per-prompt context: it is paid on every turn, so keep it small."""

LEFT_OUT_RESERVE = 60
"""Tokens kept free for the closing "Left out for the token budget" line."""


def make_block(name: str, text: str, source: str) -> Block:
    """A whole (uncut) block of ``text``, its tokens estimated."""
    tokens = estimate_tokens(text)
    return Block(name, text, tokens, tokens, False, source)


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
(:mod:`mimomem.served.instructions`): not scanned again here."""


def _redacted(block: Block) -> Block:
    """``block`` with every likely secret replaced by ``[redacted <kind>]`` (a hand-edited file may hold one)."""
    if block.name in OWN_WORDING:
        return block
    text = redact_secrets(block.text)
    if text == block.text:
        return block
    tokens = estimate_tokens(text)
    return Block(block.name, text, tokens, max(tokens, block.full_tokens), block.truncated, block.source)


def enforce(ctx: Context) -> Context:
    """Redact likely secrets, then drop or cut trailing blocks until the whole text fits the budget and
    the character cap (a hard guarantee); each cut names what was left out and where to read it.

    Everything injected into the model's context leaves mimomem: a secret in a memory file (typed
    by hand, or from before a scanner rule existed) is shown as ``[redacted <kind>]``.
    """
    ctx.blocks = [_redacted(b) for b in ctx.blocks]
    while ctx.blocks and _over(ctx) > 0:
        last = ctx.blocks[-1]
        if len(ctx.blocks) == 1 and _name_only(ctx) and _over(ctx) <= 0:
            break  # the first block stays whole once the left-out line is short
        if _cut_last(ctx, last):
            break
        ctx.blocks.pop()
        named = f"{last.name} (~{last.full_tokens} tokens, {last.source or agent_run('context')})"
        if named not in ctx.left_out:  # a block cut to nothing was named already
            ctx.left_out.append(named)
    if not ctx.blocks:
        _name_only(ctx)
        if _over(ctx) > 0:  # a budget smaller than the names alone: nothing is said
            ctx.left_out = []
    if ctx.char_cap is not None and utf16_len(ctx.text) > ctx.char_cap:  # a last line longer than the cap
        ctx.blocks = [make_block("cut", cut_utf16(ctx.text, ctx.char_cap - 200), "")]
        ctx.left_out = [f"the rest of the memory context (run `{agent_run('search')}` for specifics)"]
    return ctx


def _name_only(ctx: Context) -> bool:
    """Shorten the left-out line to the blocks' names and one command (True if it was longer).

    Each left-out block is named with its size and the command that reads it; with a small budget
    and many blocks that line alone can take the room of the first block (the instructions), and
    the answer would be empty: a user who set a tiny budget still learns what was left out."""
    if not ctx.left_out:
        return False
    names = list(dict.fromkeys(entry.split(" (", 1)[0] for entry in ctx.left_out))
    short = [", ".join(names) + f" (run `{agent_run('context')}` to read them)"]
    if short == ctx.left_out:
        return False
    ctx.left_out = short
    return True


def _cut_last(ctx: Context, last: Block, tries: int = 4) -> bool:
    """Cut the last block until the context fits (True), or give up (False: the caller drops it).

    Several tries, because a token estimate and the character cap disagree (CJK text has
    fewer characters per token than the first guess assumes).
    """
    room = last.tokens - _over(ctx) - 8
    for _ in range(tries):
        if room <= 20 or not last.text:
            return False
        cut = read_budgeted(last.text, room, source=last.source or agent_run("context"))
        ctx.blocks[-1] = Block(last.name, cut.text, cut.tokens, last.full_tokens, True, last.source)
        over = _over(ctx)
        if over <= 0:
            return True
        room = min(room - 8, cut.tokens - over - 8)
    ctx.blocks[-1] = last
    return False
