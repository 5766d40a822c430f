"""What of one session is worth keeping for the project, found without a model.

From an :class:`~mimomem.history.episode.Episode` (provenance already decided):

- the user's standing instructions (always / never / 以后都 …) -> **Rules**;
- decisions, with the reason said in the same or the next sentence -> **Architecture decisions**;
- durable facts the user stated - a sentence naming a host, port, env var, version, path,
  ticket id or identifier, or saying what something is now ("注意 staging 数据库端口是
  5433", "we moved to Postgres 16") -> **Discovered durable knowledge**;
- failures with what actually fixed them (tool output supports the fact; it is withheld
  when it reads as an order) -> **Failures and fixes**;
- successful sequences of commands the model ran -> **Workflows** (never a command that
  fetches and runs remote code or touches credentials).

Only typed text becomes a rule, a decision or a fact.  Every item is cleaned of filler
(``Remember:``, ``记住：``, ``另外``, "please", "OK so") and carries who said it and when.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from mimomem.history.episode import Episode, Said, clip
from mimomem.history.pasted_shape import document_line
from mimomem.history.provenance import TYPED, reads_as_instruction
from mimomem.history.sentence import (
    QUESTION,
    REQUEST,
    STATEMENT,
    gives_reason,
    is_choice,
    is_imperative,
    is_prohibition,
    is_standing,
    is_written_norm,
    not_standing,
    sentence_type,
    strongly_scoped,
)
from mimomem.history.sentence_clause import ends_in_order
from mimomem.history.sentence_episode import of_the_session, state_now
from mimomem.history.sentence_fact import holds_a_role_or_place
from mimomem.history.sentence_fragment import is_fragment
from mimomem.history.sentence_frame import has_predicate, inceptive, opinion_or_hedge, topic_only
from mimomem.history.sentence_hant import folded
from mimomem.history.sentence_list import names_a_norm, norm_heading
from mimomem.history.sentence_moment import is_plan_or_guess
from mimomem.history.signals import is_trivial, normalize_command, statements_in
from mimomem.passes.promote_found import FOUND, value_items
from mimomem.passes.supersede import RETRACT, states_change
from mimomem.passes.supersede_words import CHANGE

RULES, DECISIONS, FACTS = "Rules", "Architecture decisions", "Discovered durable knowledge"
FAILURES, WORKFLOWS = "Failures and fixes", "Workflows"
SECTIONS = (RULES, DECISIONS, FACTS, FOUND, FAILURES, WORKFLOWS)
"""Sections of ``MEMORY.md`` promotion writes, most useful first."""

MAX_WORKFLOWS = 2
MAX_ITEM = 240
"""Characters of one promoted item at most."""

_FILLER = re.compile(
    r"^(?:(?:(?:remember|note|nb|fyi|keep in mind|heads[- ]up)(?:\s+that)?"
    r"|btw|by the way|also|oh|and|ok(?:ay)?(?: so)?|so|well|please|pls|hey|hi)\b[\s:,，：.!—–-]*"
    r"|(?:记住|记得|注意|另外|还有|還有|对了|對了|(?:跟你|和你|给你|給你)?(?:顺便|順便)?(?:说|說|講|讲|提|补充|補充|同步|说明|說明|交代|汇报|匯報)一?下(?=[\s:,，：、。!！])|好(?=[，,])|哈+|顺便提一?[下句]|順便提一?[下句]|顺带一提|順帶一提|顺便|順便|请(?!求)|請(?![求負願け])|麻烦|麻煩|好的|嗯|哦|那么|然后"
    r"|ちなみに|ついでに|참고로)[\s:,，：、。!！~～]*|(?:あと|それと|그리고)(?:[\s:,，：、。!！]+|$))+",
    re.I,
)
_TRAILING_PLEASE = re.compile(
    r"[,，]?\s*(?:please|thanks|thank you|谢谢啦?|謝謝啦?|谢啦)[.!。！~～]*$|\s*(?:哈+|啦|喔)$", re.I
)
_SENTENCE = re.compile(
    r"(?<=[。！？!?；;])|(?<=\.)(?=\s+[^\sa-z0-9\u3400-\u9fff])|\n+"
    r"|(?<=[ㅠㅜㅋㅎ]{2})\s+(?=\S)"
    r"|(?<=[a-z0-9]{3}\.)(?<!approx\.)(?<!etc\.)(?<!incl\.)(?<!excl\.)(?<!resp\.)(?=\s+[a-z]{2})"
)
"""Sentence ends: CJK and English punctuation, line breaks; a full stop ends a sentence before a word
that can open one (not "e.g. wren-eu-1", "i.e. never", "approx. 40", "v1. 2"), or before a lowercase
word after a word of three letters or more (writers who never capitalise: "makes sense. going forward …")."""
_LABELLED = re.compile(r"^[A-Za-z][\w .-]{1,30}(?::\s*[A-Z0-9~/.]|\s=\s*[\w~/.])[\w.@/:~+-]*(?:\s+[\w.@/:~+-]+){0,3}$")
_LABEL_WORD = re.compile(
    r"^(?:note|nb|fyi|heads[- ]up|update|quick \w+|reminder|todo|status|question|q|a|re|ps|edit|done)\b", re.I
)
_NOW_WORD = re.compile(r"现在|現在|\bnow\b", re.I)
_QUESTION = re.compile(r"[?？]\s*$|[吗呢么]\s*[。.]?\s*$")
_REASON = re.compile(r"^(?:because|since|as|the reason|reason:|so that|因为|由于|原因是|原因|理由是|这样|为了)", re.I)
_REASON_INSIDE = re.compile(r"\b(?:because|since|so that|to avoid|otherwise)\b|因为|由于|为了|以免|否则|原因是", re.I)
_DISTINCTIVE = re.compile(
    r"`[^`]+`|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]{2,}-\d+\b|\b\d{2,5}\b|\bv?\d+\.\d+(?:\.\d+)*\b"
    r"|\b(?=[\w-]*[A-Za-z])[\w-]{2,}(?:\.[\w-]+)*\.[A-Za-z][\w-]{1,}\b|\b(?![A-Za-z]{1,3}/[A-Za-z]{1,3}\b)[\w.-]+/[\w.-]+"
    r"|(?:^|\s)[~.]?/[\w.-]+(?:/[\w.-]+)*|\b[A-Za-z]+(?:[-_][A-Za-z0-9]+)+\b|#\d+\b"
)
"""Something only this project has: a code span, an env var, a ticket, a number, a version, a dotted
name (host, file.ext, package.module: the dot's parts two characters or more, so "e.g." is not one), a
path, a hyphenated or snake-case identifier, an issue number."""
_FACT_SHAPE = re.compile(
    r"\b(?:is|are|was|were|lives|runs|uses|use|points|set to|defaults? to|now|instead|moved|changed|switched|"
    r"called|named|means|requires|needs|only|must|goes|starts with|ends with|every|each|has to|have to)\b"
    r"|是|为|在|用|叫|改成|改为|换成|不再|现在|默认|需要|只|必须|放在|指向",
    re.I,
)
_CONVENTION = re.compile(r"规则是|格式是|约定是|规范是|\b(?:the )?(?:rule|convention|format) (?:is|here is)\b", re.I)
"""A sentence saying what a project convention is: a fact even without an identifier in it."""
_REQUEST = re.compile(
    r"^(?:(?:can you|could you|would you|help me|let me|try|look at|check|show me|tell me|explain|write|implement|"
    r"add|fix|create|refactor|run|make|update)\b|帮我|帮忙|看看|看一下|试试|能不能|可以帮|写一个|实现|修一下|修复|加一个|跑一下)",
    re.I,
)


@dataclass(frozen=True)
class Item:
    """One line to promote: its section, its text, who said it, the session and the time."""

    section: str
    text: str
    kind: str
    session_id: str
    time: int | None


def clean_text(text: str) -> str:
    """One line without leading filler or a trailing "please"; ``""`` when nothing is left."""
    flat = " ".join(text.split()).strip(" -*>")
    previous = None
    while previous != flat:
        previous, flat = flat, _FILLER.sub("", flat).strip()
    flat = _TRAILING_PLEASE.sub("", flat).strip()
    return clip(flat.rstrip("。.!！;；,，"), MAX_ITEM)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (Chinese and English punctuation, line breaks)."""
    return [s for s in (" ".join(raw.split()).strip(" -*>") for raw in _SENTENCE.split(text)) if len(s) >= 4]


def said_items(said: Said) -> list[Item]:
    """Rules, decisions (with their reason) and facts in one stretch the user typed.

    Each sentence is typed by its grammar first (:mod:`mimomem.history.sentence`): a question
    or a request to do something now is never kept.  A statement is a decision when it records
    a choice (unless it is a standing order or a ban), a rule when it is standing (modality with a
    scope beyond now), a fact when it names something specific.
    """
    out: list[Item] = []
    unsure: list[tuple[str | None, Item]] = []  # a list's generic lines: rules when a line of the list is one
    ruled = False
    parts = [_after_lead_in(p) for p in sentences(said.text)]
    attached = listed = -1
    norms = norm_heading(parts, said.text)  # "My rules for this repo:" - each line after it is a rule
    for i, sentence in enumerate(parts):
        read = folded(sentence)  # traditional Chinese read with the same closed classes ("以後…一律", "誰")
        flat = clean_text(read)
        if _INTRODUCES.search(sentence) and listed < 0:
            listed = i  # "A couple of house rules for this repo:" - the lines after it are its list
        if is_fragment(read) or _INTRODUCES.search(sentence) or topic_only(read):
            continue  # "credentials.yaml has", "A few conventions here:": a clause without what it waits for
        typed = sentence_type(flat)
        # a question is never kept, whatever modal word it holds ("提交前要跑什么脚本？" is no rule); a
        # request-shaped sentence is kept only when it is standing ("Always squash when merging."); an
        # opinion or a guess is neither a rule, a decision nor a fact
        if i == attached or len(flat) < 4 or typed == QUESTION or opinion_or_hedge(flat):
            continue
        if typed != STATEMENT and not is_standing(flat) and not (0 <= norms < i and typed == REQUEST):
            continue
        kind = _kind_of(flat)
        if kind is not None and _QUOTED.search(flat) and _kind_of(_QUOTED.sub(" “…” ", flat)) is None:
            kind = None  # the order is in quotation marks: someone else's words ("the README says 'always …'")
        following = parts[i + 1] if i + 1 < len(parts) else None
        split_decision = following and sentence.endswith((";", "；")) and is_choice(folded(f"{sentence} {following}"))
        if kind is None and split_decision:
            kind = "decision"  # "We're holding Django at 4.2.16 for now; 5.x breaks the admin theme"
        if kind == "decision" and following and _reason_follows(sentence, following):
            sentence = f"{sentence.rstrip('。.;；')}; {following}"
            attached = i + 1
        elif kind == "rule" and i and _PRONOUN_OBJECT.search(flat) and not _INTRODUCES.search(parts[i - 1]):
            sentence = f"{clean_text(parts[i - 1])}; {sentence}"  # "X is read from a.yaml. Don't commit it."
            if out and out[-1].text == clean_text(parts[i - 1]):
                out.pop()  # the fact is now part of the rule
        section = RULES if kind == "rule" else DECISIONS if kind == "decision" else FACTS if is_fact(flat) else None
        if 0 <= norms < i and not is_plan_or_guess(flat) and len(flat.split()) + len(flat) // 8 >= 2:
            section = RULES  # a line of the user's own list of norms ("Use conventional commits.")
        text = clean_text(sentence)
        if len(text) < 4:
            continue
        if 0 <= listed < i and section in (FACTS, None) and _UNIVERSAL.search(flat):
            unsure.append((section, Item(RULES, text, "user", said.session_id, said.time)))
            continue  # "every public function gets a docstring": a rule if its list holds one
        ruled = ruled or (0 <= listed < i and section == RULES)
        if section is not None:
            out.append(Item(section, text, "user", said.session_id, said.time))
    for was, item in unsure:
        if ruled or was is not None:
            out.append(item if ruled or was is None else replace(item, section=was))
    return out


def _kind_of(flat: str) -> str | None:
    """``"decision"`` for a choice (unless it is a standing ban or strongly scoped order), ``"rule"``
    for a standing instruction, else None."""
    stated = statements_in(flat)  # "Remember: X is 5" states a fact, not a rule
    legacy = stated[0].kind if stated else None
    standing = is_standing(flat) or (legacy == "rule" and not not_standing(flat))
    choice = is_choice(flat) or legacy == "decision"
    if choice and not (standing and (is_prohibition(flat) or strongly_scoped(flat))):
        return "decision"
    return "rule" if standing else None


_UNIVERSAL = re.compile(
    r"\b(?:every|each|all|any|no)\b|每|所有|任何|全部|모든|すべて|全て|各",
    re.I,
)
"""A quantifier over a kind of thing: a line of the user's list with one is a norm when its list holds a rule."""
_PRONOUN_OBJECT = re.compile(
    r"^\S+(?:\s+\S+){0,3}\s+(?:it|them|that|this one)(?:\s+(?:in|out|up|down|back|over|away|off|again))?\s*[.!]?$"
    r"|^.{1,8}(?:它|这个|那个)[。！]?$|^(?:それ|これ|그거|그것|이거)",
    re.I,
)
"""A short order whose object is only a pronoun ("Don't commit it."): it is about the sentence before."""
_LATIN_NAME = re.compile(
    r"\b[A-Z][A-Za-z0-9]+(?:[ -][A-Z][A-Za-z0-9]+)*|(?<![A-Za-z])[A-Za-z][A-Za-z0-9]{2,}(?![A-Za-z])"
)


def _reason_follows(decision: str, following: str) -> bool:
    """Whether ``following`` is the reason of ``decision``: it opens or ends like a reason ("Because …",
    "…ので。", "…때문이에요"), the decision ends on ";", or it is a plain statement about an alternative
    the decision does not name ("Settled on uv. Poetry was too slow on CI.") with no value of its own."""
    if _REASON_INSIDE.search(decision):
        return False
    if _REASON.match(following) or gives_reason(following) or decision.endswith((";", "；")):
        return True
    if sentence_type(following) != STATEMENT or is_standing(following) or is_choice(following):
        return False
    if _DISTINCTIVE.search(following) or (following.isascii() and not following[:1].isupper()):
        return False
    names = [n for n in _LATIN_NAME.findall(following) if n.casefold() not in decision.casefold()]
    return bool(names) and len(following) <= 160


_QUOTED = re.compile(r"[\"“「『][^\"“”「」『』]{2,}?[\"”」』]|(?<![A-Za-z])'[^']{3,}?'(?![A-Za-z])")
"""A span in quotation marks."""
_LEAD_IN = re.compile(r"^([^:：—–]{1,24}?)(?:\s*[:：]|\s+[—–-]{1,2}\s)\s*(\S.*)$")
_INTRODUCES = re.compile(r"(?:[:：]|\s[-–—]+|——)\s*$")
"""A sentence ending on a colon or a dash introduces what follows; alone it says nothing."""


_PRESENTATIVE = re.compile(
    r"^(?:here'?s|here is|here are|this is|that'?s)\b[^:：—–]{0,48}?(?:\s*[:：]|\s+[—–-]{1,2}\s)\s*(\S.*)$", re.I
)
"""A presentative head ("Here's how auth works:", "This is the important bit -") before a clause."""
_SUBJECT_VERB = re.compile(
    r"^(?:the|a|an|our|my|its|their|it|we|they|every|each|all|no)\s+(?:[\w.-]+\s+){0,3}[a-z]+(?:s|ed)\b", re.I
)
"""An English clause opening with its subject and a finite verb ("the worker reads …")."""


def _after_lead_in(sentence: str) -> str:
    """The sentence a short lead-in before a colon introduces: an order about noting it ("记一下：X 是
    <URL>", "メモしといて：…", "적어 두세요: …") or a label without a value ("Quick note: X is …", "ちなみに：…")
    before a whole clause.  A head that names something ("Staging DB: db-stg-1") is kept with its value."""
    shown = _PRESENTATIVE.match(sentence)
    if shown and (_whole_clause(shown.group(1)) or _SUBJECT_VERB.match(shown.group(1))):
        return shown.group(1)  # "This is the important bit - the worker reads …": the clause is what is said
    found = _LEAD_IN.match(sentence)
    if not found:
        return sentence
    head, rest = " ".join(found.group(1).split()), found.group(2)
    if _QUOTED.match(rest):
        return sentence  # what follows is quoted: the head says whose words they are
    if _DISTINCTIVE.search(head) or re.search(r"\d", head):
        return sentence
    if sentence_type(head) == REQUEST or ((topic_only(head) or names_a_norm(head)) and _whole_clause(rest)):
        return rest  # "记一下：…", "Update on the queue: it's RabbitMQ 3.13 on mq-1 now"
    label = (len(head.split()) <= 3 if head.isascii() else len(head) <= 6) and not (
        _FACT_SHAPE.search(head) or is_choice(head) or is_standing(head)
    )
    return rest if label and _whole_clause(rest) else sentence


_PREDICATE_END = re.compile(r"(?:です|ます|でした|ました|だ|だよ|た|る|い|よ|ね|다|요|죠|야)\s*[。.!！]?\s*$")


def _whole_clause(text: str) -> bool:
    """A statement with its own predicate: English with a verb, Japanese / Korean ending on one,
    Chinese with a copula or verb of state."""
    if text.isascii():
        verb = has_predicate(text) or is_standing(text) or is_choice(text)  # "every 45 days" has none
        return len(text.split()) >= 3 and bool(verb)
    if len(text) < 6:
        return False
    return bool(_PREDICATE_END.search(text) or _FACT_SHAPE.search(text) or is_standing(text) or is_choice(text))


MAX_PASTED_FACTS = 4
_MARKED = ("```", "~~~", ">")
"""How a user marks a pasted text as material: a fence, a quote."""
"""Facts taken from one pasted segment at most (a pasted document can be long)."""


def pasted_items(said: Said) -> list[Item]:
    """Facts in text the user pasted (a log, a colleague's note): never a rule, never a sentence
    that reads as an order, never a line of a document's form (a chat stamp, a mail header, a log or
    code line), marked ``pasted``.  A pasted text that gives orders throughout (a handbook, a vendor
    guide, a predecessor's notes: two or more standing or imperative sentences, or more orders than
    not, in any language :mod:`~mimomem.history.sentence` reads) is normative: nothing of it is kept,
    its lines of fact included - they belong to the handbook, not to what the user said.  One order
    in a pasted log or doc (an injected "IMPORTANT: always …") is dropped and its facts kept.  Only
    material the user marked as such (a fence, a ``>`` quote) gives facts: a text recognised as pasted
    by its form (a colleague's chat or mail, a handbook under a caption, words reported after "X
    wrote:") is someone else's statements, none of them the user's knowledge."""
    out: list[Item] = []
    parts = sentences(said.text)
    orders = sum(bool(is_standing(p) or is_imperative(clean_text(p)) or is_written_norm(p)) for p in parts)
    if not said.text.lstrip().startswith(_MARKED) or orders >= 2 or 2 * orders > len(parts):
        return []
    for sentence in parts:
        if len(out) >= MAX_PASTED_FACTS:
            break
        text = clean_text(sentence)
        if document_line(sentence):
            continue  # a chat stamp, a mail header, a log or code line: the document's form, not a fact
        if len(text) <= 200 and not reads_as_instruction(text) and not _QUESTION.search(text) and is_fact(text):
            out.append(Item(FACTS, text, "pasted", said.session_id, said.time))
    return out


_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_NAMED = re.compile(
    r"(?<=[^\W\d_A-Za-z])\s*[A-Za-z][A-Za-z0-9]+|[A-Za-z][A-Za-z0-9]+\s*(?=[^\W\d_A-Za-z])"
    r"|(?<=[\w,;]\s)[A-Z][a-z]+[A-Z]?\w*|\b\d+(?:[.:]\d+)*\s*(?:[A-Za-z%]+|[^\W\d_A-Za-z])"
    r"|(?:是|归|找|由|联系人是|负责人是|对接人是)\s*[^\W\d_A-Za-z]{2,3}(?=在|负责|管|维护|处理|对接|[。，,；;]|$)"
    r"|[^\W\d_A-Za-z]{1,4}さん|[\uac00-\ud7a3]{2,4}\s*(?:님|씨)(?=\W|이|에|은|는|가|$)"
)
"""Something named: a Latin word among CJK, a capitalised name inside an English sentence, a number
with its unit, a person after a copula (是孙浩 / 联系人是刘芳) or with さん."""


def is_fact(sentence: str) -> bool:
    """A statement (never a question, a request, a plan or a guess) naming something specific."""
    flat = clean_text(sentence)
    if sentence_type(flat) != STATEMENT or is_plan_or_guess(flat) or ends_in_order(flat):
        return False
    if state_now(flat) and strongly_scoped(flat) and not inceptive(flat):
        return False  # "must return a list but it returns None": the bug to fix, not how things are
    if of_the_session(flat, changes_a_value=bool(CHANGE.search(_NOW_WORD.sub(" ", flat)))):
        return False  # "the error is ECONNRESET", "yesterday I deployed 4.0.9", "…복잡하네요": this session
    if _CONVENTION.search(flat):
        return True
    if _REQUEST.match(flat) and not re.search(r"\b(?:is|are)\b|是", flat):
        return False
    if _DISTINCTIVE.search(flat) or _NAMED.search(flat) or (RETRACT.search(flat) and _LATIN_WORD.search(flat)):
        return True
    if _LABELLED.match(flat) and not _LABEL_WORD.match(flat):
        return True  # "mail provider: SES", "key rotation: every 45 days": a key and its value
    if holds_a_role_or_place(flat):
        return True  # "Mei owns the payments repo", "文档都在语雀上", "문서는 노션에 있어요"
    return states_change(flat)  # a newer value of something: "We bumped the worker count to 8"


_PIN = re.compile(r"\b(?:add|install|i|upgrade|require|get)\b.*?(?:[\w@/.-]+@\d[\w.-]*|[\w.-]+[=~<>]=\d[\w.-]*)")


def pinned_items(episode: Episode) -> list[Item]:
    """Packages added at a pinned version by a command that succeeded (``pnpm add x@3.1.3``)."""
    out = []
    for call in episode.calls:
        if call.command and call.status == "ok" and _PIN.search(call.command) and not call.unsafe:
            text = f"`{clip(call.summary, 120)}` succeeded"
            out.append(Item(FACTS, text, "model", call.session_id, call.time))
    return out


_CONFIG = re.compile(
    r"(?:^|/)(?:\.env[\w.-]*|Dockerfile|Makefile|[\w.-]+\.(?:ya?ml|toml|env|cfg|ini|cron|conf|lock)|\.gitlab-ci\.yml)$"
)
MAX_CONFIG_EDITS = 3
"""Config edits taken from one session at most."""


def config_edit_items(episode: Episode) -> list[Item]:
    """One-line edits the model made to a config, build or CI file, and that succeeded: a fact the
    session established (``.gitlab-ci.yml`` now runs ``uv sync --frozen``), never an instruction."""
    out: list[Item] = []
    for call in episode.calls:
        if (
            call.status != "ok"
            or " -> " not in call.change
            or len(call.files) != 1
            or not _CONFIG.search(call.files[0])
        ):
            continue
        before, after = call.change.split(" -> ", 1)
        if reads_as_instruction(after) or len(out) >= MAX_CONFIG_EDITS:
            continue
        change = (
            f"now {after}" if reads_as_instruction(before) else call.change
        )  # an old line reading as an order: left out
        text = f"edited {call.files[0]} ({change})"  # worded as a fix's edit, so a fix holding it is seen
        out.append(Item(FACTS, text, "model", call.session_id, call.time))
    return out


def workflow_items(episode: Episode) -> list[Item]:
    """Runs of two or more different non-trivial commands that all succeeded, longest first."""
    runs: list[list[str]] = [[]]
    first_time: list[int | None] = [None]
    session = episode.calls[0].session_id if episode.calls else ""
    for call in episode.calls:
        if call.command is None:
            continue
        norm = normalize_command(call.command)
        if call.status != "ok" or call.unsafe:
            runs.append([])
            first_time.append(None)
            continue
        if is_trivial(norm) or (runs[-1] and runs[-1][-1] == norm):
            continue
        if not runs[-1]:
            first_time[-1] = call.time
        runs[-1].append(norm)
    ranked = sorted(
        ((run, t) for run, t in zip(runs, first_time, strict=True) if len(set(run)) >= 2),
        key=lambda rt: -len(rt[0]),
    )
    out = []
    for run, when in ranked[:MAX_WORKFLOWS]:
        steps = " -> ".join(f"`{clip(c, 80)}`" for c in run[:6])
        out.append(Item(WORKFLOWS, f"Ran in order, all succeeded: {steps}", "model", session, when))
    return out


def items_of(episode: Episode) -> list[Item]:
    """Everything of ``episode`` worth promoting, in section order, each once."""
    found: list[Item] = []
    for said in episode.said:
        found += said_items(said) if said.kind == TYPED else pasted_items(said)
    found += pinned_items(episode)
    from mimomem.passes.failure_items import failure_items  # it builds on this module's items

    fixes = failure_items(episode)
    found += [i for i in config_edit_items(episode) if not any(i.text[7:87] in f.text for f in fixes)]
    found += fixes
    found += [Item(FOUND, text, "tool", call.session_id, call.time) for call, text in value_items(episode)]
    found += workflow_items(episode)
    seen: set[str] = set()
    out = []
    for item in sorted(found, key=lambda i: SECTIONS.index(i.section)):
        key = "".join(ch for ch in item.text.casefold() if ch.isalnum())
        if key and key not in seen:
            seen.add(key)
            out.append(item)
    return out
