# The reference's shape written against the student's helpers: what every solution looks
# like, so near-duplicate detection never counts it as evidence of copying.
import math


def alphabeta(node, max_depth, alpha, beta, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    if player_a_moves:
        value = -math.inf
        for child in moves:
            value = max(value, alphabeta(child, max_depth - 1, alpha, beta, False))
            if value > beta:
                return value
            alpha = max(alpha, value)
        return value
    value = math.inf
    for child in moves:
        value = min(value, alphabeta(child, max_depth - 1, alpha, beta, True))
        if value < alpha:
            return value
        beta = min(beta, value)
    return value
