"""The games of one pairing, played in this process from plain data: each record says all of its game.

A pairing's games are one series, always played in the same order: each sandboxed agent keeps one
session (one process) for the series, and gets a fresh one after any game it lost by a failure, so
what a failed move left behind never reaches its next game. The referee replays the opening, then
asks whoever is to move (``to_move``, so a game where a player moves twice in a row is played as
its rules say) for a move until the game is over. A player that fails (crashes, times out,
overruns its budget, returns something that is not a legal move) loses the game there, with the
reason recorded; its opponent is never affected (each sandboxed agent has its own session). A
record holds no time and nothing of the machine: the same series, the same records.
"""

from __future__ import annotations

from grader.tournament import schedule
from grader.tournament.agents import Baseline, Sandboxed, rules_of


def make_player(spec: dict, exercise, declaration, launcher, game_index: int, seed, games: int = 1):
    if spec["kind"] in ("student", "file"):
        return Sandboxed(spec["path"], exercise, declaration, launcher, games)
    return Baseline(spec, exercise, game_index, seed)


def play_series(games: list[dict], agents: dict[str, dict], exercise, declaration, launcher, seed) -> list[dict]:
    """The records of ``games`` (one pairing's, from ``schedule.games``), in order; ``agents``: specs by id."""
    sandboxed = {name: make_player(spec, exercise, declaration, launcher, 0, seed, len(games))
                 for name, spec in agents.items() if spec["kind"] in ("student", "file")}
    try:
        return [play(game, agents, sandboxed, exercise, declaration, seed) for game in games]
    finally:
        for player in sandboxed.values():
            player.close()


def play(game: dict, agents: dict[str, dict], sandboxed: dict, exercise, declaration, seed) -> dict:
    """The record of ``game``; ``sandboxed``: the series' sandboxed players by id (kept between games)."""
    rules = rules_of(exercise)
    start, opened = schedule.opening(rules, seed, game["opening"], declaration.opening_moves)
    state = start
    for action in opened:
        state = rules.result(state, action)
    sides = {"max": game["max"], "min": game["min"]}
    players = {side: sandboxed.get(name) or make_player(agents[name], exercise, declaration, None, game["index"], seed)
               for side, name in sides.items()}
    moves: list[dict] = []
    outcome = None
    while not rules.is_terminal(state):
        if len(moves) >= declaration.max_plies:
            outcome = {"winner": None, "loser": None, "draw": True, "reason": f"no result after {len(moves)} moves"}
            break
        side = "max" if rules.to_move(state) == rules.max_player else "min"
        choice = players[side].choose(state)
        if choice.failure is not None:
            other = "min" if side == "max" else "max"
            moves.append({"by": side, "move": None, "used": choice.used, "failure": choice.failure})
            outcome = {"winner": sides[other], "loser": sides[side], "draw": False, "reason": choice.failure}
            players[side].restart()  # a fresh process for its next game: nothing of a failed move carries over
            break
        moves.append({"by": side, "move": rules.move_data(choice.move), "used": choice.used})
        state = rules.result(state, choice.move)
    if outcome is None:
        value = rules.utility(state, rules.max_player)
        if value > 0:
            outcome = {"winner": sides["max"], "loser": sides["min"], "draw": False, "reason": "won on the board"}
        elif value < 0:
            outcome = {"winner": sides["min"], "loser": sides["max"], "draw": False, "reason": "won on the board"}
        else:
            outcome = {"winner": None, "loser": None, "draw": True, "reason": "draw"}
        outcome["utility"] = value
    return {"id": game["id"], "pairing": game["pairing"], "index": game["index"], "opening": game["opening"],
            "max": sides["max"], "min": sides["min"], "start": rules.encode(start),
            "opening_moves": [rules.move_data(a) for a in opened], "moves": moves, "result": outcome}
