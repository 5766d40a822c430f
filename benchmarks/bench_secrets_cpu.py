"""CPU of the secret scanner on source files, this checkout against another one (issue 32).

The scanner reads every text mimomem writes; most of what it reads holds no secret.  This bench
times ``scan_secrets`` over the standard library's Python files of 16-24 KB (the first ``--files``
of them by path: deterministic for one Python version) and over every case of the adversarial
sets, in a fresh process per run for this checkout and for ``--against`` (a worktree of another
commit, e.g. ``git worktree add --detach /tmp/old 862f578``), alternating the two so the machine's
load falls on both alike.  Each run does one warm-up pass (the patterns compile on first use), then
times one pass with ``time.process_time``.  Every run's seconds are kept; the ratio is of medians.

    python benchmarks/bench_secrets_cpu.py --against /tmp/old --runs 7 [--record NAME]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ADVERSARIAL = ROOT / "corpora" / "secrets-adversarial"

_CHILD = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from mimomem.common.secrets import scan_secrets
texts = json.loads(open(sys.argv[2], encoding="utf-8").read())
for t in texts:
    scan_secrets(t)
start = time.process_time()
found = sum(len(scan_secrets(t)) for t in texts)
print(json.dumps({"cpu": time.process_time() - start, "found": found}))
"""


def source_files(count: int) -> list[Path]:
    """The standard library's ``.py`` files of 16-24 KB, sorted by path, the first ``count``."""
    lib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(
        p for p in lib.rglob("*.py") if "site-packages" not in p.parts and 16_000 <= p.stat().st_size <= 24_000
    )
    return files[:count]


def cases() -> list[str]:
    """The text of every case of every adversarial set (turns counted one by one)."""
    out: list[str] = []
    for path in sorted(ADVERSARIAL.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                case = json.loads(line)
                out.extend(case.get("turns") or [case["text"]])
    return out


def run(tree: Path, corpus: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MIMOMEM_REQUIRE")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tree), str(corpus)], capture_output=True, text=True, check=True, env=env
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", type=Path, required=True, help="another checkout (a git worktree) to compare")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--files", type=int, default=120)
    parser.add_argument("--record", metavar="NAME", help="write benchmarks/results/NAME.json")
    args = parser.parse_args(argv)
    files = source_files(args.files)
    corpora = {
        "files": [p.read_text(encoding="utf-8", errors="replace") for p in files],
        "cases": cases(),
    }
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    results: dict[str, Any] = {"kb": sum(p.stat().st_size for p in files) // 1024}
    for name, texts in corpora.items():
        corpus = folder / f"mimomem-bench-secrets-cpu-{os.getpid()}-{name}.json"
        corpus.write_text(json.dumps(texts), encoding="utf-8")
        here: list[float] = []
        there: list[float] = []
        found: dict[str, int] = {}
        try:
            for _ in range(args.runs):
                for tree, samples, label in ((ROOT, here, "this"), (args.against, there, "against")):
                    r = run(tree, corpus)
                    samples.append(r["cpu"])
                    found[label] = r["found"]
        finally:
            corpus.unlink()
        ratio = statistics.median(here) / statistics.median(there)
        results[name] = {"texts": len(texts), "this": here, "against": there, "ratio": ratio, "found": found}
        print(
            f"{name} ({len(texts)} texts): this {statistics.median(here):.3f} s, against {statistics.median(there):.3f} s"
            f" (median CPU of {args.runs}); ratio {ratio:.2f}; findings {found['this']} vs {found['against']}"
        )
    if args.record:
        sys.path.insert(0, str(ROOT / "benchmarks"))
        import record

        results["against"] = str(args.against)
        done = subprocess.run(
            ["git", "-C", str(args.against), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True
        )
        results["against_commit"] = done.stdout.strip()
        record.save(args.record, ["benchmarks/bench_secrets_cpu.py", *argv], results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
