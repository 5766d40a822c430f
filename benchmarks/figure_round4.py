"""Figures of the trust checks, round four (issue 32): the seen shapes fixed (dev-4, heldout-3, heldout-3b),
the fourth blind split (heldout-4), the scanner's CPU against 862f578, and PowerShell fetch-and-run."""

from __future__ import annotations

import statistics
from typing import Any

from figure_defs import figure
from figure_quality import secret_cells
from figure_trust import PEERS

SEEN = (
    "secrets-adversarial-dev4-round4-before",
    "secrets-adversarial-dev3-round4-before",
    "secrets-adversarial-heldout3-round4-before",
    "secrets-adversarial-heldout3b-round4-before",
    "secrets-adversarial-dev4-round4-after",
    "secrets-adversarial-dev3-round4-after",
    "secrets-adversarial-heldout3-round4-after",
    "secrets-adversarial-heldout3b-round4-after",
)


def _table(head: list[str], rows: list[list[str]], note: str) -> str:
    lines = ["", "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join([*lines, "", note, ""])


@figure("secrets-round-four", SEEN)
def secrets_round_four(data: dict[str, Any]) -> str:
    """Caught / stored / look-alikes redacted on dev-4, dev-3 and both (now seen) halves of heldout-3."""
    runs = [data[name] for name in SEEN]
    before, after = runs[:4], runs[4:]
    rows = [
        ["mimomem before (main at ca31b5a)", *(c for run in before for c in secret_cells(run))],
        ["mimomem after (round four)", *(c for run in after for c in secret_cells(run))],
    ]
    head = ["scanner"]
    for name in ("dev-4", "dev-3", "heldout-3 (seen)", "heldout-3b (seen)"):
        head += [f"{name}: caught", "stored", "redacted"]
    note = (
        "From `benchmarks/results/secrets-adversarial-{dev4,dev3,heldout3,heldout3b}-round4-{before,after}.json`"
        " (`bench_secrets.py --set adversarial-{dev-4,dev-3,heldout-3,heldout-3b} --record`; the before rows ran"
        " the scanner of ca31b5a in place of this one). *Redacted*: look-alikes changed. Both halves of heldout-3"
        " were read after round three's final runs, so they are dev data here."
    )
    return _table(head, rows, note)


BLIND = (
    "secrets-adversarial-heldout4-before",
    "secrets-adversarial-heldout4-after",
    "secrets-adversarial-heldout4-after-seen",
)


def blind_split(n: int, runs: tuple[dict[str, Any], dict[str, Any], dict[str, Any]], first: str, second: str) -> str:
    """The table of blind secrets split ``n``: its first run (``first`` names it), its second, blind run
    (``second``), the run after its misses were read, and the peers on its second run."""
    before, last, seen = runs
    rows = [
        [first, *secret_cells(before)],
        [second, *secret_cells(last)],
        ["mimomem after its misses were read and fixed (no longer blind)", *secret_cells(seen)],
    ]
    rows += [[label, *secret_cells(last, key)] for label, key in PEERS]
    head = ["scanner", f"heldout-{n}: caught", "stored", "look-alikes redacted"]
    note = (
        f"From `benchmarks/results/secrets-adversarial-heldout{n}-{{before,after,after-seen}}.json` (`bench_secrets.py"
        f" --set adversarial-heldout-{n} --suffixes txt,yaml --record`). {last['cases']} cases; its misses were not"
        " read between the first two runs."
    )
    return _table(head, rows, note)


@figure("secrets-heldout-4", BLIND)
def secrets_heldout_four(data: dict[str, Any]) -> str:
    """The fourth split, blind: run once at ca31b5a before any change and once at the end of the round;
    then its misses were read and fixed (the last row is no longer blind)."""
    runs = (data[BLIND[0]], data[BLIND[1]], data[BLIND[2]])
    first = "mimomem at ca31b5a (first run, before any change)"
    return blind_split(4, runs, first, "mimomem at the end of round four (second run, blind)")


@figure("secrets-cpu", "secrets-cpu-round4")
def secrets_cpu(data: dict[str, Any]) -> str:
    """CPU of ``scan_secrets`` on 20 KB Python files and on the case texts, this checkout against 862f578."""
    rows = [
        _cpu_row(f"{data['files']['texts']} stdlib `.py` files of 16-24 KB ({data['kb']} KB)", data["files"]),
        _cpu_row(f"{data['cases']['texts']} case texts of the secrets sets", data["cases"]),
    ]
    head = ["texts", "this checkout, s CPU", f"{data['against_commit'][:7]}, s CPU", "ratio of medians"]
    note = (
        "From `benchmarks/results/secrets-cpu-round4.json` (`bench_secrets_cpu.py --against <worktree of"
        f" 862f578> --runs {len(data['files']['this'])} --record secrets-cpu-round4`): median and range of"
        " one pass per fresh process, the two checkouts alternating."
    )
    return _table(head, rows, note)


def _cpu_row(label: str, run: dict[str, Any]) -> list[str]:
    def cell(samples: list[float]) -> str:
        return f"{statistics.median(samples):.3f} ({min(samples):.3f}-{max(samples):.3f})"

    return [label, cell(run["this"]), cell(run["against"]), f"{run['ratio']:.2f}"]


UNSAFE = (
    "unsafe-commands-dev-round4-before",
    "unsafe-commands-heldout-round4-before",
    "unsafe-commands-heldout-pwsh-before",
    "unsafe-commands-dev-round4-after",
    "unsafe-commands-heldout-round4-after",
    "unsafe-commands-heldout-pwsh-after",
    "unsafe-commands-heldout-pwsh-after-fix",
)


@figure("unsafe-commands-powershell", UNSAFE)
def unsafe_powershell(data: dict[str, Any]) -> str:
    """Refused / flagged with PowerShell followed by its data flow, before (words) and after."""
    dev_b, held_b, ps_b, dev_a, held_a, ps_a, ps_fix = (data[name] for name in UNSAFE)

    def cells(run: dict[str, Any]) -> list[str]:
        return [f"{run['refused']} / {run['unsafe']}", f"{run['flagged']} / {run['safe']}"]

    rows = [
        ["before (main at ca31b5a: a fetch and `iex` anywhere)", *cells(dev_b), *cells(held_b), *cells(ps_b)],
        ["after: the PowerShell walk (`history/shell_pwsh.py`)", *cells(dev_a), *cells(held_a), *cells(ps_a)],
        ["after its one miss was seen and fixed (no longer blind)", "-", "-", "-", "-", *cells(ps_fix)],
    ]
    head = ["mimomem", "dev: refused", "safe flagged", "held-out: refused", "safe flagged"]
    head += ["PowerShell held-out: refused", "safe flagged"]
    note = (
        "From `benchmarks/results/unsafe-commands-{dev,heldout}-round4-{before,after}.json` and"
        " `unsafe-commands-heldout-pwsh-{before,after,after-fix}.json` (`bench_unsafe_commands.py --set"
        " dev|heldout|tests/data/shell/heldout-pwsh.jsonl --record`; the before rows ran the code of ca31b5a)."
        f" Dev {dev_a['unsafe'] + dev_a['safe']} cases (18 of them PowerShell, new), held-out"
        f" {held_a['unsafe'] + held_a['safe']}, PowerShell held-out {ps_a['unsafe'] + ps_a['safe']}."
    )
    return _table(head, rows, note)
