"""Which games a tournament plays: pairings, openings and sides, from the agents and the seed alone.

Every pairing plays ``games`` games: game ``k`` starts from opening ``k // 2`` with the first
agent as MAX when ``k`` is even and as MIN when it is odd, so both sides of every opening are
played by both agents. Opening ``j`` is the same position for every pairing (a start position
and ``opening_moves`` random legal moves, drawn from a stream named by the seed and ``j``), so
no agent meets easier openings than another. A game's id names its pairing and number: the
journal (games.jsonl) knows a game by it, and a re-run plays only the ids it does not hold.
"""

from __future__ import annotations

from grader.tournament.agents import seeded


def opening(game, seed, number: int, moves: int):
    """(start position, [actions played]) of opening ``number``."""
    rng = seeded(seed, "opening", number)
    state = start = game.starts[rng.randrange(len(game.starts))]
    played = []
    for _ in range(moves):
        if game.is_terminal(state):
            break
        actions = game.actions(state)
        action = actions[rng.randrange(len(actions))]
        played.append(action)
        state = game.result(state, action)
        if game.is_terminal(state):  # an opening never ends the game: take the move back and stop
            played.pop()
            break
    return start, played


def pairings(students: list[str], baselines: list[str], round_robin: bool) -> list[tuple[str, str]]:
    """(agent, opponent): every student against every baseline, then (round robin) each pair of students once."""
    found = [(s, b) for s in students for b in baselines]
    if round_robin:
        found += [(a, b) for i, a in enumerate(students) for b in students[i + 1:]]
    return found


def game_id(a: str, b: str, k: int) -> str:
    return f"{a}~{b}~{k}"


def games(pairs: list[tuple[str, str]], count: int) -> list[dict]:
    """Every game of every pairing, in the order the journal is written at the end."""
    return [{"id": game_id(a, b, k), "pairing": [a, b], "index": k, "opening": k // 2,
             "max": a if k % 2 == 0 else b, "min": b if k % 2 == 0 else a}
            for a, b in pairs for k in range(count)]
