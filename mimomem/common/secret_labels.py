"""Label rule of the secret scanner: the value a credential label names, in any of five languages.

A *label* is a noun phrase whose head means password, passphrase, PIN, secret, token, key or
credential; what stands before the head (``staging DB``, 生产环境的, 本番DBの, 운영 서버) does
not matter, what follows it does.  The value is the first token after a *bridge* made of:

* punctuation (``:`` ``=`` ``：`` ``＝`` ``->`` ``→`` ``—``), a closing quote of a key
  (``"password": "x"``) or plain spaces (``.netrc``'s ``password x``);
* English link words: the copula and a few verbs of change (``is``, ``was set to``, ``has
  been changed to``, ``became``, ``'s``), with a prepositional phrase allowed first
  ("the password *for the wifi* is");
* Chinese link morphemes: an optional adverb (已经, 就, 现在), a verb of setting or changing
  (设, 改, 换, 变, 更新, 重置…) and its result (为, 成, 到), or the copula 是 / 为 / 為;
* Japanese and Korean particles (は が を も, 은 는 이 가 을 를 도).

Because the bridge must start right after the head, a head that modifies another noun is not
a label: "password *length* is 12", "token *count* 4096", 密码*长度*至少8位, トークン*数*,
비밀번호 *변경* 주기 name a property of the credential, not the credential.  The value's own
shape then decides, by what the head is (:mod:`mimomem.common.secret_label_values`): a password or a
PIN may be short or all digits (but a number followed by a unit, "12 characters", 8位, 8자리,
is a quantity), a key or a token must mix letters and digits.  Placeholders, paths and words
never count.  After the value, a list (``A / B``, ``A and B``, ``A、B``) names more values of
the same label: an access key and a secret key in one sentence.
"""

from __future__ import annotations

from collections.abc import Iterator

from mimomem.common.lazy_pattern import lazy
from mimomem.common.secret_label_values import (
    OPEN,
    _value_ok,
    _word,
    cjk_at,
    letters,
    plain_value,
    pointing,
)
from mimomem.common.secret_needles import needle_text

Span = tuple[str, int, int]

# -- heads: a compact set of morphemes, by what they name (matched on the lower-cased text) -----------
_PASSWORD_HEADS = (
    *("password", "passwd", "passphrase", "pass phrase", "pass-phrase", "passcode", "pwd", "pw", "pin", "pass"),
    *("p/w", "mnemonic", "seed phrase", "recovery phrase", "secret phrase", "助记词", "助記詞"),
    *("contraseña", "passwort", "kennwort", "mot de passe", "senha", "wachtwoord", "hasło", "пароль"),  # Europe
    "code",  # only after a word that makes it a credential: access / security / recovery / verification code
    *(
        "密码",
        "密碼",
        "口令",
        "账密",
        "帳密",
        "暗码",
        "暗碼",
        "通行码",
        "通行碼",
        "密码短语",
        "密碼短語",
        "密",  # alone, only as a word of its own: 账号 root / 密 x (not 机密, 保密, 密切)
    ),  # Chinese (both scripts)
    *("安全码", "安全碼", "访问码", "訪問碼", "恢复码", "恢復碼", "备用码", "備用碼", "验证码", "驗證碼"),
    *("パスワード", "パスフレーズ", "パスコード", "暗証番号", "合言葉", "パス"),  # Japanese
    *("認証コード", "確認コード", "セキュリティコード", "リカバリーコード", "アクセスコード"),
    *(
        "비밀번호",
        "비번",
        "패스워드",
        "암호",
        "인증 코드",
        "인증코드",
        "보안 코드",
        "보안코드",
        "복구 코드",
        "복구코드",
    ),
)
_CODE_QUALIFIERS = (
    *("access", "security", "secret", "recovery", "backup", "auth", "authorization", "verification"),
    *("login", "pairing", "2fa", "mfa", "otp", "one-time", "totp", "sms"),
)
"""The words before "code" that make it a credential (a code of any other kind is not one)."""
_KEY_HEADS = (
    *("secret", "token", "apikey", "key", "credential", "creds", "auth", "ak", "sk"),
    *("密钥", "密鑰", "秘钥", "秘鑰", "密匙", "金钥", "金鑰", "私钥", "私鑰", "令牌", "权杖", "權杖"),
    *("凭证", "憑證", "凭据", "憑據", "授权码", "授權碼"),
    *("トークン", "シークレット", "キー", "鍵", "認証情報", "資格情報", "クレデンシャル"),
    *("토큰", "시크릿", "키", "인증정보", "인증 정보", "자격증명", "자격 증명"),
    *("\U0001f511", "\U0001f5dd", "\U0001f510"),  # the key, old key and locked-with-key emoji as a label
)
_HEADS: dict[str, list[tuple[str, bool]]] = {}
"""Per first character, the heads and whether each names a password, longest first (the longest
head at a position wins: "passwd" over "pass")."""
for _head, _password in sorted(
    [(h, True) for h in _PASSWORD_HEADS] + [(h, False) for h in _KEY_HEADS], key=lambda h: -len(h[0])
):
    _HEADS.setdefault(_head[0], []).append((_head, _password))
