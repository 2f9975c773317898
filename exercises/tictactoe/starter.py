"""tictactoe: write minimax.

evaluate(state), wins(state, player), game_over(state) and empty_cells(state) are provided by
the grader, and so are MAX = +1 and MIN = -1. Run `minimax-grader check this_file.py` to see
how you are doing.
"""


def minimax(state, depth, player):
    """Return [row, col, score]: the best free cell for `player` (+1 or -1) and what the position is worth.

    `depth` is the number of free cells. When the game is over, return [-1, -1, score].
    """
    raise NotImplementedError("write minimax here")


if __name__ == "__main__":
    board = [[+1, +1, 0],
             [-1, -1, 0],
             [0, 0, 0]]
    print(minimax(board, len(empty_cells(board)), +1))  # X can win at once: [0, 2, 1]
