"""Caught / flagged counts of secret scanners on the labelled evaluation set.

The set is ``tests/data/secrets/eval-trust.jsonl`` (one JSON object per line: ``text``,
``secret`` true/false, ``shape``), written before the scanner was tuned on it;
``eval-trust-heldout.jsonl`` was written after tuning and never tuned on (``--set`` picks one;
``--set adversarial`` runs ``corpora/secrets-adversarial/dev.jsonl`` and ``--set adversarial-heldout``
its held-out split).  A case with ``secret: true`` is *caught* when the scanner reports anything
in it; a case with ``secret: false`` is *flagged* (a false positive) when it does.  Where a case
lists its ``values`` (the adversarial sets), mimomem's row also counts *stored*: a secret case
one of whose values is still in ``redact_secrets``' output (what would reach a file).  Scanners:

* ``mimomem`` — ``mimomem.common.secrets.scan_secrets`` of this checkout;
* ``detect-secrets`` — Yelp's maintained rule set (PyPI ``detect-secrets``), run as its
  ``scan`` would: every default plugin and filter, one case per temporary file, once per
  file type in ``--suffixes`` (its keyword rules depend on the file type);
* ``detect-secrets keyword`` — its ``KeywordDetector`` alone (the keyword/assignment rules,
  the part comparable to ours), same filters.

    python benchmarks/bench_secrets.py [--label before] [--json results.json] [--misses]

Also prints the median time of one ``scan_secrets`` call over the set (CPU time, 5 runs).
Needs ``pip install detect-secrets`` for the comparison rows (skipped with a note without it).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DATA = Path(__file__).parents[1] / "tests" / "data" / "secrets"
EVAL_SET = DATA / "eval-trust.jsonl"
HELD_OUT = DATA / "eval-trust-heldout.jsonl"
ADVERSARIAL = Path(__file__).parents[1] / "corpora" / "secrets-adversarial"
NAMED_SETS = {
    "adversarial": ADVERSARIAL / "dev.jsonl",
    "adversarial-heldout": ADVERSARIAL / "heldout.jsonl",
    "adversarial-heldout-2": ADVERSARIAL / "heldout-2.jsonl",
    "adversarial-dev-3": ADVERSARIAL / "dev-3.jsonl",
    "adversarial-heldout-3": ADVERSARIAL / "heldout-3.jsonl",
    "adversarial-heldout-3b": ADVERSARIAL / "heldout-3b.jsonl",
    "adversarial-dev-4": ADVERSARIAL / "dev-4.jsonl",
    "adversarial-heldout-4": ADVERSARIAL / "heldout-4.jsonl",
    "adversarial-dev-5": ADVERSARIAL / "dev-5.jsonl",
    "adversarial-heldout-5": ADVERSARIAL / "heldout-5.jsonl",
}

Scanner = Callable[[str], bool]


def load(path: Path = EVAL_SET) -> list[dict[str, Any]]:
    """The labelled cases, in file order."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def turns(case: dict[str, Any]) -> list[str]:
    """The texts mimomem sees one at a time: a case's ``turns`` when it has them, else its text."""
    return list(case.get("turns") or [case["text"]])


def mimomem_scanner() -> Scanner:
    """A finding of the scanner, or a change made by the one redaction point (``common.redaction.redact``)."""
    from mimomem.common.redaction import redact
    from mimomem.common.secrets import scan_secrets

    return lambda text: bool(scan_secrets(text)) or redact(text, before="") != text


def detect_secrets_scanner(plugin: str | None, suffix: str) -> Scanner | None:
    """detect-secrets over one temporary ``case.<suffix>`` file per case; ``plugin`` keeps one plugin only.

    The file's suffix matters: the keyword rules differ per file type (quotes required in
    ``.txt``, shell and YAML forms for ``.sh`` / ``.yaml``).
    """
    try:
        from detect_secrets import SecretsCollection
        from detect_secrets.settings import default_settings, transient_settings
    except ImportError:
        return None
    folder = Path(tempfile.mkdtemp(prefix="mimomem-bench-secrets-"))

    def scan(text: str) -> bool:
        path = folder / f"case.{suffix}"
        path.write_text(text + "\n", encoding="utf-8")
        collection = SecretsCollection()
        if plugin is None:
            with default_settings():
                collection.scan_file(str(path))
        else:
            with default_settings() as settings:
                config = settings.json()
                config["plugins_used"] = [p for p in config["plugins_used"] if p["name"] == plugin]
                with transient_settings(config):
                    collection.scan_file(str(path))
        return bool(list(collection))

    return scan


def stored(cases: list[dict[str, Any]]) -> list[str]:
    """The secret cases (with ``values``) one of whose values the one redaction point leaves in a turn.

    ``common.redaction.redact`` is what everything taken from a transcript passes, one turn at a time.
    """
    from mimomem.common.redaction import redact

    def kept(case: dict[str, Any]) -> bool:
        texts = turns(case)
        said = [redact(t, before=texts[i - 1] if i else "") for i, t in enumerate(texts)]
        return any(v in t for t in said for v in case.get("values", []))

    return [c["text"] for c in cases if c["secret"] and kept(c)]