_PIN_SUFFIXES = (" codes", " code", " numbers", " number", "码", "碼", " 번호", "번호", "コード", "番号")
NEEDLES = (
    *("pass", "pw", "pin", "secret", "token", "apikey", "key", "cred", "auth", "code", "ak", "sk"),
    *("p/w", "mnemonic", "seed phrase", "recovery phrase", "kennwort", "mot de passe", "senha", "wachtwoord"),
    *(h for h in (*_PASSWORD_HEADS, *_KEY_HEADS) if not h.isascii()),
)
"""Lower-case strings every head starts with: a label is looked for only where one of them is."""

# -- the bridge between head and value -----------------------------------------------------------------
_EN_LINKS = frozenset(
    (
        *("is", "was", "are", "were", "be", "been", "has", "have", "had", "will", "now", "currently", "still"),
        *("also", "just", "then", "it", "it's", "it’s", "set", "reset", "changed", "updated", "rotated"),
        *("switched", "became", "becomes", "become", "equals", "to", "as", "into"),
        *("es", "ist", "lautet", "est", "é"),  # the copula of the other languages whose heads are listed
    )
)
_PREPOSITIONS = frozenset(
    ("for", "of", "on", "in", "at", "from", "to", "del", "de", "du", "für", "von", "do", "da", "от", "для")
)
_ZH_ADVERBS = ("也", "就", "都", "还", "還", "现在", "現在", "已经", "已經", "已", "被", "先", "则", "則")
_ZH_VERBS = (
    *("设置", "設置", "设定", "設定", "更改", "修改", "更新", "重置", "重设", "重設", "替换", "替換"),
    *("设", "設", "改", "换", "換", "变", "變"),
)
_ZH_RESULTS = ("为", "為", "成", "到")
_ZH_COPULAS = ("是", "为", "為", "叫")
_PARTICLES = "はがをも은는이가을를도"
_PUNCT = ":=：＝→—–-"
_TRAILING = ".,;:)]}>\"'`([{<"
_ENDS = "\"'`,}]"
_SPACE = " \t"


def _skip(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i] in _SPACE:
        i += 1
    return i


