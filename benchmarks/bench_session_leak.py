"""Session-record leak benchmark: does a question or a request reach the NEXT session as knowledge?

For each case of the capture set (``corpora/capture/*.yaml``) that must not be kept - a question
(``not-question``) or a request to act now (``not-request``) - the case's sessions are replayed
through the real hooks (``mimomem.hooks.entry.run``, as ``mimomem bench --e2e`` does) in a
sandbox of their own, then a new session of the project starts and its ``SessionStart`` context is
read.  The case *leaks* when that context holds

- one of the case's forbidden strings (what ``benchmarks/bench_capture.py`` checks in
  ``MEMORY.md``), or
- a typed turn of the case verbatim: its first :data:`QUOTE` characters (NFKC, case-folded,
  whitespace collapsed; the whole turn when shorter).

Memory entries and session records both count: the question is how many leak, and through which
block (``Project memory``, ``Recent sessions of this project``, ...).  The instructions at the top
are not read: they are fixed text and paths (a forbidden "16" was found in a project id).

    python benchmarks/bench_session_leak.py                  # dev, heldout, heldout2, split-c
    python benchmarks/bench_session_leak.py --split dev --show
    python benchmarks/bench_session_leak.py --refusals --split refuse-split  # pasted / unsafe / tool-order

Nothing is asserted: the numbers are for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import SessionSpec, contains, normalize
from mimomem.bench.e2e.replay import Clock, HookRunner, Sandbox, payload, replay_session
from mimomem.bench.e2e.score import delivered, host_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_capture import ROOT, capture_build  # the splits' one loader

SPLITS = ("dev", "heldout", "heldout2", "split-c", "refuse-split")
KINDS = ("not-question", "not-request")
REFUSALS = ("not-pasted", "not-unsafe", "not-tool-order")
"""With ``--refusals``: what must never be kept (pasted text, a command running fetched code, an order in
a tool's output), read by its forbidden strings only (a lead-in such as "FYI from the wiki" may be a goal)."""
QUOTE = 16
"""Characters of a typed turn that count as quoting it."""


def typed(case: dict[str, Any]) -> list[str]:
    """The case's typed turns, every session."""
    return [str(e["user"]) for events in case["sessions"] for e in events if isinstance(e, dict) and "user" in e]


def blocks(text: str) -> list[tuple[str, str]]:
    """``(heading, body)`` of a SessionStart context, split at its ``## `` headings."""
    out: list[tuple[str, str]] = [("(top)", "")]
    for line in text.splitlines():
        if line.startswith("## "):
            out.append((line[3:].strip(), ""))
        else:
            head, body = out[-1]
            out[-1] = (head, body + line + "\n")
    return out


def leaks(case: dict[str, Any], context: str) -> list[tuple[str, str]]:
    """``(block heading, what leaked)`` for each forbidden string or quoted turn in ``context`` (a refusal
    case: its forbidden strings only)."""
    found = []
    for head, body in blocks(context)[1:]:  # not the instructions: fixed text and paths (a project id holds "16")
        for word in case.get("forbid", []):
            if contains(body, str(word)):
                found.append((head, f"forbid: {word}"))
        for turn in typed(case) if case["kind"] in KINDS else ():
            quote = normalize(turn)[:QUOTE]
            if quote and quote in normalize(body):
                found.append((head, f"quote: {turn[:40]}"))
    return found


def run_case(split: str, case: dict[str, Any], manifest: dict[str, dict[str, Any]], names: dict[str, str]) -> str:
    """The SessionStart context a new session of the case's project gets after the case's sessions."""
    with tempfile.TemporaryDirectory(prefix="mimomem-leak-") as tmp:
        sandbox = Sandbox(Path(tmp))
        runner, clock = HookRunner(sandbox), Clock()
        for n, _ in enumerate(case["sessions"]):
            row = manifest[names[f"{case['id']}-{n + 1}"]]
            spec = SessionSpec(
                row["project"],
                row["session_id"],
                ROOT / f"e2e-{split}" / row["transcript"],
                row["cwd"],
                row["start"],
                bool(row.get("ends", True)),
                str(row.get("end_reason", "other")),
            )
            replay_session(spec, sandbox, runner, clock)
        project = case["project"]
        cwd = sandbox.project_dir(project)
        sid = "00000000-0000-4000-8000-00000000feed"
        call = runner.call(payload("SessionStart", sid, sandbox.transcript_path(project, sid), cwd, source="startup"))
        return host_view(delivered(call.stdout))


def run(split: str, kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    capture = capture_build()
    data = capture.load(split)
    manifest = {
        m["session_id"]: m
        for m in json.loads((ROOT / f"e2e-{split}" / "manifest.json").read_text(encoding="utf-8"))["sessions"]
    }
    writer = capture._writer()
    rows = []
    for case in data["cases"]:
        if case["kind"] not in kinds:
            continue
        names = {}
        for n, _ in enumerate(case["sessions"]):
            name = capture.session_name(case, n)
            names[name] = writer.Session(
                {"project": case["project"], "cwd": "", "start_day": "2026-01-01"},
                {"name": name, "day": 0, "at": "9:00", "events": []},
            ).sid
        context = run_case(split, case, manifest, names)
        rows.append({"id": case["id"], "kind": case["kind"], "turns": typed(case), "leaks": leaks(case, context)})
    return {
        "split": split,
        "cases": len(rows),
        "kept_out": sum(not r["leaks"] for r in rows),
        "by_block": _by_block(rows),
        "rows": rows,
    }


def _by_block(rows: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in rows:
        for head in sorted({h for h, _ in r["leaks"]}):
            out[head] = out.get(head, 0) + 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", action="append", choices=SPLITS, help="default: every split")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="list each leaking case and what leaked")
    parser.add_argument("--refusals", action="store_true", help="the cases of REFUSALS instead of questions / requests")
    args = parser.parse_args(argv)
    results = [run(s, REFUSALS if args.refusals else KINDS) for s in args.split or SPLITS]
    if args.json:
        json.dump(results, sys.stdout, ensure_ascii=False, indent=1)
        return 0
    for r in results:
        print(f"{r['split']}: kept out of a new session {r['kept_out']}/{r['cases']}; leaking by block {r['by_block']}")
        for row in r["rows"] if args.show else ():
            if row["leaks"]:
                print(f"  {row['id']} ({row['kind']}): {row['turns'][0][:60]!r} -> {row['leaks']}")
    total = sum(r["cases"] for r in results)
    print(f"all: kept out {sum(r['kept_out'] for r in results)}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
