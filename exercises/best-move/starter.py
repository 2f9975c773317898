"""best-move: write best_move.

generate_valid_moves(player, state), apply(state, move), is_terminal(state), evaluate(state) and
next_player(player) are provided by the grader. Run `minimax-grader check this_file.py` to see
how you are doing.
"""


def best_move(player, state):
    """Return the best move for `player` (1 wants the value low, 2 wants it high) in `state`."""
    raise NotImplementedError("write best_move here")
