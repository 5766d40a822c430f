"""Render a benchmark result: Markdown tables (terminal and ``--report``) and PNG charts.

matplotlib is imported only when charts are drawn, so ``mimomem bench`` runs without it;
``--report`` without it writes the tables alone and says how to get the charts
(``pip install 'mimomem[bench]'``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mimomem.bench.metrics import METRICS
from mimomem.errors import BenchDependencyError

METRIC_LABELS = {"ndcg@10": "nDCG@10", "recall@10": "Recall@10", "recall@100": "Recall@100", "mrr@10": "MRR@10"}


def human_bytes(n: int | None) -> str:
    """``1536`` -> ``1.5 KiB``, ``-1024`` -> ``-1.0 KiB``; None -> ``-`` (not measured / not applicable)."""
    if n is None:
        return "-"
    if n < 0:
        return "-" + human_bytes(-n)
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"  # pragma: no cover - loop always returns


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str = "") -> str:
    spec = align or ("l" + "r" * (len(header) - 1))
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---:" if a == "r" else "---" for a in spec) + " |"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines)


def _in_table_order(names: Iterable[str]) -> list[str]:
    """Backend names in ``BENCH_BACKENDS`` order (JSON round trips may have sorted them)."""
    from mimomem.bench.engines import BENCH_BACKENDS

    unique = list(dict.fromkeys(names))
    return sorted(unique, key=lambda n: (BENCH_BACKENDS.index(n) if n in BENCH_BACKENDS else len(BENCH_BACKENDS), n))


def _cpu_p95(row: dict[str, Any]) -> str:
    cpu = row.get("cpu_ms")
    return f"{cpu['p95']:.2f}" if cpu else "-"


def quality_table(dataset: dict[str, Any]) -> str:
    """One row per backend: quality, zero-result share, latency, build time, index size."""
    header = [
        "backend",
        *METRIC_LABELS.values(),
        "zero-result",
        "p50 ms",
        "p95 ms",
        "p95 CPU ms",
        "build s",
        "disk",
        "memory",
    ]
    rows = []
    for b in dataset["backends"]:
        rows.append(
            [
                b["backend"],
                *(f"{b[m]:.3f}" for m in METRICS),
                f"{b['zero_result_share'] * 100:.1f}%",
                f"{b['latency_ms']['p50']:.2f}",
                f"{b['latency_ms']['p95']:.2f}",
                _cpu_p95(b),
                f"{b['build_s']:.2f}",
                human_bytes(b["index_bytes"]["disk"]),
                human_bytes(b["index_bytes"]["memory"]),
            ]
        )
    return _table(header, rows)


def policy_note(dataset: dict[str, Any]) -> str:
    """Which query handling each backend ran: the product's policy is tuned, the peers run without it."""
    groups: dict[str, list[str]] = {}
    for b in dataset["backends"]:
        groups.setdefault(str(b.get("policy", "not recorded")), []).append(b["backend"])
    return "Query handling: " + "; ".join(f"{', '.join(names)}: {policy}" for policy, names in groups.items()) + "."


def category_table(dataset: dict[str, Any], metric: str = "ndcg@10") -> str:
    """One row per backend, one column per query category (``metric``; queries in header)."""
    cats = dataset["categories"]
    if not cats or not dataset["backends"]:
        return ""
    first = dataset["backends"][0]["categories"]
    header = ["backend", *(f"{c} ({first[c]['queries']})" for c in cats)]
    rows = [[b["backend"], *(f"{b['categories'][c][metric]:.3f}" for c in cats)] for b in dataset["backends"]]
    return _table(header, rows)


def zero_category_table(dataset: dict[str, Any]) -> str:
    """Zero-result share per backend and category."""
    cats = dataset["categories"]
    if not cats or not dataset["backends"]:
        return ""
    rows = [
        [b["backend"], *(f"{b['categories'][c]['zero_result_share'] * 100:.0f}%" for c in cats)]
        for b in dataset["backends"]
    ]
    return _table(["backend", *cats], rows)


