"""Capture benchmark: what promotion keeps of adversarial sessions, case by case, without a model.

Reads the adversarial capture set (``corpora/capture/{dev,heldout}.yaml`` and the transcripts
``corpora/capture/build.py`` wrote for them), promotes each case's sessions in order into an
empty ``MEMORY.md`` with the real promotion code (``read_episode`` -> ``promotable`` -> ``plan``,
supersession included) and scores the result:

- a case of a kind worth keeping passes when every expected item is one bullet of its section
  (all its strings in it) and nothing the case forbids (an old value) is in the live file;
- a case of what must not be kept (a question, a request to act now, pasted text, an order in
  tool output, an unsafe command) passes when none of its forbidden strings is in the live file
  and, for a question or a request, no Rules / decisions / facts bullet came of it at all;
- extraction precision per section: bullets that match an expectation of their case, over all
  bullets of that section; recall per section: expectations matched, over expectations.

    python benchmarks/bench_capture.py                 # the dev split
    python benchmarks/bench_capture.py --split heldout # the held-out split (reported once)
    python benchmarks/bench_capture.py --split split-c # split C (reported once, never tuned on)
    python benchmarks/bench_capture.py --split split-d # split D (blind: run at the start and the end)
    python benchmarks/bench_capture.py --split split-f # split F (blind, stop 41: run at the start and the end)
    python benchmarks/bench_capture.py --split split-e # split E (blind: written by the writer of stop 41)
    python benchmarks/bench_capture.py --json --show-fails

Nothing is asserted: the numbers are for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import contains
from mimomem.passes.memory_doc import MemoryDoc, item_text
from mimomem.passes.promote import plan, promotable, read_episode

ROOT = Path(__file__).resolve().parents[1] / "corpora" / "capture"
SECTION_KIND = {
    "Rules": "rule",
    "Architecture decisions": "decision",
    "Discovered durable knowledge": "fact",
    "Found by the agent": "found",
    "Failures and fixes": "failure",
    "Workflows": "workflow",
}
ACCEPTS = {
    "rule": {"rule"},
    "decision": {"decision"},
    "fact": {"fact"},
    "found": {"found"},
    "failure": {"failure", "found"},
    "workflow": {"workflow", "rule", "fact"},
}
"""Expected kind -> the sections a bullet of it may sit in."""
KEPT = {"rule", "decision", "fact"}
STRICT_NEGATIVE = {"not-question", "not-request", "not-fragment", "not-opinion", "not-narration"}
POSITIVE = {"rule", "decision", "fact", "found", "failure", "workflow", "superseded", "kept-both"}
"""Cases whose every bullet counts for precision.  A question or a request counts too (any bullet of
it is a false positive unless expected); the other cases of what must not be kept (pasted text, an
order in tool output, an unsafe command) may rightly leave a failure and its fix or a safe workflow:
their bullets are not counted, only their forbidden strings are checked."""
NOT_FOUND = "not-found"
"""A case whose tool output nobody asked about or used: any bullet of "Found by the agent" fails it and
counts against that section's precision (its other sections are not counted)."""
NOT_FAILURE = "not-failure"
"""A case whose failure has no cause and fix worth keeping (never fixed, a fix that did not work, a
flaky retry, a typo corrected): any bullet that states a fix or a cause fails it and counts against
its section's precision."""


