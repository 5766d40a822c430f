"""--model URL: the pass's prompt goes to a (scripted, local) OpenAI-compatible server; its answer is checked."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from conftest import World
from trajectory_fixtures import SID_B

from mimomem.errors import ModelEndpointError, PassError, SecretRefusedError
from mimomem.passes.checkpoint import validate_checkpoint
from mimomem.passes.llm import OpenAICompatible, fenced_blocks, run_with_model
from mimomem.tree.templates import checkpoint_template
from mimomem.tree.writer import Writer


class FakeServer:
    """Answers each POST with the next scripted (status, body); records the requests."""

    def __init__(self) -> None:
        self.script: list[tuple[int, Any]] = []
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                body = json.loads(self.rfile.read(length))
                server.requests.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
                status, reply = server.script.pop(0)
                data = reply.encode() if isinstance(reply, str) else json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def answer(self, content: str) -> None:
        self.script.append((200, {"choices": [{"message": {"role": "assistant", "content": content}}]}))

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer()
    yield fake
    fake.close()


@pytest.fixture(autouse=True)
def _model_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MIMOMEM_MODEL", "local-test")
    monkeypatch.setenv("MIMOMEM_MODEL_KEY", "k-123")


MEMORY = """# Project memory

## Rules

- 以后都用 pnpm (2026-11-28, [session aaaaaaaa])
- Always run ruff check before committing (2026-11-29, [session bbbbbbbb])

## Architecture decisions

