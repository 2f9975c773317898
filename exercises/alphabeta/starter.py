"""alphabeta: write minimax with alpha-beta pruning.

get_value(node) and get_next_valid_moves(node) are provided by the grader: call them, do not
write them. Run `minimax-grader check this_file.py` to see how you are doing.
"""


def alphabeta(node, max_depth, alpha, beta, player_a_moves):
    """Return the minimax value of `node`, looking at most `max_depth` moves ahead, with pruning.

    `alpha` is the value player A (the maximiser) is already sure of, `beta` the value player B
    (the minimiser) is already sure of; the grader calls alphabeta(root, depth, -inf, inf, ...).
    """
    raise NotImplementedError("write alphabeta here")
