"""A pass worded by a model: the ``--emit-prompt`` text sent to an OpenAI-compatible endpoint.

The model only proposes text.  mimomem then checks it the same way as its own output:
``MEMORY.md`` is brought within its caps (spilling as the deterministic pass does), a
checkpoint gets any missing ``## §N`` heading back and is validated, a skill needs
frontmatter with a valid ``name`` and a ``description``; every write goes through the gate
as the pass's agent, and a file that changed while the model was working is not
overwritten (run the pass again).  Secrets are redacted from the prompt before it leaves.

The endpoint is ``<URL>/chat/completions`` (``--model URL`` or ``MIMOMEM_MODEL_URL``);
``MIMOMEM_MODEL`` names the model and ``MIMOMEM_MODEL_KEY`` holds the bearer token, if any.
Only ``urllib`` is used.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import yaml

from mimomem.common.secrets import redact_secrets
from mimomem.errors import ModelEndpointError, PassError
from mimomem.history.records import iso_day
from mimomem.passes import checkpoint as checkpoint_pass
from mimomem.passes import distill as distill_pass
from mimomem.passes import dream as dream_pass
from mimomem.passes import prompts
from mimomem.passes.answer_check import checkpoint_answer_problems, memory_answer_problems, refusal
from mimomem.passes.base import Change, PassContext, PassReport, apply_changes, read_text
from mimomem.passes.memory_doc import health
from mimomem.tree.memory_tree import CHECKPOINT_WRITER

MODEL_ENV, KEY_ENV = "MIMOMEM_MODEL", "MIMOMEM_MODEL_KEY"
TIMEOUT = 300.0
"""Seconds for the whole model call (one deadline, not per read)."""
MAX_ANSWER = 4 * 1024 * 1024
SYSTEM = (
    "You maintain a coding agent's memory files. Follow the instructions inside <mimomem-pass> exactly, "
    "use only the evidence given, and answer in the requested format."
)
ANSWERS = {
    "dream": "Answer with the complete new MEMORY.md in one ```markdown fenced block, then the report. Keep every "
    "heading and every line you do not delete on purpose; name each line you delete or change under Deleted or "
    "Updated (an answer that drops a line silently is refused).",
    "checkpoint": "Answer with the complete new checkpoint.md in one ```markdown fenced block, then the report. "
    "It must hold all eleven ## §N headings; carry over what still holds.",
    "distill": "For each skill to create, write a line `### <name>` followed by its SKILL.md in one ```markdown "
    "fenced block; then the report. Create nothing when nothing qualifies.",
}


class ChatModel(Protocol):
    """Anything that turns a system and a user message into an answer."""

    def complete(self, system: str, prompt: str) -> str: ...


@dataclass(frozen=True)
class OpenAICompatible:
    """An OpenAI-compatible ``/chat/completions`` endpoint reached with ``urllib``."""

    base_url: str
    model: str = "default"
    api_key: str | None = None
    timeout: float = TIMEOUT

    @classmethod
    def from_env(cls, url: str, env: dict[str, str] | None = None) -> OpenAICompatible:
        """The endpoint at ``url``; model name and key from ``MIMOMEM_MODEL`` / ``MIMOMEM_MODEL_KEY``."""
        env = dict(os.environ) if env is None else env
        example = "give an http(s) URL such as http://localhost:8000/v1"
        shown = repr(redact_secrets(url))  # a URL may carry user:password@
        if not re.match(r"https?://", url):
            raise PassError(f"--model {shown}: {example}")
        try:
            parts = urllib.parse.urlsplit(url)
            parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
        except ValueError as exc:
            raise PassError(f"--model {shown} is not a valid URL ({exc}); {example}") from exc
        if not parts.hostname:
            raise PassError(f"--model {shown} names no host; {example}")
        return cls(url, env.get(MODEL_ENV) or "default", env.get(KEY_ENV) or None)

    def complete(self, system: str, prompt: str) -> str:
        """The first choice's message text; ``ModelEndpointError`` saying what went wrong otherwise."""
        url = self.base_url.rstrip("/") + "/chat/completions"
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
        }
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, json.dumps(body).encode("utf-8"), headers, method="POST")
        advice = f"check the URL, {MODEL_ENV} and {KEY_ENV}, or rerun with --no-model or --emit-prompt"
        return _content(
            within(self.timeout, lambda: _post(request, self.timeout, url, advice), url, advice), url, advice
        )


