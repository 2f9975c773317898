"""game_agent.py (older template): your CustomPlayer. Fill in the parts marked TODO."""


class Timeout(Exception):
    """Raised when the timer runs out."""


def custom_score(game, player):
    raise NotImplementedError  # TODO: a float, from player's point of view


class CustomPlayer:
    def __init__(self, search_depth=3, score_fn=custom_score, iterative=True, method='minimax', timeout=10.):
        self.search_depth = search_depth
        self.iterative = iterative
        self.score = score_fn
        self.method = method
        self.time_left = None
        self.TIMER_THRESHOLD = timeout

    def get_move(self, game, legal_moves, time_left):
        self.time_left = time_left
        raise NotImplementedError  # TODO

    def minimax(self, game, depth, maximizing_player=True):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise Timeout()
        raise NotImplementedError  # TODO: (score, move)

    def alphabeta(self, game, depth, alpha=float("-inf"), beta=float("inf"), maximizing_player=True):
        if self.time_left() < self.TIMER_THRESHOLD:
            raise Timeout()
        raise NotImplementedError  # TODO: (score, move)


if __name__ == "__main__":
    # At home: `minimax-grader show aind-isolation-custom-player --starter DIR` writes the course's isolation.py
    # and sample_players.py beside this file. One game of your CustomPlayer against the course's greedy player.
    from isolation import Board
    from sample_players import GreedyPlayer, center_score

    mine = CustomPlayer(search_depth=3, score_fn=center_score, iterative=True, method="alphabeta")
    winner, history, reason = Board(mine, GreedyPlayer()).play()
    print(f"{'you win' if winner is mine else 'GreedyPlayer wins'} after {len(history)} moves ({reason})")
