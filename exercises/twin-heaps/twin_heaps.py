"""Twin heaps, the rules only: two heaps; a move takes 1, 2 or 3 objects from one heap.

Taking the last object wins. Extra turn: if your move leaves the two heaps equal (and not both
empty), you move again at once. So players do not always alternate.

A position is ``(heaps, player)``: a pair of heap sizes and the player to move, 0 (MAX) or 1 (MIN).
A move is ``(heap, count)``: take ``count`` objects (1 to 3) from heap number ``heap`` (0 or 1).
"""

NAME = "twin-heaps"
PLAYERS = (0, 1)  # player 0 is MAX: values are player 0's


def start_positions():
    return [((7, 6), 0), ((6, 7), 1), ((7, 7), 0), ((5, 2), 0), ((3, 6), 1)]


def to_move(state):
    return state[1]


def actions(state):
    heaps, _ = state
    return [(heap, count) for heap, size in enumerate(heaps) for count in range(1, min(3, size) + 1)]


def result(state, move):
    heaps, player = state
    heap, count = move
    left = heaps[:heap] + (heaps[heap] - count,) + heaps[heap + 1:]
    if left[0] == left[1] and any(left):
        return left, player          # heaps made equal: the same player moves again
    return left, 1 - player


def is_terminal(state):
    return not any(state[0])


def utility(state, player):
    """+1 for the player who took the last object, -1 for the other.

    The last object's taker never gets an extra turn (the heaps are empty), so the player
    "to move" in a finished position is the loser.
    """
    return -1 if to_move(state) == player else +1


def evaluate(state, player):
    """A finished game's utility; otherwise a guess in (-1, 1): big heaps in front are good."""
    if is_terminal(state):
        return utility(state, player)
    (a, b), mover = state
    guess = (a * a - b * b) / 100 + (0.1 if mover == 0 else -0.1)
    return guess if player == 0 else -guess


def render(state):
    heaps, player = state
    rows = [f"heap {i}: {'I ' * size if size else '(empty)'}".rstrip() for i, size in enumerate(heaps)]
    return "\n".join(rows + [f"player {player} ({'MAX' if player == 0 else 'MIN'}) to move"])