def _post(request: urllib.request.Request, timeout: float, url: str, advice: str) -> bytes:
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw: bytes = response.read(MAX_ANSWER + 1)
            return raw
    except urllib.error.HTTPError as exc:
        detail = exc.read(300).decode("utf-8", "replace").strip()
        raise ModelEndpointError(f"{url} answered HTTP {exc.code}: {detail[:200]}; {advice}") from None
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ModelEndpointError(f"cannot reach {url} ({reason}); {advice}") from None


def within(deadline: float, call: Callable[[], bytes], url: str, advice: str) -> bytes:
    """``call()`` given at most ``deadline`` seconds in all (connect, headers and every byte of the body).

    A socket timeout bounds one read only, so a server trickling a byte now and then would keep
    the pass alive for ever; the call runs on a daemon thread that is abandoned at the deadline."""
    box: list[bytes | BaseException] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as exc:  # handed to the caller's thread
            box.append(exc)

    worker = threading.Thread(target=run, name="mimomem-model-call", daemon=True)
    worker.start()
    worker.join(deadline)
    if not box:
        raise ModelEndpointError(f"{url} gave no complete answer within {deadline:g} s (the deadline); {advice}")
    if isinstance(box[0], BaseException):
        raise box[0]
    return box[0]


def _content(raw: bytes, url: str, advice: str) -> str:
    if len(raw) > MAX_ANSWER:
        raise ModelEndpointError(f"{url} answered more than {MAX_ANSWER} bytes; {advice}")
    try:
        data = json.loads(raw)
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ModelEndpointError(f"{url} did not answer an OpenAI-style chat completion; {advice}") from None
    if not isinstance(content, str) or not content.strip():
        raise ModelEndpointError(f"{url} answered an empty message; {advice}")
    return content


_FENCE = re.compile(r"^(`{3,})(?:markdown|md)?[ \t]*\n(.*?)^\1[ \t]*$", re.M | re.S)


def fenced_blocks(answer: str) -> list[tuple[int, str]]:
    """``(end offset, body)`` of each fenced block of ``answer``."""
    return [(m.end(), m.group(2)) for m in _FENCE.finditer(answer)]


def _report_lines(answer: str, after: int) -> list[str]:
    tail = answer[after:].splitlines()
    return [line.strip("-* ").strip() for line in tail if line.strip() and not line.startswith("```")][:40]


def run_with_model(
    name: str,
    ctx: PassContext,
    url: str,
    *,
    dry_run: bool = False,
    write: bool = False,
    model: ChatModel | None = None,
) -> PassReport:
    """Run pass ``name`` with the model at ``url`` (or ``model``), then check and write its answer."""
    chat = model if model is not None else OpenAICompatible.from_env(url)
    prompt = prompts.pass_prompt(name, ctx) + "\n" + ANSWERS[name] + "\n"
    answer = chat.complete(SYSTEM, prompt)
    handler = {"dream": _dream, "distill": _distill, "checkpoint": _checkpoint}[name]
    report = handler(ctx, answer, write)
    agent = CHECKPOINT_WRITER if name == "checkpoint" else name
    apply_changes(ctx, report, agent, dry_run=dry_run)
    return report


def _one_file(answer: str, what: str) -> tuple[str, int]:
    blocks = fenced_blocks(answer)
    if not blocks:
        raise ModelEndpointError(f"the model's answer holds no fenced {what}; rerun, or use --no-model")
    end, body = blocks[0]
    return body.rstrip("\n") + "\n", end


def _unchanged(snapshot: str | None, new: str, what: str) -> Callable[[str | None], str]:
    def apply(live: str | None) -> str:
        if live != snapshot:
            raise PassError(f"{what} changed while the model was working; nothing was written, run the pass again")
        return new

    return apply