def _head_at(text: str, low: str, at: int) -> tuple[int, bool] | None:
    """The end of the credential head starting at ``at`` and whether it names a password, or None."""
    for head, password in _HEADS.get(low[at], ()):
        if not low.startswith(head, at):
            continue
        end = at + len(head)
        if head.isascii():
            if end < len(text) and text[end] in "sS" and head[-1] not in "sS" and head != "pin":
                end += 1  # plural (not "pins": a verb far more often than PINs)
            if end < len(text) and text[end].isascii() and text[end].isalpha():
                continue  # inside a longer word: "passage", "keyboard", "tokenizer"
            if not _boundary_ok(text, at, head):
                continue
            if head == "pin":
                end += next((len(s) for s in _PIN_SUFFIXES if low.startswith(s, end)), 0)
            if head == "code" and not any(low.endswith(q, 0, at - 1) for q in _CODE_QUALIFIERS):
                return None
            if head == "code" and low[at - 1 : at] not in (" ", "-", "_"):
                return None
            if head in ("auth", "pass") and text[end : end + 1] not in (":", "=", '"', "'"):
                return None  # "auth" and "pass" are heads only as key names ("auth: x", DB_PASS=x)
            if head in ("ak", "sk") and not text[at:end].isupper():
                continue  # AK / SK (access key, secret key) are heads in capitals only
        elif head == "密" and (cjk_at(text, at - 1) or cjk_at(text, end)):
            continue  # one character is a label only as a word of its own (not 机密, 保密, 密切)
        if text.startswith("\ufe0f", end):
            end += 1  # an emoji's variation selector
        return end, password
    return None


def credential_name(name: str) -> bool | None:
    """Whether ``name`` (an identifier, a variable's or a key's name, with what follows it: ``DB_PASS=``)
    ends in a credential's head naming a password (True) or another credential (False); None if not
    (``PASSWORD_MIN_LEN``, ``TOKEN_TTL`` name a property of one, the head modifying another noun)."""
    low = name.lower()
    for at in range(len(name)):
        if low[at] in _HEADS:
            found = _head_at(name, low, at)
            if found is not None and found[0] >= len(name.rstrip("=:\"'")):
                return found[1]
    return None


def _boundary_ok(text: str, start: int, head: str) -> bool:
    """An English head starts a word, or is the last part of an identifier (``DB_PASS``, ``clientSecret``)."""
    before = text[start - 1] if start else " "
    if head == "pass":  # "pass" alone is a verb: only DB_PASS, db.pass, or a key opening its line (- pass:)
        camel = before.islower() and text[start] == "P"  # RootPass:, dbPass=
        return camel or before in "_.-" or not text[text.rfind("\n", 0, start) + 1 : start].strip(" \t-*+>")
    if not (before.isascii() and before.isalnum()):
        return True
    word = text[start : start + len(head)]
    if before.isupper() and word.isupper() and head.startswith("pass"):
        return True  # the end of an environment variable's name: PGPASSWORD, MYSQLPASSWORD
    return before.islower() and word[0].isupper() and word[1:2].islower()  # camelCase: clientSecret, AccountKey


def _links(text: str, i: int) -> int:
    """After one or more English link words at ``i`` ("is", "was set to", "has been changed to"), else -1."""
    q, count = i, 0
    while True:
        r = _skip(text, q)
        if r == q and not (count == 0 and q > 0 and text[q - 1] in "'’"):
            break  # a word needs a space before it
        word = _word(text, r) or letters(text, r)  # é, ist: the copulas of the other languages listed
        if word.lower() not in _EN_LINKS:
            break
        q, count = r + len(word), count + 1
    return q if count else -1


def _zh_link(text: str, i: int) -> int:
    """After a Chinese link at ``i`` (已经改成了, 设为, 是), else -1."""
    if i >= len(text) or text[i] < "\u4e00":
        return -1  # every link morpheme is a Han character
    q = i
    while (adverb := next((a for a in _ZH_ADVERBS if text.startswith(a, q)), None)) is not None:
        q += len(adverb)
    verb = next((v for v in _ZH_VERBS if text.startswith(v, q)), None)
    if verb is not None and text.startswith(_ZH_RESULTS, q + len(verb)):
        q += len(verb) + 1
    elif q > i and text.startswith("用", q):
        q += 1  # 就用 X, 先用 X: "use" hands the value over after an adverb (用 alone is a preposition)
    elif text.startswith(_ZH_COPULAS, q):
        q += 1
    else:
        return -1
    return q + 1 if text.startswith("了", q) else q


