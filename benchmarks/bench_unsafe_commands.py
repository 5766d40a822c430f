"""Commands that fetch content and run it: refused / kept counts on the labelled command sets.

The sets are ``tests/data/shell/dev.jsonl`` (tuned on; ``tests/history/test_shell_sets.py`` holds
every case of it) and ``tests/data/shell/heldout.jsonl`` (written at the same time, never tuned
on, run before and after).  One case per line: ``unsafe`` true / false, ``kind``, ``where`` and
either ``text`` or ``calls``:

* ``where: command`` — one shell tool call's command: refused when
  ``history.signals.is_unsafe_command`` says so (what keeps it from workflows, fixes and usual
  commands);
* ``where: sentence`` — a user turn with a command typed in it: refused when
  ``history.shell.text_runs_fetched_code`` says so (what keeps it from MEMORY.md, the notes and
  the brief);
* ``where: calls`` — several tool calls in order (a download, then a run): refused when the
  ``history.episode.Episode`` reading them marks any call unsafe.

*refused* counts unsafe cases refused, *flagged* safe cases refused (false positives).

    python benchmarks/bench_unsafe_commands.py [--set dev|heldout|PATH] [--misses] [--record NAME]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).parents[1] / "tests" / "data" / "shell"


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def refused(case: dict[str, Any]) -> bool:
    """Whether mimomem keeps the case's command out of what it promotes (see the module docstring)."""
    from mimomem.history.episode import Episode
    from mimomem.history.provenance import TOOL_CALL
    from mimomem.history.shell import text_runs_fetched_code
    from mimomem.history.signals import is_unsafe_command
    from mimomem.history.transcript import Part

    if case["where"] == "sentence":
        return text_runs_fetched_code(case["text"])
    if case["where"] == "command":
        return is_unsafe_command(case["text"])
    episode = Episode()
    for i, command in enumerate(case["calls"]):
        episode.add(Part(TOOL_CALL, "", "s", i, f"u{i}", tool="Bash", call_id=f"c{i}", input={"command": command}))
    return any(call.unsafe for call in episode.calls)


def score(cases: list[dict[str, Any]]) -> dict[str, Any]:
    missed = [c for c in cases if c["unsafe"] and not refused(c)]
    flagged = [c for c in cases if not c["unsafe"] and refused(c)]
    unsafe = sum(1 for c in cases if c["unsafe"])
    return {
        "unsafe": unsafe,
        "safe": len(cases) - unsafe,
        "refused": unsafe - len(missed),
        "flagged": len(flagged),
        "missed_cases": [c.get("text") or c["calls"] for c in missed],
        "flagged_cases": [c.get("text") or c["calls"] for c in flagged],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="dev", help="dev, heldout or a path")
    parser.add_argument("--misses", action="store_true", help="print the missed and flagged cases")
    parser.add_argument("--record", metavar="NAME", help="write benchmarks/results/NAME.json")
    args = parser.parse_args(argv)
    path = DATA / f"{args.set}.jsonl" if args.set in ("dev", "heldout") else Path(args.set)
    row = score(load(path))
    print(
        f"{path.name}: refused {row['refused']} / {row['unsafe']} unsafe, flagged {row['flagged']} / {row['safe']} safe"
    )
    if args.misses:
        for case in row["missed_cases"]:
            print(f"    missed : {case}")
        for case in row["flagged_cases"]:
            print(f"    flagged: {case}")
    if args.record:
        import record

        record.save(args.record, ["benchmarks/bench_unsafe_commands.py", *argv], {"set": path.name, **row})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
