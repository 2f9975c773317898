"""connect-four: write alphabeta.

Provided by the grader (do not write them): valid_moves(state), drop(state, column),
game_over(state), score(state), and MAX = 1, MIN = -1. Run `minimax-grader check this_file.py`.
"""
import math


def alphabeta(state, depth, alpha, beta, player):
    """Return [column, score]: a best column for `player` (MAX or MIN) and the position's score.

    Look `depth` moves ahead. When the game is over or depth is 0, return [None, score(state)].
    """
    raise NotImplementedError("write alphabeta here")


if __name__ == "__main__":
    empty = ((".....",) * 4, "X")
    print(alphabeta(empty, 2, -math.inf, math.inf, MAX))
