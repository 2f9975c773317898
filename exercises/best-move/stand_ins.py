# --- Stand-ins for the helpers the grader provides, so that this file runs at home. -----------
# While grading, the grader's own generate_valid_moves, apply, is_terminal, evaluate and
# next_player replace these before every call: a state is then the grader's own object, so use
# it only through the helpers. Here a state is a small game tree of plain data:
# {"player": whose turn, "node": {"value": ..., "moves": [[move, child], ...]}}.
PLAYER_1, PLAYER_2 = 1, 2


def next_player(player):
    """Stand-in: the other player."""
    return PLAYER_2 if player == PLAYER_1 else PLAYER_1


def generate_valid_moves(player, state):
    """Stand-in: the moves `player` can make in `state` (it must be that player's turn)."""
    if player != state["player"]:
        raise ValueError(f"it is not player {player}'s turn in this state")
    return [move for move, _ in state["node"]["moves"]]


def apply(state, move):
    """Stand-in: a NEW state, after `move`; `state` is left as it was."""
    child = next(child for m, child in state["node"]["moves"] if m == move)
    return {"player": next_player(state["player"]), "node": child}


def is_terminal(state):
    """Stand-in: True when the game is over (no moves left)."""
    return not state["node"]["moves"]


def evaluate(state):
    """Stand-in: the value of a state (low is good for player 1, high for player 2)."""
    return state["node"]["value"]


EXAMPLE = None  # the statement's example, written in when the starter is made


if __name__ == "__main__":
    start = {"player": EXAMPLE["player"], "node": EXAMPLE["tree"]}
    print(f"best_move({EXAMPLE['player']}, state) = {best_move(EXAMPLE['player'], start)!r}")
