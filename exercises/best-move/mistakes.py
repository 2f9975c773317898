"""Grader side of best-move: the mistakes students make, read from the moves they chose.

The wrong searches are the kit's (``grader.kit.move_families``), run over the game's rules: a
move agrees with a search when the search ranks it best (ties: any of them). A crash of the
helpers asked about the wrong player's turn, a changed state and the value instead of a move
are read by rules and from the behaviour checks. Nothing here shows code; each text ends with
a question.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from grader.diagnose import Finding
from grader.kit.move_families import MoveNaming

CODES = {
    "min-max-swapped": (
        "The players choose the wrong way round: player 1 (who wants the value low) takes the move worth "
        "the most, and player 2 the move worth the least.",
        "Which player wants a high value, and which one a low value?"),
    "always-max": (
        "Every player is assumed to want the highest value, player 1 as well.",
        "When it is player 1's turn, which of the values do they want?"),
    "always-min": (
        "Every player is assumed to want the lowest value, player 2 as well.",
        "When it is player 2's turn, which of the values do they want?"),
    "no-alternation": (
        "The search goes on with the same player after a move: generate_valid_moves is asked for the moves "
        "of a player whose turn it is not.",
        "After player 1 has moved, whose turn is it in the new state?"),
    "one-ply-search": (
        "Each move is ranked by evaluate() of the state right after it, without searching on to the end of "
        "the game; for a game that is not over, that number is only a guess.",
        "If the game is not over after your move, what will the other player do next?"),
    "ignores-player-argument": (
        "The player to move is not taken from the player argument: the first move is always chosen as if "
        "player 2 (who wants the value high) were to move.",
        "What should change in your answer when player 1 is to move in the same state?"),
    "sign-flip": (
        "The values are turned round for each player but not turned back on the way up: a value that is good "
        "for the opponent is counted as good for the player choosing.",
        "A value that is the best for your opponent: is it good or bad for you?"),
    "bad-initial-bound": (
        "The best value so far starts at 0 instead of \"no move yet\", so when every move is worse than 0 for "
        "the player, no move is ever kept (and None can come back).",
        "What should the best move be before you have looked at any move?"),
    "two-ply-search": (
        "A move is ranked by the state after the opponent's best reply, scored with evaluate(), instead of by "
        "searching on to the end of the game.",
        "After the opponent's reply, is the game over, and if not, whose turn is it?"),
    "suboptimal-move": (
        "The moves you choose are legal but not always the best: the move is not kept together with the best "
        "value seen so far.",
        "When a move is better than the best so far, what else must you remember besides its value?"),
    "wrong-return-type": (
        "best_move must return a move, exactly as generate_valid_moves gave it; yours returns something else "
        "(for example the move's value).",
        "What does the caller of best_move do with the answer?"),
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
    return MoveNaming(hooks.searcher(), hooks.GAME.decode, _finding,
                      lambda o: hooks._legal_problem(o.case.input, o.answer) is None, best_key="best moves")


def _crashes(facts):
    """Calls that raised because the helpers were asked about the wrong player's turn."""
    raised = [o for o in facts.outcomes if (facts.reply(o) or ("",))[0] == "raised"]
    turn = [o for o in raised if "turn in this state" in facts.reply(o)[1]]
    if not turn or len(turn) < len(raised):
        return None
    example = min(turn, key=facts.size)
    return _finding("no-alternation", f"{len(turn)} calls raised, each because the moves of a player whose turn it "
                    f"was not were asked for (for example {facts.call(example)}: {facts.reply(example)[1]})",
                    "legal")


def rules(facts):
    return _naming().rules(facts, first=[_crashes(facts)])
