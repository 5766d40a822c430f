"""Write the e2e dev set's Claude Code transcripts from the readable session specs.

    python corpora/e2e-dev/build.py          # rewrite transcripts/, manifest.json, questions.jsonl
    python corpora/e2e-dev/build.py --check  # exit 1 if a generated file is stale

Each ``sessions/<project>.yaml`` lists sessions as events (``user``, ``say``, ``bash``,
``bash_output``, ``read``, ``edit``, ``write``, ``reject``, ``snapshot``, ``compact``).  They
become JSONL lines in Claude Code's own format: one line per content block, ``tool_use`` /
``tool_result`` pairs joined by ``tool_use_id``, ``is_error`` on failures, the rejection text
Claude Code writes when the user declines a tool use, ``file-history-snapshot`` lines, a
``compact_boundary`` system line followed by the ``isCompactSummary`` user line, and (with
``truncate: true``) a last line cut in half.  Ids and timestamps are derived from the spec,
so a rebuild is byte for byte the same.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
VERSION = "2.1.31"
MODEL = "claude-sonnet-4-5-20250929"
NAMESPACE = uuid.UUID("6f1c2f0e-7d3a-4c55-9a1e-3c0e5b7d9a10")
REJECTED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
    "edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to "
    "tell you how to proceed."
)
COMPACT_PREFIX = (
    "This session is being continued from a previous conversation that ran out of context. "
    "The conversation is summarized below:\n"
)


class Session:
    """Builds one transcript: ids, timestamps and the parent chain."""

    def __init__(self, project: dict[str, Any], spec: dict[str, Any]) -> None:
        self.project = project
        self.spec = spec
        self.sid = str(uuid.uuid5(NAMESPACE, f"{project['project']}/{spec['name']}"))
        day = datetime.fromisoformat(str(project["start_day"])).replace(tzinfo=timezone.utc)
        hh, mm = (int(x) for x in str(spec["at"]).split(":"))
        self.clock = day + timedelta(days=int(spec["day"]), hours=hh, minutes=mm)
        self.lines: list[dict[str, Any]] = []
        self.parent: str | None = None
        self.n = 0
        self.tools = 0

    def _id(self, what: str) -> str:
        self.n += 1
        return str(uuid.uuid5(NAMESPACE, f"{self.sid}/{what}/{self.n}"))

    def _stamp(self, seconds: int) -> str:
        self.clock += timedelta(seconds=seconds)
        return self.clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.n * 37 % 1000:03d}Z"

    def _base(self, kind: str, seconds: int) -> dict[str, Any]:
        line_id = self._id(kind)
        line = {
            "parentUuid": self.parent,
            "isSidechain": False,
            "userType": "external",
            "cwd": self.project["cwd"],
            "sessionId": self.sid,
            "version": VERSION,
            "gitBranch": self.project.get("branch", "main"),
            "type": kind,
            "uuid": line_id,
            "timestamp": self._stamp(seconds),
        }
        self.parent = line_id
        return line

    def user(self, content: Any, seconds: int = 40, **extra: Any) -> dict[str, Any]:
        line = self._base("user", seconds)
        line["message"] = {"role": "user", "content": content}
        line.update(extra)
        self.lines.append(line)
        return line

    def assistant(self, block: dict[str, Any], seconds: int = 12) -> None:
        line = self._base("assistant", seconds)
        line["message"] = {
            "id": "msg_" + line["uuid"].replace("-", "")[:24],
            "type": "message",
            "role": "assistant",
            "model": MODEL,
            "content": [block],
            "stop_reason": "tool_use" if block["type"] == "tool_use" else "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 4, "output_tokens": 120, "cache_read_input_tokens": 18000},
        }
        line["requestId"] = "req_" + line["uuid"].replace("-", "")[:20]
        self.lines.append(line)

    def tool(self, name: str, data: dict[str, Any], result: str, *, error: bool = False) -> str:
        self.tools += 1
        tool_id = "toolu_" + uuid.uuid5(NAMESPACE, f"{self.sid}/tool/{self.tools}").hex[:24]
        self.assistant({"type": "tool_use", "id": tool_id, "name": name, "input": data})
        block = {"tool_use_id": tool_id, "type": "tool_result", "content": result, "is_error": error}
        extra: dict[str, Any] = {}
        if name == "Bash":
            extra["toolUseResult"] = {
                "stdout": "" if error else result,
                "stderr": result if error else "",
                "interrupted": False,
                "isImage": False,
            }
        self.user([block], seconds=25, **extra)
        return tool_id

    def event(self, ev: dict[str, Any]) -> None:
        if "user" in ev:
            self.user(ev["user"], seconds=90)
        elif "say" in ev:
            self.assistant({"type": "text", "text": ev["say"]})
        elif "bash" in ev:
            data = {"command": ev["bash"], "description": _describe(ev["bash"])}
            if ev.get("bg"):
                data["run_in_background"] = True
            self.tool("Bash", data, str(ev.get("out", "")), error=bool(ev.get("error")))
        elif "bash_output" in ev:
            self.tool("BashOutput", {"bash_id": ev["bash_output"]}, str(ev["out"]), error=bool(ev.get("error")))
        elif "read" in ev:
            self.tool("Read", {"file_path": self._path(ev["read"])}, _numbered(str(ev["out"])))
        elif "edit" in ev:
            path = self._path(ev["edit"])
            data = {"file_path": path, "old_string": ev["old"], "new_string": ev["new"]}
            if ev.get("error"):  # the host's own refusal ("String to replace not found in file.")
                self.tool("Edit", data, str(ev["error"]), error=True)
            else:
                self.tool("Edit", data, f"The file {path} has been updated.")
        elif "write" in ev:
            path = self._path(ev["write"])
            self.tool("Write", {"file_path": path, "content": ev["content"]}, f"File created successfully at: {path}")
        elif "reject" in ev:
            command = ev["reject"]["bash"]
            self.tool("Bash", {"command": command, "description": _describe(command)}, REJECTED, error=True)
        elif "snapshot" in ev:
            self._snapshot()
        elif "compact" in ev:
            self._compact(ev["compact"])
        else:
            raise SystemExit(f"{self.spec['name']}: unknown event {sorted(ev)}")

    def _path(self, rel: str) -> str:
        return f"{self.project['cwd']}/{rel}"

    def _snapshot(self) -> None:
        message_id = self._id("snapshot")
        self.lines.append(
            {
                "type": "file-history-snapshot",
                "messageId": message_id,
                "snapshot": {"messageId": message_id, "trackedFileBackups": {}, "timestamp": self._stamp(1)},
                "isSnapshotUpdate": False,
            }
        )

    def _compact(self, summary: str) -> None:
        line = self._base("system", 30)
        line.update(
            {
                "subtype": "compact_boundary",
                "content": "Conversation compacted",
                "isMeta": False,
                "level": "info",
                "compactMetadata": {"trigger": "manual", "preTokens": 48211},
            }
        )
        line["parentUuid"] = None
        line["logicalParentUuid"] = self.lines[-1]["uuid"] if self.lines else None
        self.lines.append(line)
        self.user(COMPACT_PREFIX + summary, seconds=2, isCompactSummary=True, isVisibleInTranscriptOnly=True)

    def render(self) -> bytes:
        for ev in self.spec["events"]:
            self.event(ev)
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.lines)
        data = text.encode("utf-8")
        if self.spec.get("truncate"):
            last = (json.dumps(self.lines[-1], ensure_ascii=False) + "\n").encode("utf-8")
            data = data[: len(data) - len(last) + len(last) // 2]
        return data


def _describe(command: str) -> str:
    return "Run " + command.split()[0]


def _numbered(text: str) -> str:
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(text.split("\n"), 1))


def build() -> dict[Path, bytes]:
    """Every generated file (path -> bytes): the transcripts and ``manifest.json``."""
    out: dict[Path, bytes] = {}
    manifest: list[dict[str, Any]] = []
    for spec_file in sorted((HERE / "sessions").glob("*.yaml")):
        project = yaml.safe_load(spec_file.read_text(encoding="utf-8"))
        for spec in project["sessions"]:
            session = Session(project, spec)
            rel = Path("transcripts") / project["project"] / f"{session.sid}.jsonl"
            out[HERE / rel] = session.render()
            manifest.append(
                {
                    "project": project["project"],
                    "name": spec["name"],
                    "session_id": session.sid,
                    "transcript": rel.as_posix(),
                    "cwd": project["cwd"],
                    "start": session.lines[0]["timestamp"],
                    "ends": bool(spec.get("ends", True)),
                    "end_reason": "prompt_input_exit" if spec.get("ends", True) else None,
                }
            )
    manifest.sort(key=lambda m: m["start"])
    out[HERE / "manifest.json"] = (json.dumps({"sessions": manifest}, ensure_ascii=False, indent=1) + "\n").encode()
    out[HERE / "questions.jsonl"] = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in _questions()).encode()
    return out


def _questions() -> list[dict[str, Any]]:
    """``questions.py``'s list (imported by path: this directory is not a package)."""
    spec = importlib.util.spec_from_file_location("e2e_questions", HERE / "questions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.questions())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file differs from its spec")
    args = parser.parse_args(argv)
    files = build()
    stale = [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(HERE)}", file=sys.stderr)
        return 1 if stale else 0
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(files)} files ({len(stale)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
