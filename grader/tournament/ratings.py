"""Win rates with Wilson intervals, and a Bradley-Terry rating fitted on every game, with its uncertainty.

Wilson's interval for a proportion stays inside [0, 1] and is honest at 0 of 20 or 20 of 20,
where the normal approximation claims a width of zero. The Bradley-Terry model gives agent i a
strength s_i with P(i beats j) = s_i / (s_i + s_j); a draw counts half a win for each side. It is
fitted by Hunter's minorisation-maximisation iteration (one pass over the pairings per step, no
matrix), with one virtual game per agent, drawn against a fixed agent of strength 1: an agent
that lost every game gets a finite rating instead of minus infinity, and the scale is anchored.
The standard errors come from the observed information at the fit (one matrix inversion). The
ratings are shown on the Elo scale: 1500 + 400 log10(s_i).
"""

from __future__ import annotations

import math
import operator

Z95 = 1.959963984540054
ELO = 400.0 / math.log(10.0)


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of ``wins / games`` (draws may count as halves)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z / denominator * math.sqrt(max(p * (1 - p) / games + z * z / (4 * games * games), 0.0))
    return max(0.0, centre - half), min(1.0, centre + half)


def bradley_terry(players: list[str], results: list[tuple[str, str, float]], iterations: int = 20000,
                  tolerance: float = 1e-9) -> dict[str, dict]:
    """``results``: (a, b, score of a: 1, 0.5 or 0) per game. Returns {player: {"rating", "error"}} (Elo scale)."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    wins = [0.5] * n  # the virtual drawn game against the anchor
    pair_games: dict[tuple[int, int], float] = {}
    for a, b, score in results:
        i, j = index[a], index[b]
        if i == j:
            continue
        wins[i] += score
        wins[j] += 1.0 - score
        key = (min(i, j), max(i, j))
        pair_games[key] = pair_games.get(key, 0.0) + 1.0
    neighbours: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for (i, j), count in pair_games.items():
        neighbours[i].append((j, count))
        neighbours[j].append((i, count))
    strength = [1.0] * n
    for _ in range(iterations):  # Gauss-Seidel order: each update uses the strengths already updated
        changed = 0.0
        for i in range(n):
            s_i = strength[i]
            denominator = 1.0 / (s_i + 1.0)  # the anchor, strength 1, one game
            denominator += sum(count / (s_i + strength[j]) for j, count in neighbours[i])
            fresh = wins[i] / denominator
            changed = max(changed, abs(math.log(fresh / s_i)))
            strength[i] = fresh
        if changed < tolerance:
            break
    theta = [math.log(s) for s in strength]
    information = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p = 1.0 / (1.0 + math.exp(-theta[i]))  # against the anchor
        information[i][i] += p * (1 - p)
    for (i, j), count in pair_games.items():
        p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
        w = count * p * (1 - p)
        information[i][i] += w
        information[j][j] += w
        information[i][j] -= w
        information[j][i] -= w
    variance = _inverse_diagonal(information)
    return {p: {"rating": 1500.0 + ELO * theta[index[p]], "error": ELO * math.sqrt(max(variance[index[p]], 0.0))}
            for p in players}


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    """The diagonal of the inverse of a symmetric positive definite matrix: Cholesky (A = L L^T), then
    diag(A^-1)_i = the squared length of column i of L^-1, each column found by forward substitution."""
    n = len(matrix)
    lower: list[list[float]] = []
    for i in range(n):
        row = []
        for j in range(i + 1):
            other = row if j == i else lower[j]
            total = matrix[i][j] - sum(map(operator.mul, row[:j], other[:j]))
            row.append(math.sqrt(max(total, 1e-300)) if i == j else total / lower[j][j])
        lower.append(row)
    diagonal = []
    for column in range(n):
        x = [0.0] * (n - column)  # x[k] is entry column + k of column ``column`` of L^-1
        for i in range(column, n):
            row = lower[i]
            total = (1.0 if i == column else 0.0) - sum(map(operator.mul, row[column:i], x[:i - column]))
            x[i - column] = total / row[i]
        diagonal.append(sum(v * v for v in x))
    return diagonal