- 2026-11-29: the cache is SQLite ([session bbbbbbbb])
"""


def test_dream_with_a_model(world: World, server: FakeServer) -> None:
    server.answer(f"```markdown\n{MEMORY}```\n\nConsolidated:\n- 2 rules\nHealth: 10/200 lines\n")
    report = run_with_model("dream", world.context(), server.url)
    assert MEMORY == world.memory().read_text(encoding="utf-8")
    assert ["Consolidated:", "2 rules", "Health: 10/200 lines"] == report.sections["Model report"]
    sent = server.requests[0]
    assert "/v1/chat/completions" == sent["path"] and "Bearer k-123" == sent["auth"]
    assert "local-test" == sent["body"]["model"] and 0 == sent["body"]["temperature"]
    prompt = sent["body"]["messages"][1]["content"]
    assert prompt.startswith('<mimomem-pass name="dream"') and "complete new MEMORY.md" in prompt
    assert "- rule: 以后都用 pnpm (2026-11-28, [session aaaaaaaa])" in prompt


def test_a_large_model_answer_is_brought_within_the_caps(world: World, server: FakeServer) -> None:
    facts = "\n".join(f"- fact {i}: a long enough line about service {i} and its port {6000 + i}" for i in range(300))
    server.answer(f"```markdown\n# Project memory\n\n## Discovered durable knowledge\n\n{facts}\n```\n")
    report = run_with_model("dream", world.context(), server.url)
    spill = world.memory().parent / "memory-discovered-durable-knowledge.md"
    assert spill.is_file() and "fact 299" in spill.read_text(encoding="utf-8")
    assert any("moved 300 items" in line for line in report.sections["Health"])


def test_checkpoint_with_a_model_gets_missing_headings_back(world: World, server: FakeServer) -> None:
    answer = (
        checkpoint_template()
        .replace("## §9 Live resources\n", "")
        .replace("## §2 Next concrete action\n", "## §2 Next concrete action\n\nRun the migration.\n")
    )
    server.answer(f"Here it is:\n\n```markdown\n{answer}```\nFilled: §2\n")
    report = run_with_model("checkpoint", world.context(SID_B), server.url)
    text = world.tree.checkpoint(SID_B).read_text(encoding="utf-8")
    assert [] == validate_checkpoint(text) and "Run the migration." in text
    assert ["OK: all 11 sections"] == report.sections["Validation"]


def test_distill_with_a_model_checks_each_skill(world: World, server: FakeServer) -> None:
    good = "---\nname: deploy-staging\ndescription: Deploy to staging the usual way.\n---\n\n1. `pnpm run deploy`\n"
    bad = "no frontmatter at all\n"
    server.answer(f"### deploy-staging\n\n```markdown\n{good}```\n\n### Bad_Name\n\n```markdown\n{bad}```\n")
    report = run_with_model("distill", world.context(), server.url, write=True)
    skill = world.project / ".claude" / "skills" / "deploy-staging" / "SKILL.md"
    assert good == skill.read_text(encoding="utf-8")
    assert ["deploy-staging"] == report.sections["Shortlist"]
    assert ["Bad_Name: the name must be lower-case letters, digits and hyphens"] == report.sections["Skipped"]


def test_dry_run_writes_nothing(world: World, server: FakeServer) -> None:
    server.answer(f"```markdown\n{MEMORY}```\n")
    report = run_with_model("dream", world.context(), server.url, dry_run=True)
    assert not world.memory().exists() and report.changes


def test_endpoint_failures_are_clear_errors(world: World, server: FakeServer) -> None:
    server.script.append((500, "upstream exploded"))
    with pytest.raises(ModelEndpointError, match=r"HTTP 500: upstream exploded.*--no-model"):
        run_with_model("dream", world.context(), server.url)
    server.script.append((200, "not json"))
    with pytest.raises(ModelEndpointError, match="OpenAI-style chat completion"):
        run_with_model("dream", world.context(), server.url)
    server.answer("I would rather not.")
    with pytest.raises(ModelEndpointError, match=r"no fenced MEMORY\.md"):
        run_with_model("dream", world.context(), server.url)
    with pytest.raises(ModelEndpointError, match="cannot reach"):
        OpenAICompatible("http://127.0.0.1:9/v1", timeout=2).complete("s", "p")
    with pytest.raises(PassError, match="http"):
        OpenAICompatible.from_env("ftp://x", {})
    assert not world.memory().exists()


def test_secrets_never_leave_and_never_land(world: World, server: FakeServer) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    memory = world.memory()
    memory.parent.mkdir(parents=True)
    memory.write_text(f"# Project memory\n\n## Rules\n\n- use {token}\n", encoding="utf-8")
    server.answer(f"```markdown\n# Project memory\n\n## Rules\n\n- use {token}\n- more\n```\n")
    with pytest.raises(SecretRefusedError):
        run_with_model("dream", world.context(), server.url)
    assert token not in server.requests[0]["body"]["messages"][1]["content"]


def test_a_file_changed_meanwhile_is_not_overwritten(world: World, server: FakeServer) -> None:
    server.answer(f"```markdown\n{MEMORY}```\n")
    report = run_with_model("dream", world.context(), server.url, dry_run=True)
    memory = world.memory()
    memory.parent.mkdir(parents=True)
    memory.write_text("# Project memory\n\n## Rules\n\n- written meanwhile\n", encoding="utf-8")
    change = report.changes[0]
    with pytest.raises(PassError, match="changed while the model was working"):
        world.tree.update(change.path, change.apply, Writer(agent="dream", project_id=world.context().where.project_id))
    assert "written meanwhile" in memory.read_text(encoding="utf-8")


def test_fenced_blocks() -> None:
    text = "a\n```markdown\nx\n```\nb\n````md\n```inner```\n````\n"
    assert ["x\n", "```inner```\n"] == [body for _, body in fenced_blocks(text)]


def test_the_command_line_model_option(
    world: World, server: FakeServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from mimomem.cli import main

    monkeypatch.setenv("HOME", str(world.tmp))
    db = str(world.store.path)
    root = str(world.tree.root)
    server.answer(f"```markdown\n{MEMORY}```\nDone.\n")
    args = ["dream", "--project", str(world.project), "--root", root, "--db", db, "--days", "0"]
    assert 0 == main([*args, "--model", server.url])
    assert "# mimomem dream (model)" in capsys.readouterr().out
    assert MEMORY == world.memory().read_text(encoding="utf-8")
    monkeypatch.setenv("MIMOMEM_MODEL_URL", server.url)
    assert 0 == main([*args, "--no-model", "--dry-run"])  # --no-model wins over the variable
    assert 1 == len(server.requests)


class Scripted:
    """A model in this process (``run_with_model(model=...)``): the scripted answer, the prompts it got."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.prompts: list[str] = []

    def complete(self, system: str, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answer


USER_MEMORY = "# Project memory\n\n## Rules\n\n- 部署前先跑 `pnpm test`。\n- Never push to main.\n"


@pytest.mark.parametrize(
    ("answer", "refused"),
    [
        ("OK.", "holds no fenced MEMORY.md"),
        ("```markdown\n```\n", "the answer is empty"),
        ("```markdown\n# Project memory\n\n## Rules\n\n- Never push to main.\n```\n", "gone without being reported"),
        (
            "```markdown\n# Project memory\n\n- 部署前先跑 `pnpm test`。\n- Never push to main.\n```\n",
            "'## Rules' is gone",
        ),
    ],
)
def test_a_model_answer_that_would_lose_what_the_user_wrote_is_refused(world: World, answer: str, refused: str) -> None:
    ctx = world.context()
    world.tree.write(world.memory(), USER_MEMORY, ctx.where.writer("main"))
    with pytest.raises((PassError, ModelEndpointError), match=refused):
        run_with_model("dream", ctx, "http://unused", model=Scripted(answer))
    assert world.memory().read_text(encoding="utf-8") == USER_MEMORY
    assert not (world.tree.data_dir / "undo").exists()


def test_a_deletion_the_model_reports_is_accepted_and_the_old_file_kept(world: World) -> None:
    ctx = world.context()
    world.tree.write(world.memory(), USER_MEMORY, ctx.where.writer("main"))
    answer = (
        "```markdown\n# Project memory\n\n## Rules\n\n- Never push to main.\n```\n\nDeleted:\n- 部署前先跑 pnpm test\n"
    )
    report = run_with_model("dream", ctx, "http://unused", model=Scripted(answer))
    assert "部署前先跑" not in world.memory().read_text(encoding="utf-8")
    assert report.sections["Model report"] == ["Deleted:", "部署前先跑 pnpm test"]
    assert len(report.undo) == 1 and "restore: cp " in report.undo[0]


@pytest.mark.parametrize(
    ("name", "skill", "why"),
    [
        ("deploy", "---\nname: deploy\n---\nsteps\n", "needs `name` (the same name) and a `description`"),
        ("deploy", "---\nname: other\ndescription: d\n---\n", "needs `name` (the same name)"),
        ("deploy", "---\nname: [unclosed\n---\n", "not valid YAML"),
        ("deploy", "---\nname: deploy\ndescription: d\n", "no YAML frontmatter"),
    ],
)
def test_a_proposed_skill_with_bad_frontmatter_is_skipped_with_the_reason(
    world: World, name: str, skill: str, why: str
) -> None:
    answer = f"### {name}\n\n```markdown\n{skill}```\n"
    report = run_with_model("distill", world.context(), "http://unused", write=True, model=Scripted(answer))
    assert len(report.sections["Skipped"]) == 1 and why in report.sections["Skipped"][0]
    assert not (world.project / ".claude" / "skills").exists()


def test_no_workflow_is_a_valid_distill_answer_and_a_checkpoint_needs_a_session(world: World) -> None:
    report = run_with_model("distill", world.context(), "http://unused", model=Scripted("Nothing repeats."))
    assert report.sections["Created"] == ["nothing - the model found no workflow worth packaging"]
    with pytest.raises(PassError, match="needs a session"):
        run_with_model("checkpoint", world.context(), "http://unused", model=Scripted("```markdown\nx\n```\n"))
