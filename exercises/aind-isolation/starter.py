"""game_agent.py: your isolation agent. Fill in the parts marked TODO.

The board you are handed has the course's methods: get_legal_moves(player=None), forecast_move(move),
active_player, inactive_player, get_opponent(player), is_winner(player), is_loser(player),
utility(player), get_player_location(player), move_count, width, height, get_blank_spaces().
"""
import random


class SearchTimeout(Exception):
    """Raised when the timer runs out (time_left() < TIMER_THRESHOLD)."""


def custom_score(game, player):
    raise NotImplementedError  # TODO: a float, from player's point of view


def custom_score_2(game, player):
    raise NotImplementedError  # TODO


def custom_score_3(game, player):
    raise NotImplementedError  # TODO


class IsolationPlayer:
    def __init__(self, search_depth=3, score_fn=custom_score, timeout=10.):
        self.search_depth = search_depth
        self.score = score_fn
        self.time_left = None
        self.TIMER_THRESHOLD = timeout


class MinimaxPlayer(IsolationPlayer):
    def get_move(self, game, time_left):
        self.time_left = time_left
        best_move = (-1, -1)
        try:
            return self.minimax(game, self.search_depth)
        except SearchTimeout:
            pass
        return best_move

    def minimax(self, game, depth):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        raise NotImplementedError  # TODO: the best move at this depth, (-1, -1) when there is none


class AlphaBetaPlayer(IsolationPlayer):
    def get_move(self, game, time_left):
        self.time_left = time_left
        raise NotImplementedError  # TODO: iterative deepening until SearchTimeout

    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf")):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise SearchTimeout()
        raise NotImplementedError  # TODO


if __name__ == "__main__":
    # At home: `minimax-grader show aind-isolation --starter DIR` writes the course's isolation.py and
    # sample_players.py beside this file. One game of your AlphaBetaPlayer against the course's greedy player.
    from isolation import Board
    from sample_players import GreedyPlayer, center_score

    mine = AlphaBetaPlayer(search_depth=3, score_fn=center_score)
    winner, history, reason = Board(mine, GreedyPlayer()).play()
    print(f"{'you win' if winner is mine else 'GreedyPlayer wins'} after {len(history)} moves ({reason})")