def capture_build() -> Any:
    """corpora/capture/build.py as a module (its splits' loader and writer), for this bench and its kin."""
    spec = importlib.util.spec_from_file_location("capture_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def memory_of(case: dict[str, Any], split: str, sids: dict[str, str], retired: list[str] | None = None) -> str:
    """The live ``MEMORY.md`` after promoting every session of ``case`` in order (the history lines
    promotion wrote - what it retired - appended to ``retired``)."""
    live: str | None = None
    for n, _ in enumerate(case["sessions"]):
        sid = sids[f"{case['id']}-{n + 1}"]
        path = ROOT / f"e2e-{split}" / "transcripts" / case["project"] / f"{sid}.jsonl"
        episode, *_ = read_episode(str(path), sid, 0, "")
        planned, history = plan(live, promotable(episode), {}, today="2026-12-01")
        live = planned.text
        if retired is not None:
            retired += history
    return live or ""


def wrongly_retired(case: dict[str, Any], retired: list[str]) -> list[str]:
    """Old items of ``retired`` (history lines) that ``case`` said and should still hold: any of a
    kept-both case, one without a forbidden (old) string of a superseded case - a false supersession."""
    olds = [line.split(" - superseded ", 1)[0] for line in retired]
    if case["kind"] == "kept-both":
        return olds
    return [o for o in olds if not any(contains(o, str(f)) for f in case.get("forbid", []))]


def origin(item: str, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """The case whose typed turns an item came from: the one sharing most of its words."""
    said = set(re.findall(r"\w+", item_text(item).casefold()))

    def share(case: dict[str, Any]) -> int:
        text = " ".join(str(e.get("user", "")) for s in case["sessions"] for e in s).casefold()
        return len(said & set(re.findall(r"\w+", text)))

    return max(cases, key=share)


def bullets(text: str) -> list[tuple[str, str]]:
    """(section kind, bullet text) of a ``MEMORY.md``, sections promotion writes only."""
    doc = MemoryDoc.parse(text)
    return [
        (SECTION_KIND[s.heading], item_text(line))
        for s in doc.sections
        if s.heading in SECTION_KIND
        for line in s.lines
        if line.startswith("- ")
    ]


def fixes_stated(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The bullets of ``found`` that state a fix or a cause (a failure's or a found one's)."""
    return [(k, b) for k, b in found if k in ("failure", "found") and _FIX_STATED.search(b)]


_FIX_STATED = re.compile(r"\bfixed\b|\bcause\b", re.I)


def score_case(case: dict[str, Any], live: str) -> dict[str, Any]:
    """What one case's memory holds against what it should."""
    found = bullets(live)
    expects = [(e[0], [str(t) for t in e[1:]]) for e in case.get("expect", [])]
    matched_bullets: set[int] = set()
    missed = []
    for kind, texts in expects:
        hit = [i for i, (k, b) in enumerate(found) if k in ACCEPTS[kind] and all(contains(b, t) for t in texts)]
        matched_bullets.update(hit)
        if not hit:
            missed.append(f"{kind}: {' + '.join(texts)}")
    forbidden = [f for f in case.get("forbid", []) if contains(live, str(f))]
    stray = [b for i, (k, b) in enumerate(found) if i not in matched_bullets]
    strict = case["kind"] in STRICT_NEGATIVE and any(k in KEPT for k, _ in found)
    strict |= case["kind"] == NOT_FOUND and any(k == "found" for k, _ in found)
    strict |= case["kind"] == NOT_FAILURE and bool(fixes_stated(found))
    return {
        "id": case["id"],
        "kind": case["kind"],
        "passed": not missed and not forbidden and not strict,
        "missed": missed,
        "forbidden": forbidden,
        "stray": stray,
        "bullets": [(k, b, i in matched_bullets) for i, (k, b) in enumerate(found)],
        "expects": [(k, not any(m.startswith(f"{k}: {' + '.join(t)}") for m in missed)) for k, t in expects],
    }


def together(split: str) -> dict[str, Any]:
    """Each project's cases promoted into ONE ``MEMORY.md`` in the order the e2e replay plays them,
    then each case scored on what it expects kept and forbids: a newer value that retires a value of
    another case (a false supersession) shows here, not case by case."""
    data = capture_build().load(split)
    sids = _names(split, data, {})
    live: dict[str, str | None] = {}
    retired: dict[str, list[str]] = {}
    for case in data["cases"]:
        for n, _ in enumerate(case["sessions"]):
            sid = sids[f"{case['id']}-{n + 1}"]
            path = ROOT / f"e2e-{split}" / "transcripts" / case["project"] / f"{sid}.jsonl"
            episode, *_ = read_episode(str(path), sid, 0, "")
            planned, history = plan(live.get(case["project"]), promotable(episode), {}, today="2026-12-01")
            live[case["project"]] = planned.text
            retired.setdefault(case["project"], []).extend(history)
    per_kind: dict[str, Counter[str]] = {}
    fails = []
    cases = [c for c in data["cases"] if c["kind"] in POSITIVE]
    for case in data["cases"]:
        if case["kind"] not in POSITIVE:
            continue
        r = score_case(case, live.get(case["project"]) or "")
        ok = not r["missed"] and not r["forbidden"]
        mine = [r for r in retired.get(case["project"], []) if origin(r.split(" - superseded ", 1)[0], cases) is case]
        wrong = wrongly_retired(case, mine)
        per_kind.setdefault(case["kind"], Counter()).update(total=1, passed=int(ok), wrongly_retired=int(bool(wrong)))
        fails += [] if ok else [f"{case['id']}: missed={r['missed']} forbidden={r['forbidden']}"]
        fails += [f"{case['id']}: wrongly retired {w!r}" for w in wrong]
    return {"split": split, "per_kind": {k: dict(v) for k, v in per_kind.items()}, "fails": fails}


def run(split: str) -> dict[str, Any]:
    data = capture_build().load(split)
    manifest = json.loads((ROOT / f"e2e-{split}" / "manifest.json").read_text(encoding="utf-8"))
    sids = _names(split, data, manifest)
    rows = []
    for case in data["cases"]:
        retired: list[str] = []
        row = score_case(case, memory_of(case, split, sids, retired))
        rows.append({**row, "wrongly_retired": wrongly_retired(case, retired)})
    per_kind: dict[str, Counter[str]] = {}
    for r in rows:
        per_kind.setdefault(r["kind"], Counter()).update(
            total=1, passed=int(r["passed"]), wrongly_retired=int(bool(r["wrongly_retired"]))
        )
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    exp: Counter[str] = Counter()
    got: Counter[str] = Counter()
    for r in rows:
        for kind, _b, ok in r["bullets"] if r["kind"] in POSITIVE or r["kind"] in STRICT_NEGATIVE else ():
            (tp if ok else fp)[kind] += 1
        fp["found"] += sum(k == "found" for k, _b, _ok in r["bullets"]) if r["kind"] == NOT_FOUND else 0
        fp.update(k for k, _b in fixes_stated([(k, b) for k, b, _ok in r["bullets"]]) if r["kind"] == NOT_FAILURE)
        for kind, ok in r["expects"]:
            exp[kind] += 1
            got[kind] += ok
    extraction = {
        k: {
            "precision": round(tp[k] / (tp[k] + fp[k]), 3) if tp[k] + fp[k] else None,
            "recall": round(got[k] / exp[k], 3) if exp[k] else None,
            "bullets": tp[k] + fp[k],
            "expected": exp[k],
        }
        for k in ACCEPTS
    }
    passed = sum(r["passed"] for r in rows)
    return {
        "split": split,
        "cases": len(rows),
        "passed": passed,
        "per_kind": {k: dict(v) for k, v in per_kind.items()},
        "extraction": extraction,
        "rows": rows,
    }


def _names(split: str, data: dict[str, Any], manifest: dict[str, Any]) -> dict[str, str]:
    """Session name (``<case>-<n>``) -> session id, from the transcripts the build wrote."""
    writer = capture_build()._writer()
    out = {}
    for case in data["cases"]:
        for n, _ in enumerate(case["sessions"]):
            name = f"{case['id']}-{n + 1}"
            out[name] = writer.Session(
                {"project": case["project"], "cwd": "", "start_day": "2026-01-01"},
                {"name": name, "day": 0, "at": "9:00", "events": []},
            ).sid
    return out


def format_text(result: dict[str, Any]) -> str:
    lines = [f"## capture, {result['split']} split: {result['passed']}/{result['cases']} cases", ""]
    lines += ["| kind | passed | wrongly retired |", "|---|---|---|"]
    for kind, c in sorted(result["per_kind"].items()):
        lines.append(f"| {kind} | {c.get('passed', 0)}/{c['total']} | {c.get('wrongly_retired', 0)} |")
    lines += ["", "| section | precision | recall | bullets | expected |", "|---|---|---|---|---|"]
    for kind, e in result["extraction"].items():
        p = "-" if e["precision"] is None else f"{e['precision']:.2f}"
        r = "-" if e["recall"] is None else f"{e['recall']:.2f}"
        lines.append(f"| {kind} | {p} | {r} | {e['bullets']} | {e['expected']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--split",
        default="dev",
        choices=(
            "dev",
            "heldout",
            "heldout2",
            "supersede-dev",
            "supersede-split",
            "split-c",
            "supersede-split-2",
            "supersede-split-3",
            "supersede-split-4",
            "found-dev",
            "found-split",
            "found-split-2",
            "split-d",
            "refuse-split",
            "split-f",
            "failure-split",
            "split-e",
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument(
        "--show-fails", action="store_true", help="list failing cases (never use on heldout while tuning)"
    )
    parser.add_argument(
        "--together", action="store_true", help="promote each project's cases into one MEMORY.md (false supersession)"
    )
    args = parser.parse_args(argv)
    if args.together:
        shared = together(args.split)
        print(f"## capture, {args.split} split, each project in one MEMORY.md\n")
        print("| kind | passed | wrongly retired |\n|---|---|---|")
        for kind, c in sorted(shared["per_kind"].items()):
            print(f"| {kind} | {c.get('passed', 0)}/{c['total']} | {c.get('wrongly_retired', 0)} |")
        if args.show_fails:
            print("\n".join(shared["fails"]))
        return 0
    result = run(args.split)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    print(format_text(result))
    if args.show_fails:
        for r in result["rows"]:
            if not r["passed"] or r["stray"] or r["wrongly_retired"]:
                print(
                    f"{'FAIL' if not r['passed'] else 'ok  '} {r['id']} {r['kind']}: missed={r['missed']} "
                    f"forbidden={r['forbidden']} stray={r['stray']} wrongly retired={r['wrongly_retired']}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
