"""The kit searcher's table of positions: each position entered once and known by a number.

A bulk worker may grade on several threads that share one searcher (an exercise's mistakes module
is loaded once per process), and the game's own code runs while a position is entered, so another
thread can enter one meanwhile. The rows of two positions must never be swapped.
"""

from __future__ import annotations

import threading
import types

from grader.kit.game import Game
from grader.kit.search import Searcher


def _two_position_game(pause_in, entered_other):
    """"a" is a finished game worth 1; "b" has one move, to the finished "c", worth -1."""
    def is_terminal(state):
        if state == "a" and threading.current_thread().name == "first":
            pause_in.set()  # stands for a thread switch inside the game's is_terminal
            entered_other.wait(5)
        return state in ("a", "c")

    module = types.SimpleNamespace(
        PLAYERS=("X", "O"), to_move=lambda state: "X", actions=lambda state: [] if state in "ac" else [0],
        result=lambda state, action: "c", is_terminal=is_terminal,
        utility=lambda state, player: {"a": 1, "c": -1}[state])
    game = Game(module)
    game.is_terminal = lambda state: bool(module.is_terminal(state))  # no memo in front of the game's code
    return game


def test_a_position_entered_while_another_thread_enters_one_keeps_its_own_rows():
    pause_in, entered_other = threading.Event(), threading.Event()
    searcher = Searcher(_two_position_game(pause_in, entered_other))
    first = threading.Thread(target=lambda: searcher.node("a"), name="first")
    first.start()
    assert pause_in.wait(5)
    searcher.node("b")  # entered while the first thread is inside is_terminal("a")
    entered_other.set()
    first.join(5)
    assert searcher.ended(searcher.node("a")) and not searcher.ended(searcher.node("b"))
    assert searcher.value("a", None) == 1
    assert searcher.value("b", None) == -1
    assert [searcher.states[searcher.node(s)] for s in "ab"] == ["a", "b"]


def test_equal_positions_share_one_number_and_the_children_follow_the_actions():
    from grader.kit import tree_game

    tree = {"name": "r", "value": 0, "children": [{"name": "x", "value": 3, "children": []},
                                                  {"name": "y", "value": -2, "children": []}]}
    searcher = Searcher(tree_game.GAME)
    root = tree_game.start({"tree": tree, "player_a_moves": True})
    n = searcher.node(root)
    assert searcher.node(tree_game.start({"tree": tree, "player_a_moves": True})) == n
    assert [searcher.leaf_of(c) for c in searcher.kids(n)] == [3, -2]
    assert searcher.best_moves(root, 1) == [0]
