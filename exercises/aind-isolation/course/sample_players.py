"""The course's ``sample_players`` module, written for minimax-grader: sample score functions and players.

Every function uses the board's public methods only, so it works on the board a player is
handed while grading as on ``isolation.Board`` at home.
"""

import random


def null_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    return 0.


def open_move_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    return float(len(game.get_legal_moves(player)))


def improved_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    own = len(game.get_legal_moves(player))
    theirs = len(game.get_legal_moves(game.get_opponent(player)))
    return float(own - theirs)


def center_score(game, player):
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    w, h = game.width / 2., game.height / 2.
    y, x = game.get_player_location(player)
    return float((h - y) ** 2 + (w - x) ** 2)


def center_gap_score(game, player):
    """The score the grader hands to your MinimaxPlayer and AlphaBetaPlayer when it tests their searches (its
    reports show ``score_fn=center_gap_score``): the opponent's squared distance from the centre minus the
    player's, plus half the difference of their legal moves. It rarely ties, so a position has one best move."""
    if game.is_loser(player):
        return float("-inf")
    if game.is_winner(player):
        return float("inf")
    opponent = game.get_opponent(player)

    def far(who):
        location = game.get_player_location(who)
        if location is None or tuple(location) == (-1, -1):
            return 0.0
        return float((location[0] - game.height // 2) ** 2 + (location[1] - game.width // 2) ** 2)

    moves = len(game.get_legal_moves(player)) - len(game.get_legal_moves(opponent))
    return far(opponent) - far(player) + 0.5 * moves


class RandomPlayer:
    def get_move(self, game, time_left):
        legal = game.get_legal_moves()
        return random.choice(legal) if legal else (-1, -1)


class GreedyPlayer:
    def __init__(self, score_fn=open_move_score):
        self.score = score_fn

    def get_move(self, game, time_left):
        legal = game.get_legal_moves()
        if not legal:
            return (-1, -1)
        return max((self.score(game.forecast_move(m), self), m) for m in legal)[1]
