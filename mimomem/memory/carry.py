"""What a session carries forward: the transcript's digest into the notes, and promotion into project memory.

These are the entry points the front ends call when a session compacts or ends (the Claude
Code hooks) or starts (pending promotions of earlier sessions): the digest is deterministic
(:mod:`mimomem.history.digest`), appended through the writer API as one notes entry; the
promotion is :mod:`mimomem.passes.promote`, inline until a deadline, the rest detached.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mimomem.tree.where import Where

__all__ = ["append_digest", "promote"]


def append_digest(where: Where, transcript: str, *, trigger: str) -> Path | None:
    """Digest ``transcript`` since the last digest and append it to the session notes.

    Likely secrets are redacted; a digest the notes still refuse is dropped (counted, a line
    on stderr).  Either way the read offset moves past what was read, so one bad line can
    never stop every later digest of the session.  Only a refusal of the write itself
    (writing switched off) leaves the offset where it was, to be digested later.  An
    unreadable transcript raises ``TranscriptReadError``.
    """
    from mimomem.errors import TranscriptReadError
    from mimomem.history.digest import digest_transcript

    state_file = _state_file(where)
    state = _read_state(state_file)
    try:
        digest = digest_transcript(transcript, _int(state.get("offset")))
    except OSError as exc:
        raise TranscriptReadError(f"cannot read the transcript {transcript}: {exc.strerror or exc}") from None
    turns = _int(state.get("turns")) + len(digest.requests)
    written = None if digest.empty() else _write_digest(where, turns, digest.render(trigger=trigger))
    skipped = _int(state.get("skipped")) + digest.skipped + (written is None and not digest.empty())
    _write_state(state_file, {"offset": digest.end_offset, "turns": turns, "skipped": skipped})
    return written


def _write_digest(where: Where, turns: int, body: str) -> Path | None:
    from mimomem.common.secrets import redact_secrets
    from mimomem.errors import SecretRefusedError
    from mimomem.memory.writes import note

    try:
        return note(where, where.writer("main"), redact_secrets(body), turn=turns).path
    except SecretRefusedError:
        if sys.stderr is not None:  # a hook whose stderr the host closed: never say it on stdout
            print("mimomem hook: the digest still held a likely secret after redaction; not written", file=sys.stderr)
        return None


def promote(where: Where, transcript: str, *, deadline: float | None, only_this: bool = False) -> None:
    """Register this session's ``transcript`` for promotion; with a ``deadline``, promote what is
    pending (this session only with ``only_this``) and detach the rest to a background process.

    Light on the per-prompt path: registering imports only the promotion state, the pass itself
    only when something is pending.
    """
    from mimomem.passes.promote_state import markers, register  # light: no history, no passes

    if where.session_id is None:
        return
    register(where, where.session_id, transcript)
    only = where.session_id if only_this else None
    if deadline is None or not any(m.pending() and only in (None, m.session_id) for m in markers(where)):
        return  # nothing to promote (checked without the lock: a session growing now is seen next time)
    from mimomem.passes import promote as promotion

    done = promotion.promote_pending(where, deadline=deadline, only=only, lock_wait=0.2)
    if done.pending:
        promotion.detach(where)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _state_file(where: Where) -> Path:
    """Per-session digest state, kept beside (not inside) the memory tree."""
    return Path(where.tree.data_dir) / "state" / "claude-code" / f"{where.session_id}.json"


def _read_state(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_state(path: Path, state: dict[str, Any]) -> None:
    from mimomem.common.files import atomic_write

    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(state))
