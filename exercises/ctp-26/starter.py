"""ctp-26: write minimax.

get_value(node) and get_next_valid_moves(node) are provided by the grader: call them, do not
write them. Run `minimax-grader check this_file.py` to see how you are doing.
"""


def minimax(node, max_depth, player_a_moves):
    """Return the minimax value of `node`, looking at most `max_depth` moves ahead.

    `player_a_moves` is True when it is player A's turn at `node` (A maximises, B minimises).
    """
    raise NotImplementedError("write minimax here")
