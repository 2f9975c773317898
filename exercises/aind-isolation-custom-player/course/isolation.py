"""The course's ``isolation`` module, written for minimax-grader: a Board with the project's method names.

A submission imports it as at home (``from isolation import Board``), e.g. to try its players in
its own ``if __name__ == "__main__":`` block. While grading, the board a player is handed is the
grader's board object, which has the same methods and records every expansion and score.
7x7 by default, knight's moves, each player's first move to any blank cell.
"""

import random

_JUMPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


class Board:
    NOT_MOVED = None

    def __init__(self, player_1, player_2, width=7, height=7):
        self.width, self.height = width, height
        self.move_count = 0
        self._player_1, self._player_2 = player_1, player_2
        self._active_player, self._inactive_player = player_1, player_2
        self._blocked = set()
        self._where = {id(player_1): None, id(player_2): None}

    @property
    def active_player(self):
        return self._active_player

    @property
    def inactive_player(self):
        return self._inactive_player

    def get_opponent(self, player):
        if player is self._player_1:
            return self._player_2
        if player is self._player_2:
            return self._player_1
        raise RuntimeError("`player` must be an object registered as a player in the current game.")

    def copy(self):
        new = Board(self._player_1, self._player_2, self.width, self.height)
        new.move_count = self.move_count
        new._active_player, new._inactive_player = self._active_player, self._inactive_player
        new._blocked = set(self._blocked)
        new._where = dict(self._where)
        return new

    def forecast_move(self, move):
        new = self.copy()
        new.apply_move(move)
        return new

    def move_is_legal(self, move):
        return 0 <= move[0] < self.height and 0 <= move[1] < self.width and tuple(move) not in self._blocked

    def hash(self):
        """An int, equal for equal positions (cells blocked, both players' cells, who is to move), as the
        course's: for transposition tables."""
        where = (self._where[id(self._player_1)], self._where[id(self._player_2)])
        return hash((tuple(sorted(self._blocked)), where, self._active_player is self._player_1))

    def get_blank_spaces(self):
        return [(r, c) for c in range(self.width) for r in range(self.height) if (r, c) not in self._blocked]

    def get_player_location(self, player):
        found = self._where[id(player)]
        return Board.NOT_MOVED if found is None else found

    def get_legal_moves(self, player=None):
        player = self._active_player if player is None else player
        here = self._where[id(player)]
        if here is None:
            return self.get_blank_spaces()
        r, c = here
        return [(r + dr, c + dc) for dr, dc in _JUMPS if self.move_is_legal((r + dr, c + dc))]

    def apply_move(self, move):
        move = tuple(move)
        self._where[id(self._active_player)] = move
        self._blocked.add(move)
        self._active_player, self._inactive_player = self._inactive_player, self._active_player
        self.move_count += 1

    def is_winner(self, player):
        return player is self._inactive_player and not self.get_legal_moves(self._active_player)

    def is_loser(self, player):
        return player is self._active_player and not self.get_legal_moves(self._active_player)

    def utility(self, player):
        if not self.get_legal_moves(self._active_player):
            if player is self._inactive_player:
                return float("inf")
            if player is self._active_player:
                return float("-inf")
        return 0.

    def to_string(self):
        rows = []
        for r in range(self.height):
            marks = []
            for c in range(self.width):
                if self._where[id(self._player_1)] == (r, c):
                    marks.append("1")
                elif self._where[id(self._player_2)] == (r, c):
                    marks.append("2")
                else:
                    marks.append("#" if (r, c) in self._blocked else ".")
            rows.append(" ".join(marks))
        return "\n".join(rows)

    def play(self, time_limit=150):
        """Play to the end with plain wall-clock time (at home only); returns (winner, history, reason)."""
        import time

        history = []
        while True:
            legal = self.get_legal_moves()
            if not legal:
                return self._inactive_player, history, "no legal moves"
            start = time.time()
            # The older template's call: the legal moves are handed over (CustomPlayer.get_move(game, legal_moves,
            # time_left))
            move = self._active_player.get_move(self.copy(), list(legal),
                                                lambda: time_limit - 1000 * (time.time() - start))
            if move not in legal:
                return self._inactive_player, history, "illegal move"
            history.append(list(move))
            self.apply_move(move)


__all__ = ["Board", "random"]
