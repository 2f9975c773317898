"""Reference minimax for ctp-26, written the way the textbook states it.

It runs in the grader's own process, on the plain-data trees of the case bank, after the
student's code has answered: ``game.moves(node)`` gives the children in order and
``game.value(node)`` the heuristic value. ``evaluated`` collects the nodes whose value the
search needs, which is what the evaluation-discipline check compares against.
"""


def minimax(node, max_depth, player_a_moves, game):
    moves = game.moves(node)
    if max_depth == 0 or not moves:
        return game.value(node)
    values = [minimax(child, max_depth - 1, not player_a_moves, game) for child in moves]
    return max(values) if player_a_moves else min(values)
