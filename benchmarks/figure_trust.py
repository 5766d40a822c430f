"""Figures of the trust checks, round three (issue 32): commands that run fetched code, found by the
shell data-flow walk (bench_unsafe_commands.py), and the third held-out secrets split (bench_secrets.py)."""

from __future__ import annotations

from typing import Any

from figure_defs import figure

UNSAFE = (
    "unsafe-commands-dev-before",
    "unsafe-commands-heldout-before",
    "unsafe-commands-dev-after",
    "unsafe-commands-heldout-after",
    "unsafe-commands-heldout-after-fix",
)


@figure("unsafe-commands", UNSAFE)
def unsafe_commands(data: dict[str, Any]) -> str:
    """Refused / flagged on the command dev set and its held-out split, before and after the flow walk."""
    dev_b, held_b, dev_a, held_a, held_fix = (data[name] for name in UNSAFE)

    def cells(run: dict[str, Any]) -> list[str]:
        return [f"{run['refused']} / {run['unsafe']}", f"{run['flagged']} / {run['safe']}"]

    rows = [
        ["before (main's `history/shell.py`)", *cells(dev_b), *cells(held_b)],
        ["after: the data-flow walk (`history/shell_flow.py`)", *cells(dev_a), *cells(held_a)],
        ["after the held-out miss was seen and fixed (no longer blind)", "-", "-", *cells(held_fix)],
    ]
    head = ["mimomem", "dev: refused", "safe flagged", "held-out: refused", "safe flagged"]
    lines = ["", "| " + " | ".join(head) + " |", "|---|" + "---:|" * 4]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    note = (
        "From `benchmarks/results/unsafe-commands-{dev,heldout}-{before,after}.json` and"
        " `unsafe-commands-heldout-after-fix.json` (`bench_unsafe_commands.py --set dev|heldout --record`;"
        " the before rows ran main's `history/shell.py` in place of this one). Dev"
        f" {dev_a['unsafe'] + dev_a['safe']} cases, held-out {held_a['unsafe'] + held_a['safe']}."
    )
    return "\n".join([*lines, "", note, ""])
