"""Hostile-path fuzzing of the write gate.

Invariant: whatever path an agent passes (``..`` chains, symlinks into and out of the
tree, case and Unicode variants, trailing dots and slashes, NUL bytes, very long
names), no byte changes anywhere in the sandbox except where the rules allow that
agent to write.  The oracle below is a deliberately coarse, independent statement of
the rules (regions, not exact names), checked against a before/after snapshot of the
whole sandbox.  Every base directory sits at least four levels below the sandbox root,
random paths hold at most three ``..`` and the edited meaningful paths climb at most one
level net, so even a broken gate cannot reach outside the sandbox.
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mimomem.errors import InvalidMemoryIdError, WriteDeniedError
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

ROOT = "l1/l2/l3/home/data/memory"
WT = "l1/l2/l3/wt"
OUT = "l1/l2/l3/outside"
STATE = "l1/l2/l3/home/data/state"
CWD = "l1/l2/l3/cwd"
TASK_RE = re.compile(r"T[0-9]+(?:\.[0-9]+)*")


def build(box: Path) -> None:
    for d in (ROOT, WT, OUT, CWD):
        (box / d).mkdir(parents=True)
    root, wt, out = box / ROOT, box / WT, box / OUT
    files = {
        root / "sessions/S1/notes.md": "s1 notes",
        root / "sessions/S2/notes.md": "s2 notes",
        root / "projects/P1/MEMORY.md": "p1",
        root / "sessions/S1/tasks/T1/progress.md": "t1",
        wt / ".git/config": "[core]",
        wt / ".mimomem/keep.md": "keep",
        wt / "src/app.py": "print()",
        out / "victim.txt": "precious",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    s1 = root / "sessions/S1"
    (s1 / "out").symlink_to(out)
    (s1 / "evil.md").symlink_to(out / "victim.txt")
    (s1 / "dangle.md").symlink_to(out / "new.md")
    (s1 / "loopa").symlink_to(s1 / "loopb")
    (s1 / "loopb").symlink_to(s1 / "loopa")
    (root / "projects/P1/up").symlink_to("../../sessions")
    (wt / "intree").symlink_to(s1)
    (wt / "tasks_link").symlink_to(s1 / "tasks")
    (wt / "victim_link.md").symlink_to(out / "victim.txt")


def snapshot(box: Path) -> dict[str, tuple[str, bytes | str]]:
    state: dict[str, tuple[str, bytes | str]] = {}
    for dirpath, dirnames, filenames in os.walk(box, followlinks=False):
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, box)
            if os.path.islink(full):
                state[rel] = ("link", os.readlink(full))
            elif os.path.isdir(full):
                state[rel] = ("dir", "")
            else:
                with open(full, "rb") as handle:
                    state[rel] = ("file", handle.read())
    return state


TREE_NAMES = ("global", "projects", "sessions", "tasks", "MEMORY.md", "checkpoint.md", "notes.md", "progress.md")


def _fold(name: str) -> str:
    # HFS+ ignores format characters (U+200C...), NTFS trailing dots and spaces
    kept = "".join(c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c) != "Cf")
    return kept.casefold().rstrip(". ")


def _variant(part: str, names: tuple[str, ...], prefixes: tuple[str, ...] = ()) -> bool:
    """A spelling that a case-insensitive filesystem would take for a reserved name."""
    folded = _fold(part)
    return any(folded == _fold(n) and part != n for n in names) or any(
        folded.startswith(p) and not part.startswith(p) for p in prefixes
    )


def allowed(rel: str, kind: str, ctx: dict, enabled: bool) -> bool:
    """May a change at ``rel`` (relative to the sandbox) happen for this caller?"""
    agent, sid, pid, tid = ctx["agent"], ctx["session_id"], ctx["project_id"], ctx["task_id"]
    foreign = ctx["allow_foreign"]
    if rel in (STATE, f"{STATE}/generation"):
        return enabled  # mimomem's own change counter beside the tree (tree/generation.py), after a write
    if rel.startswith(ROOT + "/"):
        if not enabled:
            return False
        parts = rel[len(ROOT) + 1 :].split("/")
        if any(p.startswith(".") or _variant(p, TREE_NAMES, ("memory-", "checkpoint-")) for p in parts):
            return False
        if parts[0] not in ("global", "projects", "sessions"):
            return False
        if kind == "dir":
            return True  # parent directories of an allowed file; the file itself is checked
        if not parts[-1].endswith(".md"):
            return False
        if parts[0] == "global":  # the user's (dream and distill act for the user)
            return agent in ("user", "dream", "distill") and tid is None and len(parts) >= 2
        if len(parts) < 3:
            return False
        own = foreign or parts[1] == (sid if parts[0] == "sessions" else pid)
        if parts[0] == "sessions" and len(parts) >= 4 and parts[2] == "tasks":
            bound = tid is not None and parts[3] == tid and len(parts) >= 5
            writer = agent == "checkpoint-writer" and len(parts) == 5 and TASK_RE.fullmatch(parts[3]) is not None
            return (bound or writer) and parts[1] == sid if not foreign else (bound or writer)
        if tid is not None:
            return False
        if agent == "checkpoint-writer" and len(parts) != 3:
            return False
        name = parts[-1]
        if parts[0] == "sessions" and (name == "checkpoint.md" or name.startswith("checkpoint-")):
            return own and agent in ("user", "checkpoint-writer")
        return own
    if rel.startswith(WT + "/"):
        if ctx["worktree"] is None or agent == "checkpoint-writer":
            return False
        parts = rel[len(WT) + 1 :].split("/")
        if ".git" in parts or any(_variant(p, (".git", ".mimomem", ".memory")) for p in parts):
            return False
        if parts[0] == ".memory":  # curated memory: only through remember
            return False
        if parts[0] == ".mimomem":
            return enabled and (kind == "dir" or len(parts) >= 2)
        return agent not in ("dream", "distill")
    return False


SEGMENTS = [
    "..",
    ".",
    "",
    "sessions",
    "Sessions",
    "SESSIONS",
    "projects",
    "global",
    "S1",
    "S2",
    "P1",
    "P2",
    "tasks",
    "Tasks",
    "ｔａｓｋｓ",
    "T1",
    "T2",
    "T1.2",
    "weird",
    "notes.md",
    "NOTES.md",
    "notes.md.",
    "checkpoint.md",
    "Checkpoint.md",
    "checkpoint-x.md",
    "MEMORY.md",
    "memory.md",
    "memory-x.md",
    "progress.md",
    "x.md",
    "x.txt",
    "x.md ",
    unicodedata.normalize("NFC", "café.md"),
    unicodedata.normalize("NFD", "café.md"),
    "out",
    "evil.md",
    "dangle.md",
    "up",
    "intree",
    "tasks_link",
    "victim_link.md",
    "victim.txt",
    ".git",
    "config",
    ".mimomem",
    ".MIMOMEM",
    "loopa",
    "memory",
    "MEMORY",
    "data",
    "home",
    "wt",
    "outside",
    "a\x00b",
    "a" * 300 + ".md",
    "trailing.",
    "src",
    "app.py",
]
BASES = ["", ROOT, WT, OUT, CWD, "l1/l2/l3/home/data", "l1/l2/l3"]

TARGETS = (
    [
        f"{ROOT}/{rel}"
        for rel in (
            "sessions/S1/notes.md",
            "sessions/S2/notes.md",
            "sessions/S1/checkpoint.md",
            "sessions/S1/free.md",
            "sessions/S1/tasks/T1/progress.md",
            "sessions/S1/tasks/T2/progress.md",
            "sessions/S1/tasks/T1/a/b.md",
            "sessions/S2/tasks/T1/progress.md",
            "sessions/S1/tasks/x.md",
            "projects/P1/MEMORY.md",
            "projects/P2/MEMORY.md",
            "projects/P1/memory-x.md",
            "projects/P1/pinned.md",
            "global/MEMORY.md",
            "sessions/S1/out/x.md",
            "sessions/S1/evil.md",
            "sessions/S1/dangle.md",
            "sessions/S1/loopa/x.md",
            "projects/P1/up/S2/notes.md",
            "projects/P1/up/S1/tasks/T1/progress.md",
            "sessions/S1/x.txt",
            "x.md",
        )
    ]
    + [
        f"{WT}/{rel}"
        for rel in (
            "src/app.py",
            "new.py",
            ".mimomem/skill.md",
            ".mimomem/keep.md",
            ".git/config",
            "intree/notes.md",
            "intree/tasks/T1/progress.md",
            "tasks_link/T1/progress.md",
            "tasks_link/T2/x.md",
            "victim_link.md",
            "../home/data/memory/sessions/S2/notes.md",
            "../home/data/memory/sessions/S1/tasks/T1/progress.md",
        )
    ]
    + [f"{OUT}/victim.txt", f"{OUT}/new.md", f"{CWD}/../outside/new.md"]
)


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


PERTURB = {
    "upper": str.upper,
    "title": str.capitalize,
    "fullwidth": _fullwidth,
    "nfd": lambda c: unicodedata.normalize("NFD", c.replace("e", "é")),
    "dot": lambda c: c + ".",
    "zwnj": lambda c: c[:1] + "\u200c" + c[1:],
    "space": lambda c: c + " ",
    "slash": lambda c: c + "/",
    "nul": lambda c: c + "\x00",
    "dotdir": lambda c: c + "/.",
    "detour": lambda c: c + "/zz/..",
    "long": lambda c: c + "a" * 260,
}


@st.composite
def hostile_path(draw: st.DrawFn) -> str:
    """A meaningful target, then a few hostile edits to its components."""
    parts = draw(st.sampled_from(TARGETS)).split("/")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(3, len(parts) - 1))  # keep the sandbox prefix intact
        parts[i] = PERTURB[draw(st.sampled_from(sorted(PERTURB)))](parts[i])
    return "/".join(parts)


segment = st.one_of(
    st.sampled_from(SEGMENTS),
    st.text(st.characters(blacklist_characters="/", blacklist_categories=("Cs",)), min_size=1, max_size=6),  # type: ignore[arg-type]
)
context = st.fixed_dictionaries(
    {
        "agent": st.sampled_from(["main", "main", "checkpoint-writer", "dream", "distill", "general", "user"]),
        "session_id": st.sampled_from(["S1", "S1", "S1", None]),
        "project_id": st.sampled_from(["P1", "P1", None]),
        "task_id": st.sampled_from([None, None, "T1", "T2"]),
        "worktree": st.sampled_from(["wt", "wt", None]),
        "allow_foreign": st.sampled_from([False, False, False, True]),
    }
)


def _check_one(box: Path, trees: dict[bool, MemoryTree], target: str, ctx: dict, enabled: bool, op: str) -> None:
    who = Writer(**dict(ctx, worktree=None if ctx["worktree"] is None else box / WT))
    before = snapshot(box)
    tree = trees[enabled]
    try:
        if op == "delete":
            tree.delete(target, who)
        else:
            getattr(tree, op)(target, "fuzz\n", who)
    except (WriteDeniedError, InvalidMemoryIdError, OSError):
        pass
    after = snapshot(box)
    changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    for key in changed:
        kind = (after.get(key) or before[key])[0]
        assert kind != "link", f"symlink {key} changed via {target!r} {ctx}"
        assert allowed(key, kind, ctx, enabled), f"{op} {target!r} {ctx} enabled={enabled} changed {key}"
    assert after[f"{OUT}/victim.txt"] == ("file", b"precious")


def _sandboxed(body):  # type: ignore[no-untyped-def]
    """Run ``body(box, trees)`` inside a fresh sandbox with the cwd inside it."""
    with tempfile.TemporaryDirectory() as tmp:
        box = Path(os.path.realpath(tmp)) / "box"
        build(box)
        trees = {True: MemoryTree(box / ROOT), False: MemoryTree(box / ROOT, write_enabled=False)}
        old_cwd = os.getcwd()
        os.chdir(box / CWD)
        try:
            body(box, trees)
        finally:
            os.chdir(old_cwd)


FUZZ = settings(max_examples=200, deadline=None, database=None, suppress_health_check=list(HealthCheck))
enabled_st = st.sampled_from([True, True, True, False])
op_st = st.sampled_from(["write", "append", "create", "delete"])


def test_hostile_edits_of_meaningful_paths():
    def body(box: Path, trees: dict[bool, MemoryTree]) -> None:
        @FUZZ
        @given(target=hostile_path(), ctx=context, enabled=enabled_st, op=op_st)
        def run(target: str, ctx: dict, enabled: bool, op: str) -> None:
            _check_one(box, trees, str(box / target), ctx, enabled, op)

        run()

    _sandboxed(body)


def test_random_segment_paths():
    def body(box: Path, trees: dict[bool, MemoryTree]) -> None:
        @FUZZ
        @given(
            base=st.sampled_from(BASES), segs=st.lists(segment, max_size=8), ctx=context, enabled=enabled_st, op=op_st
        )
        def run(base: str, segs: list[str], ctx: dict, enabled: bool, op: str) -> None:
            assume(sum(s == ".." for s in segs) <= 3)
            rel = "/".join(segs)
            target = rel if not base else str(box / base) + ("/" + rel if segs else "")
            _check_one(box, trees, target, ctx, enabled, op)

        run()

    _sandboxed(body)
