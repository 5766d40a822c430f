"""The e2e dev set's transcripts recorded from the real host, for the fast replay.

``record_devset(devset, out)`` plays every session of ``devset`` through Claude Code (as
``mimomem bench --e2e --host`` does) and writes a dev set of the same layout into ``out``: the
host's own transcripts (``transcripts/<project>/<session>.jsonl``), ``manifest.json`` (start from
each transcript's first timestamp, ``ends: false`` where the session was killed) and the
questions.  ``mimomem bench --e2e OUT`` then replays what the real host wrote.  The transcripts
are ~200 KB a session, so they are regenerated (``python corpora/e2e-dev/record_host.py OUT``),
not kept in the repository.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from mimomem.bench.e2e.dataset import EXTRA_FILES, load_devset
from mimomem.bench.host.binary import find_host
from mimomem.bench.host.e2e import Progress, play_sessions, prepare_projects
from mimomem.bench.host.scenario import ScenarioSession, load_scenarios
from mimomem.bench.host.session import Session
from mimomem.bench.host.standin import StandIn
from mimomem.errors import HostSessionError


def _first_timestamp(path: Path) -> str:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            try:
                stamp = json.loads(line).get("timestamp")
            except ValueError:
                continue
            if isinstance(stamp, str):
                return stamp
    return ""


def record_devset(devset_path: Path, out: Path, *, route: str = "settings", progress: Progress | None = None) -> Path:
    """Record every session of the dev set at ``devset_path`` from the real host into ``out``; its manifest."""
    say = progress or (lambda _msg: None)
    devset = load_devset(devset_path)
    if out.exists() and any(out.iterdir()):
        raise HostSessionError(f"{out} is not empty; pick a new directory for the recorded dev set")
    played: list[tuple[ScenarioSession, Session]] = []
    with tempfile.TemporaryDirectory(prefix="mimomem-host-record-") as tmp:
        root = Path(tmp)
        boxes = prepare_projects(root, find_host(), route, devset)
        with StandIn() as model:
            info = play_sessions(boxes, load_scenarios(devset.path, root, root / "home"), model, say, played)
        if info["session_errors"]:
            raise HostSessionError("; ".join(info["session_errors"]))
        rows: list[dict[str, Any]] = []
        for scenario, session in played:
            if session.transcript is None:
                raise HostSessionError(f"{scenario.name}: the host wrote no transcript")
            rel = Path("transcripts") / scenario.project / f"{session.session_id}.jsonl"
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(session.transcript, out / rel)
            rows.append(
                {
                    "project": scenario.project,
                    "session_id": session.session_id,
                    "transcript": rel.as_posix(),
                    "cwd": str(boxes[scenario.project].project),
                    "start": _first_timestamp(out / rel),
                    "ends": scenario.ends,
                    "end_reason": "other",
                    "name": scenario.name,
                }
            )
    (out / "manifest.json").write_text(json.dumps({"sessions": rows}, ensure_ascii=False, indent=1) + "\n")
    shutil.copyfile(devset.path / "questions.jsonl", out / "questions.jsonl")
    for name in EXTRA_FILES:
        if (devset.path / name).is_file():
            shutil.copyfile(devset.path / name, out / name)
    for project in devset.projects():  # the host kind's answers: what the replay places in the host's memory folder
        for file in devset.host_memory(project):
            (out / "host-memory" / project).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, out / "host-memory" / project / file.name)
    return out / "manifest.json"
