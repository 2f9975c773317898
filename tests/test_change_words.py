"""What a call changed in a tree, in words (``tree_driver.change_of``), from the child's look after the call to
the check's message: "the tree was different" sends a student hunting, "the children of 'Move V' came in another
order" points at their ``sort``. Words only: the verdict stays ``mutated``'s, and the grading process refuses a
``change`` that comes without it, or that is not a short text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from anytree import Node

from grader.doors import api
from grader.kit import tree_driver
from grader.sandbox import replies

ROOT = Path(__file__).resolve().parent.parent
TREE = {"name": "V", "children": [
    {"name": "Y", "children": [{"name": "Y1", "children": []}, {"name": "Y2", "children": []}]},
    {"name": "X", "children": []},
]}


def _changed_by(change):
    built = tree_driver.build({"tree": TREE})
    before = tree_driver.snapshot(built)
    change(built.root, built.nodes)
    assert tree_driver.changed(built, before)
    return tree_driver.change_of(built, before)


def _sort(root, nodes):
    root.children = sorted(root.children, key=lambda node: node.name)


def _mark(root, nodes):
    nodes[2].visited = True


def _rename(root, nodes):
    nodes[3].name = "Y2 (seen)"


def _cut(root, nodes):
    nodes[1].children = []


def _graft(root, nodes):
    Node("new", parent=nodes[4])


def _move(root, nodes):
    nodes[2].parent = nodes[4]  # Y1 from under Y to under X: Y, first in preorder, lost it


def _swap_and_add(root, nodes):
    nodes[1].children = [nodes[3], Node("copy")]


@pytest.mark.parametrize("change, words", [
    (_sort, "the children of the root 'V' came in another order: 'X', 'Y' (they were 'Y', 'X')"),
    (_mark, "'Y1' was given the attribute 'visited'"),
    (_rename, "'Y2' was renamed 'Y2 (seen)'"),
    (_cut, "'Y' lost the children 'Y1', 'Y2'"),
    (_graft, "'X' got a node that was not in the tree as a child"),
    (_move, "'Y' lost its child 'Y1'"),
    (_swap_and_add, "the children of 'Y' changed: 'Y2', a node that was not in the tree (they were 'Y1', 'Y2')"),
], ids=lambda value: getattr(value, "__name__", "words"))
def test_the_first_change_in_preorder_is_said_in_words(change, words):
    assert _changed_by(change) == words


def test_long_names_and_lists_are_cut_and_what_cannot_be_looked_into_is_not():
    wide = {"name": "r", "children": [{"name": f"n{i}", "children": []} for i in range(10)]}
    built = tree_driver.build({"tree": wide})
    before = tree_driver.snapshot(built)
    built.root.children = list(reversed(built.root.children))
    words = tree_driver.change_of(built, before)
    assert words.startswith("the children of the root 'r' came in another order: 'n9', 'n8'") and "and 4 more" in words
    built = tree_driver.build({"tree": TREE})
    before = tree_driver.snapshot(built)
    built.nodes[4].name = "x" * 5000
    words = tree_driver.change_of(built, before)
    assert len(words) < 100 and words.startswith("'X' was renamed 'xxx")
    built = tree_driver.build({"tree": TREE})
    before = tree_driver.snapshot(built)
    vars(built.nodes[4])[7] = "a key that is not a string"
    assert tree_driver.change_of(built, before) is None  # not a plain dict of string keys: the report's general words
    assert tree_driver.change_of(built, ("not", "a snapshot")) is None


def test_the_grading_process_takes_a_short_text_with_a_change_and_nothing_else():
    replies.check_run({"results": [{"id": "c1", "mutated": True, "change": "'X' was renamed 'Y'"}]}, [{"id": "c1"}])
    for bad in ({"id": "c1", "change": "'X' was renamed 'Y'"},  # words of a change the verdict does not have
                {"id": "c1", "mutated": True, "change": "x" * (replies.CHANGE + 1)},
                {"id": "c1", "mutated": True, "change": ["'X'"]}):
        with pytest.raises(replies.Refused):
            replies.check_run({"results": [bad]}, [{"id": "c1"}])


def test_a_graded_search_that_sorts_the_children_is_told_which_node_it_changed(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    result = api.check(ROOT / "fixtures/submissions/ctp-26/buggy/mutates_tree.py", "ctp-26", examples=20)
    check = next(c for c in result.checks if c.name == "tree-unchanged")
    assert check.status == "failed"
    # the smallest tree it changed: a root with two children named out of order, which the search sorted by name
    assert "the tree was different after the call: the children of the root " in check.message
    assert "came in another order: 'Move " in check.message
    shown = check.message.split("came in another order: ")[1]
    after, before = shown.split(" (they were ")
    assert sorted(after.split(", ")) == after.split(", ") != before.split(")")[0].split(", ")
    assert all(c.status == "passed" for c in result.checks if c.name != "tree-unchanged")


# -- a declared exercise's state (the kit's driver) ------------------------------------------------------------------

def _kit_words(before, after, name="board"):
    from grader.kit import driver

    return driver._change_words(driver._snapshot(before), driver._snapshot(after), name)


def test_a_state_s_first_difference_is_named_by_its_path():
    assert _kit_words([[0, 0], [0, 0]], [[0, 0], [0, 1]]) == "board[1][1] is 1 where it was 0"
    assert _kit_words({"piles": [1, 2], "turn": 0}, {"piles": [1, 1], "turn": 0}, "position") \
        == "position['piles'][1] is 1 where it was 2"
    assert _kit_words([3, 4, 5], [3, 4], "piles") == "piles is a list of 2 items where it was a list of 3 items"
    assert _kit_words([1, [2]], [1, (2,)]) == "board[1] is a tuple of 1 item where it was a list of 1 item"
    assert _kit_words(["x" * 500], ["y" * 500]).startswith("board[0] is 'yyy") and len(_kit_words(["x" * 500], ["y"])) < 200
    assert _kit_words([1, 2], [1, 2]) is None


def test_a_state_too_large_to_walk_whole_is_cut_alike_before_and_after_a_call():
    """Past ``SNAPSHOT_ITEMS`` the snapshot before a call stops; the look after it walked twice as many items as that
    description held, further than before, and found an honest, unchanged state changed (the hundred and eighteenth
    helper's reading). The walk after is never longer than the walk before."""
    from grader.kit import agent_driver, driver

    big = [[0] * 1000 for _ in range(2 * driver.SNAPSHOT_ITEMS // 1000)]
    before = driver._snapshot(big)
    assert driver._snapshot(big, 0, [driver._after_budget(before)]) == before
    small = [[0, 0], [0, 0]]
    assert driver._after_budget(driver._snapshot(small)) < 100  # a small state's look stays small
    board = [[0] * 1000 for _ in range(2 * agent_driver.FROZEN_ITEMS // 1000)]
    kept = ("board", agent_driver._frozen(board, [agent_driver.FROZEN_ITEMS]), agent_driver._frozen([], [10]))
    assert agent_driver._frozen(board, [agent_driver._after_items(kept)]) == kept[1]


def test_a_board_left_changed_is_named_in_the_likely_mistake(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    result = api.check(ROOT / "fixtures/submissions/tictactoe/buggy/board_not_restored.py", "tictactoe", examples=20)
    mistake = result.mistakes[0]
    assert mistake.code == "board-not-restored"
    # the search leaves its last mark on the board it was handed: a cell that held 0 holds a player's mark
    assert re.search(r"board\[[0-2]\]\[[0-2]\] is -?1 where it was 0\); a move left behind", mistake.evidence)


def test_the_restore_check_says_where_the_state_changed():
    from grader.judging.bank import Case
    from grader.judging.checks import Outcome
    from grader.judging import exercise as exercises

    hooks = exercises.load("tictactoe").kit
    case = Case(id="c1", group="random", input={"board": [[0] * 3] * 3, "player": 1, "depth": 2})
    raw = {"id": "c1", "answer": {"t": "list", "v": []}, "mutated": True, "change": "board[0][0] is 1 where it was 0"}
    problem = hooks.check_restored(Outcome(case, raw), None)
    assert problem == ("the board was different after the call (board[0][0] is 1 where it was 0): a move tried during "
                       "the search was not undone")


# -- an exercise's own driver (best-move: a state object with a board) ----------------------------------------------

def _best_move_driver():
    import importlib.util

    spec = importlib.util.spec_from_file_location("best_move_driver_words", ROOT / "exercises/best-move/driver.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_DRIVER = _best_move_driver()


class _Built:
    def __init__(self):
        self.root = _DRIVER.State("tictactoe", 0, [[0, 0, 0], [0, 0, 0], [0, 0, 0]], 1)


def test_best_move_s_driver_names_the_field_or_the_cell_that_changed():
    driver = _DRIVER
    built = _Built()
    before = driver.snapshot(built)
    built.root.board[1][2] = 2
    assert driver.change_of(built, before) == "state.board[1][2] is 2 where it was 0"
    built = _Built()
    before = driver.snapshot(built)
    built.root.to_move = 2
    assert driver.change_of(built, before) == "state.to_move is 2 where it was 1"
    built = _Built()
    before = driver.snapshot(built)
    built.root.board[0][0] = "X"  # a plain value is shown as it is (the hundred and eighteenth helper: "a str object")
    assert driver.change_of(built, before) == "state.board[0][0] is 'X' where it was 0"
    built = _Built()
    before = driver.snapshot(built)
    del built.root.board
    assert driver.change_of(built, before) == "the state lost one of its fields"
    built = _Built()
    before = driver.snapshot(built)
    built.root.__class__ = type("Shown", (driver.State,), {"__slots__": ()})
    assert driver.change_of(built, before) == "state is no longer a State (its class was changed)"


MARKS_THE_BOARD = """
def value(player, state):
    if is_terminal(state):
        return evaluate(state)
    values = [value(next_player(player), apply(state, move)) for move in generate_valid_moves(player, state)]
    return min(values) if player == 1 else max(values)


def best_move(player, state):
    moves = list(generate_valid_moves(player, state))
    scored = [(value(next_player(player), apply(state, move)), move) for move in moves]
    best = (min if player == 1 else max)(scored, key=lambda pair: pair[0])[1]
    if getattr(state, "board", None) is not None:
        state.board[best[0]][best[1]] = player  # "play" the move on the board it was handed
    return best
"""


def test_a_search_that_marks_the_board_it_was_handed_is_told_which_cell(tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMAX_GRADER_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "marks.py"
    path.write_text(MARKS_THE_BOARD, encoding="utf-8")
    result = api.check(path, "best-move", examples=30)
    check = next(c for c in result.checks if c.name == "state-unchanged")
    assert re.search(r"the state was different after the call \(state\.board\[[0-2]\]\[[0-2]\] is [12] where it was 0\)",
                     check.message), check.message


def test_a_huge_list_of_children_is_counted_not_compared():
    """The hundred and fifteenth red team extended the root's children by 100,000 objects after each call: sorting
    them to tell a new order from a new set made grading four times as slow. Past ``COMPARED`` they are counted."""
    built = tree_driver.build({"tree": TREE})
    before = tree_driver.snapshot(built)
    vars(built.root)["_NodeMixin__children"].extend(object() for _ in range(tree_driver.COMPARED))
    assert tree_driver.change_of(built, before) == (
        f"the children of the root 'V' changed: {tree_driver.COMPARED + 2} where there were 2")
