"""``hooks.install``: merging mimomem's hooks into Claude Code settings, and taking exactly them out again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mimomem.errors import SettingsFileError
from mimomem.hooks.install import EVENTS, install, strip, uninstall

COMMAND = "/opt/venv/bin/mimomem hook claude-code"


@pytest.fixture
def settings(tmp_path: Path) -> Path:
    path = tmp_path / "repo" / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    return path


def commands(path: Path) -> list[str]:
    hooks = json.loads(path.read_text(encoding="utf-8")).get("hooks", {})
    return [h["command"] for groups in hooks.values() for g in groups for h in g["hooks"]]


def test_uninstall_restores_the_file_byte_for_byte(settings: Path) -> None:
    original = b'{"model":"x",  "env": {"A": "1"}}'  # not as json.dumps would write it
    settings.write_bytes(original)
    assert install(settings, COMMAND).events == list(EVENTS)
    change = uninstall(settings)
    assert change.restored and change.events == list(EVENTS)
    assert settings.read_bytes() == original
    assert sorted(p.name for p in settings.parent.iterdir()) == ["settings.json"]  # the backup, now the file, gone


def test_uninstall_keeps_what_the_user_changed_since(settings: Path) -> None:
    theirs = {"type": "command", "command": "say done"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [theirs]}]}}), encoding="utf-8")
    install(settings, COMMAND)
    edited = json.loads(settings.read_text(encoding="utf-8"))
    edited["model"] = "later"
    edited["hooks"]["SessionStart"][0]["hooks"].append({"type": "command", "command": "echo hi"})
    settings.write_text(json.dumps(edited), encoding="utf-8")
    change = uninstall(settings)
    assert not change.restored and change.backup is not None
    after = json.loads(settings.read_text(encoding="utf-8"))
    assert after["model"] == "later" and set(after["hooks"]) == {"Stop", "SessionStart"}
    assert commands(settings) == ["say done", "echo hi"]


def test_uninstall_removes_a_file_install_created(settings: Path) -> None:
    settings.parent.rmdir()
    install(settings, COMMAND)
    assert commands(settings) == [COMMAND] * len(EVENTS)
    assert uninstall(settings).restored
    assert not settings.parent.exists()


def test_install_repoints_an_old_path_dependent_hook_instead_of_adding_one(settings: Path) -> None:
    install(settings, "mimomem hook claude-code")
    change = install(settings, COMMAND)
    assert change.events == list(EVENTS) and commands(settings) == [COMMAND] * len(EVENTS)
    assert install(settings, COMMAND).events == []


def test_strings_json_can_hold_round_trip(settings: Path) -> None:
    settings.write_text('{"odd": "\\ud800 lone", "cjk": "部署"}', encoding="utf-8")
    install(settings, COMMAND)
    loaded = json.loads(settings.read_text(encoding="utf-8"))
    assert loaded["odd"] == "\ud800 lone" and loaded["cjk"] == "部署"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"a": 1, "a": 2}', "appears twice"),
        ('{"a": NaN}', "NaN"),
        ('{"a": 0.10000000000000000000001}', "cannot be written back"),
        ("[1]", "does not hold a JSON object"),
        ('{"hooks": []}', "'hooks' is not an object"),
    ],
)
def test_what_cannot_be_written_back_is_refused_untouched(settings: Path, text: str, said: str) -> None:
    settings.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsFileError, match=said):
        install(settings, COMMAND)
    assert settings.read_text(encoding="utf-8") == text
    assert list(settings.parent.iterdir()) == [settings]


def test_strip_only_takes_mimomem_entries() -> None:
    mixed = {
        "hooks": {
            "SessionStart": [
                {"hooks": [{"command": "python3 -P -m mimomem hook claude-code"}, {"command": "mimomem-other"}]}
            ],
            "Stop": [{"hooks": [{"command": "say mimomem hook claude-code done"}]}],
        }
    }
    stripped, removed = strip(mixed)
    assert removed == ["SessionStart"]
    assert stripped == {
        "hooks": {
            "SessionStart": [{"hooks": [{"command": "mimomem-other"}]}],
            "Stop": [{"hooks": [{"command": "say mimomem hook claude-code done"}]}],
        }
    }


def test_the_settings_hold_one_command_hook_per_event_beside_the_users_own(settings: Path) -> None:
    own = {"matcher": "", "hooks": [{"type": "command", "command": "echo started"}]}
    settings.write_text(json.dumps({"hooks": {"SessionStart": [own]}, "model": "opus"}), encoding="utf-8")
    change = install(settings, COMMAND)
    assert sorted(change.events) == sorted(EVENTS) and change.backup is not None
    data = json.loads(settings.read_text(encoding="utf-8"))
    assert data["model"] == "opus" and set(data["hooks"]) == set(EVENTS)
    assert data["hooks"]["SessionStart"][0] == own  # the user's hook first, untouched
    for event in EVENTS:
        ours = [h for g in data["hooks"][event] for h in g["hooks"] if h["command"] == COMMAND]
        assert ours == [{"type": "command", "command": COMMAND, "timeout": 10}], event
    assert install(settings, COMMAND).events == []  # a second install changes nothing


def test_a_symlinked_settings_file_is_updated_at_its_target(settings: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "claude-settings.json"
    real.parent.mkdir()
    real.write_text('{"model": "opus"}', encoding="utf-8")
    settings.symlink_to(real)
    change = install(settings, COMMAND)
    assert change.path == real and settings.is_symlink()
    assert commands(real) == [COMMAND] * len(EVENTS)
    uninstall(settings)
    assert settings.is_symlink() and json.loads(real.read_text(encoding="utf-8")) == {"model": "opus"}


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"hooks": ["SessionStart"]}', "'hooks' is not an object"),
        ('{"hooks": {"SessionStart": {"matcher": ""}}}', "hooks.SessionStart is not a list"),
        ("[1, 2]", "does not hold a JSON object"),
        ("\xff", "is not valid JSON"),
    ],
)
def test_settings_of_the_wrong_shape_are_refused_and_left_alone(settings: Path, text: str, said: str) -> None:
    settings.write_bytes(text.encode("latin-1") if text == "\xff" else text.encode())
    before = settings.read_bytes()
    with pytest.raises(SettingsFileError, match=said):
        install(settings, COMMAND)
    assert settings.read_bytes() == before
    assert list(settings.parent.iterdir()) == [settings]  # no backup either


def test_backups_take_the_next_free_number_and_never_replace_one(settings: Path) -> None:
    settings.write_text('{"model": "a"}', encoding="utf-8")
    for number, text in ((1, "old one"), (3, "old three")):
        settings.with_name(f"settings.json.bak.{number}").write_text(text, encoding="utf-8")
    change = install(settings, COMMAND)
    assert change.backup == settings.with_name("settings.json.bak.4")
    assert change.backup.read_text(encoding="utf-8") == '{"model": "a"}'
    assert settings.with_name("settings.json.bak.1").read_text(encoding="utf-8") == "old one"
    assert oct(change.backup.stat().st_mode & 0o777) == "0o600"


def test_a_mistyped_project_or_a_directory_in_the_way_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SettingsFileError, match="does not exist"):
        install(tmp_path / "no-such-repo" / ".claude" / "settings.json", COMMAND)
    assert not (tmp_path / "no-such-repo").exists()
    folder = tmp_path / "repo" / ".claude" / "settings.json"
    folder.mkdir(parents=True)
    with pytest.raises(SettingsFileError, match="is not a regular file"):
        install(folder, COMMAND)
    (tmp_path / "repo2").mkdir()  # an existing project without .claude/: the folder is made
    created = install(tmp_path / "repo2" / ".claude" / "settings.json", COMMAND)
    assert created.backup is None and commands(created.path) == [COMMAND] * len(EVENTS)
