"""The relevance gate by structure: the project's own vocabulary or a contracted auxiliary makes no prompt relevant."""

from __future__ import annotations

from mimomem.context.stale import words
from mimomem.served.entries import Entry
from mimomem.served.entry_gate import covered_words, matching, named_parts, unknown_words
from mimomem.served.entry_recall import rank
from mimomem.served.prompt_terms import query_terms, terms_text


def _entries(texts: list[str]) -> list[tuple[Entry, frozenset[str]]]:
    return [(Entry("notes.md", i + 1, t, "User requests", "", "2026-10-06"), words(t)) for i, t in enumerate(texts)]


BILLING = [
    *(f"The billing job for tenant group {n} runs every night." for n in range(11)),
    "The billing service retries a failed webhook three times; errors go to the dead-letter table.",
    "Invoice numbers come from the invoice_counters row, locked with SELECT FOR UPDATE.",
    "PayHarbor signs each webhook with HMAC-SHA256 in the X-PH-Signature header.",
    *(f"Step {n} of the staging runbook: check the tunnel to pg-staging, then the queue depth." for n in range(34)),
]
"""'billing' is in about a quarter of the entries, as the project's name is in a real project's memory."""


def test_a_prompt_matching_only_the_projects_own_words_gets_nothing() -> None:
    """'billing' is the project's own word: with 'service' (and template 'error') it is no match on two words."""
    terms = query_terms("Which Sentry project receives the billing service's errors?")
    assert rank(_entries(BILLING), terms) == []


def test_a_related_prompt_still_gets_its_entry() -> None:
    found = rank(_entries(BILLING), query_terms("How many times does the billing service retry a failed webhook?"))
    assert found and "three times" in found[0].entry.text
    found = rank(_entries(BILLING), query_terms("Which header carries the PayHarbor webhook signature?"))
    assert found and "X-PH-Signature" in found[0].entry.text


def test_a_negative_contraction_is_grammar_not_a_term() -> None:
    assert "isn" not in terms_text(query_terms("Why isn't the API base URL kept in .env?"))
    assert "don" not in terms_text(query_terms("Why don’t we use advisory locks?"))
    assert "doesn" not in terms_text(query_terms("The build doesn't start"))
    assert "don" in terms_text(query_terms("Don is the owner of the billing service"))  # a name, not don't


MEMORY = [
    "对账任务改到每天 03:15 跑，因为 02:30 跟数据库备份撞了。",
    "发票编号每个租户单独计数，按月重置，规则写在 services/invoice/numbering.py。",
    "本地测试库用 docker compose up -d db-test 起，端口是 55432。",
    "排序：批量开票时按 tenant 排序后依次加锁，避免死锁。",
    "publishing happens only in the release pipeline on ci-runner-03.",
    "The dashboard reads TIDEPOOL_API_BASE=https://api.staging.tidepool.dev from .env.development.local.",
    "TrendChart merges every line past the sixth into 其他.",
    "git commit -am then git push origin HEAD:deploy-fixes; never force push to main.",
    *(f"Session {n}: ran the unit tests and the lint, all green." for n in range(8)),
]
"""A small mixed memory: Chinese facts, English facts, names, and filler that every memory has."""


def _ranked(prompt: str) -> list[str]:
    return [r.entry.text for r in rank(_entries(MEMORY), query_terms(prompt))]


def test_a_chinese_prompt_whose_other_words_no_entry_holds_gets_nothing() -> None:
    """生产 and 保留 are words no entry holds: 数据库 and 备份 beside them do not make the backup entry relevant
    (the old gate weighed each unheld bigram a quarter, as if every one spanned two words)."""
    assert _ranked("生产数据库的备份保留多少天？") == []
    assert _ranked("发票金额的四舍五入规则是什么？") == []
    assert _ranked("测试覆盖率要达到多少？") == []
    assert _ranked("对账任务和数据库备份为什么撞了？")[0].startswith("对账任务改到")
    assert _ranked("发票编号按什么规则计数？")[0].startswith("发票编号")


def test_a_translation_counts_as_the_word_it_translates_not_as_another() -> None:
    """'sort' is 排序 in English: with 快速 (held nowhere) the prompt shares one word with the entry, not two."""
    terms = query_terms("帮我写个快速排序")
    assert "sort" in terms_text(terms)
    assert _ranked("帮我写个快速排序") == []
    sorting = [t for t in terms if terms_text([t])[0] in ("排序", "sort")]
    assert covered_words(sorting) == {0: 1}


def test_an_english_prompt_about_something_no_entry_holds_gets_nothing() -> None:
    assert _ranked("Which Slack channel does the release pipeline post to on Fridays?") == []
    assert _ranked("Where does the release pipeline run?")[0].startswith("publishing happens")


