"""The relevance gate by structure: the project's own vocabulary or a contracted auxiliary makes no prompt relevant."""

from __future__ import annotations

from mimomem.context.stale import words
from mimomem.served.entries import Entry
from mimomem.served.entry_recall import query_terms, rank, terms_text


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