def failures_table(failures: dict[str, Any]) -> str:
    """Each failures case: hits per backend side by side, with the documented expectation."""
    rows_in = failures["rows"]
    if not rows_in:
        return ""
    backends = _in_table_order(rows_in[0]["hits"])
    header = ["#", "document", "query", *backends, "expected u61 / tri / bigram", "as expected"]
    rows = []
    for r in rows_in:
        exp = r["expected"]
        doc = r["document"] if len(r["document"]) <= 24 else r["document"][:23] + "…"
        misses = [b for b, ok in r["as_expected"].items() if not ok]
        rows.append(
            [
                str(r["row"]),
                doc,
                r["query"],
                *(str(r["hits"][b]) for b in backends),
                f"{exp.get('unicode61', '-')} / {exp.get('trigram', '-')} / {exp.get('bigram', '-')}",
                "yes" if not misses else "NO: " + ", ".join(misses),
            ]
        )
    return _table(header, rows, "lll" + "r" * len(backends) + "ll")


def scale_table(scale: dict[str, Any]) -> str:
    """One row per backend and corpus size: build time, latency, index size, RSS growth."""
    header = [
        "backend",
        "documents",
        "build s",
        "p50 ms",
        "p95 ms",
        "p95 CPU ms",
        "queries with hits",
        "disk",
        "memory",
        "RSS growth",
    ]
    rows = []
    order = {name: i for i, name in enumerate(_in_table_order(p["backend"] for p in scale["points"]))}
    for p in sorted(scale["points"], key=lambda p: (order[p["backend"]], p["documents"])):
        rows.append(
            [
                p["backend"],
                f"{p['documents']:,}",
                f"{p['build_s']:.2f}",
                f"{p['latency_ms']['p50']:.2f}",
                f"{p['latency_ms']['p95']:.2f}",
                _cpu_p95(p),
                f"{p['queries_with_hits']}/{scale['queries']}",
                human_bytes(p["index_bytes"]["disk"]),
                human_bytes(p["index_bytes"]["memory"]),
                human_bytes(p["rss_growth_bytes"]),
            ]
        )
    return _table(header, rows)


def paths_table(paths: dict[str, Any]) -> str:
    """One row per user path: CPU seconds at each size and how the cost grows per 10x more items."""
    from mimomem.bench.paths import growth

    sizes = sorted({int(size) for costs in paths["paths"].values() for size in costs})
    header = ["path", *(f"{n:,}" for n in sizes), "growth per 10x"]
    rows = []
    for path, costs in paths["paths"].items():
        cells = [f"{costs[str(n)]:.3f} s" if str(n) in costs else "-" for n in sizes]
        rows.append([path, *cells, ", ".join(f"{g:.1f}x" for g in growth(costs)) or "-"])
    return _table(header, rows, "l" + "r" * (len(sizes) + 1))


def format_result(result: dict[str, Any]) -> str:
    """The whole result as Markdown: what ``mimomem bench`` prints."""
    parts = []
    for d in result["datasets"]:
        parts.append(f"## {d['name']}: {d['documents']} documents, {d['queries']} queries\n")
        parts.append(quality_table(d) + "\n")
        parts.append(policy_note(d) + "\n")
        if len(d["categories"]) > 1:
            parts.append(f"nDCG@10 per query category ({d['name']}):\n")
            parts.append(category_table(d) + "\n")
            parts.append(f"Zero-result share per query category ({d['name']}):\n")
            parts.append(zero_category_table(d) + "\n")
    if result.get("failures"):
        f = result["failures"]
        parts.append("## The documented failure cases, row by row: hits on an index of the one document\n")
        parts.append(failures_table(f) + "\n")
        parts.append(
            (
                "Every documented miss and fix is reproduced."
                if f["all_as_expected"]
                else "Some rows differ from the documented failure cases (see 'as expected')."
            )
            + "\n"
        )
    if result.get("scale"):
        parts.append(
            f"## Scaling: generated corpora (seed {result['scale']['seed']}), {result['scale']['queries']} queries\n"
        )
        parts.append(scale_table(result["scale"]) + "\n")
        if result["scale"].get("paths"):
            paths = result["scale"]["paths"]
            parts.append(
                f"User paths: CPU seconds of a fresh process, median of {paths['runs']} "
                "(growth per 10x: 10x is linear, 1x flat)\n"
            )
            parts.append(paths_table(paths) + "\n")
    m = result["machine"]
    parts.append(
        f"Machine: Python {m['python']}, SQLite {m['sqlite']}, {m['cpu_count']} CPUs, "
        f"{human_bytes(m['memory_bytes'])} RAM, {m['platform']}; native extension: {'yes' if m['native'] else 'no'}. "
        f"Timing: {result['timing']}."
    )
    if result.get("skipped_backends"):
        parts.append("Skipped: " + "; ".join(f"{k} ({v})" for k, v in result["skipped_backends"].items()))
    return "\n".join(parts) + "\n"


