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