def _below(text: str, r: int) -> int:
    """Where the value starts when a label's colon ends its line at ``r``: the next line that holds
    anything, past up to two blank lines and a code fence's opening line (the label's span goes on
    below it: "- pass:⏎⏎```⏎x⏎```", "**API token**:⏎⏎    x")."""
    k = r
    for _ in range(3):
        if not text.startswith(("\n", "\r\n"), k):
            break
        k = _skip(text, text.index("\n", k) + 1)
    if text.startswith(("```", "~~~"), k):
        nl = text.find("\n", k)
        if nl != -1 and " " not in text[k:nl].strip():
            k = _skip(text, nl + 1)
    return k


def _after_link(text: str, p: int) -> int:
    """After the link at ``p`` (punctuation, English link words, a Chinese link, a particle), else -1."""
    q = _skip(text, p)
    if text.startswith(("->", "=>"), q):
        return _skip(text, q + 2)
    if q < len(text) and pointing(text[q]):  # an arrow or an emoji points at the value: API key 👉 x
        q += 1
        return _skip(text, q + 1 if text.startswith("\ufe0f", q) else q)
    if q < len(text) and text[q] in _PUNCT:
        if text.startswith("::", q) or (text[q] in "-—–" and q == p):
            return -1  # a scope (strlen_pass::f) or a hyphen joining words (slapo-pw-sha2): no link
        r = _skip(text, q + 1)
        if text[q] in ":：" and text.startswith(("\n", "\r\n"), r):  # "the password:", the value below
            return _below(text, r)
        return r
    for end in (_links(text, p), _zh_link(text, q)):
        if end != -1:
            end = _skip(text, end)
            return _skip(text, end + 1) if text.startswith((":", "："), end) else end
    if p < len(text) and text[p] in _PARTICLES:
        q = p + 1
        return _skip(text, q + 1 if text.startswith((",", "、", ":", "："), q) else q)
    return -1


def _value_starts(text: str, end: int, password: bool = True, at: int = 0) -> Iterator[tuple[int, bool]]:
    """Where the value may start after a head ending at ``end``: after a link, after a prepositional
    phrase and a link ("password for the wifi: x"), or after spaces alone (.netrc's "password x");
    and whether a link came first (after spaces alone, a quoted phrase or a PIN's verb "pin" is no value)."""
    p = end + 2 if text.startswith("**", end) else end  # Markdown's bold around the label: **API token**:
    if text.startswith(('("', "('"), p):
        # a password setter's literal: setPassword("x"), .password('x'); not a key's (a publishable key
        # is public), not a class's (new Password('x') in an example)
        if password and at > 0 and (text[at - 1].isalnum() or text[at - 1] in "_."):
            yield p + 1, False
        return
    contraction = text.startswith(("'s", "’s"), p)
    if contraction:
        p += 2
    elif text.startswith(('"', "'"), p):
        p += 1  # the closing quote of a key: "password": "x"
    elif text.startswith(('\\"', "\\'"), p):
        p += 2  # an escaped key inside a string: \"password\":\"x\"
    q = _skip(text, p)
    if q < len(text) and text[q] in "(（" and (q > p or text[q] == "（"):  # "Password (prod) — x", not key(self)
        close = next((k for k in range(q + 1, min(q + 32, len(text))) if text[k] in ")）\n"), -1)
        if close != -1 and text[close] != "\n":
            p = close + 1
    v = _after_link(text, p)
    if v != -1:
        yield v, True
    q = _skip(text, p)
    word = letters(text, q)
    if q > p and word.lower() in _PREPOSITIONS:
        q += len(word)
        for _ in range(4):
            r = _skip(text, q)
            if r == q:
                break
            k = r
            while k < len(text) and (text[k].isalnum() or text[k] in "'’-"):
                k += 1  # a word of prose, not code
            if k == r or text[k - 1] in ".!?":
                break  # a prepositional phrase ends with its sentence
            v = _after_link(text, k)
            if v != -1:
                yield v, True
                break
            q = k
    if contraction or (p < len(text) and text[p] in _SPACE):
        yield _skip(text, p), contraction


