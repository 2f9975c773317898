"""Grader side of best-move: the mistakes students make, read from the moves they chose.

The wrong searches are the kit's (``grader.kit.move_families``), run over the game's rules: a
move agrees with a search when the search ranks it best (ties: any of them). A crash of the
helpers asked about the wrong player's turn, a changed state and the value instead of a move
are read by rules and from the behaviour checks. Nothing here shows code; each text ends with
a question.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

from grader.judging.diagnose import Finding
from grader.kit import move_families

CODES = {
    **move_families.codes("player 2", "player 1"),
    "no-alternation": (
        "The search goes on with the same player after a move: generate_valid_moves is asked for the moves "
        "of a player whose turn it is not, or every level chooses the way the player who moved first would.",
        "After player 1 has moved, whose turn is it in the new state?"),
    "mutates-state": (
        "The state you were given is different after your function returns; apply gives you new states, and "
        "the one you were given must stay as it was.",
        "Could the caller go on using the state it passed you, unchanged?"),
}

CHECK_CODES = {"state-unchanged": {"code": "mutates-state", "even_if_skipped": True}}

MODELS = []  # matched by the rules below: any of a search's best moves counts, never one tie-break


@cache
def _hooks():
    path = Path(__file__).with_name("exercise.py")
    spec = importlib.util.spec_from_file_location("_minimax_grader_best_move_hooks_for_mistakes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _finding(code, evidence, kind):
    text, question = CODES[code]
    return Finding(code, evidence, text, question, ("legal-move" if kind == "legal" else "random-trees",))


@cache
def _naming():
    hooks = _hooks()
    return move_families.MoveNaming(hooks.searcher(), hooks.GAME.decode, _finding,
                      lambda o: hooks._legal_problem(o.case.input, o.answer) is None, best_key="best moves")


def _asked_for(message):
    """The player whose moves were asked for, read from the helper's message, or None."""
    found = re.search(r"generate_valid_moves\((\d+), state\)", message)
    return int(found.group(1)) if found else None


def _crashes(facts):
    """Calls that raised because the helpers were asked about the wrong player's turn: below the root with the
    root's player (no alternation), or at the root with one player whoever was to move (the argument ignored)."""
    raised = [o for o in facts.outcomes if (facts.reply(o) or ("",))[0] == "raised"]
    turn = [o for o in raised if "turn in this state" in facts.reply(o)[1]]
    if not turn or len(turn) < len(raised):
        return None
    example = min(turn, key=facts.size)
    asked = {(_asked_for(facts.reply(o)[1]), o.case.input.get("player")) for o in turn}
    players = {player for player, _ in asked}
    if None not in players and len(players) == 1 and all(player != root for player, root in asked):
        return _finding("ignores-player-argument", f"{len(turn)} calls raised, each on a game where the other player "
                        f"was to move, because the moves of player {players.pop()} were asked for at the start "
                        f"(for example {facts.call(example)}: {facts.reply(example)[1]})", "legal")
    if any(player == root for player, root in asked) and any(player != root for player, root in asked):
        return None  # some at the start, some below it: not one mistake that can be told
    return _finding("no-alternation", f"{len(turn)} calls raised, each because the moves of a player whose turn it "
                    f"was not were asked for (for example {facts.call(example)}: {facts.reply(example)[1]})",
                    "legal")


def rules(facts):
    return _naming().rules(facts, first=[_crashes(facts)])
