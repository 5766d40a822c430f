"""What changed between a failure and the run that passed (history/fix_diff.py)."""

from __future__ import annotations

from mimomem.history.fix_diff import command_change, is_typo, line_change


def test_the_lines_an_edit_changed() -> None:
    assert line_change("a\nb = 1\nc", "a\nb = 2\nc") == "`b = 1` -> `b = 2`"
    assert line_change("node_modules\ndist/\n.env", "node_modules\n.env") == "removed `dist/`"
    assert line_change("x()\n", "x()\n  y()\n") == "added `y()`"
    assert line_change("a\n  b", "a\nb") == ""  # only blank space moved


def test_the_words_a_command_gained_or_lost() -> None:
    assert command_change("pytest tests -x", "MAIL_BACKEND=console pytest tests -x") == "added `MAIL_BACKEND=console`"
    assert command_change("uvicorn app --reload --workers 4", "uvicorn app --reload") == "without `--workers 4`"
    assert command_change("make a", "docker compose up -d db --build --wait --pull always") == ""  # another command
    assert command_change("echo 'unbalanced", "echo 'unbalanced --x") == "added `--x`"


def test_a_typo_is_one_letter_or_a_swap_never_a_digit() -> None:
    assert is_typo("npm run tset", "npm run test") and is_typo("pytest t/test_paser.py", "pytest t/test_parser.py")
    assert not is_typo("pip install a==1.2.3", "pip install a==1.2.4")
    assert not is_typo("go test -race ./...", "go test ./...") and not is_typo("make up", "make down")


def test_a_long_line_changed_is_told_by_the_words_that_changed() -> None:
    tail = " ".join(f"w{n}" for n in range(30))
    assert line_change(f"link(t PRIVATE core) {tail}", f"link(t PRIVATE core ${{DL}}) {tail}") == (
        "`PRIVATE core)` -> `PRIVATE core ${DL})`"
    )
