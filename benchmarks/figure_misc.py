"""Renderers of the MCP round trips (bench_mcp.py), the FTS5 tokenizer extension
(bench_fts5_tokenizer.py), the retrieval policy's cost (bench_policy_latency.py) and BM25 at 10k
with every engine (bench_bm25.py --record bm25-10k)."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

from figure_defs import figure, md_table, med, num, source, spread
from figure_perf import LABELS, _engines, _per_run_ratio, _rows

# -- the MCP server (bench_mcp.py, results/mcp.json) ----------------------------------------------


def _p50s(data: dict[str, Any], name: str) -> list[float]:
    """Each server's p50 of ``name`` (wall ms)."""
    return [statistics.median(server[name]) for server in data["wall_ms"]]


@figure("mcp-latency", "mcp")
def mcp_latency(data: dict[str, Any]) -> str:
    def p50(name: str) -> str:
        return spread(_p50s(data, name), 1, " ms")

    start = [v for server in data["wall_ms"] for v in server["start + first search"]]
    return (
        f"On a warm server with {data['files']:,} tree files and {data['memories']:,} curated memories, a round "
        f"trip takes (wall clock as the client sees it, p50 of {data['runs']} calls; median of "
        f"{len(data['wall_ms'])} servers, lowest–highest) {p50('memory_recall')} for `memory_recall`, "
        f"{p50('memory_note')} for `memory_note` and {p50('memory_search')} for `memory_search` "
        f"({p50('memory_search after a note')} right after a write, which reconciles the index first); starting "
        f"the server and answering its first search (process start, imports, the first index build) "
        f"{spread(start, 0, ' ms')} (`python benchmarks/bench_mcp.py`, {data['date'][:10]}, load "
        f"{data['machine']['load_1min']})"
    )


# -- the FTS5 tokenizer extension (bench_fts5_tokenizer.py, results/fts5-tokenizer.json) ----------


def _insert_rates(data: dict[str, Any], case: str) -> list[float]:
    return [data["mb"] / s for s in data["builds"][case]["insert_s"]]


def _per_run(data: dict[str, Any], case: str, base: str) -> list[float]:
    """Insert speed of ``case`` / ``base`` within each run."""
    ours, theirs = data["builds"][case]["insert_s"], data["builds"][base]["insert_s"]
    return [b / a for a, b in zip(ours, theirs, strict=True)]


@figure("fts5-tokenizer-table", "fts5-tokenizer")
def fts5_tokenizer_table(data: dict[str, Any]) -> str:
    head = ["index", "build s CPU", "insert MB/s CPU", "vs unicode61", "vs shadow column", "file MB", "tokens"]
    rows = []
    for case, b in data["builds"].items():
        rows.append(
            [
                case,
                spread(b["build_s"], 2),
                spread(_insert_rates(data, case), 1),
                f"{med(_per_run(data, case, 'unicode61')):.0%}",
                f"{med(_per_run(data, case, 'shadow column')):.0%}",
                f"{med(b['file_bytes']) / 1e6:.1f}",
                f"{b['tokens'] / 1e6:.2f} M",
            ]
        )
    table = md_table(head, rows, "").rstrip("\n")
    base = data["query_p50_ms"]["shadow MATCH (string ready)"]
    q_rows = [
        [name, spread(values, 3), spread([v / b for v, b in zip(values, base, strict=True)], 2)]
        for name, values in data["query_p50_ms"].items()
    ]
    queries = md_table(["query (top 10 by bm25), CPU", "p50 ms", "vs shadow MATCH, per run"], q_rows, "")
    footer = (
        f"{data['docs']:,} generated notes ({data['mb']:.2f} MB), through apsw's SQLite {data['apsw_sqlite']}; "
        f"median (lowest–highest) of {data['runs']} runs, ratios within each run. {source(data)}."
    )
    return table + "\n" + queries.rstrip("\n") + "\n\n" + footer + "\n"


