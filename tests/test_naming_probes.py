"""Mistake naming on probes written apart from the corpus, in forms the tuning half does not have.

Each probe under ``tests/fixtures/naming-probes/<exercise>/<code>/`` holds one mistake that a human
reader names with ``<code>``; the test grades it and asserts that the first mistake named is that
code. Every probe here was named wrongly or not at all before a generic change to the naming (the
change is said beside it), so each one guards that change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

PROBES = Path(__file__).resolve().parent / "fixtures" / "naming-probes"

CASES = [
    # move-only answers: a mistake made at the root only, or below it only, is a family of its own
    ("best-move", "bad-initial-bound/class_zero.py"),         # start value 0 at the root, a right search below
    ("best-move", "bad-initial-bound/zero_player2_only.py"),  # ... and for one player only
    ("best-move", "bad-initial-bound/unit_sentinels.py"),     # ... or at a finite loss value (-1 / +1)
    ("best-move", "ignores-player-argument/overwritten.py"),  # the root always maximises, a right search below
    ("best-move", "sign-flip/negamax_class.py"),              # unnegated negamax below a root that negates
    ("best-move", "always-max/inner_only.py"),                # the max everywhere below a right root
    ("best-move", "no-alternation/flag_not_flipped.py"),      # the root's way of choosing kept at every level
    ("best-move", "sign-flip/negamax_leaf_unsigned.py"),      # a negamax scoring every end from MAX's side
    ("best-move", "wrong-return-type/move_in_a_list.py"),     # a best move inside a list
    ("best-move", "wrong-return-type/move_as_text.py"),       # a best move written as text
    ("best-move", "ignores-player-argument/player_overwritten.py"),  # the helpers raise at the start, not below it
    # a negamax whose colour (the side an end position is scored for) is never handed over: the kit's family
    ("ctp-26", "no-alternation/negamax_sign_kept.py"),
    # max_depth never tested at all (0 searched too): a model of its own beside the depth never lowered
    ("ctp-26", "depth-not-decremented/depth_never_tested.py"),
    ("connect-four", "no-alternation/negamax_colour_kept_class.py"),
    # values right, a move returned where the game is over but none where no depth is left: it plays on
    ("connect-four", "missing-terminal-check/min_depth_only.py"),
    ("best-move", "no-alternation/negamax_sign_kept.py"),
    # parts: a rule with one direction left out; the best of no moves falling back on 0; a decision lost
    ("aima-isolation", "missing-diagonal-moves/one_direction_left_out.py"),
    ("aima-isolation", "missing-terminal-check/default_when_empty.py"),
    ("aima-isolation", "suboptimal-move/loop_variable_returned.py"),  # the last move tried, not the best
    ("aima-isolation", "suboptimal-move/max_of_moves_no_key.py"),     # the largest move, not the best one
    ("aima-isolation", "wrong-return-type/generator.py"),             # legal moves handed back as an iterator
    ("aima-isolation", "no-free-first-move/unplaced_starts_at_origin.py"),  # the second player starts on a cell
    ("aima-isolation", "no-alternation/helpers_only_min_calls_min"),  # one helper calls itself (a part alone)
]

# Probes whose mistake no family models: a wrong search fits most of their moves, but not clearly, so the
# grader must say it does not know rather than call the moves a lost best move ("suboptimal-move").
ABSTAINS = [
    ("best-move", "ignores-player-argument/root_as_player_one.py"),  # the root always chooses as player 1
]


@pytest.mark.parametrize("exercise, probe", CASES, ids=[f"{e}:{p}" for e, p in CASES])
def test_probe_is_named_with_its_mistake(exercise, probe):
    from grader.doors import api

    result = api.check(PROBES / exercise / probe, exercise)
    named = [m.code for m in result.mistakes]
    assert result.status == "failed", (result.status, result.error)
    assert named and named[0] == Path(probe).parent.name, named


@pytest.mark.parametrize("exercise, probe", ABSTAINS, ids=[f"{e}:{p}" for e, p in ABSTAINS])
def test_a_search_that_fits_most_moves_unclearly_is_not_named_anything_else(exercise, probe):
    from grader.doors import api

    result = api.check(PROBES / exercise / probe, exercise)
    named = [m.code for m in result.mistakes]
    assert result.status == "failed", (result.status, result.error)
    assert named and named[0] == "no-known-mistake", named


def test_a_model_the_exercise_words_keeps_its_own_question():
    """A model worded on its own (``[mistake_texts."code/name"]``) had its text shown with its code's question:
    "How many plies are left once you have gone down one move?" under a search that never tests max_depth."""
    from grader.kit.mistake_texts import text_of

    words = {"c": ("code text", "code question?"), "c/own": ("own text", "own question?"), "c/text": ("text only", "")}
    assert text_of(words, "c", "c/own") == ("own text", "own question?")
    assert text_of(words, "c", "c/text") == ("text only", "code question?")
    assert text_of(words, "c", "c/other") == text_of(words, "c") == ("code text", "code question?")
