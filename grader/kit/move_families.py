"""Naming the mistake when the student returns a move alone: which wrong search chooses the moves they chose.

A family (``grader.kit.search``, ``grader.kit.families``) is the reference search with one thing
changed; for a move-only answer what can be compared is the move it returns at the root: the moves
below the root valued the family's way, then chosen by the family's rule at the root. A mistake made
at the root only or below it only (a start value, a sign, the player to move, the max everywhere) is
a family of its own, so that a right search around it does not hide it. Any of the
family's tied moves agrees with the student, except where the family keeps only a move strictly
better than a start value (a bad initial bound): then the first such move, or None when none is.
The agreement is counted as ``grader.judging.diagnose`` counts a model's, so ``clear_winners`` ranks them
alike. A move with its value, or the value instead of a move, is a wrong return type; legal moves
that no family explains are a suboptimal move, but only when no family explains most of them either
(a wrong search that fits most moves, not clearly enough to be named, is not a lost best move). The
texts are the exercise's (its ``codes``), in the game's own words. Written over the game vocabulary:
any game whose student returns a move.
"""

from __future__ import annotations

import math

from grader.vocabulary.findings import MIN_EXPLAINED, Finding, best_per_code, clear_winners, fit_hypothesis, supported_by
from grader.kit.families import PARAMETERISED, SENTINELS, LeavesNegatedFor, NegamaxUnnegated
from grader.kit import evaluation_traces
from grader.kit.game import from_plain
from grader.kit.move_answer import moves_text
from grader.kit.search import TooBig

SWAP = {"max": "min", "min": "max"}

# The texts of a move-only answer's mistakes, in MAX and MIN: ``codes(max_word, min_word)`` words them in the
# game's own words ("player 2", "player 1"). Nothing shows code; each ends with a question.
CODES = {
    "min-max-swapped": ("The players choose the wrong way round: MIN (who wants the value low) takes the move worth "
                        "the most, and MAX the move worth the least.",
                        "Which player wants a high value, and which one a low value?"),
    "always-max": ("Every player is assumed to want the highest value, MIN as well.",
                   "When it is MIN's turn, which of the values do they want?"),
    "always-min": ("Every player is assumed to want the lowest value, MAX as well.",
                   "When it is MAX's turn, which of the values do they want?"),
    "no-alternation": ("The player choosing does not change below the root: every level of the search chooses the "
                       "way the player to move at the root would.",
                       "After one player has moved, whose choice is the next move, and what does that player want?"),
    "one-ply-search": ("Each move is ranked by the evaluation of the position right after it, without searching on "
                       "to the end of the game; for a game that is not over, that number is only a guess.",
                       "If the game is not over after your move, what will the other player do next?"),
    "ignores-player-argument": ("The player to move is not taken from the player argument: the first move is always "
                                "chosen as if MAX (who wants the value high) were to move.",
                                "What should change in your answer when MIN is to move in the same position?"),
    "sign-flip": ("The values are turned round for each player but not turned back on the way up: a value that is "
                  "good for the opponent is counted as good for the player choosing.",
                  "A value that is the best for your opponent: is it good or bad for you?"),
    "bad-initial-bound": ("The best value so far starts at a number (0, say) instead of \"no move yet\", so when "
                          "every move is worse than that number for the player, no move is ever kept (and None can "
                          "come back).",
                          "What should the best move be before you have looked at any move?"),
    "two-ply-search": ("A move is ranked by the position after the opponent's best reply, scored by the evaluation, "
                       "instead of by searching on to the end of the game.",
                       "After the opponent's reply, is the game over, and if not, whose turn is it?"),
    "suboptimal-move": ("The moves you choose are legal but not always the best: the move is not kept together with "
                        "the best value seen so far.",
                        "When a move is better than the best so far, what else must you remember besides its value?"),
    "wrong-return-type": ("The function must return a move, exactly as the game gives its moves; yours returns "
                          "something else (for example the move's value).",
                          "What does the caller do with the answer?"),
}


def codes(max_word: str, min_word: str) -> dict:
    """The texts above in the game's words for its two players."""
    def word(text):
        return text.replace("MAX", max_word).replace("MIN", min_word)
    return {code: (word(text), word(question)) for code, (text, question) in CODES.items()}


def _below(searcher, variant, inherited=None):
    """The value of a position below the root, searched with the mistake ``variant``."""
    def value(child, depth):
        if inherited is None:
            return searcher.variant_value(variant, child, depth)[0]
        return searcher.variant_below(variant, child, depth, inherited)[0]
    return value


