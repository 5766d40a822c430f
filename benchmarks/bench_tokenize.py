"""Tokenizer throughput in MB/s: mimomem's twins against jieba, rjieba and ``str.split``.

Every case runs in the same process on the same documents, one call per document (the
way an indexer calls a tokenizer), except the batch API, which gets them all in one call:

* ``native tokenize_bigram`` / ``pure tokenize_bigram`` - mimomem's two twins, returning
  ``list[Token]`` with offsets;
* ``native tokenize_many`` / ``pure tokenize_many`` - the batch API, called on batches of
  ``BATCH`` (64) documents as an indexer would (a whole corpus in one call keeps every token
  alive at once): one tuple of token strings per document, no Token tuples (frequent short
  tokens shared in the native twin);
* ``native BM25Core.add_text`` - tokenize *and index* without creating Python token
  objects (the bulk-load path);
* ``rjieba.cut`` (Rust jieba) and ``jieba.lcut_for_search`` - what a user would pick;
* ``str.split`` - the practical ceiling for anything that returns a Python list of str.

Two corpora: ``real`` (``corpus.real_chinese()``: the repository's real agent notes and
CPython's Chinese prose samples, about 70 KB, each run repeated to about 2 MB) and the
generated notes (``--docs``; random juxtapositions of dictionary words, so far more distinct
bigrams than real text: the worst case for sharing token strings).

Run ``python benchmarks/bench_tokenize.py [--corpus real,10k] [--runs 5]`` for the ratio
tables, or ``pytest benchmarks/bench_tokenize.py`` (1k documents unless MIMOMEM_BENCH_DOCS is set).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import corpus
import pytest

BATCH = 64
"""Documents per ``tokenize_many`` call."""


def _native():
    try:
        return importlib.import_module("mimomem._native")
    except ImportError:
        return None


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _cases(docs: list[str], jieba: bool = True) -> dict[str, Callable[[], int] | str]:
    """Case name -> a function returning the token count, or the reason it cannot run."""
    from mimomem.text import _tokenizer_py

    native = _native()
    rjieba = _require("rjieba")
    cases: dict[str, Callable[[], int] | str] = {}

    if native is not None:
        native_tokenize = native.tokenize_bigram
        native_many = native.tokenize_many

        def native_tokens() -> int:
            return sum(len(native_tokenize(d)) for d in docs)

        def native_batch() -> int:
            return sum(len(tokens) for i in range(0, len(docs), BATCH) for tokens in native_many(docs[i : i + BATCH]))

        def native_add_text() -> int:
            core = native.BM25Core()
            for i, d in enumerate(docs):
                core.add_text(i, d)
            return core.total_tokens()

        cases["native tokenize_bigram"] = native_tokens
        cases["native tokenize_many"] = native_batch
        cases["native BM25Core.add_text"] = native_add_text
    else:
        for name in ("native tokenize_bigram", "native tokenize_many", "native BM25Core.add_text"):
            cases[name] = "mimomem._native not built"

    pure_tokenize = _tokenizer_py.tokenize_bigram
    pure_many = _tokenizer_py.tokenize_many
    cases["pure tokenize_bigram"] = lambda: sum(len(pure_tokenize(d)) for d in docs)
    cases["pure tokenize_many"] = lambda: sum(
        len(tokens) for i in range(0, len(docs), BATCH) for tokens in pure_many(docs[i : i + BATCH])
    )
    if rjieba is not None:
        cut = rjieba.cut
        cases["rjieba.cut"] = lambda: sum(len(cut(d)) for d in docs)
    else:
        cases["rjieba.cut"] = "rjieba not installed"
    if jieba:
        cases["jieba.lcut_for_search"] = _jieba_case(docs)
    cases["str.split"] = lambda: sum(len(d.split()) for d in docs)
    return cases


def _jieba_case(docs: list[str]) -> Callable[[], int]:
    from mimomem.text.segment import _jieba

    jieba = _jieba()  # dictionary load (~0.5 s) happens here, outside the timing
    lcut = jieba.lcut_for_search
    return lambda: sum(len(lcut(d)) for d in docs)


def measure(
    cases: dict[str, Callable[[], int]], runs: int, slow_runs: int, repeat: int = 1
) -> dict[str, tuple[list[float], int]]:
    """Seconds per pass of every timed run, and the token count, per case (``repeat`` passes per run).

    These are **warm** figures: the same text again and again in one process, so the native
    ``tokenize_many`` finds most token strings in its process-wide cache (``cold`` measures the
    first pass of a new process instead).

    Times are CPU seconds of this process (``time.process_time``), which other processes
    on a shared machine barely disturb; one warm-up run each, then the cases take turns
    (round robin) so that what disturbance remains hits every case alike.  ``slow`` cases (jieba) get ``slow_runs`` runs
    and no full warm-up (their dictionary is loaded when the case is made).
    """
    times: dict[str, list[float]] = {name: [] for name in cases}
    tokens: dict[str, int] = {}
    for name, run in cases.items():
        if not name.startswith("jieba"):
            run()
    for round_number in range(max(runs, slow_runs)):
        for name, run in cases.items():
            if round_number >= (slow_runs if name.startswith("jieba") else runs):
                continue
            start = time.process_time()
            for _ in range(1 if name.startswith("jieba") else repeat):
                tokens[name] = run()
            times[name].append((time.process_time() - start) / (1 if name.startswith("jieba") else repeat))
    return {name: (times[name], tokens[name]) for name in cases}


COLD_CASES = ("native tokenize_many", "native tokenize_bigram", "rjieba.cut")
"""The cases timed on text their process has never seen (``cold``)."""


def _child_cold(corpus_name: str, case: str) -> float:
    """CPU seconds of ``case``'s first pass over the corpus in this (new) process; both tokenizers
    first see one short unrelated text, so rjieba's dictionary is loaded outside the timing."""
    docs = corpus.real_chinese() if corpus_name == "real" else corpus.documents(corpus.size_arg(corpus_name))
    run = _cases(docs, jieba=False)[case]
    assert not isinstance(run, str), run
    native = _native()
    if native is not None:
        native.tokenize_many(["x"])
    rjieba = _require("rjieba")
    if rjieba is not None:
        rjieba.cut("x")
    start = time.process_time()
    run()
    return time.process_time() - start


