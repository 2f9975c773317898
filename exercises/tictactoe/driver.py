"""Sandbox side of the tic-tac-toe exercise: a board as the student's code sees it, and the helpers.

This file runs in the child next to the student's code and holds nothing secret. The board
is three fresh lists of ints (0 empty, +1 MAX, -1 MIN) that the student may change while
searching, as long as every change is undone; the snapshot records exactly what a cell
holds (type and value), so a cell left as ``1.0`` or ``True`` counts as changed.
"""

MAX, MIN = +1, -1
LINES = [[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]


def wins(state, player):
    """True when `player` holds a whole row, column or diagonal."""
    for line in LINES:
        if all(state[r][c] == player for r, c in line):
            return True
    return False


def evaluate(state):
    """+1 when MAX has won, -1 when MIN has, 0 otherwise."""
    if wins(state, MAX):
        return +1
    if wins(state, MIN):
        return -1
    return 0


def game_over(state):
    """True when either player has won (a full board without a winner is caught by depth 0)."""
    return wins(state, MAX) or wins(state, MIN)


def empty_cells(state):
    """The free cells as [row, col] pairs, row by row."""
    return [[r, c] for r in range(3) for c in range(3) if state[r][c] == 0]


class Built:
    def __init__(self, case_input):
        self.board = [list(row) for row in case_input["board"]]
        self.player = case_input["player"]
        self.depth = sum(cell == 0 for row in case_input["board"] for cell in row)


def build(case_input):
    return Built(case_input)


HELPERS = {"evaluate": evaluate, "wins": wins, "game_over": game_over, "empty_cells": empty_cells}


def helpers(built, trace):
    """The same four functions for every case: they depend on nothing but the board given."""
    return dict(HELPERS)


def loading_helpers():
    """While the file itself runs: the helpers and the constants the exercise names."""
    return {**HELPERS, "MAX": MAX, "MIN": MIN, "COMP": MAX, "HUMAN": MIN}


def call(entry, built):
    return entry(built.board, built.depth, built.player)


# A type's name read by type's own getter: ``kind.__name__`` would ask a student's metaclass.
_name_of_type = type.__dict__["__name__"].__get__


def snapshot(built):
    """Each row and cell as (type name, value if it is an exact int), plus the board's own shape.

    Tuples all the way down: the harness keeps this "before" snapshot while student code runs,
    and code that finds it with ``gc`` must not be able to rewrite it to match a changed board.
    """

    def cell(value):
        return (_name_of_type(type(value)), value if type(value) is int else None)

    board = built.board
    if type(board) is not list:
        return ("not a list",)
    return tuple(tuple(cell(v) for v in row) if type(row) is list else ("row", _name_of_type(type(row)))
                 for row in board)