NO_CHARTS = "no charts: matplotlib is not installed; pip install 'mimomem[bench]' and run again for them"
"""What a report without charts says (in the report and on stderr)."""


def charts_available() -> bool:
    """True when matplotlib can be imported (checked before a long run, so ``--report`` never loses it)."""
    import importlib.util

    try:
        return importlib.util.find_spec("matplotlib") is not None
    except ValueError:  # a module set to None in sys.modules (tests) has no spec
        return False


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise BenchDependencyError("--report draws charts with matplotlib: pip install 'mimomem[bench]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> None:
    from mimomem.common.files import atomic_write

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    atomic_write(path, buf.getvalue())


def quality_chart(result: dict[str, Any], path: Path) -> None:
    """Grouped bars: nDCG@10 per backend (bars) per dataset (groups)."""
    plt = _pyplot()
    datasets = result["datasets"]
    backends = result["backends"]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(datasets) + 3), 4))
    width = 0.8 / max(1, len(backends))
    for i, name in enumerate(backends):
        values = [next((b["ndcg@10"] for b in d["backends"] if b["backend"] == name), 0.0) for d in datasets]
        ax.bar([x + i * width for x in range(len(datasets))], values, width, label=name)
    ax.set_xticks([x + width * (len(backends) - 1) / 2 for x in range(len(datasets))])
    ax.set_xticklabels([d["name"] for d in datasets])
    ax.set_ylabel("nDCG@10")
    ax.set_ylim(0, 1)
    ax.set_title("Retrieval quality per backend and dataset")
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    _save(fig, path)
    plt.close(fig)


def category_chart(dataset: dict[str, Any], path: Path) -> None:
    """Grouped bars: nDCG@10 per backend (bars) per query category (groups) of one dataset."""
    plt = _pyplot()
    cats, backends = dataset["categories"], dataset["backends"]
    fig, ax = plt.subplots(figsize=(max(7, 1.3 * len(cats) + 3), 4))
    width = 0.8 / max(1, len(backends))
    for i, b in enumerate(backends):
        ax.bar(
            [x + i * width for x in range(len(cats))],
            [b["categories"][c]["ndcg@10"] for c in cats],
            width,
            label=b["backend"],
        )
    ax.set_xticks([x + width * (len(backends) - 1) / 2 for x in range(len(cats))])
    ax.set_xticklabels(cats)
    ax.set_ylabel("nDCG@10")
    ax.set_ylim(0, 1)
    ax.set_title(f"{dataset['name']}: nDCG@10 per query category")
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    _save(fig, path)
    plt.close(fig)


