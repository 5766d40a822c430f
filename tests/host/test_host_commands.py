"""A measurement, not yet a gate: the commands mimomem's injected instructions name, run by the agent.

Each route installs mimomem off the agent's PATH, runs a session that states a rule and a fact,
then a session whose model runs, as Bash calls, every command and path its injected
instructions name (``mimomem.bench.host.commands.measure``).  This test checks the measurement
itself (it found the commands, the host ran each one) and prints the table; turning it into the
gate of issue 31.3 is ``assert report.failing == []``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from host_sandbox import pure_pass

from mimomem.bench.host import Host
from mimomem.bench.host.commands import measure


@pytest.mark.parametrize("route", ["settings", "plugin"])
def test_named_commands_are_measured(
    tmp_path: Path, host: Host, route: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if pure_pass():
        pytest.skip("pure pass: a measurement of the commands, whose outcome does not depend on the tokenizer twin")
    report = measure(tmp_path, host, route)
    kinds = {o.command.kind for o in report.outcomes}
    assert {"command", "path"} <= kinds
    assert any("mimomem search" in o.command.line for o in report.outcomes)
    assert all(o.exit_code >= 0 for o in report.outcomes), report.table()  # the host ran every one
    with capsys.disabled():
        print("\n" + report.table())
