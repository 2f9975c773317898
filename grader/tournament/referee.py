"""One game of a tournament, played in this process from plain data: the record says all of it.

The referee makes both players (``agents``), replays the opening, then asks whoever is to move
(``to_move``, so a game where a player moves twice in a row is played as its rules say) for a
move until the game is over. A player that fails (crashes, times out, overruns its budget,
returns something that is not a legal move) loses the game there, with the reason recorded;
its opponent is never affected (each sandboxed agent has its own session, closed after the
game). The record holds no time and nothing of the machine: the same game, the same record.
"""

from __future__ import annotations

from grader.tournament import schedule
from grader.tournament.agents import Baseline, Sandboxed


def make_player(spec: dict, exercise, declaration, launcher, game_id: str, seed):
    if spec["kind"] in ("student", "file"):
        return Sandboxed(spec["path"], exercise, declaration, launcher)
    return Baseline(spec, exercise, game_id, seed)


def play(game: dict, agents: dict[str, dict], exercise, declaration, launcher, seed) -> dict:
    """The record of ``game`` (a ``schedule.games`` entry); ``agents``: every agent's spec by id."""
    rules = exercise.kit.game
    start, opened = schedule.opening(rules, seed, game["opening"], declaration.opening_moves)
    state = start
    for action in opened:
        state = rules.result(state, action)
    sides = {"max": game["max"], "min": game["min"]}
    players = {side: make_player(agents[name], exercise, declaration, launcher, game["id"], seed)
               for side, name in sides.items()}
    moves: list[dict] = []
    outcome = None
    try:
        while not rules.is_terminal(state):
            if len(moves) >= declaration.max_plies:
                outcome = {"winner": None, "loser": None, "draw": True, "reason": f"no result after {len(moves)} moves"}
                break
            side = "max" if rules.to_move(state) == rules.max_player else "min"
            choice = players[side].choose(state)
            if choice.failure is not None:
                other = "min" if side == "max" else "max"
                moves.append({"by": side, "move": None, "used": choice.used, "failure": choice.failure})
                outcome = {"winner": sides[other], "loser": sides[side], "draw": False,
                           "reason": choice.failure}
                break
            moves.append({"by": side, "move": rules.move_data(choice.move), "used": choice.used})
            state = rules.result(state, choice.move)
    finally:
        for player in players.values():
            player.close()
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