def _seen(scan: Scanner, case: dict[str, Any], ours: bool) -> bool:
    """Did ``scan`` report the case: mimomem turn by turn, a dependency on the whole text."""
    if not ours:
        return scan(case["text"])
    from mimomem.common.redaction import redact

    texts = turns(case)  # each turn read after the one before it, as the transcript reader does
    return any(scan(t) or redact(t, before=texts[i - 1] if i else "") != t for i, t in enumerate(texts))


def count(scan: Scanner, cases: list[dict[str, Any]], ours: bool = False) -> dict[str, Any]:
    """Caught and flagged counts, with the texts of the misses and false positives."""
    missed = [c["text"] for c in cases if c["secret"] and not _seen(scan, c, ours)]
    flagged = [c["text"] for c in cases if not c["secret"] and _seen(scan, c, ours)]
    secrets = sum(1 for c in cases if c["secret"])
    return {
        "secrets": secrets,
        "non_secrets": len(cases) - secrets,
        "caught": secrets - len(missed),
        "flagged": len(flagged),
        "missed_cases": missed,
        "flagged_cases": flagged,
        "by_shape": _by_shape(scan, cases, ours),
    }


def _by_shape(scan: Scanner, cases: list[dict[str, Any]], ours: bool) -> dict[str, str]:
    shapes: dict[str, list[int]] = {}
    for case in cases:
        key = ("secret " if case["secret"] else "benign ") + case["shape"]
        right = _seen(scan, case, ours) == case["secret"]
        shapes.setdefault(key, [0, 0])[0] += right
        shapes[key][1] += 1
    return {key: f"{right}/{total} right" for key, (right, total) in sorted(shapes.items())}


def scan_time(cases: list[dict[str, Any]]) -> float:
    """Median CPU microseconds of one ``scan_secrets`` call over the set (5 runs of the whole set)."""
    from mimomem.common.secrets import scan_secrets

    texts = [c["text"] for c in cases]
    runs = []
    for _ in range(5):
        start = time.process_time()
        for text in texts:
            scan_secrets(text)
        runs.append(time.process_time() - start)
    return statistics.median(runs) / len(texts) * 1e6


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--set",
        default=str(EVAL_SET),
        help="the labelled set: a path, or adversarial / adversarial-heldout / adversarial-heldout-2 / -3 / -3b (default eval-trust.jsonl)",
    )
    parser.add_argument("--label", default="mimomem", help="name of the mimomem row (e.g. before / after)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--suffixes", default="txt,sh,yaml", help="file types detect-secrets scans the cases as")
    parser.add_argument("--misses", action="store_true", help="print the missed and flagged cases")
    parser.add_argument(
        "--record", metavar="NAME", help="write benchmarks/results/NAME.json (with commit, date, machine)"
    )
    args = parser.parse_args(argv)
    args.set = NAMED_SETS.get(args.set) or Path(args.set)
    cases = load(args.set)
    scanners: dict[str, Scanner | None] = {args.label: mimomem_scanner()}
    for suffix in args.suffixes.split(","):
        scanners[f"detect-secrets, all plugins, .{suffix}"] = detect_secrets_scanner(None, suffix)
        scanners[f"detect-secrets, KeywordDetector, .{suffix}"] = detect_secrets_scanner("KeywordDetector", suffix)
    results: dict[str, Any] = {
        "set": args.set.name,
        "cases": len(cases),
        "scan_us_per_case": scan_time(cases),
        "scanners": {},
    }
    secrets = sum(1 for c in cases if c["secret"])
    print(f"{len(cases)} cases: {secrets} secrets, {len(cases) - secrets} non-secrets ({args.set.name})")
    print("| scanner | caught | flagged (false positives) |\n|---|---|---|")
    for name, scan in scanners.items():
        if scan is None:
            print(f"| {name} | not installed | |")
            continue
        row = count(scan, cases, ours=name == args.label)
        results["scanners"][name] = row
        extra = ""
        if name == args.label and any("values" in c for c in cases):
            row["stored_cases"] = stored(cases)
            row["stored"] = len(row["stored_cases"])
            extra = f" (a value left after redaction in {row['stored']} / {row['secrets']})"
        print(f"| {name} | {row['caught']} / {row['secrets']}{extra} | {row['flagged']} / {row['non_secrets']} |")
        if args.misses:
            for text in row["missed_cases"]:
                print(f"    missed : {text}")
            for text in row["flagged_cases"]:
                print(f"    flagged: {text}")
            for text in row.get("stored_cases", []):
                print(f"    stored : {text[:100]!r}")
    ours = results["scanners"].get(args.label)
    if ours is not None:  # would a dependency add anything? what it catches that we miss, and at what cost
        for name, row in list(results["scanners"].items()):
            if name == args.label:
                continue
            extra = sorted(set(ours["missed_cases"]) - set(row["missed_cases"]))
            more_flagged = sorted(set(row["flagged_cases"]) - set(ours["flagged_cases"]))
            results["scanners"][name]["adds_to_mimomem"] = {"caught": extra, "flagged": more_flagged}
            print(f"    {name}: catches {len(extra)} that mimomem misses, flags {len(more_flagged)} more")
    print(f"mimomem scan_secrets: {results['scan_us_per_case']:.1f} µs per case (median CPU of 5 runs)")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if args.record:
        import record

        results["mimomem_from"] = str(Path(sys.modules["mimomem"].__file__ or "").parent)
        record.save(args.record, ["benchmarks/bench_secrets.py", *argv], results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