def cold(corpus_name: str, runs: int) -> dict[str, list[float]]:
    """Seconds of the first pass in ``runs`` new processes per case, the cases taking turns."""
    import json
    import subprocess

    out: dict[str, list[float]] = {case: [] for case in COLD_CASES}
    for _ in range(runs):
        for case in COLD_CASES:
            cmd = [sys.executable, __file__, "--child-cold", corpus_name, case]
            done = subprocess.run(cmd, capture_output=True, text=True, check=True)
            out[case].append(float(json.loads(done.stdout.strip().splitlines()[-1])))
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child-cold"]:
        print(_child_cold(argv[1], argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="real,10k", help="real and/or generated sizes (1k, 10k, 100k)")
    parser.add_argument("--docs", type=corpus.size_arg, help="(old spelling of one generated --corpus size)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per case (median reported)")
    parser.add_argument("--jieba-runs", type=int, default=1, help="timed runs for jieba (slow)")
    parser.add_argument("--cold-runs", type=int, default=5, help="new processes per cold case (0: none)")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/tokenize.json")
    args = parser.parse_args(argv)
    names = [str(args.docs)] if args.docs else [c for c in args.corpus.split(",") if c]
    recorded = {}
    for name in names:
        docs = corpus.real_chinese() if name == "real" else corpus.documents(corpus.size_arg(name))
        recorded[name] = report(name, docs, args.runs, args.jieba_runs)
        if args.cold_runs:
            recorded[name]["cold_s"] = cold(name, args.cold_runs)
            mb = recorded[name]["mb"]
            for case, samples in recorded[name]["cold_s"].items():
                rates = sorted(mb / s for s in samples)
                print(
                    f"  cold (first pass, new process) {case}: {statistics.median(rates):.1f} MB/s "
                    f"({rates[0]:.1f}-{rates[-1]:.1f}, {len(rates)} processes)"
                )
    if args.record:
        import record

        record.save("tokenize", ["benchmarks/bench_tokenize.py", *argv], {"runs": args.runs, "corpora": recorded})
    return 0


def report(name: str, docs: list[str], runs: int, jieba_runs: int) -> dict[str, Any]:
    """Measure every case on ``docs`` (warm), print the table and the targets, return the samples."""
    mb = corpus.megabytes(docs)
    repeat = max(1, round(2.0 / mb))
    han = sum(1 for d in docs for ch in d if "\u4e00" <= ch <= "\u9fff") / max(1, sum(len(d) for d in docs))
    print(
        f"\ncorpus {name}: {len(docs)} documents, {mb:.2f} MB UTF-8, {han:.0%} Han; CPU time, median of {runs} "
        f"interleaved runs after 1 warm-up, {repeat} passes per run (jieba: {jieba_runs} run, 1 pass)"
    )
    cases = _cases(docs)
    runnable = {n: case for n, case in cases.items() if not isinstance(case, str)}
    measured = measure(runnable, runs, jieba_runs, repeat)
    rates: dict[str, float] = {}
    rows = []
    for case_name, case in cases.items():
        if isinstance(case, str):
            rows.append((case_name, None, None, case))
            continue
        seconds, tokens = statistics.median(measured[case_name][0]), measured[case_name][1]
        rates[case_name] = mb / seconds
        rows.append((case_name, mb / seconds, tokens / seconds / 1e6, f"{seconds:.3f} s"))
    base = rates.get("pure tokenize_bigram")
    print("\n| tokenizer (warm) | MB/s | M tokens/s | x pure | CPU time per pass |\n|---|---|---|---|---|")
    for case_name, rate, mtok, note in rows:
        if rate is None:
            print(f"| {case_name} | - | - | - | {note} |")
        else:
            print(f"| {case_name} | {rate:.1f} | {mtok:.2f} | {rate / base:.2f}x | {note} |")
    print("\ntargets (warm):")
    for ours, peer, target in [
        ("native tokenize_many", "rjieba.cut", 3.0),
        ("native tokenize_bigram", "rjieba.cut", None),
        ("native tokenize_bigram", "pure tokenize_bigram", 5.0),
        ("native tokenize_many", "str.split", None),
    ]:
        if ours in rates and peer in rates:
            ratio = rates[ours] / rates[peer]
            verdict = "" if target is None else f" (target >= {target:.0f}x: {'met' if ratio >= target else 'MISSED'})"
            print(f"  {ours} / {peer} = {ratio:.2f}x{verdict}")
    return {
        "documents": len(docs),
        "mb": mb,
        "han": han,
        "passes_per_run": repeat,
        "warm_s": {n: m[0] for n, m in measured.items()},
        "tokens": {n: m[1] for n, m in measured.items()},
        "unavailable": {n: c for n, c in cases.items() if isinstance(c, str)},
    }


# -- pytest-benchmark ---------------------------------------------------------------------

CASE_NAMES = [
    "native tokenize_bigram",
    "native tokenize_many",
    "native BM25Core.add_text",
    "pure tokenize_bigram",
    "pure tokenize_many",
    "rjieba.cut",
    "jieba.lcut_for_search",
    "str.split",
]


@pytest.fixture(scope="module")
def bench_docs() -> list[str]:
    import os

    return corpus.documents(corpus.size_arg(os.environ.get("MIMOMEM_BENCH_DOCS", "1k")))


@pytest.mark.parametrize("name", CASE_NAMES)
def test_tokenizer_throughput(benchmark, bench_docs, name):
    case = _cases(bench_docs)[name]
    if isinstance(case, str):
        pytest.skip(case)
    benchmark.group = "tokenize"
    tokens = benchmark.pedantic(case, rounds=3, iterations=1, warmup_rounds=1)
    seconds = benchmark.stats.stats.median
    benchmark.extra_info["MB/s"] = round(corpus.megabytes(bench_docs) / seconds, 2)
    benchmark.extra_info["tokens"] = tokens


if __name__ == "__main__":
    sys.exit(main())
