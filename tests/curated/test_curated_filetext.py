"""The emitter-free frontmatter renderer gives exactly the YAML library's bytes, or declines."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.common import frontmatter
from mimomem.curated.filetext import fast_serialize, scalar

WORDS = ["deploy", "部署", "调试", "#1", " #12", ": ", ":", "'", '"', "-", ".", "/", "yes", "No", "null", "~", "a"]
WORDS += ["true", "1.5", "0x1F", "2026-11-30T00:00:00Z", "2026-11-30", " ", "@x", "*", "&", "!", "%", "`", "?", ","]
WORDS += ["[", "]", "{", "}", "|", ">", "\t", "\n", "\u2028", "\xa0", "é", "ß", "---", "...", "<<", "=", "e3", "inf"]
values = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=8).map("".join)
metas = st.fixed_dictionaries(
    {
        "id": values,
        "kind": values,
        "summary": values,
        "highlight": values,
        "created": values,
        "load_when": st.lists(values, max_size=3),
        "pinned": st.booleans(),
        "supersedes": st.one_of(st.none(), values),
        "author": values,
    }
)


@settings(max_examples=500, deadline=None)
@given(metas, values)
def test_fast_serialize_is_the_yaml_dumpers_output_or_declines(meta: dict, body: str) -> None:
    fast = fast_serialize(meta, body)
    if fast is not None:
        assert fast == frontmatter.serialize(meta, body)


SAFE = ["deploy", "部署", "调试", " ", "#1", " #12", ": ", "'", "-", ".", "/", "a", "B", "x9", "yes", "é", ":"]
safe_values = st.lists(st.sampled_from(SAFE), max_size=6).map("".join)


@settings(max_examples=500, deadline=None)
@given(st.lists(safe_values, min_size=1, max_size=4))
def test_fast_path_values_match_the_dumper(texts: list[str]) -> None:
    meta = {"summary": texts[0], "load_when": texts[1:], "pinned": True}
    fast = fast_serialize(meta, "")
    if fast is not None:
        assert fast == frontmatter.serialize(meta, "")


def test_typical_memory_headers_take_the_fast_path() -> None:
    meta = {
        "id": "facts/db-port",
        "kind": "fact",
        "summary": "数据库 port is 5433 #7",
        "highlight": "",
        "created": "2026-11-30T00:00:00Z",
        "updated": "2026-11-30T00:00:00Z",
        "load_when": ["deploy", "部署"],
        "pinned": False,
        "supersedes": None,
        "superseded_by": None,
        "author": "user",
    }
    fast = fast_serialize(meta, "body text")
    assert fast is not None and fast == frontmatter.serialize(meta, "body text")
    assert scalar("yes") is None and scalar("a\nb") is None and scalar("it's: x") == "'it''s: x'"


def test_characters_beyond_the_basic_plane_are_left_to_the_yaml_library() -> None:
    """libyaml writes an emoji or a CJK extension-B character as a ``\\U`` escape in double quotes:
    the renderer must not write it raw, or a new file's bytes (and its size, checked against the
    limit) would depend on which path rendered it."""
    for value in ["ship it \U0001f680", "\U00020000 characters", "deploy: \U0001f680", "\U0001f680"]:
        meta = {"summary": value, "load_when": ["x", value]}
        assert fast_serialize(meta, "body") in (None, frontmatter.serialize(meta, "body"))
        assert scalar(value) in (None, frontmatter.serialize({"v": value}, "")[len("---\nv: ") : -len("\n---\n")])
