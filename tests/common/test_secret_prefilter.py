"""The scanner's prefilters (needle trie, assignment hint) never change a finding.

``reference_raw`` is the scanner as it was before the prefilters: one ``needle in text``
test per rule and every context rule on the whole text.  Hypothesis compares the two on
arbitrary text, with the alphabets that matter (needles, operators, case-fold look-alikes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mimomem.common import secret_context, secrets
from mimomem.common.secret_commands import OPTION_RULES
from mimomem.common.secret_connect import CONNECT_RULES
from mimomem.common.secret_labels import LABEL_RULES
from mimomem.common.secret_markup import MARKUP_RULES
from mimomem.common.secret_needles import NeedleFinder, needle_text, trie_pattern
from mimomem.common.secret_phrases import PHRASE_RULES
from mimomem.common.secret_records import RECORD_RULES
from mimomem.common.secret_shapes import NEEDLES, SHAPE_RULES
from mimomem.common.secret_values import password_value_ok

ALL_NEEDLES = sorted({n for needles in NEEDLES.values() for n in needles})


def reference_assignments(text: str) -> Iterator[tuple[str, int, int]]:
    for m in secret_context._ASSIGN.finditer(text):
        name = m.group("name")
        if secret_context.generic_value_is_secret(name, m.group("value")):
            kind = "password-assignment" if secret_context.PASSWORD_NAME.search(name) else "secret-assignment"
            yield kind, m.start("value"), m.end("value")


def reference_named_keys(text: str) -> Iterator[tuple[str, int, int]]:
    for pattern, entropy, kind in (
        (secret_context._AWS_SECRET, 3.5, "aws-secret-access-key"),
        (secret_context._NAMED_SECRET_40, 4.0, "aws-secret-access-key"),
        (secret_context._AZURE_KEY, 4.5, "azure-storage-key"),
    ):
        for m in pattern.finditer(text):
            if secret_context._random_base64(m.group(1), entropy):
                yield kind, m.start(1), m.end(1)


def reference_command_lines(text: str) -> Iterator[tuple[str, int, int]]:
    low = text.lower()
    for needles, pattern in zip(secret_context._CLI_NEEDLES, secret_context._CLI_PATTERNS, strict=True):
        if not any(n in low for n in needles):
            continue
        for m in pattern.finditer(text):
            value = m.group("value")
            if not value.startswith("-") and password_value_ok(value):
                yield "password-argument", m.start("value"), m.end("value")


def reference_raw(text: str) -> list[tuple[str, int, int]]:
    low = text.lower()
    out = []
    for kind, pattern, group, check in SHAPE_RULES:
        needles = NEEDLES.get(kind)
        if kind == "discord-bot-token":
            needles = None  # the rule ran on every text before it had a needle
        if needles is not None and not any(n in low for n in needles):
            continue
        for m in pattern.finditer(text):
            value = m.group(group)
            if check is None or check(value):
                out.append((kind, m.start(group), m.end(group)))
    replaced = {
        secret_context.named_keys: reference_named_keys,
        secret_context.assignments: reference_assignments,
        secret_context.command_line_passwords: reference_command_lines,
    }
    for record_rule in RECORD_RULES:
        out.extend(record_rule(text, prefilter=False))
    for rule in secret_context.CONTEXT_RULES:
        out.extend(replaced.get(rule, rule)(text))
    for structural_rule in MARKUP_RULES + CONNECT_RULES:  # their own guards only test what a match needs
        out.extend(structural_rule(text))
    for phrase_rule in PHRASE_RULES:
        out.extend(phrase_rule(text, prefilter=False))
    for label_rule in LABEL_RULES:
        out.extend(label_rule(text, prefilter=False))
    for option_rule in OPTION_RULES:  # no prefilter of its own
        out.extend(option_rule(text))
    return out


PIECES = [
    *ALL_NEEDLES,
    *(n.upper() for n in ALL_NEEDLES),
    *("api_key", "API_KEY", "password", "PGPASSWORD", "token", "secret", "auth", "pwd", "credential"),
    *(" = ", "=", ": ", ":", "=>", ":=", '"', "'", "`", "\n", " ", "\t", ".", "-", "_", "/"),
    *("mysql -p", "curl -u user:", "--password ", "sshpass -p ", "redis-cli -a ", "| password |\n|---|\n| ", "|"),
    *("--token ", "--api-key ", "vault login ", "Cookie: ", "sid=", "; ", "Authorization: Token ", " is ", "是"),
    *("密钥", "令牌", "为", "：", "the secret"),
    *("ſ", "ı", "İ", "\u212a", "ß", "密码", "口令"),  # case-fold look-alikes and CJK
    *("db:5432:app:u:", "*:*:*:", "/bot", "123456789:", "AAb3XyZ9qLm2Np8RtV4wKc7Hd5Fg1Js6Tu0Ve", "a\\:b"),
    *(
        "密碼",
        "パスワード",
        "は",
        "비밀번호",
        "는",
        "トークン",
        "PIN",
        "改成",
        " for the ",
        " / ",
        "、",
        "「",
    ),  # labels
    *("Xk9#mQ2$vL7pZ4wR", "a8F3kL9qX2mN7pR4tV6wY1zB5cD0eG8h", "hunter2"),
    *("AKIAIOSFODNN7ABCDEFG", "eyJhbGciOiJIUzI1NiJ9"),
]
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=12)), max_size=25).map("".join)


@settings(max_examples=600, deadline=None)
@given(texts)
def test_prefiltered_scan_equals_the_full_scan(text: str) -> None:
    assert list(secrets._iter_raw(text)) == reference_raw(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["ab", "abc", "abcd", "b", "bc", "x-", "-x", "a"]), min_size=1), texts)
def test_needle_finder_is_exact(needles: list[str], text: str) -> None:
    for trie_after in (0, 1):  # the trie at once, and the ``in`` tests first
        finder = NeedleFinder(needles, trie_after=trie_after)
        assert finder.present(text) == frozenset(n for n in needles if n in text)
        assert finder.present(text) == frozenset(n for n in needles if n in text)
        shapes = NeedleFinder(ALL_NEEDLES, trie_after=trie_after)
        low = text.lower()
        assert shapes.present(low) == frozenset(n for n in ALL_NEEDLES if n in low)


def test_needle_finder_sees_overlapping_and_nested_needles() -> None:
    finder = NeedleFinder(["sk", "sk-", "sk-ant-", "k-a", "ant"])
    assert finder.present("xsk-ant-y") == {"sk", "sk-", "sk-ant-", "k-a", "ant"}
    assert finder.present("s k") == frozenset()
    assert NeedleFinder([]).present("anything") == frozenset()
    assert trie_pattern(["a", "ab"]) == "a(?:b)?"


def test_bench_secrets_cases_findings_are_unchanged() -> None:
    """The labelled cases of ``benchmarks/bench_secrets.py`` (dev and held-out): every prefilter
    (needles, per-pattern words, the assignment hint) lets through all the full scan finds."""
    data = Path(__file__).parents[1] / "data" / "secrets"
    cases = [
        json.loads(line)
        for name in ("eval-trust.jsonl", "eval-trust-heldout.jsonl")
        for line in (data / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert len(cases) > 50
    for case in cases:
        text = case["text"]
        assert list(secrets._iter_raw(text)) == reference_raw(text), text


def test_corpus_findings_are_unchanged() -> None:
    files = sorted((Path(__file__).parents[1] / "data" / "secrets").rglob("*.txt"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        for case in [text, *text.split("\n"), *text.split("\n---\n")]:
            assert list(secrets._iter_raw(case)) == reference_raw(case), case


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aSſıİi\u0307K中 :=\n"), max_size=30))
def test_needle_text_lowers_and_folds_look_alikes(text: str) -> None:
    folded = text.lower().replace("\u017f", "s").replace("\u0131", "i").replace("\u0307", "")
    assert needle_text(text) == folded
    assert needle_text(text) == folded  # asked again (the answer for the last text is kept)
    assert needle_text(text + "x") == folded + "x"
