# The reference's shape written against the student's helpers: what every solution looks
# like, so near-duplicate detection never counts it as evidence of copying.


def value(state, player):
    if is_terminal(state):
        return evaluate(state)
    values = [value(apply(state, move), next_player(player)) for move in generate_valid_moves(player, state)]
    return min(values) if player == 1 else max(values)


def best_move(player, state):
    scored = [(move, value(apply(state, move), next_player(player))) for move in generate_valid_moves(player, state)]
    best = (min if player == 1 else max)(v for _, v in scored)
    return [move for move, v in scored if v == best][0]
