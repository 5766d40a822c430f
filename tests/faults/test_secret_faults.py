"""Secret-scanner faults of the hardening issue: each test failed on the code before its fix."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from mimomem.cli import main
from mimomem.common.secrets import scan_secrets
from mimomem.curated.store import CuratedMemory
from mimomem.errors import SecretRefusedError
from mimomem.tree.memory_tree import MemoryTree
from mimomem.tree.writer import Writer

NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
AWS_KEY_ID = "AKIA" + "Q7X2M9K4P1Z8R5T3"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
AWS_SECRET = "Zq3VbN8" + "xK2mP9wL4tR7yH1cF6gD0sJ5aE/u+Io8BnMk"


@pytest.fixture
def store(tmp_path: Path) -> CuratedMemory:
    return CuratedMemory(tmp_path / "proj", tmp_path / "global", now=NOW)


def _echoes(exc: BaseException, secret: str) -> bool:
    """Does the exception show ``secret`` anywhere a caller or a log could see it?"""
    shown = [str(exc), repr(exc), *(str(a) for a in exc.args), *(str(v) for v in vars(exc).values())]
    return any(secret in text for text in shown)


def test_fault_secret_in_summary_not_echoed(store: CuratedMemory, tmp_path: Path) -> None:
    """remember facts "deploy uses AKIA..." printed the key in the refusal (via the id) -> refused, key never shown."""
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", f"deploy uses {AWS_KEY_ID}", author="user")
    assert not _echoes(info.value, AWS_KEY_ID)
    assert not _echoes(info.value, AWS_KEY_ID.lower())  # the generated slug is lower case
    assert "summary" in str(info.value)
    assert not list(tmp_path.rglob("*.md"))


def test_fault_secret_in_slug_not_echoed(
    store: CuratedMemory, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--slug ghp_... put the token in the error message -> the slug is scanned and refused without echo."""
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", "ci token location", author="user", slug=GITHUB_TOKEN)
    assert not _echoes(info.value, GITHUB_TOKEN)
    assert "slug" in str(info.value)
    (tmp_path / "p").mkdir()
    roots = ["--project", str(tmp_path / "p"), "--global-root", str(tmp_path / "g")]
    assert 0 != main(["remember", "facts", f"deploy uses {AWS_KEY_ID}", *roots])
    assert 0 != main(["remember", "facts", "ci token location", "--slug", GITHUB_TOKEN, *roots])
    out = capsys.readouterr()
    assert AWS_KEY_ID not in out.err + out.out and AWS_KEY_ID.lower() not in out.err + out.out
    assert GITHUB_TOKEN not in out.err + out.out
    assert not list(tmp_path.rglob("*.md"))


def test_fault_bulk_refusal_label_does_not_echo(store: CuratedMemory) -> None:
    """remember_many named a refused item by its summary or slug, secret included -> the label is redacted."""
    result = store.remember_many(
        [
            {"category": "facts", "summary": f"key {AWS_KEY_ID}"},
            {"category": "facts", "summary": "fine summary", "slug": GITHUB_TOKEN},
        ],
        author="user",
    )
    assert [] == result.written
    shown = repr(result.refused)
    assert AWS_KEY_ID not in shown and GITHUB_TOKEN not in shown


def test_fault_secret_line_is_counted_in_the_users_text(store: CuratedMemory) -> None:
    """A one-line body was reported as "line 14" (of the generated file) -> "body ... line 1" (the user's line)."""
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", "db access", "password = " + "Tq8zP2wLx9Kd", author="user")
    message = str(info.value)
    assert "body" in message and "line 1," in message, message
    with pytest.raises(SecretRefusedError) as info:
        store.remember("facts", "db access", "first line\n\nthird: token = " + AWS_SECRET, author="user")
    assert "line 3," in str(info.value), str(info.value)


def _tree(tmp_path: Path) -> tuple[MemoryTree, Writer]:
    root = tmp_path / "data" / "memory"
    root.mkdir(parents=True)
    worktree = tmp_path / "wt"
    worktree.mkdir()
    return MemoryTree(root), Writer(agent="main", session_id="S1", project_id="P1", worktree=worktree)


def test_fault_secret_split_across_appends(tmp_path: Path) -> None:
    """append("export AWS_SECRET_ACCESS_KEY=") then append(value) stored the key -> the second append is refused."""
    tree, who = _tree(tmp_path)
    notes = tree.notes("S1")
    tree.append(notes, "export AWS_SECRET_ACCESS_KEY=", who)
    with pytest.raises(SecretRefusedError) as info:
        tree.append(notes, AWS_SECRET, who)
    assert not _echoes(info.value, AWS_SECRET)
    assert AWS_SECRET not in notes.read_text(encoding="utf-8")
    tree.append(notes, "an ordinary entry", who)  # the old text alone does not block later appends


