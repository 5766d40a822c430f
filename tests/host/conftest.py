"""The real-host suite: Claude Code's own CLI (from the ``claude-agent-sdk`` wheel) against the stand-in.

Where the binary is missing or cannot run these tests skip with the reason, except when
``MIMOMEM_REQUIRE_HOST=1`` (set by ``.ci/run``): then that is a failure, so CI never passes
without having driven the real host.  They run in the native pass only: the hooks inside the
host are mimomem processes like any other, and the pure pass (``MIMOMEM_PURE=1``) covers the
same code through the hook tests that replay payloads; one real session runs pure
(``test_pure_session``) so the pure twins are seen behind the real host too.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from host_sandbox import REQUIRE_ENV, host_required

from mimomem.bench.host import Host, StandIn, find_host
from mimomem.errors import HostUnavailableError


@pytest.fixture(scope="session")
def host() -> Host:
    try:
        return find_host()
    except HostUnavailableError as exc:
        if host_required():
            pytest.fail(f"{REQUIRE_ENV}=1 but the real host cannot run: {exc}")
        pytest.skip(f"the real Claude Code CLI cannot run here: {exc}")


@pytest.fixture
def model() -> Iterator[StandIn]:
    with StandIn() as standin:
        yield standin
