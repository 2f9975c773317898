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


class RandomPlayer:
    def get_move(self, game, legal_moves, time_left):
        return random.choice(legal_moves) if legal_moves else (-1, -1)


class GreedyPlayer:
    def __init__(self, score_fn=open_move_score):
        self.score = score_fn

    def get_move(self, game, legal_moves, time_left):
        if not legal_moves:
            return (-1, -1)
        return max((self.score(game.forecast_move(m), self), m) for m in legal_moves)[1]
