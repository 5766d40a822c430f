"""``mimomem tokenize``: the text engine's tokens of a string, with their offsets."""

from __future__ import annotations

import argparse
import json

from mimomem.text import tokens


def cmd_tokenize(args: argparse.Namespace) -> int:
    """One ``token<TAB>start<TAB>end<TAB>original`` line per token, or a JSON list."""
    found = tokens.tokenize(args.text, mode=args.mode)
    if args.json:
        print(json.dumps([t._asdict() for t in found], ensure_ascii=False))
    else:
        for t in found:
            print(f"{t.text}\t{t.start}\t{t.end}\t{args.text[t.start : t.end]}")
    return 0
