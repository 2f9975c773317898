"""The grader's stand-in for minimax.py, used when a submission does not include the decision."""

from minimax_helpers import *  # noqa: F401,F403


def minimax_decision(gameState):
    """The move whose resulting MIN level is worth the most to the player to move."""
    return max(gameState.get_legal_moves(), key=lambda m: min_value(gameState.forecast_move(m)))