def _dream(ctx: PassContext, answer: str, write: bool) -> PassReport:
    tree, pid = ctx.where.tree, ctx.where.project_id
    path = tree.project_memory(pid)
    live = read_text(path)
    text, end = _one_file(answer, "MEMORY.md")
    problems = memory_answer_problems(live, text, answer[end:])
    if problems:
        raise PassError(refusal("MEMORY.md", problems))
    topics = dream_pass.spill_topics(text) + dream_pass.spill_topics(live)
    spill_files = {t: read_text(tree.project_topic(pid, t)) for t in dict.fromkeys(topics)}
    plan = dream_pass.plan_memory(text, [], spill_files, today=iso_day(ctx.now))
    report = PassReport("dream (model)", ("Model report", "Health"))
    for topic, (heading, items) in plan.spills.items():
        spill = tree.project_topic(pid, topic)
        old = read_text(spill)
        new = dream_pass.spill_text(old, heading, items)
        report.changes.append(Change(spill, old, new, _unchanged(old, new, str(spill))))
    if plan.text != live:
        report.changes.append(Change(path, live, plan.text, _unchanged(live, plan.text, str(path))))
    for line in _report_lines(answer, end):
        report.add("Model report", line)
    for line in plan.lines.get("Health", [f"MEMORY.md: {health(plan.text).render()}"]):
        report.add("Health", line)
    return report


def _checkpoint(ctx: PassContext, answer: str, write: bool) -> PassReport:
    sid = ctx.where.session_id
    if sid is None:
        raise PassError("checkpoint needs a session: pass --session SID or set MIMOMEM_SESSION")
    path = ctx.where.tree.checkpoint(sid)
    live = read_text(path)
    text, end = _one_file(answer, "checkpoint.md")
    problems = checkpoint_answer_problems(live, text)
    if problems:
        raise PassError(refusal("checkpoint.md", problems))
    fixed, _, _ = checkpoint_pass.merge_checkpoint(text, {})
    report = PassReport("checkpoint (model)", ("Model report", "Validation"))
    if fixed != live:
        report.changes.append(Change(path, live, fixed, _unchanged(live, fixed, str(path))))
    for line in _report_lines(answer, end):
        report.add("Model report", line)
    problems = checkpoint_pass.validate_checkpoint(fixed)
    for problem in problems or ["OK: all 11 sections"]:
        report.add("Validation", problem)
    return report


_SKILL_HEAD = re.compile(r"^###\s+`?([^`\s]+)`?\s*$", re.M)


def _distill(ctx: PassContext, answer: str, write: bool) -> PassReport:
    report = PassReport("distill (model)", ("Shortlist", "Created", "Skipped"))
    worktree = ctx.where.worktree
    target = worktree / ".claude" / "skills" if worktree is not None else None
    heads = list(_SKILL_HEAD.finditer(answer))
    for i, head in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(answer)
        blocks = fenced_blocks(answer[head.end() : end])
        problem = _skill_problem(head.group(1), blocks[0][1] if blocks else "")
        if problem:
            report.add("Skipped", f"{head.group(1)}: {problem}")
            continue
        report.add("Shortlist", head.group(1))
        if write and target is not None:
            path = target / head.group(1) / "SKILL.md"
            text = blocks[0][1].rstrip("\n") + "\n"
            report.changes.append(Change(path, None, text, distill_pass.create_only(text)))
            report.add("Created", str(path))
    if not heads:
        report.add("Created", "nothing - the model found no workflow worth packaging")
    return report


def _skill_problem(name: str, text: str) -> str | None:
    """Why a proposed SKILL.md is refused, or None when it is usable."""
    if not distill_pass.SKILL_NAME.fullmatch(name):
        return "the name must be lower-case letters, digits and hyphens"
    if not text.startswith("---\n") or "\n---" not in text[3:]:
        return "no YAML frontmatter"
    try:
        front: Any = yaml.safe_load(text[4 : text.index("\n---", 3)])
    except yaml.YAMLError:
        return "the frontmatter is not valid YAML"
    if not isinstance(front, dict) or front.get("name") != name or not str(front.get("description") or "").strip():
        return "the frontmatter needs `name` (the same name) and a `description`"
    return None
