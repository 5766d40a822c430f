"""``mimomem tokenize``: the text engine's tokens of a string, with their offsets."""

from __future__ import annotations

import argparse
import json

from mimomem.text import tokens


def cmd_tokenize(args: argparse.Namespace) -> int:
    """One ``token<TAB>start<TAB>end<TAB>original`` line per token, or a JSON list.

    With ``--diff MODULE:FUNCTION``: the shipped tokens and the candidate's side by side.
    """
    if args.diff:
        return _diff(args)
    found = tokens.tokenize(args.text, mode=args.mode)
    if args.json:
        print(json.dumps([t._asdict() for t in found], ensure_ascii=False))
    else:
        for t in found:
            print(f"{t.text}\t{t.start}\t{t.end}\t{args.text[t.start : t.end]}")
    return 0


def _diff(args: argparse.Namespace) -> int:
    from mimomem.bench.candidate import load_tokenizer
    from mimomem.bench.tokenizer_diff import format_text_diff, text_diff

    candidate = load_tokenizer(args.diff)
    diff = text_diff(args.text, candidate, lambda text: tokens.tokenize(text, mode=args.mode))
    if args.json:
        print(json.dumps(diff, ensure_ascii=False))
    else:
        print(format_text_diff(diff, args.diff), end="")
    return 0
