"""The user's own list under a heading that names norms (history/sentence_list.py): each line a rule,
whatever its form; and the readers' fixes others reported (a key and its value, 請求, let's, a dotfile)."""

from __future__ import annotations

import pytest

from mimomem.history.episode import Said
from mimomem.history.sentence import REQUEST, sentence_type
from mimomem.history.sentence_list import norm_heading
from mimomem.passes.promote_items import said_items, sentences


def _kept(text: str) -> list[tuple[str, str]]:
    return [(i.section, i.text) for i in said_items(Said(text, "typed", "s", 0))]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("My rules for this repo:\nUse conventional commits.\nKeep the changelog updated.", "conventional commits"),
        ("Ground rules, since you're new here:\n- we use pnpm, not npm\n- no default exports", "pnpm"),
        ("团队规范\n接口一律返回 JSON\n日志统一打到 stdout", "stdout"),
    ],
)
def test_each_line_under_a_heading_of_norms_is_a_rule(text: str, rule: str) -> None:
    assert any(s == "Rules" and rule in t for s, t in _kept(text)), _kept(text)


def test_a_heading_needs_a_list_and_a_norm_noun() -> None:
    assert norm_heading(sentences("My rules for this repo:\nUse conventional commits."), "a\nb") == 0
    assert norm_heading(sentences("Rules for this PR:\nrename it"), "a\nb") == -1  # one instance
    assert norm_heading(sentences("Some notes:\nthe box is ci-7"), "a\nb") == -1
    assert norm_heading(["My rules: use pnpm"], "My rules: use pnpm") == -1  # one line, no list
    assert not any(s == "Rules" for s, _ in _kept("Some notes:\nthe build box is ci-7.example.com"))


@pytest.mark.parametrize(
    ("text", "part"),
    [
        ("key rotation: every 45 days", "key rotation: every 45 days"),  # the key stays with its value
        ("mail provider: SES", "mail provider: SES"),
        ("請求サービスのレビューは田中さんが担当です", "請求サービス"),  # 請求 is no "please"
    ],
)
def test_a_key_and_its_value_are_kept_together(text: str, part: str) -> None:
    assert any(part in t for _, t in _kept(text)), _kept(text)


def test_let_us_and_a_dotfile_object_are_orders() -> None:
    assert sentence_type("Let's bump the pool to 40 and see whether the p99 drops.") == REQUEST
    assert sentence_type("Update .nvmrc and the engines field in package.json.") == REQUEST
    assert _kept("Let's always squash when merging.") == [("Rules", "Let's always squash when merging")]


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("ended up picking Celery because it already ships with our base image", "Celery"),
        ("settled: Redis for the queue. RabbitMQ was overkill for our volume", "overkill"),
        ("decision: monorepo with pnpm workspaces, polyrepo made versioning a nightmare", "monorepo"),
        ("logging is going to be structlog, stdlib logging was too noisy to parse", "structlog"),
        ("前端框架就 Vue 了，团队都会", "Vue"),
        ("認証は Auth0 をやめて Cognito に寄せます。コストの問題です", "コスト"),
        ("프론트는 Svelte 로 가요, 번들이 작아서", "Svelte"),
    ],
)
def test_a_decision_without_a_listed_choice_verb(text: str, choice: str) -> None:
    assert any(s == "Architecture decisions" and choice in t for s, t in _kept(text)), _kept(text)


def test_weighing_a_choice_or_an_event_to_come_is_no_decision() -> None:
    assert _kept("Svelte にするか迷ってます") == []
    assert _kept("the release is going to be late") == []


@pytest.mark.parametrize(
    ("text", "section", "part"),
    [
        (
            "哈哈收到～对了，备份都在 oss://kestrel-backup 里面，每天凌晨打一次。",
            "Discovered durable knowledge",
            "oss://",
        ),
        ("跟你讲一下，我们的镜像仓库是 harbor.kestrel.cn:5000 哈", "Discovered durable knowledge", "5000"),
        ("on-call rota owner = dana k", "Discovered durable knowledge", "dana k"),
        ("合并到 main 之前至少要一个人 review，这是我们组的规矩哈", "Rules", "review"),
        ("かならずマスクしてからおねがいします。", "Rules", "マスク"),
        ("依赖升级得先在 staging 跑满 24 小时再上生产", "Rules", "24 小时"),  # 先…再: an order of steps
    ],
)
def test_chatty_particles_kana_spellings_and_a_self_labelled_norm(text: str, section: str, part: str) -> None:
    kept = _kept(text)
    assert any(s == section and part in t for s, t in kept), kept
    assert not any("哈哈" in t or t.endswith("哈") for _, t in kept)


def test_a_polite_request_ending_on_a_particle_is_no_rule() -> None:
    assert _kept("麻烦把 gateway.yml 里的超时调成 10 秒，谢谢啦") == []  # 超时 is "timeout", no 时 of occasion


def test_a_heading_of_norms_before_a_colon_is_a_lead_in() -> None:
    from mimomem.passes.promote_items import _after_lead_in

    assert _after_lead_in("先说好几条规矩：提交信息用中文写，开头加模块名") == "提交信息用中文写，开头加模块名"
