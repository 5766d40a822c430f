"""What a session carries forward: the transcript's digest into the notes, and promotion into project memory.

These are the entry points the front ends call when a session compacts or ends (the Claude
Code hooks) or starts (pending promotions of earlier sessions): the digest is deterministic
(:mod:`mimomem.history.digest`), appended through the writer API as one notes entry; the
promotion is :mod:`mimomem.passes.promote`, inline until a deadline, the rest detached.

A hook with a host time limit (Claude Code's ``SessionEnd``) first asks :func:`unread_bytes`:
above :data:`INLINE_BYTES` it digests nothing itself and :func:`detach_digest` hands the
digest, then the promotion, to one background process (:func:`run_background`).  The
per-session digest state (offset, held under a lock) keeps a stretch from being digested twice.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mimomem.tree.where import Where

__all__ = ["INLINE_BYTES", "append_digest", "detach_digest", "promote", "run_background", "unread_bytes"]

INLINE_BYTES = 1024 * 1024
"""Unread transcript bytes a time-limited hook still digests and promotes itself; above, both are detached.

Measured on the 2-core development machine (December 2026, load 1-2): the digest parses about
25 MB/s; promotion costs about 0.2 s whatever the size plus about 0.1 s per MiB.  A whole
``SessionEnd`` hook process took 0.40 s with 1 MiB unread, 0.50 s with 2 MiB, 0.77 s with
4.6 MB and 1.7 s with 37 MB (over Claude Code's 1.5 s).  At 1 MiB the inline work is about
0.3 s, half of ``CLAUDE_CODE.inline_seconds`` (0.6 s): a machine twice as slow or as busy
still stays inside it."""


def append_digest(where: Where, transcript: str, *, trigger: str) -> Path | None:
    """Digest ``transcript`` since the last digest and append it to the session notes.

    Likely secrets are redacted; a digest the notes still refuse is dropped (counted, a line
    on stderr).  Either way the read offset moves past what was read, so one bad line can
    never stop every later digest of the session.  Only a refusal of the write itself
    (writing switched off) leaves the offset where it was, to be digested later.  An
    unreadable transcript raises ``TranscriptReadError``.
    """
    from mimomem.common.files import file_lock
    from mimomem.errors import TranscriptReadError
    from mimomem.history.digest import digest_transcript

    state_file = _state_file(where)
    from mimomem.common.private import private_dir

    private_dir(state_file.parent)
    # held from reading the offset to writing it: a background digest and a later hook never
    # both digest the same stretch
    with file_lock(state_file.with_suffix(".lock"), symlink_error=TranscriptReadError):
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


def unread_bytes(where: Where, transcript: str) -> int:
    """Bytes of ``transcript`` the session's next digest or promotion would read (the larger; 0 if unreadable).

    Light: a ``stat`` and two small JSON files, nothing parsed.  The digest reads at most
    ``MAX_READ_BYTES`` (the newest); promotion everything since its marker (all of it for a
    transcript it has not seen or that was replaced).
    """
    from mimomem.history.digest import MAX_READ_BYTES
    from mimomem.passes.promote_state import marker_path, read_marker

    try:
        size = os.stat(transcript, follow_symlinks=False).st_size
    except OSError:
        return 0  # the inline digest says what is wrong with it
    offset = _int(_read_state(_state_file(where)).get("offset"))
    digest = size - (max(offset, size - MAX_READ_BYTES) if offset <= size else 0)
    marker = read_marker(marker_path(where, where.session_id), where.session_id) if where.session_id else None
    promoted = marker.offset if marker is not None and marker.transcript == transcript else 0
    return max(digest, size - promoted if promoted <= size else size)


def detach_digest(where: Where, transcript: str, *, trigger: str, cwd: str) -> Path:
    """Digest ``transcript`` and then promote the project in one background process; its log.

    ``cwd`` is the directory ``where`` was located from: the process locates it again.

    The session is registered for promotion first, so nothing is lost if that process dies:
    the next hook of the project promotes it, the next digest of the session digests it.
    """
    from mimomem.common.detach import spawn_detached
    from mimomem.passes.promote import detach_log
    from mimomem.passes.promote_state import register

    if where.session_id is not None:
        register(where, where.session_id, transcript)
    log = detach_log(where)
    argv = [cwd, where.session_id or "", transcript, trigger]
    spawn_detached([sys.executable, "-m", "mimomem.memory.carry", *argv], log)
    return log


def run_background(cwd: str, session_id: str, transcript: str, trigger: str) -> int:
    """What :func:`detach_digest`'s process does: the session's digest, then the project's promotion."""
    import time

    from mimomem.errors import TranscriptReadError
    from mimomem.passes.promote import promote_all
    from mimomem.tree.memory_tree import MemoryTree
    from mimomem.tree.where import locate

    where = locate(cwd, session_id=session_id or None, tree=MemoryTree())
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        written = append_digest(where, transcript, trigger=trigger)
        print(f"{stamp} digest ({trigger}) {'appended to the notes' if written else 'wrote no entry'}", flush=True)
    except TranscriptReadError as exc:
        print(f"{stamp} digest skipped: {exc}", flush=True)
    promote(where, transcript, deadline=None)  # registered (already, by the hook that detached this)
    return promote_all(where)


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
    from mimomem.common.private import private_dir

    private_dir(path.parent)
    atomic_write(path, json.dumps(state))


if __name__ == "__main__":  # pragma: no cover - run by detach_digest() in a detached process
    sys.exit(run_background(*sys.argv[1:5]))
