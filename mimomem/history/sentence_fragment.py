"""A clause cut before its object or complement (:func:`is_fragment`), for :mod:`mimomem.history.sentence`:
"credentials.yaml has", "然后 deploy.sh 里面的", "config/app.toml には", "settings.py 에는"."""

from __future__ import annotations

import re

from mimomem.history.sentence import _cjk, _en_words, _kana, _words
from mimomem.history.sentence_ko import hangul

_EN_OPEN_END = _words(
    """
    a an the this that these those my our your their its of to in on at for with from by into about and
    or but is are was were be been am has have had do does did can could will would shall should may
    might must need needs
    """
)
"""English closed-class words a clause cannot end on: an article, a preposition, a conjunction, an
auxiliary or the copula still waits for its object or complement ("credentials.yaml has")."""
_ZH_OPEN_END = re.compile(r"(?:是|为|把|将|被|给|让|跟|和|与|或|对|(?:里面|里头|里|中|上|下|内)的|的是)\s*$")
_JA_OPEN_END = re.compile(r"(?:には|では|とは|へは|は|が|を|に|へ|と|や|の中に?)\s*$")
__KO_OPEN_END = re.compile(r"(?:에는|에서는|에서|에게|으로|로는|로|은|는|을|를|와|과|의|이|가)\s*$")


def is_fragment(text: str) -> bool:
    """A clause cut before its object or complement: it ends on a word that still waits for one - an
    English article, preposition, conjunction or auxiliary ("credentials.yaml has"), a Chinese copula,
    coverb or "里面的", a Japanese case particle ("config.toml には"), a Korean particle ("settings.py 에는")."""
    flat = text.strip().rstrip(",，、:：-—…")
    if not flat or flat[-1] in "。.!！?？":
        return False
    if hangul(flat) and not _kana(flat):
        return bool(__KO_OPEN_END.search(flat)) and not re.search(r"(?:다|요|죠|까|니|네|지)\s*$", flat)
    if _kana(flat):
        return bool(_JA_OPEN_END.search(flat))
    if _cjk(flat):
        return bool(_ZH_OPEN_END.search(flat))
    words = _en_words(flat)
    return bool(words) and flat[-1].isalpha() and words[-1] in _EN_OPEN_END
