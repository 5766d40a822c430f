"""The scaling table of the README: ``mimomem bench --scale`` (``mimomem.bench.scale.run_scale``), recorded.

Builds each backend on the generated corpora (seed 20240601) of each size and times the 200
generated queries, exactly as ``mimomem bench --scale`` does (wall-clock build and query time,
CPU time of each query beside it, index size, RSS growth), then writes the result with the
commit and machine (``--record``: ``benchmarks/results/cli-scale.json``) and draws
``scaling.png`` into ``--report DIR``. A build at 100,000 notes takes minutes per backend, so
this is one run: each figure of a size is one build and the 200 queries' p50 / p95.

    python benchmarks/bench_cli_scale.py [--sizes 1000,10000,100000] [--backend NAME ...] [--report DIR] [--record]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

BACKENDS = ("fts5-unicode61", "fts5-trigram", "fts5-bigram", "native-index", "bm25s", "tantivy")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--backend", action="append", help=f"repeatable (default: {', '.join(BACKENDS)})")
    parser.add_argument("--report", type=Path, help="draw scaling.png into this directory")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/cli-scale.json")
    args = parser.parse_args(argv)
    import corpus

    from mimomem.bench.report import scale_table, scaling_chart
    from mimomem.bench.runner import stderr_progress
    from mimomem.bench.scale import parse_sizes, run_scale

    backends = args.backend or list(BACKENDS)
    with tempfile.TemporaryDirectory(prefix="bench-cli-scale-") as tmp:
        corpus.private_caches(Path(tmp))
        scale = run_scale(parse_sizes(args.sizes), backends, workroot=Path(tmp), progress=stderr_progress)
    print(scale_table(scale))
    if args.report:
        args.report.mkdir(exist_ok=True)
        scaling_chart({"scale": scale, "backends": backends}, args.report / "scaling.png")
    if args.record:
        import record

        record.save("cli-scale", ["benchmarks/bench_cli_scale.py", *argv], {"backends": backends, "scale": scale})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
