"""A prompt's terms: where each word is, and whether English writes it as a name."""

from __future__ import annotations

import re

import pytest

from mimomem.served.prompt_terms import ACRONYM, OBJECT, PROPER, query_terms, written_as_name


def _names(prompt: str) -> dict[str, str]:
    words = ((m.group(), written_as_name(prompt, m.start(), m.end())) for m in re.finditer(r"[A-Za-z]+", prompt))
    return {w: kind for w, kind in words if kind}


@pytest.mark.parametrize(
    ("prompt", "names"),
    [
        ("In general, what is React's useMemo hook for?", {"React": PROPER, "useMemo": PROPER}),
        ("What does the release pipeline post to Slack?", {"Slack": PROPER}),
        ("How do I convert a CSV file to JSON with jq?", {"CSV": ACRONYM, "JSON": OBJECT}),
        ("What is the staging API base URL?", {"API": ACRONYM, "URL": ACRONYM}),
        ("I think so. Slack is fine: Redis too", {}),  # I, and capitals opening a sentence or a clause
        ("数据库端口是多少？", {}),
    ],
)
def test_a_name_is_known_by_how_english_writes_it(prompt: str, names: dict[str, str]) -> None:
    assert _names(prompt) == names


def test_each_term_carries_its_name_kind() -> None:
    kinds = {t.tokens[0]: t.name for t in query_terms("How do I read a CSV file in Go?") if not t.alternative}
    assert kinds["go"] == PROPER and kinds["csv"] == ACRONYM and kinds["file"] == ""