@figure("fts5-tokenizer-claim", "fts5-tokenizer")
def fts5_tokenizer_claim(data: dict[str, Any]) -> str:
    b = data["builds"]
    vs_shadow = _per_run(data, "mimomem tokenizer", "shadow column")
    vs_u61 = _per_run(data, "mimomem tokenizer", "unicode61")
    q = data["query_p50_ms"]
    ratio = [a / s for a, s in zip(q["MATCH mimomem_query(?)"], q["shadow MATCH (string ready)"], strict=True)]
    tokens = b["mimomem tokenizer"]["tokens"] / b["unicode61"]["tokens"]
    return (
        f"`benchmarks/bench_fts5_tokenizer.py` measured it on {data['docs']:,} generated notes ({data['mb']:.2f} MB), "
        f"all through apsw's SQLite, in CPU seconds, median (lowest–highest) of {data['runs']} runs "
        f"({data['date'][:10]}, load {data['machine']['load_1min']}):\n\n"
        f"* **Insert.** `tokenize='mimomem'` inserts {spread(_insert_rates(data, 'mimomem tokenizer'), 1)} MB/s: "
        f"{spread(vs_shadow, 2)}x the shadow column ({med(_insert_rates(data, 'shadow column')):.1f} MB/s), which "
        f"tokenizes in Python and stores the token text, and {med(vs_u61):.0%} of unicode61 "
        f"({med(_insert_rates(data, 'unicode61')):.1f} MB/s), because the bigram index holds {tokens:.1f}x as many "
        f"tokens ({b['mimomem tokenizer']['tokens'] / 1e6:.2f} M against {b['unicode61']['tokens'] / 1e6:.2f} M).\n"
        f"* **File size.** {med(b['mimomem tokenizer']['file_bytes']) / 1e6:.1f} MB, against "
        f"{med(b['shadow column']['file_bytes']) / 1e6:.1f} MB for the shadow column.\n"
        f"* **Query.** A median query through `MATCH mimomem_query(?)` took {spread(q['MATCH mimomem_query(?)'], 3)} ms, "
        f"{spread(ratio, 2)}x the shadow column's MATCH with its string ready in the same run "
        f"({med(q['shadow MATCH (string ready)']):.3f} ms); the shadow column's full path with `parse_query` in "
        f"Python {med(q['shadow MATCH + parse_query']):.3f} ms.\n"
    )


# -- the retrieval policy's cost (bench_policy_latency.py, results/policy-latency.json) -----------


@figure("policy-latency", "policy-latency")
def policy_latency(data: dict[str, Any]) -> str:
    head = ["backend", "options", "CPU p50 ms", "CPU p95 ms", "wall p50 ms", "wall p95 ms"]
    rows = []
    for name, row in data["cases"].items():
        backend, case = name.split()
        rows.append(
            [backend, case, *(spread(row[k], 2) for k in ("cpu_p50_ms", "cpu_p95_ms", "wall_p50_ms", "wall_p95_ms"))]
        )
    footer = (
        f"{data['docs']:,} generated notes, {data['queries']} queries, top 10; each cell the median of "
        f"{data['runs']} runs' p50 or p95 (lowest–highest run). CPU is the thread's CPU time, wall the wall clock "
        f"(on this shared machine the wall p95 is mostly waiting for a core). {source(data)}."
    )
    return md_table(head, rows, footer, first="---")


# -- BM25 at 10k with every engine (bench_bm25.py --record bm25-10k) -------------------------------


def _cells(data: dict[str, Any], engine: str, docs: int, peers: Sequence[tuple[str, str]]) -> list[str]:
    rows = _rows(data, engine, docs)
    cells = [spread([r[k] for r in rows], d) for k, d in (("build_cpu_s", 2), ("p50_ms", 3), ("p95_ms", 3))]
    cells.append(num(med([r["peak_mib"] for r in rows])))
    for peer, key in peers:
        ratios = _per_run_ratio(data, engine, peer, docs, key) if engine != peer else []
        cells.append(spread(ratios, 2) if ratios else "-")
    return cells


@figure("bm25-10k-table", "bm25-10k")
def bm25_10k_table(data: dict[str, Any]) -> str:
    docs = max(r["docs"] for r in data["rows"])
    peers = [("sqlite-fts5", "p50_ms"), ("sqlite-fts5", "peak_mib"), ("bm25s", "p50_ms"), ("tantivy", "p50_ms")]
    head = [
        f"engine, {docs:,} documents",
        "build s CPU",
        "p50 ms",
        "p95 ms",
        "peak RSS Δ MiB",
        "p50 / FTS5",
        "peak RSS / FTS5",
        "p50 / bm25s",
        "p50 / tantivy",
    ]
    rows = [[LABELS.get(e, e), *_cells(data, e, docs, peers)] for e in _engines(data)]
    footer = (
        f"Median (lowest–highest) of {data['repeat']} independent runs, each engine in its own process, ratios "
        f"within a run; query latency is CPU time. {source(data)}."
    )
    return md_table(head, rows, footer)


