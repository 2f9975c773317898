"""Reference alpha-beta for the alphabeta exercise, in the textbook's shape.

It runs only in the grader's process, on the case bank's plain-data trees, after the
student's code has answered. ``game.moves(node)`` gives the children left to right and
``game.value(node)`` the heuristic value; the hooks pass a ``game`` whose ``value`` records
each node it is asked about, which is the set of nodes a correct search must evaluate.

The pruning rule is the one the statement fixes: a MAX node stops looking at its moves as
soon as its value is strictly greater than beta, a MIN node as soon as its value is strictly
less than alpha. A value equal to the bound never prunes (as in the CS188 grader).
"""

import math


def alphabeta(node, max_depth, alpha, beta, player_a_moves, game):
    moves = game.moves(node)
    if max_depth == 0 or not moves:
        return game.value(node)
    if player_a_moves:
        value = -math.inf
        for child in moves:
            value = max(value, alphabeta(child, max_depth - 1, alpha, beta, False, game))
            if value > beta:
                return value
            alpha = max(alpha, value)
        return value
    value = math.inf
    for child in moves:
        value = min(value, alphabeta(child, max_depth - 1, alpha, beta, True, game))
        if value < alpha:
            return value
        beta = min(beta, value)
    return value