def test_fault_secret_in_file_name_refused(tmp_path: Path) -> None:
    """tree.write(<dir>/ghp_....md) stored and indexed the token as a file name -> refused, name not echoed."""
    tree, who = _tree(tmp_path)
    target = tmp_path / "wt" / "notes" / f"{GITHUB_TOKEN}.md"
    with pytest.raises(SecretRefusedError) as info:
        tree.write(target, "harmless text", who)
    assert not _echoes(info.value, GITHUB_TOKEN)
    assert not target.exists()


# Realistic fakes of shapes the scanner missed (provider tokens, command-line and table passwords, split PEM).
MISSED_BEFORE = [
    "gitlab deploy token gldt-" + "4xI0zvy4Zr9moEHZhNX2",
    "app-level token xapp-1-A1T6APR1H42-6974397230183-"
    + "0887bee1afbfa45289e0082c358452358902ff3177e7e8c92637e64b6ba0865e",
    "Twilio API key SK" + "d5eb7be5d17bfc4f6e75bcc05bf159a7",
    "mailgun private key key-" + "25c456a9920597ecfe5127ec1a099205",
    "bot token NjYzODI3MzU4Njc2NDc2MzYw.yqdJtY." + "NL4ag77HY484czEHx18MSMjuqmC_m2cIOEqRBO",
    "telegram bot 4629744349:" + "AAmoH-6KD_GUN8H34Qi46xxanAEt6tNmhFv",
    "mysql -uroot -p" + "Vo21gRRcuQDd" + " -e 'show databases'",
    "export PGPASSWORD='" + "XchGGhB9bVcXoj'",
    "docker login --password " + "5MuGJ24HzF8vDlhc" + " --username ci",
    "| host | login | password |\n|------|-------|----------|\n| db01 | root | " + "65OUv2^Ici#b |",
    "-----BEGIN\nRSA PRIVATE KEY-----\nW4dOG2imgP8tSjwooibfU5laq7+HcI17zG2wxKc3T8/86Lawxen1iXwwt1+Ar3DU",
    'pem = "-----BEGIN EC " + "PRIVATE KEY-----\\nycTjtUaC2xfALZAK9UUFNWehBxqx6GGJ5QfhneYm84feTVhm9MQsifZD"',
]


@pytest.mark.parametrize("text", MISSED_BEFORE, ids=lambda t: t[:20])
def test_fault_wider_secret_coverage(text: str) -> None:
    """Provider tokens, command-line/table passwords and split PEM headers passed -> each is flagged."""
    assert scan_secrets(text), text


def test_fault_inspect_and_lookups_do_not_echo(store: CuratedMemory) -> None:
    """inspect listed a hand-made file's token-bearing name and summary; lookups echoed the id -> redacted."""
    store.remember("facts", "a normal memory", author="user")
    facts = store.roots["project"] / "facts"
    (facts / f"{GITHUB_TOKEN}.md").write_text(f"---\nsummary: deploy key {AWS_KEY_ID}\n---\nbody\n", encoding="utf-8")
    store.reload()
    report = store.inspect()
    shown = repr(report)
    assert GITHUB_TOKEN not in shown and AWS_KEY_ID not in shown
    assert any(p.kind == "secret" for p in report.problems)
    for bad_id in (f"facts/{GITHUB_TOKEN}x", f"nope/{GITHUB_TOKEN}", GITHUB_TOKEN):
        with pytest.raises(LookupError if bad_id.startswith("facts/") else ValueError) as info:
            store.get(bad_id)
        assert not _echoes(info.value, GITHUB_TOKEN), info.value


@pytest.mark.parametrize(
    "text",
    [
        "Authorization: Ba\u017fic dXNlcjpodW50ZXIy",  # long s: the pattern matches it as "s", lower() kept it
        "Authorization: BAS\u0130C dXNlcjpodW50ZXIy",  # dotted capital I: lower() gives "i" + combining dot
        "Authorization: Basic dXNlcjpodW50ZXIy",  # the plain spelling, for comparison
    ],
)
def test_fault_lookalike_letters_do_not_hide_a_secret_from_the_needle_check(text: str) -> None:
    assert scan_secrets(text), text
