"""Reference minimax for the tic-tac-toe exercise, written the way the textbook states it.

A board is three rows of three cells: 0 empty, +1 the computer (MAX), -1 the human (MIN).
A position's value is +1 if MAX can force a win, -1 if MIN can, 0 otherwise; the search is
exhaustive, so values never depend on search order. Positions are memoised (as tuples of
rows), so the grader knows, for any position, its value and the full set of moves that keep
it, for the price of one search of each position it ever meets.
"""

from __future__ import annotations

from functools import cache

MAX, MIN = +1, -1
LINES = ([[(r, 0), (r, 1), (r, 2)] for r in range(3)] + [[(0, c), (1, c), (2, c)] for c in range(3)]
         + [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]])


def key(board) -> tuple:
    return tuple(tuple(row) for row in board)


@cache
def winner(board: tuple) -> int:
    """+1 or -1 for the side holding a whole line, 0 if nobody does."""
    for (r1, c1), (r2, c2), (r3, c3) in LINES:
        mark = board[r1][c1]
        if mark != 0 and mark == board[r2][c2] == board[r3][c3]:
            return mark
    return 0


def evaluate(board) -> int:
    return winner(key(board))


def empty_cells(board) -> list[tuple[int, int]]:
    return [(r, c) for r in range(3) for c in range(3) if board[r][c] == 0]


def game_over(board) -> bool:
    return winner(key(board)) != 0 or not empty_cells(board)


def play(board: tuple, cell, player) -> tuple:
    r, c = cell
    row = board[r][:c] + (player,) + board[r][c + 1:]
    return board[:r] + (row,) + board[r + 1:]


@cache
def value(board: tuple, player: int) -> int:
    """The minimax value of ``board`` with ``player`` to move."""
    if game_over(board):
        return evaluate(board)
    scores = [value(play(board, cell, player), -player) for cell in empty_cells(board)]
    return max(scores) if player == MAX else min(scores)


def best_moves(board, player) -> list[tuple[int, int]]:
    """Every move that keeps the position's value: any of them is a right answer."""
    board = key(board)
    if game_over(board):
        return []
    best = value(board, player)
    return [cell for cell in empty_cells(board) if value(play(board, cell, player), -player) == best]


def minimax(board, player) -> list:
    """What the exercise's function answers: ``[row, col, score]``, ``[-1, -1, score]`` when the game is over."""
    board = key(board)
    if game_over(board):
        return [-1, -1, evaluate(board)]
    row, col = best_moves(board, player)[0]
    return [row, col, value(board, player)]
