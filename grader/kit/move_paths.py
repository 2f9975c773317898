"""Positions named by the moves that reach them: plain data that any game's exercise can send to a
sandbox that replays the moves on its own objects (a student's class, say) instead of decoding a state."""

from __future__ import annotations


def after(game, moves, start=None):
    """The position after ``moves`` (each a legal move, as plain data or as the game's own) from ``start``
    (the first start position by default); ValueError at the first move that is not legal."""
    state = game.starts[0] if start is None else start
    for move in moves:
        move = game.decode(move) if type(move) is list else move
        if move not in game.actions(state):
            raise ValueError(f"{move!r} is not a legal move")
        state = game.result(state, move)
    return state


def reachable(game, cap: int = 100_000) -> list:
    """(position, one move sequence reaching it) for every position reachable from the first start position
    (depth first, the game's move order deciding which sequence), at most ``cap`` of them."""
    start = game.starts[0]
    seen = {game.ident(start): (start, [])}
    frontier = [start]
    while frontier and len(seen) < cap:
        state = frontier.pop()
        for move in game.actions(state):
            child = game.result(state, move)
            if game.ident(child) not in seen:
                seen[game.ident(child)] = (child, seen[game.ident(state)][1] + [move])
                frontier.append(child)
    return list(seen.values())
