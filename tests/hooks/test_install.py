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
