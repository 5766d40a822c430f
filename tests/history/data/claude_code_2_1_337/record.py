"""Record ``session.jsonl`` here from the real Claude Code (the ``claude-agent-sdk`` wheel's CLI) against
the stand-in model: ``python tests/history/data/claude_code_2_1_337/record.py``.

The session (settings hooks, mimomem off the agent's PATH) holds what transcripts must be read
right for: a typed rule and fact, a command that fails with a traceback (``Exit code 1`` then the
output) and the edit after which it passes, a failure nothing fixes, mimomem's own commands (one
of them failing), and text typed while the agent works (a ``queued_command`` attachment).  The
transcript is trimmed, keeping its real structure: every user and assistant line, the first two
lines of every other type (and attachment kind), every key; strings past 120 characters cut (past
1,000 in a user or assistant message), lists past 6 items, request blobs emptied.  The session
id, paths and times are the recording's own; the host's version is checked.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from mimomem.bench.host import StandIn, find_host
from mimomem.bench.host.sandbox import Sandbox
from mimomem.bench.host.script import Script, Step, Turn, bash, edit
from mimomem.bench.host.session import run_session
from mimomem.common.launcher import sh_join

HERE = Path(__file__).resolve().parent
VERSION = "2.1.337"
CUT = 120
KEEP = 1000
LIST = 6
PER_TYPE = 2

APP = "import sys\n\nPORT = int(sys.argv[1])\nprint('listening on', PORT)\n"


def scenario(mimomem: str) -> Script:
    return Script(
        [
            Turn(
                "Remember: always run the app with a port argument. The staging database port is 6543.",
                steps=(
                    Step(tools=(bash("python3 app.py", "run the app"),)),  # IndexError traceback
                    Step(tools=(edit("app.py", "PORT = int(sys.argv[1])", "PORT = int((sys.argv + ['8080'])[1])"),)),
                    Step(tools=(bash("python3 app.py", "run the app again"),)),  # passes: the edit fixed it
                    Step(tools=(bash(f'{mimomem} note "app.py defaults to port 8080"', "note it"),)),
                    Step(tools=(bash(f"CLAUDE_CODE_SESSION_ID=../x {mimomem} search staging", "bad id"),)),
                    Step(tools=(bash(f"{mimomem} search staging", "recall"),)),
                    Step(tools=(bash("python3 -c 'import yaml_not_installed'", "a failure nothing fixes"),)),
                    Step(tools=(bash("sleep 4; echo waited", "wait"),)),
                ),
                queued=("also: the deploy script lives in ops/deploy.sh",),
            ),
            Turn("thanks, that is all", final="Done."),
        ]
    )


def trim(value: Any, *, keep: int = CUT) -> Any:
    """``value`` with long strings cut (the conversation's own text less), long lists cut to a few
    items, request blobs emptied; every key kept."""
    if isinstance(value, str):
        return value if len(value) <= keep else value[:keep] + "…"
    if isinstance(value, list):
        return [trim(v, keep=keep) for v in value[:LIST]]
    if isinstance(value, dict):
        return {
            k: {}
            if k in ("request", "blob", "body") and isinstance(v, dict)
            else trim(v, keep=KEEP if k == "message" and value.get("type") in ("user", "assistant") else keep)
            for k, v in value.items()
        }
    return value


def record(out: Path) -> Path:
    host = find_host()
    with tempfile.TemporaryDirectory(prefix="mimomem-record-") as root:
        sandbox = Sandbox(Path(root), host).prepare({"app.py": APP})
        from mimomem.bench.host.sandbox import mimomem_command

        with StandIn() as model:
            session = run_session(sandbox, model, scenario(sh_join(mimomem_command())))
        sandbox.settle()
        if session.transcript is None:
            raise SystemExit("the host wrote no transcript")
        lines = [json.loads(line) for line in session.transcript.read_text(encoding="utf-8").splitlines() if line]
    versions = {line.get("version") for line in lines if "version" in line}
    if versions != {VERSION}:
        raise SystemExit(f"recorded from Claude Code {versions}, the fixture is for {VERSION}")
    kept, seen = [], Counter[tuple[str, str]]()
    for line in lines:
        kind = (str(line.get("type")), str((line.get("attachment") or {}).get("type", "")))
        seen[kind] += 1
        if kind[0] in ("user", "assistant") or kind[1] == "queued_command" or seen[kind] <= PER_TYPE:
            kept.append(trim(line))
    out.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in kept), encoding="utf-8")
    return out


if __name__ == "__main__":
    print(record(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "session.jsonl"))
