# The reference's shape written against the student's helpers: what every solution looks
# like, so near-duplicate detection never counts it as evidence of copying.
import math


def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]
    return max(values) if player_a_moves else min(values)


def minimax(node, max_depth, player_a_moves):
    children = get_next_valid_moves(node)
    if max_depth == 0 or len(children) == 0:
        return get_value(node)
    if player_a_moves:
        best = -math.inf
        for child in children:
            best = max(best, minimax(child, max_depth - 1, False))
        return best
    best = math.inf
    for child in children:
        best = min(best, minimax(child, max_depth - 1, True))
    return best


# The same search with the choice written as an if statement (with or without else) and the end of the tree tested
# by length: forms as common as the two above in any class (three students who wrote one of them apart were
# flagged as a group in a class of ten, where no idiom is shared by enough students to be discounted: the hundred
# and thirteenth helper).
def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or len(moves) == 0:
        return get_value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]
    if player_a_moves:
        return max(values)
    else:
        return min(values)


def minimax(node, max_depth, player_a_moves):
    moves = get_next_valid_moves(node)
    if max_depth == 0 or not moves:
        return get_value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves) for child in moves]
    if player_a_moves:
        return max(values)
    return min(values)
