"""One curated memory root on disk: its files (by id, ``curated.ids``), lock, change detection and recall hit counts.

A root holds ``<category>/<slug>.md`` memory files, compiled outlines, and three git-ignored
files of its own: ``.state.json`` (recall hit counts), ``.lock`` (the writers' lock; while a
write is under way it holds the writer's pid, so a write killed half-way is noticed and
repaired) and ``.generation`` (bumped by every write, so other processes notice changes the
directory mtimes miss).  Temp files of writers that died are removed after a minute.
Symlinks inside a root are never followed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import re
import stat
import time
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from mimomem.common import frontmatter
from mimomem.common.files import atomic_write, file_lock
from mimomem.common.nofollow import open_nofollow
from mimomem.common.private import private_dir
from mimomem.common.stamp import Stamp, stamp_of
from mimomem.curated.ids import split_id
from mimomem.curated.listing import Listing, listed_key, scan_root
from mimomem.curated.memory import MAX_FILE_BYTES, Memory, Problem, memory_from_document
from mimomem.curated.snapshot import Payload, RootSnapshot, decode, encode
from mimomem.curated.undo import hits_not_saved
from mimomem.errors import InvalidCuratedIdError, OutsideRootError, StaleListingError

STATE_FILE = ".state.json"
GITIGNORE = ".state.json\n.lock\n.generation\n.*.tmp\n"
STALE_TEMP_SECONDS = 60
"""A temp file of a dead writer older than this is removed (a live writer's never is)."""
_TEMP_WITH_PID = re.compile(r"\..+\.(\d+)\.[0-9a-f]{16}\.tmp")
_TEMP_WITHOUT_PID = re.compile(r"\..+\.[0-9a-f]{16}\.tmp")  # written before temp names carried the pid


def default_global_root(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/mimomem/memory`` (``~/.config`` when unset or relative)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return Path(base) / "mimomem" / "memory"


class CuratedRoot:
    """One memory root on disk plus the parsed memories loaded from it."""

    def __init__(self, scope: str, path: Path, categories: Sequence[str]) -> None:
        self.scope = scope
        self.path = path
        self.categories = tuple(categories)
        self._memories: dict[str, Memory] | None = {}
        self._problems: list[Problem] = []
        self.listing: Listing | None = None
        """The memory files the last ``scan`` found (``None`` once this process changed them)."""
        self.fingerprint: tuple[Any, ...] | None = None
        self.state_sig: Stamp | None = None
        self.hits: dict[str, int] = {}
        self.safe_dirs: set[str] = set()
        self._scan_problems: list[Problem] = []
        self._saved: RootSnapshot | None = None
        self._scan_temps: list[os.DirEntry[str]] | None = None
        """Temp files (``.*.tmp``) in the category directories, as the last ``scan`` found them."""
        """The root's saved snapshot, read once per scan by ``read_listed`` (hits served without YAML)."""
        self.max_hits = 0

    # -- locations and safety ------------------------------------------------------------------
    def exists(self) -> bool:
        return self.path.is_dir()

    def real(self) -> Path:
        return Path(os.path.realpath(self.path))

    def file_for(self, memory_id: str) -> Path:
        """The path of ``memory_id``'s file, refused if it could resolve outside the root.

        The id is validated (one category, one slug without separators or ``..``), so only
        a symlink could lead elsewhere: a symlinked root parent is accepted as the user's
        choice, a symlinked category directory or memory file is refused.
        """
        category, slug = split_id(memory_id, self.categories)
        cdir = self.path / category
        target = cdir / f"{slug}.md"
        if category not in self.safe_dirs:
            if cdir.is_symlink():
                raise OutsideRootError(f"{cdir} is a symlink; mimomem does not follow symlinks in a memory root")
            if cdir.is_dir():
                if Path(os.path.realpath(cdir)) != self.real() / category:
                    raise OutsideRootError(f"{cdir} resolves outside {self.real()}")
                self.safe_dirs.add(category)  # checked once per load; load() clears it
        if target.is_symlink():
            raise OutsideRootError(f"{target} is a symlink; mimomem does not follow symlinks in a memory root")
        return target

    def ensure(self) -> None:
        """Create the root and its ``.gitignore`` on first write."""
        if self.path.is_symlink():  # compiling refuses it too: refuse before writing anything there
            raise OutsideRootError(f"memory root {self.path} is a symlink; use the real directory as the root")
        private_dir(self.path)
        gi = self.path / ".gitignore"
        if not gi.exists():
            atomic_write(gi, GITIGNORE)

    @contextmanager
    def write_lock(self) -> Iterator[None]:
        """Create the root if needed and hold its ``.lock`` (one writer at a time, across processes)."""
        self.ensure()
        with self._lock():
            yield

    def _lock(self) -> AbstractContextManager[None]:
        """The root's ``.lock`` (a planted symlink there is refused with ``OutsideRootError``)."""
        return file_lock(self.path / ".lock", symlink_error=OutsideRootError)

    # -- interrupted writes --------------------------------------------------------------------
    def begin_write(self) -> None:
        """Note in ``.lock`` that this process is writing (the caller holds the lock)."""
        self._set_marker(f"{os.getpid()}\n".encode())

    def end_write(self) -> None:
        """The write finished (or was undone) and the outlines match the files: clear the note."""
        self._set_marker(b"")

    def _set_marker(self, data: bytes) -> None:
        fd = open_nofollow(self.path / ".lock", os.O_WRONLY)
        try:
            os.ftruncate(fd, 0)
            if data:
                os.write(fd, data)
        finally:
            os.close(fd)

    def interrupted_write(self, *, locked: bool) -> bool:
        """Did a write stop half-way (its writer killed), leaving outlines to recompile?

        Holding the lock, any note left in ``.lock`` is one; without it, only a note whose
        writer is dead (a live one may be writing right now).
        """
        try:
            fd = open_nofollow(self.path / ".lock")
        except OSError:
            return False
        try:
            note = os.read(fd, 64).decode("ascii", "replace").strip()
        except OSError:
            return False
        finally:
            os.close(fd)
        if not note:
            return False
        if locked:
            return True
        return note.isdigit() and int(note) != os.getpid() and not pid_alive(int(note))

    def clean_stale_temps(self, *, locked: bool, scanned: bool = False) -> list[Path]:
        """Remove temp files that writers killed half-way left behind; the paths removed.

        A temp file goes when it is older than ``STALE_TEMP_SECONDS`` and its writer (the pid
        in its name) is dead; one without a pid in its name only while we hold the lock (no
        writer can be running then).  Symlinks and live writers' files are never touched.
        ``scanned``: the category directories' temp files are the ones the last ``scan`` saw
        (a read lists each directory once).
        """
        removed: list[Path] = []
        now = time.time()
        found = self._scan_temps if scanned else None
        for directory in [self.path] if found is not None else [self.path, *(self.path / c for c in self.categories)]:
            try:
                entries = [e for e in os.scandir(directory) if e.name.startswith(".") and e.name.endswith(".tmp")]
            except OSError:
                continue
            for entry in entries + (found or []):
                if _stale_temp(entry, now, locked=locked):
                    try:
                        os.unlink(entry.path)
                        removed.append(Path(entry.path))
                    except OSError:
                        pass
        return removed

    # -- change detection ----------------------------------------------------------------------
    def current_fingerprint(self) -> tuple[Any, ...]:
        """Cheap change detector: the category directories' stamps, and the write generation.

        ``lstat``: a category directory swapped for a symlink (even to the same directory, moved)
        is a change, so the next scan skips it and the next write refuses it.
        """
        parts: list[Any] = []
        # not the root directory itself: .state.json is replaced there on every counted recall
        for p in (self.path / c for c in self.categories):
            try:
                parts.append(stamp_of(os.lstat(p)))
            except OSError:
                parts.append(None)
        try:
            parts.append((self.path / ".generation").read_bytes())
        except OSError:
            parts.append(None)
        return tuple(parts)

    def bump_generation(self) -> None:
        gen = self.path / ".generation"
        try:
            n = int(gen.read_text() or 0)
        except (OSError, ValueError):
            n = 0
        atomic_write(gen, str(n + 1))

    def written(self, *, bump: bool = True) -> None:
        """After a write under the lock: tell other processes (``bump``), and note our own view."""
        if bump:
            self.bump_generation()
        self.fingerprint = self.current_fingerprint()
        self.listing = None  # this process changed the files: the memories it holds are the truth now

    # -- loading -------------------------------------------------------------------------------
    @property
    def memories(self) -> dict[str, Memory]:
        """Every memory of the root by id (read on first use after a ``scan``)."""
        if self._memories is None:
            self.materialize()
        assert self._memories is not None
        return self._memories

    @property
    def problems(self) -> list[Problem]:
        """What reading the root's files found wrong (reads them first, like ``memories``)."""
        if self._memories is None:
            self.materialize()
        return self._problems

    @property
    def materialized(self) -> bool:
        return self._memories is not None

    def load(self) -> None:
        """Read every memory file of the root again (problems are collected, never raised)."""
        self.scan()
        self.materialize()

    def scan(self) -> None:
        """List the memory files and their stat keys (``curated.listing``); memories are read on first use."""
        self.fingerprint = self.current_fingerprint()
        self.safe_dirs = set()
        self._memories, self._problems = None, []
        self._saved = None
        self._scan_temps = []
        if self.exists():
            self.listing, self._scan_problems = scan_root(self.path, self.categories, temps=self._scan_temps)
        else:
            self.listing, self._scan_problems = {}, []

    def materialize(self, snapshot: RootSnapshot | None = None) -> None:
        """Build every memory of the last scan: from the root's snapshot (the saved one, or
        ``snapshot``) when a file's stat key is unchanged, else read and parsed (``curated.snapshot``)."""
        if self.listing is None:
            self.scan()
        assert self.listing is not None
        self._memories, self._problems = {}, list(self._scan_problems)
        if not self.listing:
            return
        snapshot = snapshot if snapshot is not None else RootSnapshot.read(self.path, self.scope)
        for category, files in self.listing.items():
            cdir = self.path / category
            for name, key in files:
                memory = self._load_entry(snapshot, cdir / name, f"{category}/{name}", key)
                if memory is not None:
                    self._memories[memory.id] = memory
        snapshot.save()

    def _load_entry(self, snapshot: RootSnapshot, path: Path, rel: str, key: Stamp | None) -> Memory | None:
        """One memory file (``rel``: ``<category>/<name>``): from the snapshot when its stat key is
        unchanged, else read and parsed (and kept for the next process)."""
        memory_id = rel[:-3]
        cached = snapshot.lookup(rel, key) if key is not None else None
        if cached is not None:
            memory, problems = decode(cached, memory_id=memory_id, scope=self.scope, path=path)
            self._problems.extend(problems)
            return memory
        read = self._read_memory_file(path, memory_id)
        if read is None:
            return None  # skipped (a symlink, a bad name, unreadable...): decided anew every time
        text, mtime = read
        memory, problems = memory_from_document(
            frontmatter.parse(text), memory_id=memory_id, scope=self.scope, path=path, mtime=mtime
        )
        self._problems.extend(problems)
        if key is not None:
            snapshot.record(rel, key, encode(memory, problems))
        return memory

    def read_listed(self, memory_id: str) -> Memory | None:
        """``memory_id`` read from its file, which must still be the one the last scan listed
        (same stamp after reading); ``StaleListingError`` otherwise.  The root's snapshot
        serves it when it holds that version of the file (no YAML parsed).  Problems are not
        kept: they are reported when the whole root is read."""
        key = listed_key(self.listing, memory_id)
        if key is None:
            raise StaleListingError(memory_id)
        path = self.path / f"{memory_id}.md"
        cached = self.saved_snapshot().get(f"{memory_id}.md", key)
        kept, self._problems = self._problems, []
        try:
            memory = self.load_file(path, memory_id) if cached is None else self._decoded(cached, path, memory_id)
            if stamp_of(os.lstat(path)) != key:
                raise StaleListingError(memory_id)
        except OSError:
            raise StaleListingError(memory_id) from None
        finally:
            self._problems = kept
        return memory

    def saved_snapshot(self) -> RootSnapshot:
        """The root's saved snapshot as read once after the last ``scan`` (what it parsed before)."""
        if self._saved is None:
            self._saved = RootSnapshot.read(self.path, self.scope)
        return self._saved

    def _decoded(self, payload: Payload, path: Path, memory_id: str) -> Memory | None:
        return decode(payload, memory_id=memory_id, scope=self.scope, path=path)[0]

    def load_file(self, path: Path, memory_id: str) -> Memory | None:
        """Parse one memory file; ``None`` (with a problem recorded) when it cannot be used."""
        read = self._read_memory_file(path, memory_id)
        if read is None:
            return None
        text, mtime = read
        doc = frontmatter.parse(text)
        memory, problems = memory_from_document(doc, memory_id=memory_id, scope=self.scope, path=path, mtime=mtime)
        self._problems.extend(problems)
        return memory

    def _read_memory_file(self, path: Path, memory_id: str) -> tuple[str, _dt.datetime] | None:
        """The text and mtime of a regular, UTF-8 memory file within the size limit."""
        where = str(path)
        if path.is_symlink():
            self._problems.append(Problem("skipped", where, "symlink; memory files must be regular files"))
            return None
        try:
            split_id(memory_id, self.categories)
        except InvalidCuratedIdError as exc:
            self._problems.append(Problem("skipped", where, f"file name is not a valid slug: {exc}"))
            return None
        try:
            st = path.stat()
            if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read forever
                self._problems.append(Problem("skipped", where, "not a regular file"))
                return None
            if st.st_size > MAX_FILE_BYTES:
                self._problems.append(Problem("skipped", where, f"{st.st_size} bytes, over the {MAX_FILE_BYTES} limit"))
                return None
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as exc:
            self._problems.append(Problem("malformed", where, f"not UTF-8 (byte {exc.start}); re-save it as UTF-8"))
            return None
        except OSError as exc:
            self._problems.append(Problem("skipped", where, f"unreadable: {exc.strerror}"))
            return None
        return text, _dt.datetime.fromtimestamp(st.st_mtime, _dt.timezone.utc)

    # -- hit counters --------------------------------------------------------------------------
    def read_hits(self) -> dict[str, int]:
        """Recall hit counts by memory id (re-read only when ``.state.json`` changed)."""
        path = self.path / STATE_FILE
        try:
            st = path.stat()
        except OSError:
            self.hits, self.state_sig, self.max_hits = {}, None, 0
            return self.hits
        sig = stamp_of(st)
        if sig != self.state_sig:
            self.hits = read_state(path).get("hits", {})
            self.max_hits = max(self.hits.values(), default=0)
            self.state_sig = sig
        return self.hits

    def add_hits(self, ids: Iterable[str]) -> None:
        """Increment hit counters under an exclusive lock; the file is replaced atomically.

        Counting is best effort: when ``.state.json`` cannot be saved (a full disk) a
        ``RuntimeWarning`` says so and the caller's results stand.
        """
        self._update_hits(list(ids), 1, False)

    def drop_hits(self, memory_id: str) -> None:
        """Forget a removed memory's counter (the caller holds the write lock; best effort, as above)."""
        self._update_hits([memory_id], 0, True)

    def _update_hits(self, ids: list[str], step: int, locked: bool) -> None:
        path = self.path / STATE_FILE
        if not ids or not self.exists() or (step == 0 and not path.exists()):
            return
        try:
            self._save_hits(path, ids, step, locked)
        except OSError as exc:  # a full disk must not cost a recall its answer
            warnings.warn(hits_not_saved(self.path, exc), RuntimeWarning, stacklevel=4)
        self.state_sig = None

    def _save_hits(self, path: Path, ids: list[str], step: int, locked: bool) -> None:
        with nullcontext() if locked else self._lock():
            state = read_state(path)
            hits = state.setdefault("hits", {})
            for memory_id in ids:
                if step:
                    hits[memory_id] = int(hits.get(memory_id, 0)) + step
                else:
                    hits.pop(memory_id, None)
            state["version"] = 1
            atomic_write(path, json.dumps(state, ensure_ascii=False, sort_keys=True, indent=0))


def pid_alive(pid: int) -> bool:
    """Is process ``pid`` running (or not ours to signal, so possibly running)?"""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # e.g. another user's process
    return True


def _stale_temp(entry: os.DirEntry[str], now: float, *, locked: bool) -> bool:
    """A regular temp file, older than a minute, whose writer is gone."""
    try:
        st = entry.stat(follow_symlinks=False)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_TEMP_SECONDS:
        return False
    with_pid = _TEMP_WITH_PID.fullmatch(entry.name)
    if with_pid is not None:
        pid = int(with_pid.group(1))
        return pid != os.getpid() and not pid_alive(pid)
    return locked and _TEMP_WITHOUT_PID.fullmatch(entry.name) is not None


def read_state(path: Path) -> dict[str, Any]:
    """``.state.json`` as a dict with a clean ``hits`` map (an unreadable file counts as empty)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"version": 1, "hits": {}}
    if not isinstance(data, dict) or not isinstance(data.get("hits"), dict):
        return {"version": 1, "hits": {}}
    data["hits"] = {str(k): int(v) for k, v in data["hits"].items() if isinstance(v, int) and v >= 0}
    return data
