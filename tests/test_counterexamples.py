"""A hand-made tree that fails is shown as itself; a random one is shrunk (once, and reused by later checks)."""

from __future__ import annotations

from grader.doors import api
from grader import report
from conftest import SUBMISSIONS

BUGGY = SUBMISSIONS / "ctp-26" / "buggy" / "ignores_player_argument.py"


def test_a_hand_made_tree_is_shown_as_itself_and_a_random_one_shrunk():
    result = api.check(BUGGY, "ctp-26")
    failed = [c for c in result.checks if c.status == "failed"]
    assert [c.name for c in failed] == ["fixture-trees", "random-trees"]
    first, second = (c.counterexample for c in failed)
    assert not first.shrunk and second.shrunk  # shrinking belongs to generated cases only
    assert first.input in [c.input for c in api_bank("ctp-26").group("fixtures")]
    assert len(second.picture.splitlines()) <= 3  # shrunk: a root and two moves
    text = report.render(result, "text")
    assert text.count(second.picture.splitlines()[0]) == 1


def api_bank(exercise_id):
    from grader.judging import bank, exercise

    return bank.build(exercise.load(exercise_id))
