"""Write the adversarial capture set's e2e directories from its readable cases.

    python corpora/capture/build.py          # rewrite e2e-dev/ and e2e-heldout/
    python corpora/capture/build.py --check  # exit 1 if a generated file is stale

``dev.yaml`` and ``heldout.yaml`` hold cases (one or more sessions of events in the grammar
of ``corpora/e2e-dev/sessions/*.yaml``) with what promotion must keep and must not, and a
question a later session asks.  Each becomes an e2e dev set directory (Claude Code
transcripts written by ``corpora/e2e-dev/build.py``'s writer, ``manifest.json``,
``questions.jsonl``, and ``sessions/<project>.yaml`` for the real-host run) for
``mimomem bench --e2e corpora/capture/e2e-dev [--host claude-code]``; the extraction
benchmark (``benchmarks/bench_capture.py``) reads the same transcripts case by case.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
SPLITS = {
    "dev": HERE / "dev.yaml",
    "heldout": HERE / "heldout.yaml",
    "heldout2": HERE / "heldout2.yaml",
    "supersede-dev": HERE / "supersede-dev.yaml",
    "supersede-split": HERE / "supersede-split.yaml",
    "split-c": HERE / "split-c.yaml",
    "supersede-split-2": HERE / "supersede-split-2.yaml",
    "supersede-split-3": HERE / "supersede-split-3.yaml",
    "supersede-split-4": HERE / "supersede-split-4.yaml",
    "found-dev": HERE / "found-dev.yaml",
    "found-split": HERE / "found-split.yaml",
    "found-split-2": HERE / "found-split-2.yaml",
    "split-d": HERE / "split-d.yaml",
    "refuse-split": HERE / "refuse-split.yaml",
    "split-f": HERE / "split-f.yaml",
    "failure-split": HERE / "failure-split.yaml",
    "split-e": HERE / "split-e.yaml",
}
QUESTION_KIND = {
    "rule": "instruction",
    "decision": "decision",
    "fact": "fact",
    "found": "found",
    "failure": "failure",
    "workflow": "workflow",
    "superseded": "superseded",
    "kept-both": "fact",
}
"""Case kind -> e2e question kind (cases of what must not be kept ask no question)."""


def _writer() -> Any:
    spec = importlib.util.spec_from_file_location("e2e_build", HERE.parent / "e2e-dev" / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load(split: str) -> dict[str, Any]:
    """The cases of ``split`` (a key of :data:`SPLITS`), each with its sessions as event lists."""
    data = yaml.safe_load(SPLITS[split].read_text(encoding="utf-8"))
    for case in data["cases"]:
        case["sessions"] = case.get("sessions") or [case["events"]]
    return data


def session_name(case: dict[str, Any], n: int) -> str:
    return f"{case['id']}-{n + 1}"


def build() -> dict[Path, bytes]:
    """Every generated file's path and bytes."""
    writer = _writer()
    out: dict[Path, bytes] = {}
    for split in SPLITS:
        data = load(split)
        root = HERE / f"e2e-{split}"
        manifest, questions, counter = [], [], dict.fromkeys(data["projects"], 0)
        played: dict[str, list[dict[str, Any]]] = {p: [] for p in data["projects"]}
        for case in data["cases"]:
            project = {"project": case["project"], "branch": "main", **data["projects"][case["project"]]}
            for n, events in enumerate(case["sessions"]):
                k = counter[case["project"]]
                counter[case["project"]] += 1
                spec = {"name": session_name(case, n), "day": k // 8, "at": f"{9 + k % 8}:05", "events": events}
                session = writer.Session(project, spec)
                played[case["project"]].append(spec)
                rel = f"transcripts/{case['project']}/{session.sid}.jsonl"
                out[root / rel] = session.render()
                start = session.lines[0]["timestamp"]
                manifest.append(
                    {
                        "project": case["project"],
                        "session_id": session.sid,
                        "transcript": rel,
                        "cwd": project["cwd"],
                        "start": start,
                        "ends": True,
                        "end_reason": "other",
                    }
                )
            if "ask" in case and case["kind"] in QUESTION_KIND:
                question, answers, *rest = case["ask"]
                row: dict[str, Any] = {
                    "id": case["id"],
                    "project": case["project"],
                    "kind": QUESTION_KIND[case["kind"]],
                    "question": question,
                    "answers": answers,
                    "split": split,
                }
                if rest and rest[0]:
                    row["stale"] = rest[0]
                if len(rest) > 1:
                    row["require"] = rest[1]
                questions.append(row)
        for project, rows in data.get("distractors", {}).items():
            for n, (question, absent) in enumerate(rows, 1):
                questions.append(
                    {
                        "id": f"{project}-z{n}",
                        "project": project,
                        "kind": "distractor",
                        "question": question,
                        "absent": absent,
                        "split": split,
                    }
                )
        for name, specs in played.items():  # the same sessions for the real-host run (sessions/*.yaml)
            source = {"project": name, "branch": "main", **data["projects"][name], "sessions": specs}
            out[root / "sessions" / f"{name}.yaml"] = yaml.safe_dump(
                source, allow_unicode=True, sort_keys=False
            ).encode()
        manifest.sort(key=lambda s: s["start"])
        out[root / "manifest.json"] = (json.dumps({"sessions": manifest}, ensure_ascii=False, indent=1) + "\n").encode()
        out[root / "questions.jsonl"] = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in questions).encode()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file differs from its case")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        stale = [p for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        for path in stale:
            print(f"stale: {path.relative_to(HERE)}", file=sys.stderr)
        return 1 if stale else 0
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(files)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