def _own_infinity(role):
    """The start value of a search whose best so far starts at the worst for the player: -inf for MAX, +inf for MIN."""
    return -math.inf if role == "max" else math.inf


def _below_family(searcher, name):
    """The value of a position below the root, searched by the kit's parameterised family ``name``."""
    family = PARAMETERISED[name]
    return lambda child, depth: family.value(searcher, child, depth)[0]


def _by_reply(searcher, state):
    """(first move, rank): each move ranked by the position after the opponent's reply chosen the same way."""
    game, best, best_rank = searcher.game, None, None
    maximising = searcher.role(state) == "max"
    for move in game.actions(state):
        after = game.result(state, move)
        rank = searcher.scored(after if game.is_terminal(after) else game.result(after, _by_reply(searcher, after)[0]))
        if best is None or (rank > best_rank if maximising else rank < best_rank):
            best, best_rank = move, rank
    return best, best_rank


def _plans(searcher, role):
    """family -> (who chooses at the root, how a move's position is valued, the start value a move must beat)."""
    game, unnegated = searcher.game, NegamaxUnnegated()
    plans = {
        "min-max-swapped": (SWAP[role], _below(searcher, "min-max-swapped"), None),
        "min-max-swapped/below-root": (role, _below(searcher, "min-max-swapped"), None),
        "always-max": ("max", _below(searcher, "always-max"), None),
        "always-min": ("min", _below(searcher, "always-min"), None),
        "no-alternation": (role, _below(searcher, "no-alternation", role), None),
        # a negamax whose colour stays the root player's: the end positions where the other one is to move
        # are scored with the wrong sign
        "no-alternation/negamax-colour": (role, lambda child, depth: LeavesNegatedFor(SWAP[role]).value(
            searcher, child, depth)[0], None),
        "always-max/below-root": (role, _below(searcher, "always-max"), None),
        "always-min/below-root": (role, _below(searcher, "always-min"), None),
        "ignores-player-argument": ("max", _below(searcher, "ignores-player-argument", "min"), None),
        "ignores-player-argument/root-only": ("max", searcher.value, None),
        "sign-flip": ("max", lambda child, depth: unnegated.of_state(searcher, child, depth), None),
        "sign-flip/root-negates": ("max", lambda child, depth: -unnegated.of_state(searcher, child, depth), None),
        # every move valued right, but the root keeps the one best for the opponent: a negamax whose root takes
        # its children's values, from the opponent's side, without turning them round
        "sign-flip/root-only": (SWAP[role], searcher.value, None),
        # a negamax whose end positions are scored from MAX's side whoever is to move there: the sign is wrong
        # where MIN is to move (or, the other way round, where MAX is)
        **{f"sign-flip/leaves-{side}": (role, lambda child, depth, side=side: LeavesNegatedFor(side).value(
            searcher, child, depth)[0], None) for side in ("min", "max")},
        "bad-initial-bound": (role, _below(searcher, "bad-initial-bound"), 0),
        "bad-initial-bound/root-only": (role, searcher.value, 0),
        "bad-initial-bound/root-only-for-max": (role, searcher.value, 0 if role == "max" else None),
        "bad-initial-bound/root-only-for-min": (role, searcher.value, 0 if role == "min" else None),
        # a finite start value, the loss of the player to move (-1 for MAX, +1 for MIN) as for a game won or lost
        "bad-initial-bound/root-only-unit": (role, searcher.value, -1 if role == "max" else 1),
        # scored as the search that stops there scores it: the evaluation, or (a game without one) the score so far
        # no test for the end of the game below the root: a finished position is searched over no moves and
        # keeps the start value (an infinity, or a sentinel as large), for both players or one of them
        "missing-terminal-check": (role, _below(searcher, "missing-terminal-check"), None),
        **{f"missing-terminal-check/{side}": (role, _below_family(searcher, f"missing-terminal-check/{side}"), None)
           for side in ("max", "min")},
        # the same, the root keeping only a move strictly better than its own start value (that infinity): where
        # every move is worth it, no move is kept
        "missing-terminal-check/strict": (role, _below(searcher, "missing-terminal-check"), _own_infinity(role)),
        **{f"missing-terminal-check/{side}-strict": (
            role, _below_family(searcher, f"missing-terminal-check/{side}"), _own_infinity(role))
           for side in ("max", "min")},
        # one player's start value the wrong infinity, one no move can beat: that player's positions keep it
        **{f"bad-initial-bound/infinity-{side}": (role, _below_family(searcher, f"bad-initial-bound/infinity/{side}"),
                                                  None) for side in ("max", "min")},
        # both players' start values the wrong infinity: every position below the root with moves keeps its
        # mover's, so the root's moves tie as a search with no end-of-game test ties them (the evaluations differ)
        "bad-initial-bound/infinity-both": (role, _below_family(searcher, "bad-initial-bound/infinity/both"), None),
        # a finite sentinel as the start value, below the root and at it (where no move beats it, none is kept)
        **{f"bad-initial-bound/sentinel-{size}": (
            role, _below_family(searcher, f"bad-initial-bound/sentinel-{size}"), -size if role == "max" else size)
           for size in SENTINELS},
        # the same start values below the root only, the root's own loop keeping its best move right ("no move
        # yet" as its start)
        "bad-initial-bound/below-root": (role, _below(searcher, "bad-initial-bound"), None),
        **{f"bad-initial-bound/sentinel-{size}/below-root": (
            role, _below_family(searcher, f"bad-initial-bound/sentinel-{size}"), None) for size in SENTINELS},
        # one player's part starting at 0 below the root, the other's right, the root's own loop right (the parts a
        # student writes are a max part and a min part: a mistake in one of them)
        **{f"bad-initial-bound/zero-{side}/below-root": (role, _below_family(searcher, f"bad-initial-bound/{side}"),
                                                          None) for side in ("max", "min")},
        "one-ply-search": (role, lambda child, depth: searcher.scored(child), None),
        "two-ply-search": (role, lambda child, depth: searcher.scored(
            child if game.is_terminal(child) else game.result(child, _by_reply(searcher, child)[0])), None),
    }
    return plans


