"""Figures of the trust checks, round three (issue 32): commands that run fetched code, found by the
shell data-flow walk (bench_unsafe_commands.py), and the third held-out secrets split (bench_secrets.py)."""

from __future__ import annotations

from typing import Any

from figure_defs import figure
from figure_quality import secret_cells

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


# -- round three: a third held-out split in two halves (bench_secrets.py --record; issue 32) ----------

ROUND_THREE = (
    "secrets-adversarial-dev3-before",
    "secrets-adversarial-heldout3-before",
    "secrets-adversarial-heldout3b-before",
    "secrets-adversarial-dev3-after",
    "secrets-adversarial-heldout3-after",
    "secrets-adversarial-heldout3b-after",
)
PEERS = [
    ("detect-secrets 1.5.0, all plugins, `.txt`", "detect-secrets, all plugins, .txt"),
    ("detect-secrets 1.5.0, all plugins, `.yaml`", "detect-secrets, all plugins, .yaml"),
    ("detect-secrets 1.5.0, KeywordDetector only, `.yaml`", "detect-secrets, KeywordDetector, .yaml"),
]


@figure("secrets-round-three", ROUND_THREE)
def secrets_round_three(data: dict[str, Any]) -> str:
    """Caught / stored / look-alikes redacted on dev-3 and both halves of heldout-3, before and after."""
    dev_b, held_b, blind_b, dev_a, held_a, blind_a = (data[name] for name in ROUND_THREE)

    rows = [
        ["mimomem before (main at 6c4d56d)", *secret_cells(dev_b), *secret_cells(held_b), *secret_cells(blind_b)],
        [
            "mimomem after (connection grammars, markup records, …)",
            *secret_cells(dev_a),
            *secret_cells(held_a),
            *secret_cells(blind_a),
        ],
    ]
    for label, key in PEERS:
        rows.append([label, *secret_cells(dev_a, key), *secret_cells(held_a, key), *secret_cells(blind_a, key)])
    head = ["scanner", "dev-3: caught", "stored", "redacted", "heldout-3: caught", "stored", "redacted"]
    head += ["heldout-3b: caught", "stored", "redacted"]
    lines = ["", "| " + " | ".join(head) + " |", "|---|" + "---:|" * 9]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    note = (
        "From `benchmarks/results/secrets-adversarial-{dev3,heldout3,heldout3b}-{before,after}.json`"
        " (`bench_secrets.py --set adversarial-{dev-3,heldout-3,heldout-3b} --record`; the before rows ran"
        " the scanner of 6c4d56d in place of this one, and heldout-3's before run was its first, before any"
        " change). *Redacted*: look-alikes changed. dev-3"
        f" {dev_a['cases']} cases, heldout-3 {held_a['cases']}, heldout-3b {blind_a['cases']}."
    )
    return "\n".join([*lines, "", note, ""])
