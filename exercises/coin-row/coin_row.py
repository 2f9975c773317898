"""Coin row, the rules only: a row of coins; each turn a player takes the coin at the left or the
right end of the row and adds its value to their total. When the row is empty the game is over;
each player wants their total higher than the other's.

A position is ``(coins, lead, player)``: the coins left as a tuple of ints (left to right),
MAX's total minus MIN's total so far, and the player to move, "MAX" or "MIN".
A move is "left" or "right" (only "left" when one coin is left).
"""

NAME = "coin-row"
PLAYERS = ("MAX", "MIN")  # MAX first: values are MAX's


def start_positions():
    return [((3, 9, 1, 2, 7, 4), 0, "MAX"), ((5, 1, 8, 2, 6, 3), 0, "MIN"),
            ((4, 4, 9, 1, 1, 6, 2), 0, "MAX"), ((2, 8, 3, 5), 0, "MIN")]


def to_move(state):
    return state[2]


def actions(state):
    coins = state[0]
    if not coins:
        return []
    return ["left"] if len(coins) == 1 else ["left", "right"]


def result(state, move):
    coins, lead, player = state
    taken, rest = (coins[0], coins[1:]) if move == "left" else (coins[-1], coins[:-1])
    lead = lead + taken if player == "MAX" else lead - taken
    return rest, lead, "MIN" if player == "MAX" else "MAX"


def is_terminal(state):
    return not state[0]


def utility(state, player):
    """The final lead: MAX's total minus MIN's (the other way round for MIN)."""
    return state[1] if player == "MAX" else -state[1]


def render(state):
    coins, lead, player = state
    row = " ".join(f"[{c}]" for c in coins) if coins else "(no coins left)"
    return f"coins: {row}\nMAX leads by {lead}, {player} to move"
