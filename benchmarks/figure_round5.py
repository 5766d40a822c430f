"""Figures of the trust checks, round five (issue 32): the fifth blind split (heldout-5), heldout-4's
remaining shapes fixed (heldout-4 seen, dev-5), and the scanner's CPU against 862f578 and b4f1f1a."""

from __future__ import annotations

from typing import Any

from figure_defs import figure
from figure_quality import secret_cells
from figure_round4 import _cpu_row, _table, blind_split

BLIND = (
    "secrets-adversarial-heldout5-before",
    "secrets-adversarial-heldout5-after",
    "secrets-adversarial-heldout5-after-seen",
)


@figure("secrets-heldout-5", BLIND)
def secrets_heldout_five(data: dict[str, Any]) -> str:
    """The fifth split, blind: run once at b4f1f1a before any change and once at the end of the round's
    fixes; then its misses were read and fixed (the last row is no longer blind)."""
    runs = (data[BLIND[0]], data[BLIND[1]], data[BLIND[2]])
    first = "mimomem at b4f1f1a (first run, before any change)"
    return blind_split(5, runs, first, "mimomem after heldout-4's shapes were fixed (second run, blind)")


SEEN = (
    "secrets-adversarial-heldout4-after-seen",
    "secrets-adversarial-dev5-round5-before",
    "secrets-adversarial-heldout4-round5-after",
    "secrets-adversarial-dev5-round5-after",
)


@figure("secrets-round-five", SEEN)
def secrets_round_five(data: dict[str, Any]) -> str:
    """Caught / stored / look-alikes redacted on heldout-4 (seen) and dev-5, before and after the round."""
    h4_before, dev5_before, h4_after, dev5_after = (data[name] for name in SEEN)
    rows = [
        ["mimomem before (main at b4f1f1a)", *secret_cells(h4_before), *secret_cells(dev5_before)],
        ["mimomem after (round five)", *secret_cells(h4_after), *secret_cells(dev5_after)],
    ]
    head = ["scanner", "heldout-4 (seen): caught", "stored", "redacted", "dev-5: caught", "stored", "redacted"]
    note = (
        "From `benchmarks/results/secrets-adversarial-heldout4-{after-seen,round5-after}.json` and"
        " `secrets-adversarial-dev5-round5-{before,after}.json` (`bench_secrets.py --set adversarial-{heldout-4,dev-5}"
        " --record`; dev-5's before row ran the scanner of b4f1f1a in place of this one). *Redacted*: look-alikes"
        " changed. heldout-4 was read after round four's final run, so it is dev data here."
    )
    return _table(head, rows, note)


@figure("secrets-cpu-round5", ("secrets-cpu-round5", "secrets-cpu-round5-main"))
def secrets_cpu_five(data: dict[str, Any]) -> str:
    """CPU of ``scan_secrets`` on 20 KB Python files and on the case texts, against 862f578 and b4f1f1a."""
    old, main = data["secrets-cpu-round5"], data["secrets-cpu-round5-main"]
    rows = [
        _cpu_row(f"{old['files']['texts']} stdlib `.py` files ({old['kb']} KB), against 862f578", old["files"]),
        _cpu_row(f"{old['cases']['texts']} case texts of the secrets sets, against 862f578", old["cases"]),
        _cpu_row(f"{main['files']['texts']} stdlib `.py` files, against b4f1f1a (before round five)", main["files"]),
        _cpu_row(f"{main['cases']['texts']} case texts, against b4f1f1a", main["cases"]),
    ]
    head = ["texts", "this checkout, s CPU", "the other, s CPU", "ratio of medians"]
    note = (
        "From `benchmarks/results/secrets-cpu-round5{,-main}.json` (`bench_secrets_cpu.py --against <worktree of"
        f" 862f578 | b4f1f1a> --runs {len(old['files']['this'])} --record ...`): median and range of one pass per"
        " fresh process, the two checkouts alternating. The case texts now include dev-5 and heldout-5."
    )
    return _table(head, rows, note)
