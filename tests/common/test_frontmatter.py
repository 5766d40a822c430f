"""Frontmatter: parse never raises, problems are values, serialize round-trips."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from mimomem.common.frontmatter import parse, serialize


def test_parse_header_and_body() -> None:
    doc = parse("---\nid: facts/a\nsummary: 端口 5433\nload_when: [deploy, 部署]\npinned: true\n---\nbody line\n")
    assert doc.problem is None
    assert {"id": "facts/a", "summary": "端口 5433", "load_when": ["deploy", "部署"], "pinned": True} == doc.meta
    assert "body line\n" == doc.body
    assert 7 == doc.body_line


def test_missing_frontmatter_is_a_problem_not_an_error() -> None:
    doc = parse("# just markdown\n")
    assert doc.problem is not None and "missing" == doc.problem.kind
    assert "# just markdown\n" == doc.body


def test_unterminated() -> None:
    doc = parse("---\nsummary: x\nno closing fence\n")
    assert doc.problem is not None and "unterminated" == doc.problem.kind


def test_invalid_yaml_reports_the_line() -> None:
    doc = parse("---\nid: a\nsummary: [unclosed\nkind: fact\n---\nbody\n")
    assert doc.problem is not None and "yaml" == doc.problem.kind
    assert doc.problem.line >= 3
    assert "line" in str(doc.problem)
    assert {} == doc.meta


def test_not_a_mapping() -> None:
    doc = parse("---\n- a\n- b\n---\n")
    assert doc.problem is not None and "not-a-mapping" == doc.problem.kind


def test_unsafe_tags_are_not_executed() -> None:
    doc = parse("---\nx: !!python/object/apply:os.system ['echo pwned']\n---\n")
    assert doc.problem is not None and "yaml" == doc.problem.kind


def test_bom_crlf_and_empty_header() -> None:
    doc = parse("\ufeff---\r\nsummary: hi\r\n---\r\nbody\r\n")
    assert doc.problem is None and {"summary": "hi"} == doc.meta and "body\n" == doc.body
    empty = parse("---\n---\nonly body")
    assert empty.problem is None and {} == empty.meta and "only body" == empty.body


def test_serialize_keeps_key_order_and_quotes_dates() -> None:
    text = serialize(
        {
            "id": "facts/a",
            "summary": "x",
            "created": "2026-11-30T00:00:00Z",
            "when": ("a", "b"),
            "t": dt.datetime(2026, 1, 2),
        },
        "body",
    )
    assert text.startswith("---\nid: facts/a\nsummary: x\ncreated: '2026-11-30T00:00:00Z'\n")
    assert text.endswith("---\nbody\n")
    meta = parse(text).meta
    assert "2026-11-30T00:00:00Z" == meta["created"]  # stays a string, not a datetime
    assert ["a", "b"] == meta["when"]


def test_serialize_is_deterministic() -> None:
    meta = {"b": 1, "a": [1, 2], "c": {"z": 1, "y": 2}}
    assert serialize(meta, "x") == serialize(dict(meta), "x")


_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)  # type: ignore[arg-type]


@given(summary=_text, items=st.lists(_text, max_size=4), body=_text, pinned=st.booleans())
def test_round_trip(summary: str, items: list[str], body: str, pinned: bool) -> None:
    meta = {"summary": summary, "load_when": items, "pinned": pinned}
    doc = parse(serialize(meta, body))
    assert doc.problem is None
    assert meta == doc.meta
    expected_body = body if not body or body.endswith("\n") else body + "\n"
    assert expected_body.replace("\r\n", "\n") == doc.body  # CRLF is normalised, nothing else changes


# --- the header cache (used by the per-prompt hook path) ---

import datetime as _dt  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mimomem.common.frontmatter import HeaderCache, header_cache  # noqa: E402

_scalars = st.one_of(
    st.text(max_size=20),
    st.integers(-(10**6), 10**6),
    st.booleans(),
    st.none(),
    st.datetimes(min_value=_dt.datetime(2000, 1, 1), max_value=_dt.datetime(2100, 1, 1)),
)
_meta = st.dictionaries(
    st.text(alphabet="abcdefghij_", min_size=1, max_size=8),
    st.one_of(_scalars, st.lists(_scalars, max_size=4)),
    max_size=6,
)


@settings(max_examples=80, deadline=None)
@given(meta=_meta, body=st.text(max_size=40))
def test_cached_parse_equals_uncached(tmp_path_factory, meta, body) -> None:
    text = serialize(meta, body)
    path = tmp_path_factory.mktemp("cache") / "frontmatter.cache"
    plain = parse(text)
    with header_cache(path):
        first = parse(text)
    with header_cache(path) as cache:
        assert cache.entries  # the header was saved by the first block
        second = parse(text)
    assert plain == first == second


def test_corrupt_cache_is_ignored(tmp_path) -> None:
    path = tmp_path / "frontmatter.cache"
    path.write_bytes(b"\x00not marshal")
    text = "---\nid: facts/x\nsummary: 端口 5433\n---\nbody\n"
    with header_cache(path):
        assert parse(text).meta == {"id": "facts/x", "summary": "端口 5433"}
    assert HeaderCache(path).entries  # rewritten with a good entry
