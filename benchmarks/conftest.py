"""``pytest benchmarks/`` keeps mimomem's caches in a temporary directory, never ~/.cache/mimomem."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MIMOMEM_CACHE_DIR", str(tmp_path_factory.mktemp("mimomem-cache")))
        yield