# -- reconcile of a memory tree (bench_index.py reconcile, results/reconcile.json) ----------------


@figure("reconcile", "reconcile")
def reconcile(data: dict[str, Any]) -> str:
    r = data["runs"]

    def ms(kind: str) -> str:
        return spread([v * 1000 for v in r[kind]["cpu_s"]], 0, " ms")

    unchanged = med(r["unchanged"]["cpu_s"]) * 1000
    return (
        f"Reconcile of a {data['files']:,}-file tree (`benchmarks/bench_index.py reconcile`, CPU, median "
        f"(lowest–highest) of {len(r['unchanged']['cpu_s'])} / {len(r['modified_1pct']['cpu_s'])} / "
        f"{len(r['touched_1pct']['cpu_s'])} reconciles): {ms('unchanged')} with nothing changed (target 200 ms: "
        f"{'met' if unchanged <= 200 else 'missed'}), {ms('modified_1pct')} after rewriting 1 % of the files, "
        f"{ms('touched_1pct')} after touching 1 %; the first (cold) reconcile {med(r['cold']['cpu_s']):.1f} s CPU, "
        f"{med(r['cold']['wall_s']):.1f} s wall ({data['date'][:10]}, load {data['machine']['load_1min']})"
    )


# -- the scaling table of mimomem bench --scale (bench_cli_scale.py, results/cli-scale.json) ------


@figure("cli-scale-table", "cli-scale")
def cli_scale_table(data: dict[str, Any]) -> str:
    from mimomem.bench.report import human_bytes

    head = [
        "backend",
        "documents",
        "build s, wall",
        "p50 ms, wall",
        "p95 ms, wall",
        "p50 ms, CPU",
        "p95 ms, CPU",
        "queries with hits",
        "disk",
        "memory",
        "RSS growth",
    ]
    order = {name: i for i, name in enumerate(data["backends"])}
    rows = []
    for p in sorted(data["scale"]["points"], key=lambda p: (order[p["backend"]], p["documents"])):
        rows.append(
            [
                p["backend"],
                f"{p['documents']:,}",
                f"{p['build_s']:.2f}",
                f"{p['latency_ms']['p50']:.2f}",
                f"{p['latency_ms']['p95']:.2f}",
                f"{p['cpu_ms']['p50']:.2f}",
                f"{p['cpu_ms']['p95']:.2f}",
                f"{p['queries_with_hits']}/{data['scale']['queries']}",
                human_bytes(p["index_bytes"]["disk"]),
                human_bytes(p["index_bytes"]["memory"]),
                human_bytes(p["rss_growth_bytes"]),
            ]
        )
    largest = max(p["documents"] for p in data["scale"]["points"])
    missing = (
        " 100,000 notes are not in this recorded run (a build per backend takes minutes at that size on this "
        "shared machine): the default backends at 100,000 are under Search (`bench_scale.py`), the peers' "
        "engines in the BM25 table of Text engine performance."
        if largest < 100_000
        else ""
    )
    footer = (
        f"One run: each row is one build and the p50 / p95 over the {data['scale']['queries']} queries; "
        f"`docs/bench/scaling.png` is drawn from the same run.{missing} {source(data)}."
    )
    return md_table(head, rows, footer, first="---")


# -- what the retrieval options did held out (bench_retrieval.py, results/retrieval.json) ---------

ZH_CATEGORIES = ("two-char", "long-term", "mixed", "fullwidth", "identifier", "question")


def _delta(data: dict[str, Any], option: str, category: str) -> float:
    s = data["summary"]
    return float(s[option][category][1] - s["base"][category][1])


@figure("retrieval-questions", "retrieval")
def retrieval_questions(data: dict[str, Any]) -> str:
    return (
        f"feedback changed nDCG@10 on them held out by {_delta(data, 'feedback', 'question'):+.3f} (Chinese) and "
        f"{_delta(data, 'feedback', 'en-question'):+.3f} (English)"
    )


