# The reference's shape written against the student's helpers (place, recurse, undo): what
# every solution looks like, so near-duplicate detection never counts it as evidence of copying.


def minimax(state, depth, player):
    if depth == 0 or game_over(state):
        return [-1, -1, evaluate(state)]
    best = [-1, -1, -2] if player == MAX else [-1, -1, 2]
    for row, col in empty_cells(state):
        state[row][col] = player
        score = minimax(state, depth - 1, -player)[2]
        state[row][col] = 0
        if (player == MAX and score > best[2]) or (player == MIN and score < best[2]):
            best = [row, col, score]
    return best