FAMILIES = ("min-max-swapped", "min-max-swapped/below-root", "always-max", "always-min", "no-alternation",
            "no-alternation/negamax-colour", "always-max/below-root", "always-min/below-root",
            "ignores-player-argument", "ignores-player-argument/root-only", "sign-flip", "sign-flip/root-negates",
            "sign-flip/root-only", "sign-flip/leaves-min", "sign-flip/leaves-max", "bad-initial-bound", "bad-initial-bound/root-only",
            "bad-initial-bound/root-only-for-max", "bad-initial-bound/root-only-for-min",
            "bad-initial-bound/root-only-unit", "missing-terminal-check", "missing-terminal-check/max",
            "missing-terminal-check/min", "missing-terminal-check/strict", "missing-terminal-check/max-strict",
            "missing-terminal-check/min-strict", "bad-initial-bound/infinity-max", "bad-initial-bound/infinity-min",
            "bad-initial-bound/infinity-both",
            *(f"bad-initial-bound/sentinel-{size}" for size in SENTINELS), "bad-initial-bound/below-root",
            *(f"bad-initial-bound/sentinel-{size}/below-root" for size in SENTINELS),
            "bad-initial-bound/zero-max/below-root", "bad-initial-bound/zero-min/below-root",
            "one-ply-search", "two-ply-search")
# Searches that look a fixed number of moves ahead, shallowest first: where one of them and a full search with a
# mistake choose the same moves, the shallow search is the simpler account (in a short game whoever takes every
# move below the root, say, chooses as a look one move ahead does).
HORIZONS = ("one-ply-search", "two-ply-search")
CASES_TRACED = 4  # failing positions run again with every evaluation logged, when the moves leave a tie


def choices(searcher, family: str, state, depth=None) -> list:
    """The moves a search with the mistake ``family`` may return in ``state`` ([None]: it keeps none)."""
    n = searcher.node(state)
    chooser, value_of, start = _plans(searcher, searcher.role_of(n))[family]
    # The moves and their positions from the searcher's table, asked of the game once per position, not once per
    # family (some forty of them a case): the table's own position objects are known again without hashing
    states, below = searcher.states, searcher.depth_below
    ranked = [(move, value_of(states[kid], below(n, kid, depth)))
              for move, kid in zip(searcher.moves_of(n), searcher.kids(n))]
    better = (lambda a, b: a > b) if chooser == "max" else (lambda a, b: a < b)
    if start is not None:  # only a move strictly better than the best so far is kept
        kept, best = None, start
        for move, value in ranked:
            if better(value, best):
                kept, best = move, value
        return [kept]
    target = (max if chooser == "max" else min)(value for _, value in ranked)
    return [move for move, value in ranked if value == target]