@figure("retrieval-left-off", "retrieval")
def retrieval_left_off(data: dict[str, Any]) -> str:
    cats = [c for c in data["summary"]["base"] if c != "all"]
    proximity = max(abs(_delta(data, "proximity", c)) for c in cats)
    xlang = [_delta(data, "xlang", c) for c in ZH_CATEGORIES]
    near = max(abs(_delta(data, "near", c)) for c in cats)
    return (
        f"proximity (held out within {proximity:.3f} of the baseline in every category), cross-language "
        f"expansion (CC-CEDICT: held out {min(xlang):+.3f} to {max(xlang):+.3f} on the Chinese categories; the "
        f"notes mostly carry the English word next to the Chinese one already), near-synonyms from CC-CEDICT "
        f"(held out within {near:.3f} of the baseline)"
    )


@figure("fts5-tokenizer-goals", "fts5-tokenizer")
def fts5_tokenizer_goals(data: dict[str, Any]) -> str:
    vs_shadow = _per_run(data, "mimomem tokenizer", "shadow column")
    vs_u61 = _per_run(data, "mimomem tokenizer", "unicode61")
    q = data["query_p50_ms"]
    ratio = [a / s for a, s in zip(q["MATCH mimomem_query(?)"], q["shadow MATCH (string ready)"], strict=True)]
    table = [
        a / s for a, s in zip(q["tokenizer table MATCH (string ready)"], q["shadow MATCH (string ready)"], strict=True)
    ]
    b = data["builds"]
    size = med(b["mimomem tokenizer"]["file_bytes"]) / med(b["shadow column"]["file_bytes"])

    def verdict(values: list[float], ok: Callable[[float], bool]) -> str:
        hits = sum(1 for v in values if ok(v))
        return "met" if hits == len(values) else "not met" if hits == 0 else f"met in {hits} of {len(values)} runs"

    return (
        f"* **Insert ≥ the shadow column: {verdict(vs_shadow, lambda v: v >= 1)}** ({spread(vs_shadow, 2)}x).\n"
        f"* **Insert ≥ 50 % of unicode61: {verdict(vs_u61, lambda v: v >= 0.5)}** ({med(vs_u61):.0%}). The cost "
        "is FTS5's own, per token: on Chinese text, bigrams mean several times the tokens of unicode61, which "
        "turns a whole Han run into a single token (and so misses two-character words); trigram, with more "
        "tokens still, is slower still.\n"
        f"* **A `mimomem_query` query within 10 % of the same MATCH on the shadow column: "
        f"{verdict(ratio, lambda v: v <= 1.1)}** ({spread(ratio, 2)}x). The tokenizer's table answers the same "
        f"MATCH string in {spread(table, 2)}x the shadow column's time.\n"
        f"* **Size:** the tokenizer's table is {1 - size:.0%} smaller than the shadow column's, which stores its "
        "tokens.\n"
    )


# -- end to end, before -> after (docs/bench/e2e-before.json, docs/bench/e2e.json) -----------------

E2E_FILES = ("docs/bench/e2e-before.json", "docs/bench/e2e.json")
E2E_KINDS = ("failure", "workflow", "superseded", "cross-language")


@figure("e2e-before-after", E2E_FILES)
def e2e_before_after(all_data: dict[str, Any]) -> str:
    before, after = (all_data[f]["systems"]["mimomem"] for f in E2E_FILES)
    b, a, held = before["all"], after["all"], after["heldout"]

    def frac(s: dict[str, Any], key: str = "hits", total: str = "answerable") -> str:
        return f"{s[key]}/{s[total]}"

    def pct(s: dict[str, Any]) -> float:
        return 100 * s["hits"] / s["answerable"]

    kinds = ", ".join(
        f"{k} {frac(b['per_kind'][k], 'hits', 'total')} -> {frac(a['per_kind'][k], 'hits', 'total')}" for k in E2E_KINDS
    )
    lowest = min(100 * v["hits"] / v["total"] for v in a["per_kind"].values() if v["total"])
    distract = 100 * a["distractors_with_context"] / a["distractors"]
    goals = [
        (f"hit rate ({pct(a):.0f} %, held-out {frac(held)} = {pct(held):.0f} %)", pct(a) >= 90),
        (f"every kind (lowest {lowest:.0f} %, 80 % asked)", lowest >= 80),
        (f"median tokens ({a['median_tokens']:,.0f} <= 3,000)", a["median_tokens"] <= 3000),
        (f"stale-only ({a['stale_only']})", a["stale_only"] == 0),
        (f"the cap ({a['over_cap']} over)", a["over_cap"] == 0),
        (f"distractors with context {distract:.0f} % (10 % asked)", distract <= 10),
    ]
    met = ", ".join(text for text, ok in goals if ok)
    missed = ", ".join(text for text, ok in goals if not ok)
    return (
        f"Before -> after for `mimomem` (all questions): {frac(b)} -> {frac(a)} ({pct(b):.0f} % -> {pct(a):.0f} %); "
        f"{kinds}; distractors with context {frac(b, 'distractors_with_context', 'distractors')} -> "
        f"{frac(a, 'distractors_with_context', 'distractors')}; stale-only {b['stale_only']} -> {a['stale_only']}; "
        f"{a['over_cap']} outputs over the host cap. Against the goals: met: {met or 'none'}"
        + (f"; **not met: {missed}**" if missed else "")
    )


