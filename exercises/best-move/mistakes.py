"""Grader side of best-move: the mistakes students make, read from the moves they chose.

Each wrong search below is the reference with one thing changed, run over the same plain
games the reference uses. A move is right for a search when the search ranks it best
(ties: any of them), so a wrong search names the mistake when every move the student chose
is one it would choose, wrong ones included. Crashes, numbers instead of moves and a changed
state are read by rules and from the behaviour checks. Nothing here shows code; each text
ends with a question.
"""

from __future__ import annotations

import importlib.util
import math
from functools import cache
from pathlib import Path

from grader.diagnose import Finding, best_per_code, clear_winners, fit_hypothesis, supported_by

CODES = {
    "min-max-swapped": (
        "The players choose the wrong way round: player 1 (who wants the value low) takes the move worth "
        "the most, and player 2 the move worth the least.",
        "Which player wants a high value, and which one a low value?"),
    "always-max": (
        "Every player is assumed to want the highest value, player 1 as well.",
        "When it is player 1's turn, which of the values do they want?"),
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


class _Helpers:
    """The students' helper vocabulary over the game's rules: the wrong searches below read like their code."""

    def __init__(self, game):
        self.moves = lambda player, state: game.actions(state)
        self.apply, self.is_terminal, self.next_player = game.result, game.is_terminal, game.module.other
        self.evaluate = lambda state: game.utility(state, 2)


def _value(game, state, player, variant):
    if game.is_terminal(state):
        return game.evaluate(state)
    nxt = game.next_player(player)
    values = [_value(game, game.apply(state, m), nxt, variant) for m in game.moves(player, state)]
    low = player == 1
    if variant == "min-max-swapped":
        low = not low
    elif variant == "always-max":
        low = False
    return min(values) if low else max(values)


def _score(game, state, player):
    """Negamax without the minus sign on the way up."""
    if game.is_terminal(state):
        return (1 if player == 2 else -1) * game.evaluate(state)
    return max(_score(game, game.apply(state, m), game.next_player(player)) for m in game.moves(player, state))


def _maximising(game, state, player, maximising):
    if game.is_terminal(state):
        return game.evaluate(state)
    values = [_maximising(game, game.apply(state, m), game.next_player(player), not maximising)
              for m in game.moves(player, state)]
    return max(values) if maximising else min(values)


def _zero_start(game, state, player):
    best, best_rank = None, 0
    for move in game.moves(player, state):
        new = game.apply(state, move)
        rank = game.evaluate(new) if game.is_terminal(new) else _zero_start(game, new, game.next_player(player))[1]
        if rank < best_rank if player == 1 else rank > best_rank:
            best, best_rank = move, rank
    return best, best_rank


def _by_reply(game, state, player):
    best, best_rank = None, None
    for move in game.moves(player, state):
        new = game.apply(state, move)
        if game.is_terminal(new):
            rank = game.evaluate(new)
        else:
            nxt = game.next_player(player)
            rank = game.evaluate(game.apply(new, _by_reply(game, new, nxt)[0]))
        if best is None or (rank < best_rank if player == 1 else rank > best_rank):
            best, best_rank = move, rank
    return best, best_rank


def _best_of(ranked, player, low_wins=None):
    """Every move whose rank is best for ``player`` (player 1 low, unless told otherwise)."""
    low = (player == 1) if low_wins is None else low_wins
    target = (min if low else max)(rank for _, rank in ranked)
    return [move for move, rank in ranked if rank == target]


def _choices(variant, case_input):
    """The moves a search with this mistake could return for the case (any of its ties)."""
    hooks = _hooks()
    game, state = _Helpers(hooks.GAME), hooks.GAME.decode(case_input)
    player = case_input["player"]
    nxt = game.next_player(player)
    moves = game.moves(player, state)
    children = [(m, game.apply(state, m)) for m in moves]
    if variant == "min-max-swapped/below-root":  # the root chooses the right way, every level below it the wrong way
        return _best_of([(m, _value(game, s, nxt, "min-max-swapped")) for m, s in children], player)
    if variant in ("min-max-swapped", "always-max"):
        ranked = [(m, _value(game, s, nxt, variant)) for m, s in children]
        low = {"min-max-swapped": player != 1, "always-max": False}[variant]
        return _best_of(ranked, player, low)
    if variant == "one-ply-search":
        return _best_of([(m, game.evaluate(s)) for m, s in children], player)
    if variant == "ignores-player-argument":
        return _best_of([(m, _maximising(game, s, nxt, False)) for m, s in children], player, low_wins=False)
    if variant == "sign-flip":
        return _best_of([(m, _score(game, s, nxt)) for m, s in children], player, low_wins=False)
    if variant == "bad-initial-bound":
        return [_zero_start(game, state, player)[0]]
    if variant == "two-ply-search":
        ranked = []
        for m, s in children:
            rank = game.evaluate(s) if game.is_terminal(s) else game.evaluate(game.apply(s, _by_reply(game, s, nxt)[0]))
            ranked.append((m, rank))
        return _best_of(ranked, player)
    raise ValueError(variant)


VARIANTS = ["min-max-swapped", "min-max-swapped/below-root", "always-max", "ignores-player-argument", "sign-flip", "bad-initial-bound",
            "one-ply-search", "two-ply-search"]


def _is_wrong(outcome):
    expected = outcome.expected
    answer = outcome.answer
    return not any(answer.same_as(_as_move(m)) for m in expected["best moves"])


def _as_move(plain):
    return tuple(plain) if type(plain) is list else plain


def _finding(code, evidence, check):
    text, question = CODES[code]
    return Finding(code, evidence, text, question, (check,))


def _crashes(facts):
    """Calls that raised because the helpers were asked about the wrong player's turn."""
    raised = [o for o in facts.outcomes if (facts.reply(o) or ("",))[0] == "raised"]
    turn = [o for o in raised if "turn in this state" in facts.reply(o)[1]]
    if not turn or len(turn) < len(raised):
        return None
    example = min(turn, key=facts.size)
    return _finding("no-alternation", f"{len(turn)} calls raised, each because the moves of a player whose turn it "
                    f"was not were asked for (for example {facts.call(example)}: {facts.reply(example)[1]})",
                    "legal-move")


def _numbers(facts):
    """Numbers that are the position's value: the rank came back instead of the move."""
    replies = [o for o in facts.outcomes if o.answer is not None and facts.reply(o) is not None]
    numbers = [o for o in replies if o.answer.is_number and o.answer.value == o.expected["value"]
               and not any(o.answer.same_as(_as_move(m)) for m in o.expected["best moves"])]
    if not numbers or len(numbers) * 2 < len(replies):
        return None
    example = min(numbers, key=facts.size)
    return _finding("wrong-return-type", f"on {len(numbers)} of {len(replies)} games your answer was the value of the "
                    f"game, not a move (for example {facts.call(example)} returned {example.answer.text}, the best "
                    f"moves there are {example.expected['best moves']!r})", "legal-move")


def _pairs(facts):
    """A move and its value returned together: the answer holds a best move and the game's value."""
    replies = [o for o in facts.outcomes if o.answer is not None and facts.reply(o) is not None]
    pairs = [o for o in replies if o.answer.kind in ("list", "tuple") and len(o.answer.items) == 2
             and o.answer.items[1].is_number and o.answer.items[1].value == o.expected["value"]
             and any(o.answer.items[0].same_as(_as_move(m)) for m in o.expected["best moves"])]
    if not pairs or len(pairs) * 2 < len(replies):
        return None
    example = min(pairs, key=facts.size)
    return _finding("wrong-return-type", f"on {len(pairs)} of {len(replies)} games your answer was a best move "
                    f"together with the game's value, not the move alone (for example {facts.call(example)} "
                    f"returned {example.answer.text})", "legal-move")


def rules(facts):
    found = [f for f in (_crashes(facts), _numbers(facts), _pairs(facts)) if f is not None]
    if found:
        return found
    answered = sorted((o for o in facts.outcomes if o.answer is not None and facts.reply(o) is not None
                       and facts.reply(o)[0] != "raised"), key=facts.size)
    wrong = [o for o in answered if _is_wrong(o)]
    if not wrong:
        return []
    fits = []
    for variant in VARIANTS:
        fit = fit_hypothesis(variant.split("/")[0], wrong + [o for o in answered if not _is_wrong(o)],
                             lambda o, v=variant: any(o.answer.same_as(c) for c in _choices(v, o.case.input)),
                             _is_wrong)
        if fit is not None:
            fits.append(fit)
    for fit in clear_winners(best_per_code(fits), supported=supported_by(getattr(facts, "supporting", []))):
        example = fit.example
        shown = (f"for example {facts.call(example)}: you returned {example.answer.describe()}, the best moves are "
                 f"{_best(example)}")
        if fit.complete:
            evidence = (f"this mistake chooses exactly your moves on all {len(answered)} games it was compared on, "
                        f"including the {fit.explained} where they are not best ({shown})")
        else:
            evidence = (f"this mistake chooses your move on {fit.agreed} of the {fit.compared} games it was compared "
                        f"on and {fit.explained} of your {fit.wrong} moves that are not best ({shown}); it differs at "
                        f"{facts.call(fit.missed)}")
        found.append(_finding(fit.model.code, evidence, "random-trees"))
    if found:
        return found
    # Only legal moves are "not the best": a None, a pair or a move of the wrong type is another mistake.
    legal = [o for o in wrong if _hooks()._legal_problem(o.case.input, o.answer) is None]
    if len(legal) == len(wrong):
        example = wrong[0]
        return [_finding("suboptimal-move", (
            f"your moves are legal, but on {len(wrong)} of {len(answered)} games not the best (for example "
            f"{facts.call(example)}: you returned {example.answer.describe()}, the best moves are "
            f"{_best(example)})"), "random-trees")]
    return []


def _best(outcome) -> str:
    """The best moves in the game's own shape (tuples stay tuples), as the counterexample shows them."""
    moves = outcome.expected["best moves"]
    shown = [repr(tuple(m)) if type(m) is list else repr(m) for m in moves]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]