def scaling_chart(result: dict[str, Any], path: Path) -> None:
    """Query latency (p50, p95), build time and index size against corpus size, per backend (``--scale`` points)."""
    plt = _pyplot()
    points = result["scale"]["points"] if result.get("scale") else []
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for name in result["backends"]:
        mine = sorted((p for p in points if p["backend"] == name), key=lambda p: p["documents"])
        if not mine:
            continue
        xs = [p["documents"] for p in mine]
        line = axes[0].plot(xs, [p["latency_ms"]["p50"] for p in mine], marker="o", label=name)[0]
        axes[0].plot(xs, [p["latency_ms"]["p95"] for p in mine], linestyle=":", color=line.get_color())
        axes[1].plot(xs, [p["build_s"] for p in mine], marker="o", color=line.get_color(), label=name)
        sizes = [p["index_bytes"]["disk"] or p["index_bytes"]["memory"] for p in mine]
        if all(s is not None for s in sizes):
            axes[2].plot(xs, [s / 2**20 for s in sizes], marker="o", color=line.get_color(), label=name)
    for ax, title, unit in (
        (axes[0], "query latency (p50 solid, p95 dotted)", "ms"),
        (axes[1], "index build time", "s"),
        (axes[2], "index size (disk, or memory)", "MiB"),
    ):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("documents")
        ax.set_ylabel(unit)
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
    if points:
        axes[0].legend(fontsize="small")
    _save(fig, path)
    plt.close(fig)


def paths_chart(result: dict[str, Any], path: Path) -> None:
    """CPU seconds of each user path against the number of items (log-log): how the cost grows."""
    plt = _pyplot()
    paths = result["scale"]["paths"]
    fig, ax = plt.subplots(figsize=(8, 5))
    sizes: set[int] = set()
    for name, costs in paths["paths"].items():
        points = sorted((int(size), seconds) for size, seconds in costs.items() if seconds > 0)
        if points:
            sizes.update(n for n, _ in points)
            ax.plot([n for n, _ in points], [s for _, s in points], marker="o", label=name)
    if sizes:  # the slope of linear growth, for reference
        low, high = min(sizes), max(sizes)
        ax.plot([low, high], [1e-3, 1e-3 * high / low], color="grey", linestyle=":", label="linear (reference)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("items (documents, memories, messages)")
    ax.set_ylabel("CPU seconds (fresh process)")
    ax.set_title(f"User paths: how the cost grows (median of {paths['runs']})")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small", bbox_to_anchor=(1.01, 1), loc="upper left")
    _save(fig, path)
    plt.close(fig)


def planned_charts(result: dict[str, Any]) -> list[str]:
    """The PNG files ``write_report`` draws for ``result``, in order.

    ``quality.png`` when there are datasets, ``scaling.png`` only for a ``--scale`` run (the
    datasets are unrelated corpora, not sizes of one) and ``paths.png`` when it timed the user
    paths, and ``categories-<dataset>.png`` for each dataset with more than one query category.
    """
    names = ["quality.png"] if result["datasets"] else []
    if result.get("scale"):
        names.append("scaling.png")
        if result["scale"].get("paths"):
            names.append("paths.png")
    names += [f"categories-{d['name']}.png" for d in result["datasets"] if len(d["categories"]) > 1]
    return names


def write_report(result: dict[str, Any], directory: str | Path) -> list[Path]:
    """Write ``report.md`` and the charts of ``planned_charts`` into ``directory``.

    Only ``directory`` itself is created: a missing parent raises ``FileNotFoundError``, so a
    typo never builds a chain of directories.  Without matplotlib the report holds the tables
    and the line ``NO_CHARTS`` instead of the charts.
    """
    from mimomem.common.files import atomic_write

    out = Path(directory)
    out.mkdir(exist_ok=True)
    datasets = {f"categories-{d['name']}.png": d for d in result["datasets"]}
    text = "# mimomem benchmark report\n\n" + format_result(result)
    written: list[Path] = []
    charts = planned_charts(result)
    if charts and not charts_available():
        atomic_write(out / "report.md", f"{text}\n_{NO_CHARTS}._\n")
        return [out / "report.md"]
    for name in charts:
        if name == "quality.png":
            quality_chart(result, out / name)
            alt = "quality"
        elif name == "scaling.png":
            scaling_chart(result, out / name)
            alt = "scaling"
        elif name == "paths.png":
            paths_chart(result, out / name)
            alt = "user paths: cost against size"
        else:
            category_chart(datasets[name], out / name)
            alt = f"{datasets[name]['name']} per category"
        text += f"\n![{alt}]({name})\n"
        written.append(out / name)
    atomic_write(out / "report.md", text)
    return [out / "report.md", *written]
