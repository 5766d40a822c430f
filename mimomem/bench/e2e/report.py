"""The end-to-end result as Markdown tables, a JSON file and a chart (hit rate against tokens)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import QUESTION_KINDS
from mimomem.bench.e2e.score import extra_lines
from mimomem.errors import BenchDependencyError


def _pct(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f} %)" if total else "-"


def format_e2e(result: dict[str, Any], *, split: str = "all") -> str:
    """One table: a row per system, overall and per-kind hit rates, tokens, distractors, stale, cap."""
    systems = result["systems"]
    kinds = [k for k in QUESTION_KINDS if any(k in s[split]["per_kind"] for s in systems.values())]
    head = ["system", "hit rate", *kinds, "median tok", "p95 tok", "distractors w/ context", "stale-only"]
    head += ["stale beside new", "over cap"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, by_split in systems.items():
        s = by_split[split]
        cells = [name, _pct(s["hits"], s["answerable"])]
        for kind in kinds:
            k = s["per_kind"].get(kind)
            cells.append(f"{k['hits']}/{k['total']}" if k else "-")
        cells += [
            f"{s['median_tokens']:.0f}",
            f"{s['p95_tokens']:.0f}",
            _pct(s["distractors_with_context"], s["distractors"]),
            str(s["stale_only"]),
            str(s.get("stale_beside_new", "-")),
            str(s["over_cap"]),
        ]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def format_text(result: dict[str, Any]) -> str:
    """The whole printed report: identity, the three tables (all, dev, held-out) and run facts."""
    ident = result["identity"]
    d = result["devset"]
    out = [
        f"# mimomem bench --e2e ({ident['date']}, commit {ident['commit']}, {ident['machine']})",
        "",
        f"{d['sessions']} sessions of {len(d['projects'])} projects, {d['questions']} questions; "
        "distractor column of per-kind = questions that got no prompt context.",
        "",
    ]
    for split, title in (("all", "All questions"), ("dev", "Dev split"), ("heldout", "Held-out split")):
        out += [f"## {title}", "", format_e2e(result, split=split)]
    for name, info in result["runs"].items():
        out.append(
            f"- {name}: {info['replay_hook_calls']} replay hook calls ({info['replay_over_cap']} over the cap), "
            f"prompt hook median {info['prompt_hook_ms_median']} ms in-process, passes run: "
            f"{', '.join(info['passes_run']) or 'none'}; subprocess spot checks {info['subprocess_checks']}, "
            f"differing: {', '.join(info['subprocess_mismatches']) or 'none'}"
        )
        out += ["  " + line for line in extra_lines(info)]
        if info["hook_stderr"]:
            out.append("  hook stderr: " + " | ".join(info["hook_stderr"]))
    return "\n".join(out) + "\n"


def write_e2e_report(result: dict[str, Any], directory: Path, *, before: dict[str, Any] | None = None) -> list[Path]:
    """``e2e.json``, ``e2e.md`` and (with matplotlib) ``e2e.png`` in ``directory``; the paths written.

    ``before`` (an earlier result) adds its mimomem point to the chart, hollow, for a before/after view.
    Without matplotlib the tables and the JSON are written all the same and ``e2e.md`` says how to get
    the chart.
    """
    from mimomem.bench.report import NO_CHARTS, charts_available

    directory.mkdir(parents=True, exist_ok=True)
    written = [directory / "e2e.json", directory / "e2e.md"]
    written[0].write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    drawn = charts_available()
    written[1].write_text(format_text(result) + ("" if drawn else f"\n_{NO_CHARTS}._\n"), encoding="utf-8")
    if drawn:
        written.append(chart(result, directory / "e2e.png", before=before))
    return written


def chart(result: dict[str, Any], path: Path, *, before: dict[str, Any] | None = None) -> Path:
    """Hit rate against median injected tokens, one labelled point per system (and ``before``'s mimomem)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BenchDependencyError(
            "the e2e chart needs matplotlib: pip install 'mimomem[bench]' (or leave out --report)"
        ) from None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, (name, by_split) in enumerate(result["systems"].items()):
        s = by_split["all"]
        x = max(s["median_tokens"], 1.0)
        ax.scatter([x], [100 * s["hit_rate"]], s=60)
        offset = (6, 4) if i % 2 == 0 else (6, -12)  # neighbours alternate above and below
        ax.annotate(name, (x, 100 * s["hit_rate"]), textcoords="offset points", xytext=offset, fontsize=9)
    for name, by_split in (before or {}).get("systems", {}).items():
        if name == "mimomem":
            s = by_split["all"]
            x = max(s["median_tokens"], 1.0)
            ax.scatter([x], [100 * s["hit_rate"]], s=60, facecolors="none", edgecolors="grey")
            label = f"{name} before ({before['identity']['commit']})"  # type: ignore[index]
            ax.annotate(label, (x, 100 * s["hit_rate"]), textcoords="offset points", xytext=(6, -12), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("median tokens the new session received (cl100k, log scale)")
    ax.set_ylabel("answers received (% of answerable questions)")
    ax.set_ylim(-5, 105)
    ax.axhline(90, color="grey", linestyle=":", linewidth=1)
    ax.axvline(3000, color="grey", linestyle=":", linewidth=1)
    ax.set_title("End-to-end memory: hit rate against injected tokens")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
