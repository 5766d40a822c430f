"""The native tokenizer's build-time character tables agree with ``_chars.py`` on the whole BMP."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import Implementation


@pytest.mark.native
def test_tables_come_from_the_build(native_implementation: Implementation) -> None:
    """A normal build carries the tables, so no process pays ~0.2 s to compute them."""
    import mimomem._native as native  # type: ignore[import-not-found]

    assert native.tables_source() == "build"


@pytest.mark.native
def test_every_bmp_code_point_tokenizes_like_the_reference(
    native_implementation: Implementation, pure_implementation: Implementation
) -> None:
    text = "".join(f"a{chr(cp)}b " for cp in range(0x20, 0x10000) if not 0xD800 <= cp <= 0xDFFF)
    assert native_implementation.tokenize_bigram(text) == pure_implementation.tokenize_bigram(text)
