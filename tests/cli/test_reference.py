"""The CLI reference page (docs/cli-reference.md) is generated from the parser, and every command documents itself."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from mimomem.cli import reference
from mimomem.cli.parser import build_parser

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli-reference.md"


def test_cli_reference_page_is_up_to_date():
    text = PAGE.read_text(encoding="utf-8")
    assert reference.START in text and reference.END in text, "docs/cli-reference.md lost the cli-reference markers"
    assert reference.replace_section(text, reference.render()) == text, (
        f"docs/cli-reference.md is out of date; run `{reference.UPDATE_COMMAND}` and commit it"
    )


def test_the_generator_writes_the_page_of_the_repository():
    """From a checkout (editable install) the default page is this repository's; from an installed wheel it is
    the same place relative to the package (where a checkout would have it), never README.md."""
    package_root = Path(reference.__file__).resolve().parents[2]
    assert reference.PAGE.relative_to(package_root) == Path("docs", "cli-reference.md")
    if package_root == PAGE.parents[1]:
        assert reference.PAGE == PAGE


def test_reference_does_not_depend_on_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    narrow = reference.render()
    monkeypatch.setenv("COLUMNS", "300")
    assert reference.render() == narrow
    assert max(len(line) for line in narrow.splitlines()) <= reference.WIDTH


def _subcommands(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name), sub
                yield from _subcommands(sub)


def test_every_subcommand_and_argument_has_help_text():
    subs = list(_subcommands(build_parser()))
    rendered = reference.render()
    assert len(subs) >= 15
    for _name, help_text, sub in subs:
        assert help_text and help_text.strip(), f"`{sub.prog}` has no help= in its add_parser call"
        assert f"### `{sub.prog}`" in rendered, f"`{sub.prog}` is missing from the reference"
        for action in sub._actions:
            if not isinstance(action, argparse._SubParsersAction):
                assert action.help, f"`{sub.prog}`: argument {action.dest!r} has no help text"


def test_reference_lists_every_command_once():
    rendered = reference.render()
    progs = [p.prog for p in reference.commands()]
    assert len(progs) == len(set(progs))
    assert [line[5:-1] for line in rendered.splitlines() if line.startswith("### `")] == progs


def test_replace_section_keeps_the_rest_and_needs_both_markers():
    doc = f"intro\n{reference.START}\nold\n{reference.END}\noutro\n"
    assert reference.replace_section(doc, "new\n") == f"intro\n{reference.START}\nnew\n{reference.END}\noutro\n"
    assert reference.replace_section("no markers", "x") is None
    assert reference.replace_section(f"{reference.START} only", "x") is None


def test_update_and_check_commands(tmp_path, capsys):
    page = tmp_path / "page.md"
    page.write_text(f"# x\n\n{reference.START}\nstale\n{reference.END}\nend\n", encoding="utf-8")
    assert reference.main(["--page", str(page), "--check"]) == 1
    assert reference.UPDATE_COMMAND in capsys.readouterr().err
    assert reference.main(["--page", str(page)]) == 0
    updated = page.read_text(encoding="utf-8")
    assert "### `mimomem search`" in updated and updated.endswith(f"{reference.END}\nend\n")
    assert reference.main(["--page", str(page), "--check"]) == 0
    page.write_text("no markers\n", encoding="utf-8")
    assert reference.main(["--page", str(page)]) == 2
    assert "markers" in capsys.readouterr().err
    assert reference.main(["--page", str(tmp_path / "missing.md")]) == 2


@pytest.mark.parametrize("command", [["--help"], ["search", "--help"], ["rules", "accept", "--help"]])
def test_help_exits_0(command, capsys):
    from mimomem.cli import main

    with pytest.raises(SystemExit) as exc:
        main(command)
    assert exc.value.code == 0
    assert capsys.readouterr().out.startswith("usage: mimomem")


def test_fault_every_argument_has_help_text():
    """`mimomem --help` listed COMMAND (rules, index, hook, install: SUBCOMMAND, HARNESS) bare -> each has help."""
    parsers = list(reference.commands())
    assert len(parsers) >= 15
    for parser in parsers:
        for action in parser._actions:
            what = "/".join(action.option_strings) or action.metavar or action.dest
            assert action.help and action.help.strip(), f"`{parser.prog}`: argument {what} has no help text"
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    assert choice.help and choice.help.strip(), f"`{parser.prog} {choice.dest}` has no help text"
