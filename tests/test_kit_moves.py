"""The kit's parts for exercises whose student returns a move alone, and its plain-data game trees.

Checked on best-move's game module (a game tree in the AIMA vocabulary): the moves each wrong
search chooses at the root, the judging of a move's type and value, the texts in the game's own
words, and the trees' shrinking and pictures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.vocabulary.answers import Answer
from grader.kit import move_answer, move_families, trees
from grader.kit.game import Game
from grader.kit.search import Searcher

GAME_FILE = Path(__file__).resolve().parent.parent / "exercises" / "best-move" / "game.py"


def leaf(value):
    return {"value": value, "moves": []}


@pytest.fixture(scope="module")
def searcher():
    return Searcher(Game.from_file(GAME_FILE, "_test_kit_moves_game"))


def test_each_wrong_search_chooses_its_own_move(searcher):
    # Player 2 (MAX) to move; "a" leads to a MIN choice between 3 and 9, "b" ends at 5, "c" at -4.
    tree = {"value": 0, "moves": [["a", {"value": 8, "moves": [["x", leaf(3)], ["y", leaf(9)]]}],
                                  ["b", leaf(5)], ["c", leaf(-4)]]}
    state = ("tree", tree, 2)
    assert searcher.best_moves(state, None) == ["b"]  # a is worth 3, b 5, c -4

    def choose(family):
        return move_families.choices(searcher, family, state)

    assert choose("min-max-swapped") == ["c"]  # MAX takes the lowest (a would be worth 9 below)
    assert choose("min-max-swapped/below-root") == ["a"]  # the root right, a worth 9 below it
    assert choose("always-max") == ["a"] and choose("always-min") == ["c"]
    assert choose("one-ply-search") == ["a"]  # a's own guess, 8, is taken for its worth
    assert choose("bad-initial-bound") == ["b"]
    # Unnegated negamax: leaves scored for the side to move there, every level keeps the maximum.
    assert choose("sign-flip") == ["a"]


def test_a_start_bound_no_move_beats_keeps_no_move(searcher):
    state = ("tree", {"value": 0, "moves": [[1, leaf(-3)], [2, leaf(-1)]]}, 2)
    assert move_families.choices(searcher, "bad-initial-bound", state) == [None]
    assert move_families.choices(searcher, "min-max-swapped", state) == [1]


def test_ties_are_all_choices(searcher):
    state = ("tree", {"value": 0, "moves": [["l", leaf(4)], ["r", leaf(4)], ["s", leaf(1)]]}, 2)
    assert move_families.choices(searcher, "always-max", state) == ["l", "r"]


def test_texts_use_the_games_words_for_its_players():
    words = move_families.codes("player 2", "player 1")
    assert set(words) == set(move_families.CODES)
    text, question = words["always-max"]
    assert "player 1 as well" in text and "player 1's turn" in question
    assert not any("MAX" in t or "MIN" in t for pair in words.values() for t in pair)


def test_a_move_must_come_back_with_the_games_own_type():
    legal = [(0, 2), (1, 1)]
    assert move_answer.legal_problem(legal, _answer((1, 1)), "moves()") is None
    listed = move_answer.legal_problem(legal, _answer([1, 1]), "moves()")
    assert "a list; moves are the tuples moves() gives" in listed
    assert "another type" in move_answer.legal_problem([3, 4], _answer("3"), "moves()")
    assert move_answer.moves_text([[0, 2], [1, 1]]) == "(0, 2) or (1, 1)"


def test_a_legal_move_is_judged_by_the_value_it_leads_to():
    expected = {"value": 5, "moves": ["b"], "move values": [["a", 3], ["b", 5]]}
    assert move_answer.best_problem(_answer("b"), expected, "MAX wants the highest value") is None
    problem = move_answer.best_problem(_answer("a"), expected, "MAX wants the highest value")
    assert problem == "returned 'a' (a str), which leads to a value of 3; MAX wants the highest value, 5, which 'b' gets"


def test_simpler_trees_are_smaller_and_keep_a_move_at_the_root():
    tree = {"value": 4, "moves": [["a", {"value": 2, "moves": [["x", leaf(3)]]}], ["b", leaf(-5)]]}
    found = trees.simpler(tree)
    assert found and all(trees.size(t) <= trees.size(tree) for t in found)
    assert all(t["moves"] for t in found)
    assert {"value": 4, "moves": [["b", leaf(-5)]]} in found  # a branch dropped
    assert any(len(t["moves"]) == 2 and t["moves"][1][1]["value"] == 0 for t in found)  # a value made simpler


def test_tree_pictures_say_who_moves_and_how_games_end():
    tree = {"value": 0, "moves": [["a", {"value": 1, "moves": [["x", leaf(3)]]}], [7, leaf(-2)]]}
    text = trees.text(tree, "root", lambda level: f"side {level % 2} to move")
    assert text.splitlines() == ["root", "├── move 'a' → side 1 to move", "│   └── move 'x' → game over, value 3",
                                 "└── move 7 → game over, value -2"]
    drawn = trees.drawing(tree, lambda level: f"side {level % 2}")
    assert [c["id"] for c in drawn["root"]["children"]] == ["/'a'", "/7"]
    assert trees.root_marks("a", [7]) == {"yours_node": "/'a'", "best_nodes": ["/7"]}


def _answer(value):
    """The answer as the sandbox reports it (plain data, tagged by type), decoded as the judge reads it."""
    def tag(v):
        if type(v) in (list, tuple):
            return {"t": type(v).__name__, "v": [tag(item) for item in v]}
        return {"t": type(v).__name__, "v": v}
    return Answer.decode(tag(value))
