"""The references of an object-route exercise: depth-limited minimax and alpha-beta over plain rules.

Positions are named by their paths (move indices from the case's root), the way the oracle records
them. Alpha-beta follows a given order of children per position (the student's own expansion order,
read from the record), so "the leaves a correct alpha-beta scores" is exact for any move ordering.
"""

from __future__ import annotations

INF = float("inf")


class AgentSearch:
    def __init__(self, rules, score_name: str | None):
        self.rules = rules
        self.score = rules.SCORES[score_name or "improved"]

    def children(self, state):
        moves = self.rules.moves_for(state, self.rules.to_move(state))
        return [(i, m, self.rules.result(state, m)) for i, m in enumerate(moves)]

    def minimax(self, state, depth: int, seat: int, swapped: str = ""):
        """(value, best moves, expanded paths, scored paths) of a depth-limited minimax from ``seat``'s view.
        ``swapped``: MIN where MAX belongs and back below the root (``"below"``) or everywhere (``"all"``),
        or MIN at every level (``"min"``, the player to move never changing): mistakes, for naming."""
        expanded, scored = set(), set()

        def value(s, d, path):
            kids = self.children(s) if d > 0 else []
            if d == 0 or not kids:
                scored.add(path)
                return self.score(s, seat)
            values = []
            for i, _, child in kids:
                expanded.add(path + (i,))
                values.append(value(child, d - 1, path + (i,)))
            maximizing = False if swapped == "min" else (self.rules.to_move(s) == seat) != bool(swapped)
            return max(values) if maximizing else min(values)

        kids = self.children(state) if depth > 0 else []
        if not kids:
            scored.add(())
            return self.score(state, seat), [], expanded, scored
        root_values = []
        for i, move, child in kids:
            expanded.add((i,))
            root_values.append((value(child, depth - 1, (i,)), move))
        pick = min if swapped in ("all", "min") else max
        best = pick(v for v, _ in root_values)
        return best, [m for v, m in root_values if v == best], expanded, scored

    def alphabeta(self, state, depth: int, seat: int, order: dict, alpha=-INF, beta=INF, equal_prunes=True,
                  fresh: str = ""):
        """(value, scored paths in order) of alpha-beta with children in ``order[path]`` first (the
        student's own order), then the rest in the rules' order. ``equal_prunes``: cut when a bound is
        reached (``v >= beta``) rather than only when it is passed. ``fresh`` (a mistake, for naming):
        children are searched with the window (-inf, inf) instead of the bounds, below the root
        (``"below-root"``) or everywhere (``"all"``)."""
        scored = []

        def cut(v, bound, maximizing):
            if maximizing:
                return v >= bound if equal_prunes else v > bound
            return v <= bound if equal_prunes else v < bound

        def search(s, d, path, a, b):
            kids = self.children(s) if d > 0 else []
            if d == 0 or not kids:
                scored.append(path)
                return self.score(s, seat)
            first = order.get(path, [])
            indices = [i for i in first if 0 <= i < len(kids)]
            indices += [i for i, _, _ in kids if i not in indices]
            maximizing = self.rules.to_move(s) == seat
            v = -INF if maximizing else INF
            for i in indices:
                wide = fresh == "all" or (fresh == "below-root" and path)
                child_value = search(kids[i][2], d - 1, path + (i,), -INF if wide else a, INF if wide else b)
                if maximizing:
                    v = max(v, child_value)
                    if cut(v, b, True):
                        return v
                    a = max(a, v)
                else:
                    v = min(v, child_value)
                    if cut(v, a, False):
                        return v
                    b = min(b, v)
            return v

        value = search(state, depth, (), alpha, beta)
        return value, scored