class MoveNaming:
    """The ``rules`` of a move-only exercise's mistakes module, over the kit's searcher.

    ``state_of(case_input)`` and ``depth_of(case_input)`` read a case; an outcome's expected record
    gives ``value`` and the best moves as plain data (``best_key``); ``legal(outcome)`` says whether
    the answer is a legal move; ``finding(code, evidence, kind)`` words a finding in the exercise's words
    (``kind``: "legal" when the answer is not a move at all, "moves" when the moves chosen tell).
    """

    def __init__(self, searcher, state_of, finding, legal, families=FAMILIES, best_key="moves", depth_of=lambda c: None):
        self.searcher, self.state_of, self.finding, self.legal = searcher, state_of, finding, legal
        self.families, self.best_key, self.depth_of = families, best_key, depth_of

    def best(self, outcome) -> list:
        """The best moves as the game gives them (tuples stay tuples)."""
        return [from_plain(m) for m in outcome.expected[self.best_key]]

    def best_text(self, outcome) -> str:
        return moves_text(outcome.expected[self.best_key])

    def is_wrong(self, outcome) -> bool:
        return not any(outcome.answer.same_as(m) for m in self.best(outcome))

    def _numbers(self, facts, replies):
        """Numbers that are the position's value: the value came back instead of the move."""
        numbers = [o for o in replies if o.answer.is_number and o.answer.value == o.expected["value"] and self.is_wrong(o)]
        if not numbers or len(numbers) * 2 < len(replies):
            return None
        example = min(numbers, key=facts.size)
        return self.finding("wrong-return-type", f"on {len(numbers)} of {len(replies)} games your answer was the value "
                            f"of the game, not a move (for example {facts.call(example)} returned {example.answer.text}, "
                            f"the best moves there are {example.expected[self.best_key]!r})", "legal")

    def _texts(self, facts, replies):
        """Every wrong answer the text of a best move (``str(move)``): the move turned into a string."""
        wrong = [o for o in replies if self.is_wrong(o)]
        texts = [o for o in wrong if o.answer.kind == "str" and o.answer.value in {str(m) for m in self.best(o)}]
        if not texts or len(texts) < len(wrong):
            return None
        example = min(texts, key=facts.size)
        return self.finding("wrong-return-type", f"on {len(texts)} games your answer was a best move written as text, "
                            f"not the move itself (for example {facts.call(example)} returned {example.answer.text}, "
                            f"the best moves there are {self.best_text(example)})", "legal")

    def _wrapped(self, outcome) -> bool:
        """A best move returned inside a list or tuple: alone, or together with the game's value."""
        answer = outcome.answer
        if answer.kind not in ("list", "tuple") or len(answer.items) not in (1, 2) or not self.is_wrong(outcome):
            return False
        if not any(answer.items[0].same_as(m) for m in self.best(outcome)):
            return False
        if len(answer.items) == 1:
            return True
        return answer.items[1].is_number and answer.items[1].value == outcome.expected["value"]

    def _pairs(self, facts, replies):
        """A move returned with its value, or inside a list: the answer holds a best move, not the move alone."""
        pairs = [o for o in replies if self._wrapped(o)]
        if not pairs or len(pairs) * 2 < len(replies):
            return None
        example = min(pairs, key=facts.size)
        held = "together with the game's value" if len(example.answer.items) == 2 else f"inside a {example.answer.kind}"
        return self.finding("wrong-return-type", f"on {len(pairs)} of {len(replies)} games your answer was a best move "
                            f"{held}, not the move alone (for example {facts.call(example)} "
                            f"returned {example.answer.text})", "legal")

    def _choices(self, family, outcome, memo: dict):
        """The moves the family may return for the outcome's position, asked once per submission (``memo``,
        keyed by the outcome's identity, lives as long as its outcomes; None: no prediction)."""
        key = (family, id(outcome))
        if key not in memo:
            case = outcome.case.input
            try:
                memo[key] = choices(self.searcher, family, self.state_of(case), self.depth_of(case))
            except (TooBig, ValueError):  # too large a search, or a position the game cannot score: says nothing
                memo[key] = None
        return memo[key]

    def _agrees(self, family, outcome, memo: dict) -> bool:
        found = self._choices(family, outcome, memo)
        return found is not None and any(outcome.answer.same_as(move) for move in found)

    def _sharp(self, family, outcome, memo: dict) -> bool:
        """The family explains this wrong move by choosing it, not by finding every move equally good."""
        found = self._choices(family, outcome, memo)
        if not found or not any(outcome.answer.same_as(move) for move in found):
            return False
        return len(found) < len(self.searcher.game.actions(self.state_of(outcome.case.input)))

    def _sharpest(self, fits: list, wrong: list, memo: dict) -> list:
        """Of several codes that choose every move the student chose, those that explain the most wrong moves by
        choosing them: a family that finds every move equally good agrees with any move and shows nothing (in a
        short game several wrong searches do so at the same positions). None when none explains one that way."""
        complete = [fit for fit in fits if fit.complete]
        if len({fit.model.code for fit in complete}) < 2:
            return fits
        sharp = {id(fit): sum(self._sharp(fit.name, o, memo) for o in wrong) for fit in complete}
        most = max(sharp.values())
        kept = [fit for fit in complete if most and sharp[id(fit)] == most]
        shallow = [fit for horizon in HORIZONS for fit in kept if fit.model.code == horizon]
        return shallow[:1] or kept

    def _tie_broken(self, family, outcome, memo: dict, order: str):
        """The one move the family returns when it breaks a tie as the student's code does: the first of the tied
        moves in the game's order (``max(moves, key=...)``, a loop keeping only a strictly better move) or the last
        (a loop keeping a move as good). None: no prediction."""
        found = self._choices(family, outcome, memo)
        if not found:
            return None
        return found[0] if order == "first" else found[-1]

    def _shows_order(self, ordered: list, order: str) -> bool:
        """The student does not simply return the first (or last) move: at ``MIN_EXPLAINED`` positions or more
        with several moves the answer is another one. Only then does a family that agrees with every answer
        when ties are broken that way tell anything (any search finding every move as good would otherwise)."""
        others = 0
        for outcome in ordered:
            moves = self.searcher.game.actions(self.state_of(outcome.case.input))
            if len(moves) > 1 and not outcome.answer.same_as(moves[0] if order == "first" else moves[-1]):
                others += 1
        return others >= MIN_EXPLAINED

    def _by_tie_break(self, ordered: list, memo: dict) -> list:
        """Where no family is named because its wrong moves are found only among tied moves: the families that
        choose exactly the student's move at every position asked, ties broken the first or the last way, each
        such wrong move counted as evidence. Named only when one code alone does so (with ``MIN_EXPLAINED``
        wrong moves reproduced) and the student is seen choosing otherwise than always the first (last) move."""
        named = []
        for order in ("first", "last"):
            if not self._shows_order(ordered, order):
                continue
            for family in self.families:
                fit = fit_hypothesis(family.split("/")[0], ordered, lambda o, f=family: (
                    self._agrees(f, o, memo) and outcome_is(o, self._tie_broken(f, o, memo, order))), self.is_wrong)
                if fit is not None and fit.complete and fit.evidence >= MIN_EXPLAINED:
                    fit.name = family
                    named.append(fit)
        if len({fit.model.code for fit in named}) != 1:
            return []  # none, or several codes as good: naming one would be a guess
        return [max(named, key=lambda fit: fit.explained)]

    def _by_evaluations(self, fits: list, wrong: list, facts) -> list:
        """Where the moves name no code alone (several as good, or one agreeing only where it finds every move as
        good): the families told apart by which positions they evaluate (``grader.kit.evaluation_traces``) against
        the grader's log of a few failing cases run again with every evaluation asked (``facts.evaluations_asked``,
        set by the diagnosis only where that log is not kept already). A family that chooses every move the
        student chose is named when the traces agree with it and refute every family of another code that
        explains any of the moves; otherwise nothing changes (and nothing is run when no family chooses them all)."""
        ask = getattr(facts, "evaluations_asked", None)
        if ask is None or not any(fit.complete and fit.explained for fit in fits):
            return []
        if len({fit.model.code for fit in fits}) < 2:
            return []  # nothing to tell apart
        asked = wrong[:CASES_TRACED]
        traces = ask([o.case.input for o in asked])
        game = self.searcher.game
        cases, seen = [], []
        for outcome, trace in zip(asked, traces):
            state, depth = self.state_of(outcome.case.input), self.depth_of(outcome.case.input)
            cases.append((state, depth))
            seen.append(evaluation_traces.student(game, state, trace) if trace is not None else None)
        memo: dict = {}

        def predict(name, state, depth):
            key = (name, game.ident(state), depth)
            if key not in memo:
                memo[key] = evaluation_traces.predicted(
                    self.searcher, lambda searcher, s, d: choices(searcher, name, s, d), state, depth)
            return memo[key]

        if not any(seen) and not getattr(ask, "searches", False):
            return []  # no evaluation asked, by code with no search in it: that tells no family from another
        kept = evaluation_traces.told_apart(fits, cases, seen, predict)
        named = [fit for fit in kept if fit.complete and fit.explained]
        if len({fit.model.code for fit in kept}) != 1 or not named or len(kept) == len(fits):
            return []
        for fit in named:
            fit.evaluations = True  # the evidence says so (``rules``)
        return [max(named, key=lambda fit: fit.explained)]

    def rules(self, facts, first=()) -> list[Finding]:
        """``first``: the exercise's own findings, tried before the families (a crash read by its message)."""
        replies = [o for o in facts.outcomes if o.answer is not None and facts.reply(o) is not None]
        found = [f for f in (*first, self._numbers(facts, replies), self._pairs(facts, replies),
                             self._texts(facts, replies)) if f is not None]
        if found:
            return found
        answered = sorted(_once_each(o for o in replies if facts.reply(o)[0] != "raised"), key=facts.size)
        wrong = [o for o in answered if self.is_wrong(o)]
        if not wrong:
            return []
        ordered = wrong + [o for o in answered if not self.is_wrong(o)]
        fits, memo = [], {}  # one submission's predictions, for its own outcomes only
        for family in self.families:
            # A wrong move explained only by a tie (the family finds every move as good) is no evidence for it.
            fit = fit_hypothesis(family.split("/")[0], ordered, lambda o, f=family: self._agrees(f, o, memo),
                                 self.is_wrong, sharp=lambda o, f=family: self._sharp(f, o, memo))
            if fit is not None:
                fit.name = family
                fits.append(fit)
        winners = clear_winners(best_per_code(fits), supported=supported_by(getattr(facts, "supporting", [])))
        if not winners:
            winners = self._by_tie_break(ordered, memo)
        resolved = self._sharpest(winners, wrong, memo)
        if not resolved or len({fit.model.code for fit in resolved}) > 1:
            winners = self._by_evaluations(fits, wrong, facts) or winners
        for fit in self._sharpest(winners, wrong, memo):
            example = fit.example
            shown = (f"for example {facts.call(example)}: you returned {example.answer.describe()}, the best moves are "
                     f"{self.best_text(example)}")
            if fit.complete:
                evidence = (f"this mistake chooses exactly your moves on all {len(answered)} games it was compared on, "
                            f"including the {fit.explained} where they are not best ({shown})")
            else:
                evidence = (f"this mistake chooses your move on {fit.agreed} of the {fit.compared} games it was "
                            f"compared on and {fit.explained} of your {fit.wrong} moves that are not best ({shown}); "
                            f"it differs at {facts.call(fit.missed)}")
            if getattr(fit, "evaluations", False):
                evidence += ("; run again with every evaluation logged, your code evaluated exactly the positions this "
                             "mistake evaluates, which no other mistake that chooses your moves does")
            found.append(self.finding(fit.model.code, evidence, "moves"))
        if found or fits:
            # A wrong search that chooses most of the moves, but not clearly ahead of another or not strong:
            # the moves are a search's, not a best move lost on the way, so no name is better than that one.
            return found
        # Only legal moves are "not the best": a None, a pair or a move of the wrong type is another mistake.
        if all(self.legal(o) for o in wrong):
            example = wrong[0]
            return [self.finding("suboptimal-move", (
                f"your moves are legal, but on {len(wrong)} of {len(answered)} games not the best (for example "
                f"{facts.call(example)}: you returned {example.answer.describe()}, the best moves are "
                f"{self.best_text(example)})"), "moves")]
        return []


def outcome_is(outcome, move) -> bool:
    """Whether the student's answer is ``move`` (None: the family keeps no move, and the student returned None)."""
    return outcome.answer.same_as(move)


def _once_each(outcomes) -> list:
    """Each position asked counted once: a hand-made counterexample is asked again as the root of the localisation,
    and the same wrong move twice is one piece of evidence, not two."""
    seen, kept = set(), []
    for outcome in outcomes:
        key = repr(outcome.case.input)
        if key not in seen:
            seen.add(key)
            kept.append(outcome)
    return kept
