"""The kit's pieces for exercises graded by hooks of their own (aima-isolation's parts): positions named by
their moves, the mistake families as diagnose models, answer shapes, all tried on mini-isolation's rules."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from grader.vocabulary.answers import Answer
from grader.kit import answer_shapes, move_paths
from grader.kit.game import Game
from grader.kit.search import Searcher
from grader.kit.value_models import value_models

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def isolation():
    return Game.from_file(ROOT / "exercises" / "aima-isolation" / "isolation.py", "_test_kit_isolation_game")


def _answer(value):
    """An Answer as the sandbox would send it, for ints, lists and tuples."""
    def tag(v):
        if type(v) is int:
            return {"t": "int", "v": v}
        return {"t": type(v).__name__, "v": [tag(i) for i in v]}

    return Answer.decode(tag(value))


def test_positions_are_replayed_from_their_moves_and_an_illegal_move_is_refused(isolation):
    state = move_paths.after(isolation, [[0, 0], (1, 1)])
    assert state.locations == ((0, 0), (1, 1)) and state.to_move == 0
    with pytest.raises(ValueError, match="not a legal move"):
        move_paths.after(isolation, [[0, 0], [0, 0]])  # the cell is used


def test_every_reachable_position_once_with_moves_that_reach_it(isolation):
    found = move_paths.reachable(isolation)
    assert len(found) == 155  # the hand-checked count of fixtures/isolation/known.json
    assert len({state for state, _ in found}) == len(found)
    for state, moves in found:
        assert move_paths.after(isolation, moves) == state
    assert len(move_paths.reachable(isolation, cap=10)) == 10


def test_families_become_models_and_a_twin_raises_where_the_search_finds_no_move(isolation):
    searcher = Searcher(isolation)
    stuck = move_paths.after(isolation, [(1, 1), (1, 0), (2, 0), (0, 0)])  # player 1, at (2, 0), has no move

    def position(case_input):
        return None if case_input["kind"] != "value" else (case_input["state"], None)

    flip, flip_raising, unchecked, unchecked_raising = value_models(
        searcher, position, ["sign-flip", "missing-terminal-check/max"], {"sign-flip": ("in the game's words", "?")})
    assert flip.code == "sign-flip" and flip.explanation == "in the game's words"
    assert unchecked.code == "missing-terminal-check" and "MAX" in unchecked.explanation  # the family's own words
    assert isolation.is_terminal(stuck) and searcher.role(stuck) == "max"
    assert flip.answer({"kind": "value", "state": stuck}) == -searcher.value(stuck, None) == 1
    assert flip_raising.answer({"kind": "value", "state": stuck}) == 1  # a sign never raises
    assert unchecked.answer({"kind": "value", "state": stuck}) == -math.inf
    with pytest.raises(ValueError):
        unchecked_raising.answer({"kind": "value", "state": stuck})
    assert flip.answer({"kind": "moves", "state": stuck}) is None  # not a question about a value


def test_answer_shapes_read_moves_with_exact_types():
    assert answer_shapes.moves_problem(_answer([(0, 1), (1, 0)]), [[1, 0], [0, 1]], "get_legal_moves") is None
    said = answer_shapes.moves_problem(_answer([(0, 1), (2, 1)]), [[0, 1], [1, 0]], "get_legal_moves")
    assert "(2, 1) is not legal" in said and "(1, 0) is missing" in said
    assert "twice" in answer_shapes.moves_problem(_answer([(0, 1), (0, 1)]), [[0, 1]], "get_legal_moves")
    assert "must return a list of (x, y) moves" in answer_shapes.moves_problem(_answer([1, 2]), [], "get_legal_moves")
    assert answer_shapes.best_move_problem(_answer((0, 0)), [[0, 0], [2, 0]], "decide") is None
    assert "not a best move" in answer_shapes.best_move_problem(_answer((1, 1)), [[0, 0]], "decide")
    assert answer_shapes.exact_list_problem(_answer(((0, 1),)), "get_legal_moves").endswith("must return a list")
    assert "must be a tuple" in answer_shapes.exact_list_problem(_answer([[0, 1]]), "get_legal_moves")
    assert answer_shapes.sorted_moves(_answer([(1, 0), (0, 1)])) == [(0, 1), (1, 0)]


def test_a_set_of_moves_is_read_from_its_text_and_nothing_else_is():
    as_set = Answer("other", None, "set", "{(1, 0), (0, 1)}")
    assert answer_shapes.moves_of_a_set(as_set) == [(0, 1), (1, 0)]
    assert answer_shapes.moves_of_a_set(Answer("other", None, "set", "{(1, 0), (0, 1), ...")) is None  # cut short
    assert answer_shapes.moves_of_a_set(Answer("other", None, "Board", "{(1, 0)}")) is None
    assert answer_shapes.moves_of_a_set(_answer([(1, 0)])) is None
