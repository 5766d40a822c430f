"""Helpers of the real-host tests: the switches and a prepared sandbox."""

from __future__ import annotations

import os
from pathlib import Path

from mimomem.bench.host import Host, Sandbox

REQUIRE_ENV = "MIMOMEM_REQUIRE_HOST"
"""``1`` (``.ci/run`` sets it): the real host must run; its absence fails the suite instead of skipping."""


def host_required() -> bool:
    return os.environ.get(REQUIRE_ENV) == "1"


def pure_pass() -> bool:
    return os.environ.get("MIMOMEM_PURE", "") not in ("", "0")


def sandbox(tmp_path: Path, host: Host, route: str, files: dict[str, str] | None = None) -> Sandbox:
    """A sandbox under ``tmp_path`` with mimomem installed by ``route``."""
    return Sandbox(tmp_path / route, host, route=route).prepare(files)
