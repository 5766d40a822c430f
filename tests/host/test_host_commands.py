"""The gate of issue 31.3: every command and path mimomem's injected instructions name works when
the agent runs it inside the real host, exactly as written, on both install routes.

Each route installs mimomem off the agent's PATH, runs a session that states a rule and a fact,
then a session whose model runs, as Bash calls, every command and path its injected
instructions name (``mimomem.bench.host.commands.measure``).  All must exit 0 (before: 4 of 12).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from host_sandbox import pure_pass

from mimomem.bench.host import Host
from mimomem.bench.host.commands import measure


@pytest.mark.parametrize("route", ["settings", "plugin"])
def test_every_named_command_works_in_the_host(
    tmp_path: Path, host: Host, route: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if pure_pass():
        pytest.skip("pure pass: a measurement of the commands, whose outcome does not depend on the tokenizer twin")
    report = measure(tmp_path, host, route)
    kinds = {o.command.kind for o in report.outcomes}
    assert {"command", "path"} <= kinds
    assert any("mimomem search" in o.command.line for o in report.outcomes)  # the command by its absolute path
    assert all(o.exit_code >= 0 for o in report.outcomes), report.table()  # the host ran every one
    with capsys.disabled():
        print("\n" + report.table())
    assert report.failing == [], report.table()
    assert {"note", "search"} <= {o.command.line.split()[1] for o in report.outcomes if o.command.kind == "command"}