@figure("e2e-distractors", "docs/bench/e2e.json")
def e2e_distractors(data: dict[str, Any]) -> str:
    a = data["systems"]["mimomem"]["all"]
    return f"{a['distractors_with_context']} of its {a['distractors']} distractors"


@figure("bigram-disk", "cli-scale")
def bigram_disk(data: dict[str, Any]) -> str:
    points = data["scale"]["points"]
    n = max(p["documents"] for p in points)
    disk = {p["backend"]: p["index_bytes"]["disk"] for p in points if p["documents"] == n}
    ratio = disk["fts5-bigram"] / disk["fts5-unicode61"]
    return f"the bigram index is {ratio:.1f}x the unicode61 one on disk at {n:,} notes, `mimomem bench --scale`"


# -- end to end through the real host (mimomem bench --e2e --host claude-code --json) ---------------

E2E_HOST = "docs/bench/e2e-host.json"


@figure("e2e-host", E2E_HOST)
def e2e_host(data: dict[str, Any]) -> str:
    from mimomem.bench.host.e2e import format_comparison

    ident = data["host"]["identity"]
    return (
        "\n"
        + format_comparison(data["host"], data["replay"])
        + f"`mimomem bench --e2e --host claude-code --json` at {ident['commit']}, {ident['date'][:10]}, "
        f"{ident['machine']} ({E2E_HOST}).\n"
    )


@figure("e2e-host-summary", E2E_HOST)
def e2e_host_summary(data: dict[str, Any]) -> str:
    from mimomem.bench.host.e2e import comparison

    info = data["host"]["runs"]["mimomem (host)"]
    every, dev = comparison(data["host"], data["replay"])["answerable"], comparison(data["host"], data["replay"], "dev")
    d = dev["answerable"]
    return (
        f"through the real Claude Code {info['host_version']} ({info['route']} route) the next session received "
        f"**{every['host']} of {every['questions']}** answers ({100 * every['host'] / every['questions']:.1f} %; "
        f"dev split {d['host']}/{d['questions']} = {100 * d['host'] / d['questions']:.1f} %), the replay of the same "
        f"dev set {every['replay']} of {every['questions']} ({100 * every['replay'] / every['questions']:.1f} %; "
        f"dev {d['replay']}/{d['questions']} = {100 * d['replay'] / d['questions']:.1f} %)"
    )


E2E_RECORDED = "docs/bench/e2e-host-recorded.json"


@figure("e2e-recorded", (E2E_HOST, E2E_RECORDED))
def e2e_recorded(all_data: dict[str, Any]) -> str:
    recorded, host = all_data[E2E_RECORDED], all_data[E2E_HOST]
    a, d = recorded["systems"]["mimomem"]["all"], recorded["systems"]["mimomem"]["dev"]
    mine = {row["id"]: row["mimomem"]["hit"] for row in recorded["questions"]}
    other = {row["id"]: row["mimomem"]["hit"] for row in host["replay"]["questions"]}
    differ = sum(mine[k] != other.get(k) for k in mine)
    return (
        f"the replay of transcripts recorded from the real host (`python corpora/e2e-dev/record_host.py OUT`, then "
        f"`mimomem bench --e2e OUT`, at {recorded['identity']['commit']}): {a['hits']}/{a['answerable']}, dev "
        f"{d['hits']}/{d['answerable']}; {differ} question(s) scored otherwise than with build.py's transcripts "
        f"({E2E_RECORDED})"
    )
