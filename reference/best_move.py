"""Reference for the best-move exercise: minimax that answers with a move, as the textbook states it.

It works over any game described by the small vocabulary the exercise gives students
(``moves(player, state)``, ``apply(state, move)``, ``is_terminal(state)``, ``evaluate(state)``,
``next_player(player)``), here implemented by the grader over plain data. Player 1 wants the
value low, player 2 wants it high. Because any optimal move is a right answer, the grader
asks for all of them, never for one tie-break.
"""

from __future__ import annotations

PLAYER_1, PLAYER_2 = 1, 2  # player 1 minimises, player 2 maximises


def value(game, state, player):
    """The value of ``state`` with ``player`` to move, both sides playing their best."""
    if game.is_terminal(state):
        return game.evaluate(state)
    values = [value(game, game.apply(state, move), game.next_player(player)) for move in game.moves(player, state)]
    return min(values) if player == PLAYER_1 else max(values)


def move_values(game, state, player):
    """Each legal move with the value of the position it leads to."""
    return [(move, value(game, game.apply(state, move), game.next_player(player))) for move in game.moves(player, state)]


def best_moves(game, state, player):
    """Every move whose value is the best the player can get: the set of right answers."""
    scored = move_values(game, state, player)
    best = (min if player == PLAYER_1 else max)(v for _, v in scored)
    return [move for move, v in scored if v == best]


def best_move(game, state, player):
    """One best move: the first, in the order the moves are generated."""
    return best_moves(game, state, player)[0]