def _value_at(text: str, v: int) -> tuple[int, int, bool, int]:
    """The value at ``v``: its start and end (to its closing quote, or trailing punctuation dropped),
    whether it was quoted, and where a list of more values would go on."""
    while (
        text.startswith(("&", "!"), v)
        and (k := text.find(" ", v, v + 40)) > v + 1
        and text[v:k].lstrip("&!").isidentifier()
    ):
        v = _skip(text, k)  # a YAML anchor or tag before the value: password: &dbpw x
    if text.startswith(('"""', "'''"), v):  # a TOML multi-line string on one line: \"\"\"x\"\"\"
        k = text.find(text[v : v + 3], v + 3, min(len(text), v + 130))
        if k != -1 and "\n" not in text[v + 3 : k]:
            return v + 3, k, True, k + 3
    if text.startswith(('\\"', "\\'"), v):  # an escaped string inside a string: \"x\"
        k = text.find(text[v : v + 2], v + 2, min(len(text), v + 130))
        if k != -1 and " " not in text[v + 2 : k]:
            return v + 2, k, True, k + 2
    close = OPEN.get(text[v : v + 1])
    if close is None and text[v : v + 1] == "{" and v and text[v - 1] == "=":
        k = text.find("}", v + 1, min(len(text), v + 130))  # ODBC's braced value: Pwd={a;b[c};
        if k != -1 and text[k + 1 : k + 2] in ("", ";", "\n", " ") and " " not in text[v + 1 : k]:
            return v + 1, k, True, k + 1
    start = v + 1 if close else v
    end = start
    n = len(text)
    inside = _open_brackets(text, v)
    while end < n and "!" <= text[end] <= "~" and (close or text[end] not in _ENDS or _ends_not(text[end], inside)):
        if text[end] in ";&" and _next_field(text, end + 1):
            break  # a connection string's or a query's next field: Pwd=x;Encrypt=yes, password=x&ssl=1
        end += 1  # unquoted, a value ends at a quote, a comma or a closing brace (JSON: "tokens":20},"id")
    if close:  # a quoted value runs to its closing quote on the same line, spaces and all (a passphrase)
        k = text.find(close, start, min(n, start + 100))
        inner = text[start:k]
        spaced = " " in inner and (len(inner) > 40 or ";" in inner or "/" in inner or " -" in inner)  # a command
        # a quote of the other kind inside one word is part of a password (password="Ab'[c9"), not code
        plain = inner.strip() == inner and "\n" not in inner and not (" " in inner and any(q in inner for q in "\"'`"))
        if k != -1 and plain and not spaced:
            return start, k, True, k + 1
    while end > start and text[end - 1] in _TRAILING:
        end -= 1
    return start, end, False, end


def _open_brackets(text: str, v: int) -> str:
    """The square brackets and braces still open on the line before ``v`` (a JSON list or object)."""
    line = text[text.rfind("\n", 0, v) + 1 : v]
    depth = {"]": line.count("[") - line.count("]"), "}": line.count("{") - line.count("}")}
    return "".join(c for c, d in depth.items() if d > 0)


def _ends_not(c: str, inside: str) -> bool:
    """A closing bracket belongs to an unquoted value unless a bracket of its kind is open before it."""
    return c in "]}" and c not in inside


def _next_field(text: str, i: int) -> bool:
    """Does a ``Key=`` field start at ``i`` (after a ``;`` or an ``&``)?"""
    k = i
    while k < len(text) and k - i <= 40 and (text[k].isalnum() or text[k] in "_ -."):
        k += 1
    return k > i and text[i] != " " and text.startswith("=", k)


def _more(text: str, i: int) -> int:
    """Where the next value of a list starts ("A / B", "A and B", "A、B"), else -1."""
    q = _skip(text, i)
    if text.startswith(("/", "／", ",", "，", "、", "&", "和", "与", "與", "及", "및", "と"), q):
        return _skip(text, q + 1)
    if text[q : q + 3].lower() == "and" and text[q + 3 : q + 4] in (" ", "\t"):
        return _skip(text, q + 3)
    return -1


def _starts_word(text: str, at: int) -> bool:
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


