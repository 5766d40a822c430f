"""Which of a turn's values are kept (passes/found_turns.py): the links weighed across the turn."""

from __future__ import annotations

from mimomem.history.episode import Call
from mimomem.history.tool_values import Record
from mimomem.passes.found_turns import Candidate, chosen, lead_and_aside, path_suffixes, removed_terms

CALL = Call("Read", "Read /r/a.yaml", None, (), "", "s", None, reads=("/r/a.yaml",))
OTHER = Call("Bash", "cat b", "cat b", (), "", "s", None)


def _c(
    value: str,
    *,
    call: Call = CALL,
    asked: int = 0,
    answered: bool = False,
    aside: bool = False,
    used: bool = False,
    clause: int = 0,
) -> Candidate:
    return Candidate(call, Record(None, f"k: {value}", "k", value), 0, asked, answered, aside, used, clause)


def test_removed_or_moved_paths_and_their_trailing_parts() -> None:
    assert {"tmp/a.csv", "a.csv", "b.log"} <= removed_terms("rm -f tmp/a.csv && sudo rm b.log")
    assert "old.txt" in removed_terms("git mv docs/old.txt docs/new.txt") and "new.txt" not in removed_terms(
        "mv old.txt new.txt"
    )
    assert removed_terms("cat a.txt | grep rm") == set() and removed_terms("echo 'unclosed") == set()
    assert path_suffixes("a/b/c.txt") == {"a/b/c.txt", "b/c.txt", "c.txt"}


def test_brackets_are_an_aside() -> None:
    assert lead_and_aside("50051 (HTTP is 8081)。最多 32（上限）") == ("50051  。最多 32 ", "(HTTP is 8081) （上限）")


def test_the_answered_values_the_question_names_most_win_and_used_values_stay() -> None:
    a, b, c = _c("1", answered=True, asked=2), _c("2", answered=True, asked=1), _c("3", aside=True, asked=2)
    used = _c("4", call=OTHER, used=True)
    assert chosen([a, b, c, used], per_call=3) == [a, used]
    assert chosen([b, c], per_call=3) == [b]  # an answered value beats an aside the question names
    x, y = _c("5", answered=True, clause=1), _c("6", answered=True)
    assert chosen([x, y], per_call=3) == [x]  # the clause that answers the question
    assert chosen([_c("7", aside=True), _c("8", asked=1)], per_call=3)[0].record.value == "7"
    assert len(chosen([_c(str(n), answered=True) for n in range(5)], per_call=3)) == 3
