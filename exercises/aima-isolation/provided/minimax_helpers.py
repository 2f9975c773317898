"""The grader's stand-in for minimax_helpers.py, used when a submission does not include them."""

from gamestate import *  # noqa: F401,F403  (the mini-project's layout: the helpers see GameState)


def terminal_test(gameState):
    """Terminal when the player to move has no move left."""
    return not gameState.get_legal_moves()


def min_value(gameState):
    """+1 if the game ends here on a MIN level, else the smallest value the opponent can force."""
    if terminal_test(gameState):
        return 1
    return min(max_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())


def max_value(gameState):
    """-1 if the game ends here on a MAX level, else the largest value the searcher can force."""
    if terminal_test(gameState):
        return -1
    return max(min_value(gameState.forecast_move(m)) for m in gameState.get_legal_moves())
