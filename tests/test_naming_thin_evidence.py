"""A name needs evidence: thin evidence gives ``no-known-mistake``, never a guess (issue 22, the last outsider trial).

On a Dawson's Kayles best-move game declared by an outsider, a one-ply submission and one whose levels do not
alternate were both named ``min-max-swapped`` on a bank where they chose a wrong move on 2 positions only: on
such a bank several wrong searches choose those very moves, and the first one listed was named. And a negamax
whose root keeps its children's values unturned (the move best for the opponent) was named nothing. The game
here is declared in a temporary folder from the guide's vocabulary and graded through the public API.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from grader.vocabulary.findings import MIN_EXPLAINED, Fit, Model, clear_winners

KAYLES = '''
PLAYERS = ("MAX", "MIN")


def start_positions():
    return [((9,), "MAX"), ((4, 6), "MIN"), ((3, 8), "MAX"), ((11,), "MIN")]


def to_move(state):
    return state[1]


def actions(state):
    rows = state[0]
    found = []
    for i, size in enumerate(rows):
        if i and rows[i - 1] == size:
            continue
        for left in range(0, (size - 2) // 2 + 1):
            found.append((size, left))
    return found


def result(state, move):
    rows, player = state
    size, left = move
    rest = list(rows)
    rest.remove(size)
    rest += [n for n in (left, size - 2 - left) if n >= 2]
    return tuple(sorted(rest)), "MIN" if player == "MAX" else "MAX"


def is_terminal(state):
    return not actions(state)


def utility(state, player):
    return -1 if to_move(state) == player else 1


def render(state):
    return " | ".join("I" * n for n in state[0]) + f"  ({state[1]} to move)"
'''

DECLARATION = '''
title = "Dawson's Kayles: the best move"
statement = "statement.md"
starter = "starter.py"
fixtures = "positions"
random_examples = 0

[game]
module = "kayles.py"
positions = "reachable"
cap = 400

[game.groups.open]
terminal = false

[student]
function = "best_move"
returns = "move"

[student.arguments]
state = "state"

[student.helpers]
moves = "actions"
play = "result"
game_over = "is_terminal"
whose = "to_move"
winner = { op = "utility", player = "max" }

[[checks]]
name = "best-moves"
title = "an optimal move"
kind = "move"
groups = GROUPS
points = 3.0
'''

# Two positions where the submissions below choose a wrong move, and twelve where they choose a best one (and
# where a search with min and max swapped, one that always maximises and one whose levels never alternate
# choose the same moves): the bank of the trial, in small.
THIN = [((2, 4), "MAX"), ((6,), "MAX"), ((2,), "MAX"), ((2,), "MIN"), ((3,), "MAX"), ((3,), "MIN"), ((2, 2), "MAX"),
        ((2, 2), "MIN"), ((4,), "MAX"), ((2, 3), "MAX"), ((2, 3), "MIN"), ((5,), "MAX"), ((5,), "MIN"),
        ((2, 2, 2), "MIN")]

ONE_PLY = '''
def best_move(state):
    me = whose(state)
    for m in moves(state):
        after = play(state, m)
        if game_over(after) and (winner(after) > 0) == (me == "max"):
            return m
    return moves(state)[0]
'''

NO_ALTERNATION = '''
def value(state, maximise):
    if game_over(state):
        return winner(state)
    values = [value(play(state, m), maximise) for m in moves(state)]
    return max(values) if maximise else min(values)


def best_move(state):
    maximise = whose(state) == "max"
    pick = max if maximise else min
    return pick(moves(state), key=lambda m: value(play(state, m), maximise))
'''

ROOT_NOT_NEGATED = '''
def negamax(state):
    if game_over(state):
        return winner(state) if whose(state) == "max" else -winner(state)
    return max(-negamax(play(state, m)) for m in moves(state))


def best_move(state):
    return max(moves(state), key=lambda m: negamax(play(state, m)))
'''


def declare(base: Path, exercise_id: str, groups: list[str], positions: list | None = None) -> Path:
    folder = base / exercise_id
    (folder / "positions").mkdir(parents=True)
    (folder / "kayles.py").write_text(KAYLES, encoding="utf-8")
    (folder / "exercise.toml").write_text(f'id = "{exercise_id}"\n'
                                          + textwrap.dedent(DECLARATION).replace("GROUPS", json.dumps(groups)),
                                          encoding="utf-8")
    for name in ("statement.md", "starter.py"):
        (folder / name).write_text("", encoding="utf-8")
    if positions:
        hand = [{"name": f"p{i}", "title": "a position", "state": [list(rows), player]}
                for i, (rows, player) in enumerate(positions)]
        (folder / "positions" / "hand.json").write_text(json.dumps({"positions": hand}), encoding="utf-8")
    return base


def named(base: Path, exercise_id: str, source: str) -> list[str]:
    from grader.doors import api

    path = base / f"{exercise_id}-student.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    result = api.check(path, exercise_id, exercises_dir=[base])
    assert result.status == "failed", (result.status, result.error)
    return [m.code for m in result.mistakes]


@pytest.mark.parametrize("source", [ONE_PLY, NO_ALTERNATION], ids=["one-ply", "no-alternation"])
def test_two_wrong_moves_are_too_thin_to_name_a_mistake(tmp_path, source):
    """Wrong on 2 of 14 positions, where three wrong searches choose the same moves: no name, not the first listed."""
    base = declare(tmp_path, "kayles-thin", ["fixtures"], THIN)
    assert named(base, "kayles-thin", source) == ["no-known-mistake"]


def test_with_enough_wrong_moves_the_search_is_named_and_a_root_not_turned_round_is_a_sign_flip(tmp_path):
    """The same game asked on every unfinished position: the levels that do not alternate are named, and so is
    the negamax whose root keeps the move best for the opponent (every move valued right below it)."""
    base = declare(tmp_path, "kayles", ["fixtures", "open"])
    assert named(base, "kayles", NO_ALTERNATION)[0] == "no-alternation"
    assert named(base, "kayles", ROOT_NOT_NEGATED) == ["sign-flip"]


def _fit(code, explained, wrong, complete=True, sharp=None):
    compared = 40
    agreed = compared if complete else compared - 1
    return Fit(Model(code, None), compared, explained, None, agreed, wrong, None, 0, sharp)


def test_a_hypothesis_is_named_only_when_it_reproduces_enough_wrong_answers():
    thin = _fit("min-max-swapped", MIN_EXPLAINED - 1, MIN_EXPLAINED - 1)
    assert clear_winners([thin]) == []
    enough = _fit("min-max-swapped", MIN_EXPLAINED, MIN_EXPLAINED)
    assert clear_winners([enough]) == [enough]
    # A search that agrees with every wrong move only because it finds every move as good shows nothing.
    ties = _fit("missing-terminal-check", 20, 20, sharp=0)
    assert clear_winners([ties]) == []
    assert clear_winners([ties, enough]) == [enough]
