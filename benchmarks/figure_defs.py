"""The renderers of ``figures.py``: figure name -> (results file, function of its JSON -> text).

How to add a figure: make the benchmark save its raw samples with ``record.save(name, argv,
data)`` behind a ``--record`` flag; add a renderer here with ``@figure("my-figure", "name")``
returning the exact text (a table starts and ends with a newline, an inline figure does not);
put ``<!-- figure:my-figure --><!-- /figure -->`` where it goes; run the benchmark with
``--record``, then ``python benchmarks/figures.py render``; commit the results JSON with the text.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from typing import Any

Render = Callable[[dict[str, Any]], str]
FIGURES: dict[str, tuple[str | tuple[str, ...], Render]] = {}
"""name -> (results file, or several: the renderer then gets ``{results name: its JSON}``; renderer)."""


def figure(name: str, results: str | tuple[str, ...]) -> Callable[[Render], Render]:
    def register(render: Render) -> Render:
        if name in FIGURES:
            raise ValueError(f"figure {name} is defined twice")
        FIGURES[name] = (results, render)
        return render

    return register


def med(samples: Sequence[float]) -> float:
    return float(statistics.median(samples))


def num(value: float, digits: int = 0) -> str:
    return f"{value:,.{digits}f}"


def spread(samples: Sequence[float], digits: int = 0, unit: str = "") -> str:
    """``median (min–max)`` of the runs."""
    return f"{num(med(samples), digits)}{unit} ({num(min(samples), digits)}–{num(max(samples), digits)}{unit})"


def md_table(head: Sequence[str], rows: Sequence[Sequence[str]], footer: str, *, first: str = "---") -> str:
    """A Markdown table (first column left, the others right) and a footer line, as a block figure."""
    lines = ["", "| " + " | ".join(head) + " |", "| " + " | ".join([first] + ["---:"] * (len(head) - 1)) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join([*lines, "", footer, ""])


def source(data: dict[str, Any]) -> str:
    """The provenance line under a generated table."""
    m = data["machine"]
    twin = "native" if m["native"] else "pure Python"
    return (
        f"`{data['command']}` at {data['commit']}, {data['date'][:10]}; {m['cores']} cores ({m['cpu']}), "
        f"load {m['load_1min']}, Python {m['python']}, SQLite {m['sqlite']}, {twin}"
    )


# -- the Claude Code hook (bench_hook.py) ---------------------------------------------------------


@figure("hook-cpu", "hook")
def hook_table(data: dict[str, Any]) -> str:
    s = data["samples_ms"]
    head = [
        f"process ({data['files']:,} tree files, {data['memories']} curated memories)",
        "CPU ms, median",
        f"lowest–highest of {data['runs']} runs",
    ]
    rows = [
        [
            name if name.startswith("in-process") else f"whole process: {name}",
            num(med(samples), 1),
            f"{num(min(samples), 1)}–{num(max(samples), 1)}",
        ]
        for name, samples in s.items()
    ]
    ratio = med(s["UserPromptSubmit"]) / med(s["python -c pass"])
    start = med(s["SessionStart"]) / med(s["python -c pass"])
    other = data.get("matching_samples_ms")
    matching = ""
    if other:
        base = med(other["python -c pass"])
        matching = (
            f" Where most tree files match the prompt (`--scenario matching`): "
            f"{med(other['UserPromptSubmit']) / base:.1f}x and {med(other['SessionStart']) / base:.1f}x."
        )
    return md_table(
        head,
        rows,
        f"Prompt hook (served) / `python -c pass`: {ratio:.1f}x, SessionStart of a new session {start:.1f}x, "
        f"{_install(data)}.{matching} {source(data)}.",
    )


def _install(data: dict[str, Any]) -> str:
    """How the measured mimomem was installed: an editable install doubles `python -c pass` (bench_hook.py)."""
    if data.get("install") == "installed":
        return "mimomem installed with `pip install .` (not editable)"
    return "measured from an editable install, whose `python -c pass` is about twice an installed one's"


@figure("hook-prompt", "hook")
def hook_inline(data: dict[str, Any]) -> str:
    s = data["samples_ms"]
    slow = [
        (name, label)
        for name, label in (
            ("UserPromptSubmit, a memory file just edited", "the first prompt after a memory file changed"),
            ("SessionStart, new session after a memory edit", "a new session's start after one"),
            ("SessionStart, resume of an existing session", "a resumed session's start"),
        )
        if name in s
    ]
    rest = "; ".join(f"{label} reads the memory again, {num(med(s[name]))} ms" for name, label in slow)
    return (
        f"It costs {spread(s['UserPromptSubmit'], unit=' ms')} of CPU per prompt served from its plan and "
        f"{spread(s['SessionStart'], unit=' ms')} at a new session's start, as a whole process (interpreter "
        f"start and imports included; median and range of {data['runs']} runs), with {data['files']:,} "
        f"tree files and {data['memories']} curated memories, on {data['machine']['cores']} shared cores at load "
        f"{data['machine']['load_1min']}, {_install(data)}; `python -c pass` costs {num(med(s['python -c pass']))} ms"
        f" in the same run ({num(med(s['UserPromptSubmit']) / med(s['python -c pass']), 1)}x and "
        f"{num(med(s['SessionStart']) / med(s['python -c pass']), 1)}x of it)" + (f"; {rest}" if rest else "") + " "
        "(`python benchmarks/bench_hook.py`, split by stage in `benchmarks/README.md`)."
    )
