"""Generate ``_native/_tables.h``: the character tables of the SQLite extension (run by setup.py).

The loadable FTS5 tokenizer (``_native/fts5_mimomem.cc``) runs inside any SQLite process, where
no Python can be called, so it needs every rule of ``mimomem/text/_chars.py`` as data, for all
of Unicode (the Cython twin's ``_tables.pxi`` covers the BMP and asks Python for the rest):

* per code point: its class (``char_class``) in bits 0-1, ``str.isdigit`` in bit 2 and
  ``str.isalnum`` in bit 3 (the query model's rules), in a two-stage table of 256-point blocks;
* per code point: its fold (``fold``) as a delta, or an index into a pool when it is not
  exactly one code point;
* the voicing compositions (``compose_voicing``) of every code point with U+3099 / U+309A;
* ``TOKENIZER_VERSION`` and ``MAX_WORD`` (``mimomem/text/tokens.py``), the query caps and
  connectors (``mimomem/text/query.py``) and ``BIGRAM_PROBE`` (``mimomem/search/db.py``),
  read from the sources so that the extension can never disagree with the package about them.
"""

from __future__ import annotations

import ast
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "mimomem"
OUT = HERE / "_tables.h"
BLOCK = 256
MULTI = 0x40000000  # fold entry flag: the rest is an index into fold_multi


def constants(path: Path, names: tuple[str, ...]) -> dict[str, object]:
    """Module-level literal assignments of ``names`` in the Python file ``path``."""
    found: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if isinstance(target, ast.Name) and target.id in names and node.value is not None:
            value = node.value
            if isinstance(value, ast.Call):  # frozenset("...")
                value = value.args[0]
            found[target.id] = ast.literal_eval(value)
    missing = set(names) - set(found)
    if missing:
        raise SystemExit(f"gen_header: {sorted(missing)} not found in {path}")
    return found


def _two_stage(values: list[int]) -> tuple[list[int], list[int]]:
    """Split ``values`` (one per code point) into a block index and de-duplicated blocks."""
    index: list[int] = []
    blocks: list[int] = []
    seen: dict[tuple[int, ...], int] = {}
    for start in range(0, len(values), BLOCK):
        block = tuple(values[start : start + BLOCK])
        if block not in seen:
            seen[block] = len(seen)
            blocks.extend(block)
        index.append(seen[block])
    return index, blocks


def tables(chars: ModuleType) -> dict[str, list[int]]:
    """The flag, fold and composition tables for every code point."""
    raw_fold, raw_class = chars.fold.__wrapped__, chars.char_class.__wrapped__
    flags: list[int] = []
    folds: list[int] = []
    multi: list[int] = []
    pool: list[int] = []
    for cp in range(0x110000):
        ch = chr(cp)
        if unicodedata.category(ch) == "Cn":  # unassigned: itself, a separator
            flags.append(chars.SEP)
            folds.append(0)
            continue
        flags.append(raw_class(ch) | (4 if ch.isdigit() else 0) | (8 if ch.isalnum() else 0))
        folded = raw_fold(ch)
        if len(folded) == 1:
            folds.append(ord(folded) - cp)
        else:
            folds.append(MULTI | len(multi))
            multi.append(len(pool) << 8 | len(folded))
            pool.extend(ord(c) for c in folded)
    compose = []
    for cp in range(0x110000):
        if unicodedata.category(chr(cp)) != "Cn":
            for mark in chars.VOICING_MARKS:
                composed = chars.compose_voicing(chr(cp), mark)
                if composed:
                    compose.extend((cp, ord(mark), ord(composed)))
    flag_index, flag_blocks = _two_stage(flags)
    fold_index, fold_blocks = _two_stage(folds)
    return {
        "flag_index": flag_index,
        "flag_blocks": flag_blocks,
        "fold_index": fold_index,
        "fold_blocks": fold_blocks,
        "fold_multi": multi,
        "fold_pool": pool,
        "compose": compose,
    }


def _array(ctype: str, name: str, values: list[int]) -> str:
    rows = [", ".join(str(v) for v in values[i : i + 24]) for i in range(0, len(values), 24)]
    body = ",\n".join(rows) if rows else "0"
    return f"static const {ctype} {name}[] = {{\n{body}\n}};\n#define MIMOMEM_{name.upper()}_LEN {len(values)}\n"


def _c_string(text: str) -> str:
    return '"' + "".join(f"\\x{b:02x}" for b in text.encode("utf-8")) + '"'


def generate(chars: ModuleType, key: str) -> str:
    """The text of ``_tables.h``."""
    tokens = constants(PACKAGE / "text" / "tokens.py", ("TOKENIZER_VERSION", "MAX_WORD"))
    query = constants(PACKAGE / "text" / "query.py", ("MAX_TERMS", "MAX_QUERY_CHARS", "CONNECTORS"))
    probe = constants(PACKAGE / "search" / "db.py", ("BIGRAM_PROBE",))["BIGRAM_PROBE"]
    t = tables(chars)
    connectors = "".join(sorted(str(query["CONNECTORS"])))
    parts = [
        "/* Generated by _native/gen_header.py at build time from mimomem/text/_chars.py; do not edit. */",
        "#pragma once",
        "#include <stdint.h>",
        f"#define MIMOMEM_TABLES_KEY {_c_string(key)}",
        f"#define MIMOMEM_TOKENIZER_VERSION {int(tokens['TOKENIZER_VERSION'])}",
        f"#define MIMOMEM_MAX_WORD {int(tokens['MAX_WORD'])}",
        f"#define MIMOMEM_MAX_TERMS {int(query['MAX_TERMS'])}",
        f"#define MIMOMEM_MAX_QUERY_CHARS {int(query['MAX_QUERY_CHARS'])}",
        f"#define MIMOMEM_CONNECTORS {_c_string(connectors)}",
        f"#define MIMOMEM_BIGRAM_PROBE {_c_string(str(probe))}",
        f"#define MIMOMEM_FOLD_MULTI_FLAG {MULTI}",
        _array("uint16_t", "flag_index", t["flag_index"]),
        _array("uint8_t", "flag_blocks", t["flag_blocks"]),
        _array("uint16_t", "fold_index", t["fold_index"]),
        _array("int32_t", "fold_blocks", t["fold_blocks"]),
        _array("uint32_t", "fold_multi", t["fold_multi"]),
        _array("uint32_t", "fold_pool", t["fold_pool"]),
        _array("uint32_t", "compose", t["compose"]),
    ]
    return "\n".join(parts)


def main(chars: ModuleType, key: str) -> None:
    text = generate(chars, key)
    if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
        OUT.write_text(text, encoding="utf-8")
    print(f"mimomem: wrote {OUT.name}", file=sys.stderr)