_ASCII_NEEDLES = tuple(n for n in NEEDLES if n.isascii())
_FIRST_PATTERN = lazy("[" + "".join(sorted({n[0] for n in NEEDLES if not n.isascii()})) + "]")
"""A head in another script is looked for by its first character (``_head_at`` reads the rest); one
character class, compiled when a text not in ASCII first comes."""
_FULL_WIDTH = lazy("[\uff01-\uff5e]")
_TO_HALF_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
"""Full-width ASCII (typed with a CJK input method) to ASCII: the same letters, one character each."""
_last: tuple[str, list[int]] = ("", [])
"""The last text ``_candidates`` was asked for (by identity) and its starts: the label, clause, printed
and parts rules ask for the same text in turn."""


def _candidates(text: str, prefilter: bool) -> tuple[str, list[int]]:
    """The lower-cased text and where a head may start: where one of ``NEEDLES`` is."""
    global _last
    low = needle_text(text)
    if len(low) != len(text):  # folding changed the length: positions would not line up
        low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    if not low.isascii() and _FULL_WIDTH.search(low):
        low = low.translate(_TO_HALF_WIDTH)  # ＰＡＳＳＷＯＲＤ：x is read as password: (one character each)
    if not prefilter:
        return low, list(range(len(text)))
    last = _last
    if last[0] is text:
        return low, last[1]
    starts: set[int] = set()
    find = low.find
    for needle in _ASCII_NEEDLES:
        at = find(needle)
        while at != -1:
            starts.add(at)
            at = find(needle, at + 1)
    if not low.isascii():
        starts.update(m.start() for m in _FIRST_PATTERN.finditer(low))
    found = sorted(starts)
    _last = (text, found)
    return low, found


def label_values(text: str, *, prefilter: bool = True) -> Iterator[Span]:
    """The value after each credential label (and the values listed with it).

    ``prefilter=False`` tries every position, not only where a head's needle is (tests compare the two).
    """
    low, starts = _candidates(text, prefilter)
    done = 0
    for at in starts:
        found = _head_at(text, low, at) if at >= done else None
        if found is None:
            continue
        end, password = found
        head = low[at:end]
        kind = "password-after-label" if password else "secret-after-label"
        first = False
        for v, linked in _value_starts(text, end, password, at):
            if not linked and head in ("pin", "code"):
                continue  # "Pin python3-foo": the verb; "authorization_code #475": a name
            v, stop = plain_value(text, v, password, linked)
            if stop != -1:  # a password in another script, a PIN typed in groups, a passphrase of words
                yield kind, v, stop
                done, first = stop, True
                break
            start, stop, quoted, resume = _value_at(text, v)
            # a quoted value with spaces is a passphrase by its shape alone, in prose and in code alike;
            # a quoted word counts as such in prose ("will be 'x'"), not in code (f(password='x'), X_PASSWORD: "y")
            spaced = " " in text[start:stop]
            first = quoted and password if spaced else True  # spaces only inside quotes, after a password's label
            quoted = quoted and (spaced or (linked and "=" not in text[end:start] and _starts_word(text, at)))
            first = first and _value_ok(text[start:stop], quoted, password, head, text[stop : stop + 600])
            if first:
                yield kind, start, stop
                done = stop
            while (v := _more(text, resume)) != -1:  # "A / B", "A and B": more values of the same label
                start, stop, quoted, resume = _value_at(text, v)
                quoted = quoted and linked
                if " " in text[start:stop] and not quoted:
                    break
                if not _value_ok(text[start:stop], quoted, password, head, text[stop : stop + 600]):
                    break
                yield kind, start, stop
                done = stop
                first = True
            if first:
                break
        if not first:  # the value later in the clause, in the next sentence, or joined to the head in a name
            from mimomem.common.secret_clauses import after_head

            for start, stop in after_head(text, at, end, password):
                yield kind, start, stop
                done = stop


LABEL_RULES = (label_values,)

__all__ = ["LABEL_RULES", "NEEDLES", "label_values"]
