"""A whole session cycle as Claude Code drives it, with secrets planted in its transcript.

The transcript carries several secret shapes the scanner catches: an AWS key id, a GitHub
token, labelled passwords, URL credentials, a PEM private key, in the user's words, in a
tool's command line and in a tool's output.  :func:`run_session` then runs SessionStart,
prompts, PreCompact, SessionEnd with its digest and promotion (the detached workers run in
this process), a resume and the next session's start and prompt, imports and searches the
history, searches the memory, runs a dream pass and asks the MCP server; it returns every
output.  Used by the redaction and the private-files tests.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from mimomem.common import detach
from mimomem.common.redaction import redact

SID = "4b1f7c2e-9a0d-4c3e-8f51-2d6a1b9e0c77"
NEXT = "5c2f8d3e-0b1e-4d4f-9a62-3e7b2c0f1d88"
PEM_BODY = (
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK",
    "7e9a1c3b5d7f9E1A3C5B7D9F1a3c5b7d9f1e3a5c7b9d1f3e5a7c9b1d3f5e7a9c",
)
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(PEM_BODY) + "\n-----END RSA PRIVATE KEY-----"
AWS = "AKIA" + "QWERTYUIOPASDFGH"
GITHUB = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
PASSWORD = "Xq7kP2vL9mZr4T"
URL_PASSWORD = "Hk3pQ9wL2mX7vR"

USER_TEXTS = (
    f"以后部署都用这个 AWS key：{AWS}，记住。",
    f"Always connect with postgres://admin:{URL_PASSWORD}@db.example.com/app and the password: {PASSWORD}",
    "Remember: the deploy key is below, never commit it.\n" + PEM,
    f"决定：以后都用 pnpm，因为 npm 太慢。数据库密码是 {PASSWORD}",
)
COMMAND = f"GITHUB_TOKEN={GITHUB} gh release list"
TOOL_OUTPUT = f"error: bad credentials for token {GITHUB}\nDB_PASSWORD={PASSWORD}"

# the shapes of issue 32's second round: a value away from its label, in a command, in a name, twice, a turn later
RELATIVE = "Wm8#rKt3Qz"  # a relative clause between label and value
NEXT_LINE = "Lp4!vXe9Ns"  # the value on the line after its label
AK, SK = "LTAI5tRq8ZmW3xKp7YvN2sBd", "Hy6TqW2mZp9XkR4vLs8NcB3fJd7Gu5"  # an access / secret key pair
MYSQL = "Dz5%hQw8Rm"  # mysql -pX
OPTION = "Tn3Kq8ZwR5xVm2Lp9Ys7Bd4Fh6Gj1Ck"  # a random argument of a tool's option
FILE_NAME = "Rb7Vx2Kq9Tm4Zw8Lp3Ns6Hd5Fj1Gy0Qc"  # joined to a label in a file name
ENV_SECRET = "Qs9Lm2Xv7Rk4Tz8Wp3Nb6Hd1Fj5Gc0Ya"  # a printed .env (tool output)
FENCED = "Kx4Wq9Zm2Rt7Lv3Np8Ys5Bd6Hf1Gj0Cq"  # inside a code fence
TWICE = "Mv6#pLq2Wx"  # pasted twice, the second time bare
TURN = "Jr8@kWz4Qn"  # given in the turn after the question
PARTICLE = "Ft2&nQx7Lw"  # Japanese: トークンなら X / パスワード、X
ROUND_TWO_TEXTS = (
    f"the password we use for staging, which Dana set last week, is {RELATIVE}",
    f"密码如下：\n{NEXT_LINE}",
    f"AK: {AK}, SK: {SK}",
    f"本番のパスワード、{PARTICLE} になってます",
    f"password: {TWICE}\n\n(again, in case it got cut off)\n{TWICE}",
    f"I saved it as `vault-token-{FILE_NAME}.json` on the share",
)
ROUND_TWO_COMMAND = f"mysql -h db -u root -p{MYSQL} app && ossutil config -i {AK} -k {OPTION}"
ROUND_TWO_OUTPUT = f"$ cat .env\nNODE_ENV=production\nSESSION_SECRET={ENV_SECRET}\nPORT=3000"
FENCE_TEXT = f'```python\nclient = Client(api_key="{FENCED}")\n```'
QUESTION, ANSWER = "What's the Grafana admin password?", f"it's {TURN}"


def planted() -> dict[str, str]:
    """Each planted value the scanner redacts where it was planted (so it must show up nowhere)."""
    values = {"aws": AWS, "github": GITHUB, "password": PASSWORD, "url": URL_PASSWORD}
    values.update({f"pem line {i + 1}": line for i, line in enumerate(PEM_BODY)})
    values.update(ROUND_TWO)
    places = [(text, "") for text in (*USER_TEXTS, *ROUND_TWO_TEXTS, COMMAND, TOOL_OUTPUT, FENCE_TEXT)]
    places += [(ROUND_TWO_COMMAND, ""), (ROUND_TWO_OUTPUT, ""), (ANSWER, QUESTION)]
    return {
        k: v for k, v in values.items() if any(v in text and v not in redact(text, before) for text, before in places)
    }


ROUND_TWO = {
    "relative clause": RELATIVE,
    "next line": NEXT_LINE,
    "access key": AK,
    "secret key": SK,
    "mysql -p": MYSQL,
    "option argument": OPTION,
    "file name": FILE_NAME,
    "printed .env": ENV_SECRET,
    "code fence": FENCED,
    "pasted twice": TWICE,
    "next turn": TURN,
    "particle": PARTICLE,
}
"""The shapes of the second round, each planted once in the transcript."""


def transcript_lines(repo: Path) -> list[dict[str, Any]]:
    times = iter(f"2026-11-30T09:{minute:02d}:00.000Z" for minute in range(60))  # 60 lines at most

    def line(kind: str, uid: str, content: Any) -> dict[str, Any]:
        return {
            "type": kind,
            "sessionId": SID,
            "cwd": str(repo),
            "uuid": uid,
            "timestamp": next(times),
            "message": {"role": kind, "content": content},
        }

    call = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": COMMAND}}
    result = {"tool_use_id": "t1", "type": "tool_result", "content": TOOL_OUTPUT, "is_error": True}
    call2 = {"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": ROUND_TWO_COMMAND}}
    result2 = {"tool_use_id": "t2", "type": "tool_result", "content": ROUND_TWO_OUTPUT, "is_error": False}
    return [
        line("user", "u1", USER_TEXTS[0]),
        line("assistant", "a1", [{"type": "text", "text": f"好的，key {AWS} 已记下。"}, call]),
        line("user", "u2", [result]),
        line("user", "u3", USER_TEXTS[1]),
        line("user", "u4", USER_TEXTS[2]),
        line("user", "u5", USER_TEXTS[3]),
        line("assistant", "a2", [{"type": "text", "text": "Noted the rule about pnpm."}]),
        *(line("user", f"r{i}", text) for i, text in enumerate(ROUND_TWO_TEXTS)),
        line("user", "f1", FENCE_TEXT),
        line("assistant", "a3", [{"type": "text", "text": "Checking the database."}, call2]),
        line("user", "u6", [result2]),
        line("assistant", "a4", [{"type": "text", "text": QUESTION}]),
        line("user", "u7", ANSWER),
        line("assistant", "a5", [{"type": "text", "text": "Thanks, noted."}]),
    ]


def make_roots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A git project, private data, cache and config roots, and the planted transcript."""
    repo = tmp_path / "shop-api"
    (repo / ".git").mkdir(parents=True)
    found = {"home": tmp_path / "home", "cache": tmp_path / "cache", "config": tmp_path / "config"}
    monkeypatch.setenv("MIMOMEM_HOME", str(found["home"]))
    monkeypatch.setenv("MIMOMEM_CACHE_DIR", str(found["cache"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(found["config"]))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.delenv("MIMOMEM_SESSION", raising=False)
    monkeypatch.chdir(repo)
    transcript = tmp_path / "claude" / "projects" / "shop-api" / f"{SID}.jsonl"
    transcript.parent.mkdir(parents=True)
    lines = transcript_lines(repo)
    transcript.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return {**found, "repo": repo, "transcript": transcript, "projects": tmp_path / "claude" / "projects"}


def run_session(
    roots: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    """The session cycle; every output (hook stdout and stderr, CLI output, MCP results)."""
    from mimomem.cli import main
    from mimomem.hooks import claude_code
    from mimomem.memory import carry
    from mimomem.passes import promote

    spawned: list[list[str]] = []
    monkeypatch.setattr(detach, "spawn_detached", lambda argv, log: spawned.append(list(argv)))
    outputs: list[str] = []

    def hook(sid: str, event: str, **fields: Any) -> None:
        raw = {"session_id": sid, "transcript_path": str(roots["transcript"]), "cwd": str(roots["repo"])}
        out, err = io.StringIO(), io.StringIO()
        claude_code.run(io.StringIO(json.dumps({**raw, "hook_event_name": event, **fields})), out, err)
        outputs.extend([out.getvalue(), err.getvalue()])
        for argv in spawned:  # what the detached workers would have done, here and now
            if argv[2] == "mimomem.memory.carry":
                carry.run_background(*argv[3:])
            elif argv[2] == "mimomem.passes.promote":
                promote.run_background(*argv[3:])
        spawned.clear()

    hook(SID, "SessionStart", source="startup")
    hook(SID, "UserPromptSubmit", prompt="部署的 key 和数据库密码是什么？")
    hook(SID, "UserPromptSubmit", prompt=f"{ROUND_TWO_TEXTS[0]}; {ROUND_TWO_COMMAND}")
    hook(SID, "PreCompact", trigger="auto")
    hook(SID, "SessionStart", source="compact")
    hook(SID, "SessionEnd", reason="exit")
    hook(SID, "SessionStart", source="resume")
    hook(NEXT, "SessionStart", source="startup", transcript_path="")
    hook(NEXT, "UserPromptSubmit", prompt="deploy key 部署 数据库密码 password token", transcript_path="")
    for argv in (
        ["history", "import", "--claude-code", str(roots["projects"])],
        ["history", "search", "key"],
        ["history", "search", "password"],
        ["history", "evidence"],
        ["search", "部署 key password"],
        ["context", "--prompt", "部署 key 数据库密码"],
        ["dream"],
    ):
        main(argv)
        captured = capsys.readouterr()
        outputs.extend([captured.out, captured.err])
    outputs.extend(mcp_answers(roots["repo"]))
    return outputs


def mcp_answers(repo: Path) -> list[str]:
    """What the MCP server answers a search and a context request (the SDK's in-memory client)."""
    import asyncio

    from mcp import Client

    from mimomem.mcp.server import build_server
    from mimomem.mcp.state import Options

    server = build_server(Options(project=str(repo), session=SID))

    async def main() -> list[str]:
        async with Client(server) as client:
            results = [
                await client.call_tool("memory_search", {"query": "deploy key password"}),
                await client.call_tool("memory_context", {"prompt": "部署 key 数据库密码"}),
            ]
        return ["".join(getattr(block, "text", "") for block in r.content) for r in results]

    try:
        return asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        server.state.close()
