"""aima-isolation: the rules of 3x2 mini-isolation and minimax over them.

Hand in this one file, or split it the way the mini-project does: gamestate.py (GameState),
minimax_helpers.py (terminal_test, min_value, max_value; starts with `from gamestate import *`)
and minimax.py (minimax_decision; starts with `from minimax_helpers import *`). Parts you leave
out are supplied by the grader and not graded. Check with `minimax-grader check <file or folder>`.
"""


class GameState:
    def __init__(self):
        """The empty 3x2 board, (2, 1) blocked, player 1 to move."""

    def forecast_move(self, move):
        """Return a NEW GameState with the active player moved to `move` (an (x, y) tuple)."""
        raise NotImplementedError

    def get_legal_moves(self):
        """Return a list of the (x, y) moves open to the player to move."""
        raise NotImplementedError


def terminal_test(gameState):
    """True when the player to move has no legal move."""
    raise NotImplementedError


def min_value(gameState):
    """+1 if the game is over here (a MIN level), else the minimum over the moves of max_value."""
    raise NotImplementedError


def max_value(gameState):
    """-1 if the game is over here (a MAX level), else the maximum over the moves of min_value."""
    raise NotImplementedError


def minimax_decision(gameState):
    """Return the move with the highest min_value for the player to move."""
    raise NotImplementedError