def test_an_unheld_word_that_is_part_of_a_name_the_entry_holds_is_covered() -> None:
    """'base' is part of TIDEPOOL_API_BASE: the entry holds what the prompt asks for under another spelling."""
    assert _ranked("What is the staging API base URL?")[0].startswith("The dashboard reads")
    latin = [t for t in query_terms("base url chart") if not t.alternative]
    assert named_parts(latin, "reads TIDEPOOL_API_BASE from TrendChart.tsx") == {0: 2}


def test_unknown_words_count_english_words_and_chinese_stretches() -> None:
    entries = _entries(MEMORY)
    for prompt, expected in (
        ("生产数据库的备份保留多少天？", 2),  # 生产, 保留 (多少 is a question word, 天 alone is no word)
        ("poetry 版本不支持，怎么解决？", 2.5),  # poetry (English: half), 不支持 (one word), 解决
        ("Which port does Redis listen on?", 1),  # redis, listen, half each: 端口, the translation of port, is held
        ("对账任务每天几点跑？", 0),
    ):
        terms = query_terms(prompt)
        postings = {tok: 0 for t in terms for tok in t.tokens}
        for i, (_, held) in enumerate(entries):
            for tok in postings.keys() & held:
                postings[tok] |= 1 << i
        counts, _ = unknown_words(terms, [matching(t, postings) for t in terms])
        assert sum(counts.values()) == expected, prompt


def test_a_remark_after_the_question_does_not_hide_what_it_asks() -> None:
    """Each sentence is weighed apart: the question's words are held, the remark's are not."""
    assert _ranked("本地测试库的端口是多少？部署前要确认一下，别搞错")[0].startswith("本地测试库")
    assert _ranked("The release pipeline is where we publish, right? Asking before the standup tomorrow morning.")


DASHBOARD = [
    "`pnpm -w lint` failed: 14:3 warning React Hook useEffect has a missing dependency: 'series'; fixed: [shown]",
    "Publishing happens only in the release pipeline on ci-runner-03.",
    "The release pipeline tags each version as web-v<version>.",
    "Staging moved: TIDEPOOL_API_BASE is now https://api.stg2.tidepool.dev (edited .env.development.local).",
    "The CSV export file is named tidepool-export-{yyyyMMdd}.csv; dates are UTC ISO strings.",
    "BIL-517: the exported CSV showed garbled characters when finance opened it in Excel; fixed with utf-8-sig.",
    *(f"Step {n} of the chart checklist: colours from the Okabe-Ito palette, at most 6 lines." for n in range(6)),
]


def test_a_sentence_naming_what_no_entry_holds_is_about_that() -> None:
    """Split-2 and split-3 distractors that got context: the entry shares the question's other words (React
    and hook, the release pipeline, a CSV file) but not the name the question is about (useMemo, Slack, Go,
    JSON): a name is the topic by how English writes it, the other unheld words may be the frame."""
    for prompt in (
        "In general, what is React's useMemo hook for?",
        "What does the release pipeline post to Slack?",
        "How do I read a CSV file in Go without loading it all into memory?",
        "How do I convert a CSV file to JSON with jq?",
    ):
        assert rank(_entries(DASHBOARD), query_terms(prompt)) == [], prompt


def test_a_name_the_question_asks_for_as_its_frame_does_not_hide_the_entry() -> None:
    """An acronym that is not a preposition's object is as often a common noun of the trade (the API base
    URL); a name the entry holds beside an unheld one keeps it (the CSV in Excel, the Chinese characters)."""
    for prompt, wanted in (
        ("What is the staging API base URL?", "api.stg2"),
        ("Why isn't the API base URL kept in .env?", "api.stg2"),
        ("What fixed the garbled Chinese characters when finance opened the exported CSV in Excel?", "utf-8-sig"),
        ("How does the release pipeline tag a version?", "web-v<version>"),
    ):
        found = rank(_entries(DASHBOARD), query_terms(prompt))
        assert found and wanted in found[0].entry.text, prompt


def test_an_unheld_word_in_a_prepositional_phrase_counts_whole() -> None:
    """gate-dev tp-g25: 'dev' and 'behind' held, 'corporate proxy' not: the phrase after a preposition names
    what the question is about, so its unheld words are no frame; a question whose phrase is held keeps its entry."""
    notes = [
        "The dev build listens on 5173, behind the Vite middleware; start it with pnpm dev.",
        "The e2e preview needs pnpm build first, then pnpm preview --port 4173.",
        *(f"Checklist item {n}: the release pipeline publishes from ci-runner-03." for n in range(8)),
    ]
    assert rank(_entries(notes), query_terms("How do I run the dev server behind a corporate proxy?")) == []
    found = rank(_entries(notes), query_terms("Which port does the dev build listen on?"))
    assert found and "5173" in found[0].entry.text
    terms = {t.tokens[0]: t.phrase for t in query_terms("How do I run the dev server behind a corporate proxy?")}
    assert terms["proxy"] and terms["corporate"] and not terms["dev"]
