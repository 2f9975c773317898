"""Naming the mistake of a declared exercise, from families written once over the game vocabulary.

Each family is a wrong version of the reference search (``Searcher.variant_value``). A family
names the mistake when it predicts the student's value on every case they answered (a crash
counts as agreeing where the family's search reached a finished game with no moves, as
``max([])`` would) and explains at least one wrong value, or, failing that, when it explains
most of the wrong values and is clearly ahead of every other family (``clear_winners``, shared
with ``grader.judging.diagnose``), with how far it fits in the evidence. Moves are read by rule (value
right, move not optimal), and the evaluated positions from the traces (over- and
under-pruning, evaluating positions that are not leaves). Nothing here shows code; every
text ends with a question, in words that fit any game.
"""

from __future__ import annotations

import copy
import math
import re
import time
from dataclasses import replace

from grader.vocabulary.findings import (INTERFACE_ERRORS, same_number, PARTIAL_AGREES, SUPPORTED_EXPLAINS, Finding, Fit, Model, Support, clear_winners,
                                supported_by, with_support)
from grader.kit import answer_shape, mistake_texts
from grader.kit.mistake_texts import CODES
from grader.kit.player_families import copied_helpers, player_families
from grader.kit.traces import evaluated_paths
from grader.kit.search import (COUNTED_OTHERWISE, FAMILIES, NEEDS_DEPTH, NEEDS_EVALUATE, NEEDS_EXTRA_TURNS,
                               VARIANT_NODE_BUDGET, TooBig, fresh_counter, node_cap)

# How much predicting the families may do for one submission, counted in searches, not seconds, so the
# named mistake never depends on how busy the machine is (a tic-tac-toe submission needs about 12,000;
# every family over every case of the largest bank would need about 90,000). A wall-clock limit far
# beyond any normal run remains only as a guard against a pathological game.
RULES_SEARCHES = 60_000
RULES_GUARD_SECONDS = 120.0
# A right value with no move: the start value was one a move could only equal (0, the win or loss value).
START_NOT_BEATEN = ("The best value so far starts at a value that a move can only equal, not beat (0, or the "
                    "win or loss value itself), so when the best move is worth exactly that, no move is kept.",
                    "Before you have looked at any move, what start value is every move sure to beat?")



# Cases on which one family's search may be too large (TooBig) before the family is given up for the game.
TOO_BIG_CASES = 2
# The positions one case's search may enter while every family is first fitted (see ``KitMistakes.rules``).
PROBE_NODES = 1_000
_COSTLY = object()  # a probed family whose search was larger than PROBE_NODES on some case


class KitMistakes:
    """The ``mistakes`` module of every declared exercise (what ``grader.judging.diagnose`` asks of one)."""

    MODELS = ()  # values are matched by the rules below, so the move part of an answer never decides
    ANSWER_KINDS = ("answers", "value", "move")  # checks whose failures are wrong answers (localised, explained)
    CODES = CODES

    def __init__(self, hooks, moves_only=None, told_apart=None):
        self.hooks = hooks
        self.moves_only = moves_only  # naming from the moves chosen, for an answer that is a move alone
        # families that give the same values told apart by the moves, for a (value, move) answer
        self.told_apart = told_apart
        # ``[mistake_texts.CODE] text = ..., question = ...`` in exercise.toml: a code in the game's own words.
        self.CODES = {**CODES, **mistake_texts.read(hooks.exercise.meta)}
        self.CHECK_CODES = {spec.name: {"code": "wrong-return-type", "even_if_skipped": True}
                            for spec in hooks.exercise.checks if spec.kind == "shape"}
        # A check may name the mistake it finds (``mistake = "board-not-restored"`` in its [[checks]] table).
        self.CHECK_CODES.update({spec.name: {"code": str(spec.params["mistake"]), "even_if_skipped": True}
                                 for spec in hooks.exercise.checks if spec.params.get("mistake")})

    def subproblems(self, case_input) -> list[dict]:
        return subproblem_plan(self.hooks, case_input)

    def explain_node(self, entry, expected, children, yours, reply=None) -> str:
        if "value" not in self.hooks.decl["returns"]["items"] and children and reply is not None:
            return self._explain_move(entry, expected, children, reply)
        return explain(entry, expected, children, yours)

    def _explain_move(self, entry, expected, children, reply) -> str:
        """The first wrong node of a move-only answer, in moves: what each move is worth, which are best, and
        the move the student chose with its worth (a move is never read as a value)."""
        hooks = self.hooks
        moves = [hooks.game.move_data(a) for a in hooks.game.actions(hooks.state_of(entry["input"]))]
        listed = ("move " if len(moves) == 1 else "moves ") + ", ".join(repr(m) for m in moves)
        worth = ", ".join(repr(c["value"]) for c in children)
        best = " or ".join(repr(m) for m in expected.get("moves") or ())
        # ("number", 2) for a move that is a number; ("other", "'left'") for any other answer, as described
        described = re.sub(r" \(an? [\w.]+\)$", "", str(reply[1])) if reply[0] == "other" else None
        matching = [i for i, m in enumerate(moves)
                    if (reply[0] == "number" and reply[1] == m) or (described is not None and described == repr(m))]
        if reply[0] == "raised":
            yours = f"your code raised {reply[1]}"
        elif matching:
            yours = f"your code chose {moves[matching[0]]!r}, worth {children[matching[0]]['value']!r}"
        else:
            shown = repr(reply[1]) if reply[0] == "number" else reply[1]
            yours = f"your code returned {shown}, which is none of these moves"
        who = "MAX wants the highest" if entry["role"] == "max" else "MIN wants the lowest"
        return (f"{entry['id']} ({entry['role'].upper()} to move), the {listed} {'is' if len(moves) == 1 else 'are'} worth {worth}; {who}, so the best "
                f"{'moves are' if ' or ' in best else 'move is'} {best}, worth {expected['value']!r}; {yours}")

    def node_values(self, entry, outcome, child_outcomes, facts):
        """The numbers the local rule at the first wrong node is read from (``grader.judging.diagnose.local_rule``)."""
        reply = self._student_value(outcome)
        if reply is None or reply[0] != "number":
            return None
        try:
            own = self.hooks.searcher.leaf(self.hooks.state_of(entry["input"]))
        except Exception:  # a game without an evaluation has no own value for a position mid-game
            own = None
        return {"role": entry["role"], "own": own if type(own) in (int, float) else None,
                "expected": outcome.expected["value"], "children": [c.expected["value"] for c in child_outcomes],
                "actual": reply[1]}

    def trace_evidence(self, facts) -> list:
        """Where the evaluation was asked, against the depth limit, when one pattern holds in every case
        that shows any (one ply above the limit, one beyond it, further beyond): supporting evidence."""
        if not self.hooks.decl["depth_limited"]:
            return []
        game, searcher = self.hooks.game, self.hooks.searcher
        patterns = []
        for outcome in facts.outcomes[:TRACE_CASES]:
            depth = outcome.case.input.get("depth")
            paths = evaluated_paths(outcome.raw.get("trace") or {}) if isinstance(outcome.raw, dict) else None
            if depth is None or not paths:
                continue
            try:
                off = {left for left in (_depth_left(game, searcher, self.hooks.state_of(outcome.case.input), depth, p)
                                         for p in paths[:TRACE_PATHS]) if left is not None and left != 0}
            except Exception:  # a path the game cannot follow: this trace says nothing
                continue
            if off:
                patterns.append(off)
        if len(patterns) < 3:
            return []
        lefts, n = set().union(*patterns), len(patterns)
        if lefts == {1}:
            return [Support(f"the traces show the evaluation asked one move above the depth limit ({n} cases)",
                            frozenset({"depth-off-by-one"}))]
        if lefts == {-1}:
            return [Support(f"the traces show the evaluation asked one move beyond the depth limit ({n} cases)",
                            frozenset({"depth-off-by-one"}))]
        if all(left < -1 for left in lefts):
            return [Support(f"the traces show the evaluation asked more than one move beyond the depth limit "
                            f"({n} cases)", frozenset({"depth-not-decremented"}))]
        return []

    def families(self) -> list[str]:
        """The search's families, then the ones with a parameter (the player whose rule is wrong, ...)."""
        decl, game = self.hooks.decl, self.hooks.game
        return [f for f in FAMILIES if (decl["depth_limited"] or f not in NEEDS_DEPTH)
                and (game.has_evaluate or f not in NEEDS_EVALUATE)
                and (f not in NEEDS_EXTRA_TURNS or self.hooks.extra_turns)
                and (f not in COUNTED_OTHERWISE.values() or f == COUNTED_OTHERWISE.get(decl["depth_counts"]))] \
            + [f for f in PARAMETERISED if not getattr(PARAMETERISED[f], "needs_with_mover", False)
               or callable(getattr(game.module, "with_mover", None))]

    def _student_value(self, outcome):
        """("number", v) or ("raised", interface) or None when the reply carries no value the families can be
        compared to; ``interface``: the crash says the code does not fit what it was given (a missing attribute,
        say), which no family's search explains."""
        raw = outcome.raw
        if "skipped" in raw or raw.get("timed_out"):
            return None
        if raw.get("raised"):
            return ("raised", str(raw["raised"]).startswith(INTERFACE_ERRORS))
        answer = outcome.answer
        if answer is None:
            return None
        parts, problem = self.hooks.parts(answer)
        if problem or "value" not in parts or not parts["value"].is_number:
            return None
        return ("number", parts["value"].value)

    def rules(self, facts) -> list[Finding]:
        from grader.kit.shapes_seen import bare_values, left_changed

        facts = self._asked_by_a_check(facts)
        if "value" not in self.hooks.decl["returns"]["items"]:
            return self._moves_only(facts)
        found = [f for f in (bare_values(self, facts), left_changed(self, facts)) if f is not None]
        if found:
            return found  # what the search did to its answer or its input explains the values too
        asked = [(o, self._student_value(o)) for o in facts.outcomes]
        asked = [(o, v) for o, v in asked if v is not None]
        wrong_values = [(o, v) for o, v in asked if v[0] == "raised" or not _same(v[1], o.expected["value"])]
        wrong_values.sort(key=lambda ov: facts.size(ov[0]))
        findings = []
        if wrong_values:
            wrong_ids = {id(o) for o, _ in wrong_values}
            right = [(o, v) for o, v in asked if id(o) not in wrong_ids]
            budget = [RULES_SEARCHES, time.monotonic() + RULES_GUARD_SECONDS]
            asked_once = self._asked(wrong_values, right)
            families = self.families()
            later = [f for f in families if getattr(PARAMETERISED.get(f), "only_if_unexplained", False)]
            # Every family is first fitted with a small search per case; one that needs more (a depth never
            # lowered on a big game: thousands of positions a case) waits with the rarer accounts below, and
            # is fitted in full only if no family gives every value. Its full search cost a connect-four check
            # most of its time, for a family that hardly ever fits where a cheaper one already fits in full.
            fitted = {}
            with node_cap(PROBE_NODES):
                for family in families:
                    if family not in later:
                        fitted[family] = self._fits(family, asked_once, len(wrong_values), budget, probe=True)
            costly = [family for family, fit in fitted.items() if fit is _COSTLY]
            fits = [fit for fit in fitted.values() if fit is not None and fit is not _COSTLY]
            # A start value is any number a student writes (-999, 10**6, ...): the families for the ones the wrong
            # answers themselves show, not only for a list of usual ones.
            made_here = start_value_families(wrong_values, asked)
            fits += [fit for fit in (self._fits(family, asked_once, len(wrong_values), budget)
                                     for family in made_here.values()) if fit is not None]
            for family in made_here.values():  # one submission's numbers: not kept in the game's memo for the next
                self.hooks.searcher.memo.pop(family.memo_key(), None)
            if not any(fit.complete and fit.explained for fit in fits):
                # Rarer accounts (a part copied from another), tried only where no family gives every value: they
                # cost a check its time for every student otherwise. The costly families go in full, in their place.
                for family in costly:
                    fitted[family] = self._fits(family, asked_once, len(wrong_values), budget)
                fits = ([fit for fit in fitted.values() if fit is not None]
                        + [fit for fit in fits if fit.name not in fitted])
                fits += [fit for fit in (self._fits(family, asked_once, len(wrong_values), budget)
                                         for family in later) if fit is not None]
            rules_seen = getattr(facts, "supporting", [])
            winners = _moves_break_the_tie(self, facts, clear_winners(fits, supported=supported_by(rules_seen)))
            if self.told_apart is not None:
                winners = self.told_apart(self, facts, winners)
            winners = _one_per_code(winners)
            findings.extend(with_support(self._finding(fit, facts), [] if fit.complete else rules_seen)
                            for fit in winners)
        if not findings and not wrong_values:
            findings.extend(self._move_findings(facts))
        return findings

    def _asked_by_a_check(self, facts):
        """The facts with only the cases some check of the answers asks: a bank may hold positions that no check
        grades (the finished ones of a game asked only while it goes on), and an answer there is no evidence."""
        asked_groups = set()
        for spec in self.hooks.exercise.checks:
            if spec.kind in self.ANSWER_KINDS:
                if not spec.groups:
                    return facts  # a check over every case: every answer counts
                asked_groups.update(spec.groups)
        bank = facts.bank()
        kept = [o for o in bank if o.case.group in asked_groups]
        if len(kept) == len(bank):
            return facts
        narrowed = copy.copy(facts)
        narrowed.outcomes = kept + facts.outcomes[len(bank):]  # the localisation's questions were admitted when asked
        narrowed.bank_size = len(kept)
        return narrowed

    def _moves_only(self, facts) -> list[Finding]:
        """An answer that is a move alone: named by the moves chosen (``grader.kit.moves_only``, given by the hooks,
        since the move families are written over this module's)."""
        return self.moves_only(self, facts) if self.moves_only is not None else []

    def _finding(self, fit: Fit, facts) -> Finding:
        family, example = fit.model.code, fit.example
        shown = f"for example {facts.call(example)}, worth {example.expected['value']!r}"
        text = fit.model.explanation  # a parameterised family words its own parameter; else the code's text
        if fit.complete:
            # Also compared on the questions asked while shrinking and localising, which no check's "fails on N
            # of M" counts: said apart, so the two counts in one report add up.
            graded = [(o, self._student_value(o)) for o in facts.bank()]
            graded = [(o, v) for o, v in graded if v is not None]
            extra = fit.compared - len(graded)
            if 0 < extra < fit.compared:
                wrong = sum(1 for o, v in graded if v[0] == "raised" or not _same(v[1], o.expected["value"]))
                return Finding(family, f"{family} gives exactly your values: it fits all {len(graded)} graded cases, "
                                       f"including {wrong} wrong ones, and the {extra} more asked while finding the "
                                       f"smallest ({shown})", text)
            return Finding(family, f"{family} gives exactly your values: it {fit.how_strong()} compared, including "
                                   f"{fit.explained} wrong ones ({shown})", text)
        return Finding(family, f"{family} {fit.how_strong()} compared and {fit.explained} of your {fit.wrong} wrong "
                               f"values ({shown}); it differs at {facts.call(fit.missed)}", text)

    def _asked(self, wrong, right) -> list:
        """(outcome, reply, position, depth, is wrong) for every case, wrong ones first, decoded once for every family."""
        state_of = self.hooks.state_of
        return [(outcome, reply, state_of(outcome.case.input), outcome.case.input.get("depth"), is_wrong)
                for pairs, is_wrong in ((wrong, True), (right, False)) for outcome, reply in pairs]

    def _fits(self, family, asked, wrong_count, budget, probe: bool = False) -> Fit | None:
        """The family's agreement with the student's values; None when it cannot be strong or cannot be predicted.
        ``probe`` (inside ``node_cap``): ``_COSTLY`` as soon as one case's search is larger than the cap."""
        total = len(asked)
        misses_allowed = min(wrong_count - math.ceil(SUPPORTED_EXPLAINS * wrong_count),
                             total - math.ceil(PARTIAL_AGREES * total))
        compared = agreed = explained = contradicted = too_big = 0
        example = missed = None
        predicted: set = set()
        decl = self.hooks.decl
        predict = predictor(self.hooks.searcher, family, decl["search"] == "alphabeta", decl["alpha"], decl["beta"])
        if not isinstance(family, str):  # a family made for this submission (``start_value_families``)
            family, known = family.name, {family.name: family}
        else:
            known = PARAMETERISED
        deadline, left = budget[1], budget[0]
        try:
            for outcome, reply, state, depth, is_wrong in asked:
                left -= 1
                if left < 0 or (left % 1000 == 0 and time.monotonic() > deadline):
                    return None  # out of searches: this family (and the rest) cannot be predicted here
                try:
                    value, empty = predict(state, depth)
                except TooBig:
                    if probe:
                        return _COSTLY
                    # Too large a search to predict here (a deep hand-made position): this case says nothing of
                    # the family, the others still do. A family too large on several cases (a depth never lowered
                    # on a big game) is too large for this game: given up at once, not searched to the budget on
                    # every case (that cost a connect-four check seconds).
                    too_big += 1
                    if too_big > TOO_BIG_CASES:
                        return None
                    continue
                except (ZeroDivisionError, TypeError, ValueError):
                    continue  # no prediction at all for this case
                compared += 1
                if len(predicted) < 2:
                    predicted.add(value)
                if reply[0] == "raised":
                    agrees = empty and not reply[1]
                else:
                    reply_value = reply[1]
                    agrees = reply_value == value or _same(reply_value, value)
                if not agrees:
                    missed = missed or outcome
                    contradicted += not is_wrong
                    if compared - agreed > misses_allowed:
                        return None
                    continue
                agreed += 1
                if is_wrong:
                    explained += 1
                    example = example or outcome
        finally:
            budget[0] = left
        if not explained or len(predicted) < 2:
            return None  # one value whatever the position: a constant answer says nothing of how it was searched
        code = known[family].code if family in known else family
        fit = Fit(Model(code, None, known[family].text if family in known else ""),
                  compared, explained, example, agreed, wrong_count, missed, contradicted)
        fit.name = family  # which family of the code (its moves may be asked: ``told_apart``)
        return fit

    def _move_findings(self, facts) -> list[Finding]:
        bad = [o for o in facts.outcomes if o.answer is not None and self._student_value(o) is not None
               and self.hooks.move_problem(o.answer, o.expected)]
        if not bad:
            return []
        smallest = min(bad, key=facts.size)
        problem = self.hooks.move_problem(smallest.answer, smallest.expected)
        if not smallest.expected["moves"]:
            over = self._played_on(facts, bad)
            if over is not None:
                return [over]
            return [Finding("no-moves-root", f"{facts.call(smallest)}: {problem} ({len(bad)} such answers)")]
        kept = [o for o in bad if self._no_move_kept(o)]
        if kept and (len(kept) < len(bad) or _varied_by_role(self.hooks, kept)):
            # "No move" with values no start value could be (several per player), or beside wrong moves: the
            # move is passed up from below, not a start value that no move beat.
            return [Finding("wrong-move-recorded", f"{facts.call(smallest)}: {problem}; the value is right "
                                                   f"({len(bad)} such answers, {len(kept)} with no move though "
                                                   f"moves were left)", checks=self.move_checks())]
        if kept and len(kept) == len(bad):
            # The right value and no move: no move ever beat the start value, so the start value was as good
            # as the best move's (a start bound that is not worse than every move), not a move chosen badly.
            return [Finding("bad-initial-bound", f"{facts.call(smallest)}: {problem}; your value is right but no move "
                                                 f"was kept, so no move beat the value you started from "
                                                 f"({len(bad)} such answers)", *START_NOT_BEATEN)]
        return [Finding("suboptimal-move", f"{facts.call(smallest)}: {problem} ({len(bad)} such answers)")]

    def _played_on(self, facts, bad) -> Finding | None:
        """A move at finished positions only, where positions with no depth left get none: the search stops at
        the depth limit but not at the end of the game, so it plays on after the game is over."""
        game = self.hooks.game
        rootless = [o for o in bad if not o.expected["moves"]]
        if len(rootless) < len(bad) or not all(game.is_terminal(self.hooks.state_of(o.case.input)) for o in rootless):
            return None
        stops = [o for o in facts.outcomes if o.answer is not None and o.case.input.get("depth") == 0
                 and not o.expected["moves"] and not game.is_terminal(self.hooks.state_of(o.case.input))
                 and self._student_value(o) is not None and not self.hooks.move_problem(o.answer, o.expected)]
        if not stops:
            return None
        smallest = min(rootless, key=facts.size)
        problem = self.hooks.move_problem(smallest.answer, smallest.expected)
        return Finding("missing-terminal-check", (
            f"{facts.call(smallest)}: {problem}; your answer carries a move at {len(rootless)} positions where the "
            f"game is over, yet none at the {len(stops)} where no depth is left, so the search stops at the depth "
            f"limit but plays on after the end of the game"),
            checks=self.move_checks())

    def move_checks(self) -> tuple:
        return tuple(spec.name for spec in self.hooks.exercise.checks if spec.kind == "move")

    def _no_move_kept(self, outcome) -> bool:
        """The move is None though there are moves, and the value is right."""
        parts, problem = self.hooks.parts(outcome.answer)
        return (not problem and "move" in parts and answer_shape.is_no_move(self.hooks.decl["returns"], parts["move"])
                and bool(outcome.expected["moves"]))

    def behaviour_rules(self, facts) -> list[Finding]:
        """Mistakes in which positions were evaluated, read from the traces where the value was right."""
        names = {s.name for s in self.hooks.exercise.checks if s.kind == "evaluations"}
        if not any(c.name in names and c.status == "failed" and c.unanswered_cases < c.failed_cases for c in facts.checks):
            return []  # passed, or skipped because the values are wrong: those mistakes are named by value
        kinds: dict[str, list] = {}
        for outcome in facts.outcomes:
            reply = self._student_value(outcome)
            if reply is None or reply[0] != "number" or not _same(reply[1], outcome.expected["value"]):
                continue
            done = evaluated_paths(outcome.raw.get("trace") or {})
            if done is None:
                continue
            case_input = outcome.case.input
            wanted = self.hooks.reference_evaluations(case_input)
            if sorted(done) == sorted(map(tuple, wanted)):
                continue
            kinds.setdefault(self._classify(case_input, done, wanted), []).append(outcome)
        findings = []
        for code, outcomes in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
            smallest = min(outcomes, key=facts.size)
            findings.append(Finding(code, f"{len(outcomes)} cases where your code asked for the evaluation of other "
                                          f"positions than a correct search would (the smallest: "
                                          f"{facts.call(smallest)})"))
            break  # the commonest explanation only: one search has one pruning rule
        return findings

    def _classify(self, case_input, done, wanted) -> str:
        done_set, wanted_set = set(done), {tuple(p) for p in wanted}
        state = self.hooks.state_of(case_input)
        inner = self.hooks.searcher.inner_paths(state, case_input.get("depth"))
        if done_set & inner:
            return "evaluates-internal-nodes"
        if self.hooks.decl["search"] == "alphabeta":
            if sorted(done) == sorted(self.hooks.reference_evaluations(case_input, "equal")):
                return "over-pruning"
            if done_set < wanted_set:
                return "over-pruning"
            if done_set > wanted_set or sorted(done) == sorted(self.hooks.reference_evaluations(case_input, "none")):
                return "under-pruning"
        if done_set < wanted_set:
            return "horizon-not-evaluated"
        return "under-pruning" if self.hooks.decl["search"] == "alphabeta" else "evaluates-internal-nodes"


# -- families with a parameter: one player's rule wrong, a negamax not turned back -----------------

_MISSING = object()


class _Recursive:
    """A wrong search written as one step per position (``step``), memoised per (position, depth) in the
    searcher under ``memo_key`` and held to the variant budget: the skeleton every family below shares."""

    code = ""

    def memo_key(self) -> tuple:
        raise NotImplementedError

    def step(self, searcher, n, depth, below):
        """The value at ``n``; ``below(child, depth)`` is the same search one move on."""
        raise NotImplementedError

    def _search(self, searcher, n, depth, counter):
        memo, step, budget_left = _memo(searcher, self.memo_key()), self.step, VARIANT_NODE_BUDGET - counter[0]

        def below(child, left):  # one closure per search, not one per position
            nonlocal budget_left
            key = (child, left)
            found = memo.get(key, _MISSING)
            if found is _MISSING:
                budget_left -= 1
                if budget_left < 0:
                    raise TooBig(self.code)
                found = memo[key] = step(searcher, child, left, below)
            return found

        try:
            return below(n, depth)
        finally:
            counter[0] = VARIANT_NODE_BUDGET - budget_left


class OneRole(_Recursive):
    """The right search, except at the nodes where ``role`` ("max" or "min") is to move, which combine
    their children by ``rule`` (a mistake made in one branch of the code only); or, with ``negate_root``,
    the right value negated where MIN is to move at the root (a negamax whose answer is never turned
    back to MAX's point of view). Plain minimax over the game's vocabulary, memoised per position."""

    def __init__(self, code: str, role: str | None, rule=None, negate_root: bool = False, text: str = ""):
        self.code, self.role, self.rule, self.negate_root, self.text = code, role, rule, negate_root, text

    def value(self, searcher, state, depth) -> tuple:
        if self.negate_root:
            value = searcher.value(state, depth)
            return (-value if searcher.role(state) == "min" else value), False
        return self._search(searcher, searcher.node(state), depth, fresh_counter()), False

    def memo_key(self) -> tuple:
        return ("one-role", self.code, self.role, id(self.rule))

    def step(self, searcher, n, depth, below):
        if searcher.ended(n) or depth == 0:
            return searcher.leaf_of(n)
        values = [below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n)]
        role = searcher.role_of(n)
        if self.role in (role, "both"):
            return self.rule(values, role)
        return max(values) if role == "max" else min(values)


class DeeperByOne:
    """The right search, one ply deeper than the depth it was given (a limit tested with ``< 0``)."""

    code = "depth-off-by-one"
    text = ("Your search goes one move deeper than the depth allows: positions at the depth limit are searched "
            "instead of evaluated.")

    def value(self, searcher, state, depth) -> tuple:
        if depth is None:
            raise TypeError("no depth limit to be off by one")  # not this family: the case is skipped
        return searcher.value(state, depth + 1), False


class BelowRoot:
    """The root chooses the right way, every level below it by ``variant`` (min and max swapped, always the
    maximum, ...): the root's loop is right and the helper it calls for each move is not (the player not passed
    on to the root's children, a helper written for one side only)."""

    WORDS = {"min-max-swapped": "the wrong way round", "always-max": "by the highest value, also where MIN is "
             "to move", "always-min": "by the lowest value, also where MAX is to move",
             "missing-terminal-check": "without checking whether the game is over",
             "sign-flip": "with every end position's score turned round"}

    def __init__(self, variant: str):
        self.code = variant
        self.text = (f"Your first move is chosen the right way, but below it the positions are valued "
                     f"{self.WORDS[variant]}: the search that values each move is not the one at the root.")

    def value(self, searcher, state, depth) -> tuple:
        n = searcher.node(state)
        if searcher.ended(n) or depth == 0:
            return searcher.leaf_of(n), False
        values, empty = [], False
        for child in searcher.kids(n):
            value, touched = searcher.variant_value(self.code, searcher.states[child], searcher.depth_below(n, child, depth))
            values.append(value)
            empty = empty or touched
        return (max(values) if searcher.role_of(n) == "max" else min(values)), empty


class TerminalUncheckedFor(_Recursive):
    """The right search, except that where ``role`` is to move the end of the game is not tested: a finished
    position there searches no moves and returns its start value (an infinity), or crashes on an empty max."""

    code = "missing-terminal-check"

    def __init__(self, role: str):
        self.role = role
        self.text = (f"Where {role.upper()} is to move your search does not test whether the game is over, so a "
                     f"finished position there is searched over no moves (where {'MIN' if role == 'max' else 'MAX'} "
                     f"is to move the test is there).")

    def value(self, searcher, state, depth) -> tuple:
        return self._search(searcher, searcher.node(state), depth, fresh_counter())

    def memo_key(self) -> tuple:
        return ("terminal-unchecked", self.role)

    def step(self, searcher, n, depth, below):
        role = searcher.role_of(n)
        if depth == 0:  # the test of the depth is still there: a finished position at the limit is scored,
            # by the heuristic where this role's end test is missing (``heuristic(state)`` where the depth runs out)
            return (searcher.evaluated_anyway(n) if role == self.role else searcher.leaf_of(n)), False
        if searcher.ended(n) and role == self.role:
            return (-math.inf if role == "max" else math.inf), True
        if searcher.ended(n):
            return searcher.leaf_of(n), False
        values, empty = [], False
        for child in searcher.kids(n):
            value, touched = below(child, searcher.depth_below(n, child, depth))
            values.append(value)
            empty = empty or touched
        return (max(values) if role == "max" else min(values)), empty


class TerminalDefault(_Recursive):
    """No test for the end of the game: a position with no moves gets the default that the best of no moves
    falls back on (``max(values, default=0)``, ``return 0`` when the list is empty), not a crash or an infinity;
    a finished game that still has moves is played on."""

    code = "missing-terminal-check"

    def __init__(self, default):
        self.default = default
        self.text = (f"Your search does not test whether the game is over: where the player to move has no move, "
                     f"the best of no moves falls back on {default!r} instead of the finished game's score.")

    def value(self, searcher, state, depth) -> tuple:
        return self._search(searcher, searcher.node(state), depth, fresh_counter()), False

    def memo_key(self) -> tuple:
        return ("terminal-default", self.default)

    def step(self, searcher, n, depth, below):
        if depth == 0:
            return searcher.evaluated_anyway(n)  # no end test: the depth limit's heuristic, finished or not
        if not searcher.kids(n):
            return self.default
        values = [below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n)]
        return max(values) if searcher.role_of(n) == "max" else min(values)


class TerminalDefaultFor(TerminalDefault):
    """``TerminalDefault`` where ``role`` is to move only: one of the two parts (the maximising one, say) takes the
    best of its moves with a default for none and no test for the end of the game; the other part is right."""

    def __init__(self, role: str, default):
        super().__init__(default)
        self.role = role
        self.text = (f"Where {role.upper()} is to move your search does not test whether the game is over: a position "
                     f"there with no move gets {default!r}, the default of the best of no moves, instead of the "
                     f"finished game's score (where {'MIN' if role == 'max' else 'MAX'} is to move the test is there).")

    def memo_key(self) -> tuple:
        return ("terminal-default", self.default, self.role)

    def step(self, searcher, n, depth, below):
        if searcher.role_of(n) != self.role and (depth == 0 or searcher.ended(n)):
            return searcher.leaf_of(n)
        return super().step(searcher, n, depth, below)


class NegamaxUnnegated(_Recursive):
    """A negamax whose children's values are never negated: each position is scored from the side to move
    (``colour * score``), every level keeps the maximum, and the root's answer is turned back to MAX's side."""

    code = "sign-flip"
    text = ("Your negamax scores each end position for the player to move there but never negates the values "
            "on the way up, so each level keeps what is best for the opponent as if it were its own.")

    def value(self, searcher, state, depth) -> tuple:
        sign = 1 if searcher.role(state) == "max" else -1
        return sign * self.of_state(searcher, state, depth), False

    def of_state(self, searcher, state, depth):
        """The unturned negamax score of ``state``, from the side to move there."""
        return self._search(searcher, searcher.node(state), depth, fresh_counter())

    def memo_key(self) -> tuple:
        return ("negamax-unnegated",)

    def step(self, searcher, n, depth, below):
        if searcher.ended(n) or depth == 0:
            return searcher.leaf_of(n) * (1 if searcher.role_of(n) == "max" else -1)
        return max(below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n))


class LeavesNegatedFor(_Recursive):
    """The right search, except that a position scored where ``role`` is to move is scored with the sign
    turned round (``player * score`` with MIN as -1, say): a sign wrong for one player only."""

    code = "sign-flip"

    def __init__(self, role: str):
        self.role = role
        self.text = (f"Positions scored where {role.upper()} is to move get the wrong sign (the score is turned round "
                     f"for that player only), so the search prefers what is bad for MAX there.")

    def value(self, searcher, state, depth) -> tuple:
        return self._search(searcher, searcher.node(state), depth, fresh_counter()), False

    def memo_key(self) -> tuple:
        return ("leaves-negated", self.role)

    def turned(self, searcher, n) -> bool:
        """Whether the score of the leaf ``n`` comes back with the wrong sign."""
        return searcher.role_of(n) == self.role

    def step(self, searcher, n, depth, below):
        if searcher.ended(n) or depth == 0:
            leaf = searcher.leaf_of(n)
            return -leaf if self.turned(searcher, n) else leaf
        values = [below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n)]
        return max(values) if searcher.role_of(n) == "max" else min(values)


class ScoreNegated(LeavesNegatedFor):
    """The right search, except that one of the two scores a search stops on has the wrong sign: a finished game's
    (``-utility(state)``: the winner taken for the loser, as in a misere game read the usual way round) or the
    evaluation at the depth limit's. The two helpers are the declaration's own, so either can be written wrong alone;
    where the game has no evaluation, every leaf is a finished game and this is the whole ``sign-flip``."""

    def __init__(self, ends: bool):
        self.ends = ends
        self.text = ("The score of a finished game has the wrong sign in your search: a game won for MAX is scored as "
                     "lost and the other way round (positions at the depth limit are scored right)." if ends else
                     "The evaluation at the depth limit has the wrong sign in your search: positions good for MAX "
                     "are scored as bad there (finished games are scored right).")

    def memo_key(self) -> tuple:
        return ("score-negated", self.ends)

    def turned(self, searcher, n) -> bool:
        return searcher.ended(n) == self.ends


class ColourNotAlternated:
    """A negamax whose colour (the side whose score is counted at an end position) is never changed on the way
    down: every end position is scored for the player to move at the root, so the sign is wrong wherever the
    other player is to move there (``LeavesNegatedFor`` that player, chosen by the root)."""

    code = "no-alternation"
    text = ("Your negamax never hands the colour over from one move to the next: every end position is scored for "
            "the player who moves first, also where the other player is to move, so those values have the wrong sign.")

    def value(self, searcher, state, depth) -> tuple:
        other = "min" if searcher.role(state) == "max" else "max"
        return _ColourKept(other).value(searcher, state, depth)


class _ColourKept(LeavesNegatedFor):
    """``LeavesNegatedFor`` with a memo of its own: what one family leaves behind when it runs out of
    budget must never decide whether another runs out (``sign-flip/leaves-*`` searches the same values)."""

    def memo_key(self) -> tuple:
        return ("colour-kept", self.role)


def predictor(searcher, family: str, pruning: bool = False, alpha=-math.inf, beta=math.inf):
    """``predict(state, depth) -> (value, touched a node without moves)`` for ``family``, chosen once: a search
    family (``Searcher.variant_value``, simulated inside alpha-beta with ``pruning``) or one with a parameter."""
    if not isinstance(family, str) or family in PARAMETERISED:
        found = family if not isinstance(family, str) else PARAMETERISED[family]
        return lambda state, depth: found.value(searcher, state, depth)
    variant_value = searcher.variant_value
    return lambda state, depth: variant_value(family, state, depth, pruning, alpha, beta)


def _memo(searcher, family: tuple) -> dict:
    """The family's own memo inside the searcher's, keyed (node, depth)."""
    found = searcher.memo.get(family)
    if found is None:
        found = searcher.memo[family] = {}
    return found


def _unit_start(values, role):
    return max([-1] + values) if role == "max" else min([1] + values)


def _zero_start(values, role):
    return max([0] + values) if role == "max" else min([0] + values)


def _average(values, role):
    return sum(values) / len(values)


def _first(values, role):
    return values[0]


def _win_value_start(values, role):
    """The start value is the player's own best outcome, the win (+1 for MAX, -1 for MIN): no move beats it."""
    return max([1] + values) if role == "max" else min([-1] + values)


def _sentinel_start(size):
    """The best value so far starts at a finite sentinel, -size for MAX and +size for MIN (``-10``, ``100``): right
    while every value is inside it, kept where every move is worse than it for the player to move."""
    def rule(values, role):
        return max([-size] + values) if role == "max" else min([size] + values)
    rule.__name__ = f"sentinel_{size}"
    return rule


SENTINELS = (10, 100)  # the finite starts students write in place of an infinity (1 and 0 have families of their own)


def _wrong_infinity(values, role):
    """The start value no move can beat (+inf for MAX, -inf for MIN) is kept whatever the moves are worth."""
    return max([math.inf] + values) if role == "max" else min([-math.inf] + values)


class StartAt(OneRole):
    """The right search, except that the best value so far starts at ``starts[role]`` instead of an infinity, where
    ``role`` is to move (a start value missing from ``starts``: that player's is right). A number no move can
    beat (the wrong side's sentinel) is kept, one every move beats changes nothing, and one inside the values
    is kept where every move is worse for that player."""

    def __init__(self, starts: dict):
        self.starts = dict(starts)
        self.name = "bad-initial-bound/start-" + "-".join(f"{role}{value!r}" for role, value in sorted(self.starts.items()))
        roles = " and ".join(f"{value!r} for {role.upper()}" for role, value in sorted(self.starts.items()))
        super().__init__("bad-initial-bound", "both", self._rule, text=(
            f"The best value so far starts at {roles} instead of an infinity on the losing side, so where no move "
            f"is better than that start value for the player to move, the start value is what comes back."))

    def _rule(self, values, role):
        if role not in self.starts:
            return max(values) if role == "max" else min(values)
        start = self.starts[role]
        return max([start] + values) if role == "max" else min([start] + values)

    def memo_key(self) -> tuple:
        return ("start-at", tuple(sorted(self.starts.items())))


class OwnValueStart(OneRole):
    """The right search, except that the best value so far starts at the position's own value (``best =
    get_value(node)``, ``v = evaluate(state)``) instead of an infinity: a start value taken from the game, not a
    constant (``StartAt``), so no number in the wrong answers names it. Kept wherever no move is better than it
    for the player to move; a position the game cannot score mid-game gives no prediction (``scored_anyway``)."""

    def __init__(self):
        super().__init__("bad-initial-bound", "both", None, text=(
            "The best value so far starts at the position's own value instead of an infinity, so where no move is "
            "better than that value for the player to move, the position's own value is what comes back."))

    def memo_key(self) -> tuple:
        return ("own-value-start",)

    def step(self, searcher, n, depth, below):
        if searcher.ended(n) or depth == 0:
            return searcher.leaf_of(n)
        values = [below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n)]
        start = searcher.scored_anyway(n)
        return max([start] + values) if searcher.role_of(n) == "max" else min([start] + values)


class TerminalStart(TerminalDefault):
    """No test for the end of the game, and the best value so far starting at ``starts[role]`` (a sentinel such as
    -999 or 2): a finished position is searched over no moves and keeps its player's start value. The numbers
    are the ones the wrong answers show (``start_value_families``), as for ``StartAt``."""

    def __init__(self, starts: dict):
        super().__init__(None)
        self.starts = dict(starts)
        self.name = "missing-terminal-check/start-" + "-".join(f"{role}{value!r}" for role, value in sorted(self.starts.items()))
        roles = " and ".join(f"{value!r} for {role.upper()}" for role, value in sorted(self.starts.items()))
        self.text = (f"Your search does not test whether the game is over: a finished position is searched over no "
                     f"moves and keeps the start value of the best so far ({roles}) instead of the game's score.")

    def memo_key(self) -> tuple:
        return ("terminal-start", tuple(sorted(self.starts.items())))

    def step(self, searcher, n, depth, below):
        if depth == 0:
            return searcher.leaf_of(n)
        if not searcher.kids(n):
            return self.starts.get(searcher.role_of(n), searcher.leaf_of(n))
        values = [below(child, searcher.depth_below(n, child, depth)) for child in searcher.kids(n)]
        return max(values) if searcher.role_of(n) == "max" else min(values)


START_VALUES_TRIED = 2  # the commonest numbers among the wrong answers that no position is worth
START_VALUE_SEEN = 2    # how often such a number must come back to be tried as a start value


def start_value_families(wrong_values, asked) -> dict:
    """Start-value families for the numbers the student's wrong answers keep returning that no position asked
    is worth (larger than every right value, or inside them, -0.5 say, but the value of no position asked): such
    a number is a start value kept, for one player or both. Each is tried for MAX, for MIN, and as a pair of
    sentinels (-n for MAX, +n for MIN); the pair also with no test for the end of the game (``TerminalStart``:
    the finished positions keep it, the search's other positions are right)."""
    right = [o.expected["value"] for o, _ in asked if type(o.expected.get("value")) in (int, float)]
    if not right:
        return {}
    worth = set(right)
    counts: dict = {}
    for _, reply in wrong_values:
        if reply[0] == "number" and (type(reply[1]) is int or type(reply[1]) is float and math.isfinite(reply[1])) \
                and reply[1] not in worth:  # an int is finite however long (math.isinf fails on 10 ** 400)
            counts[reply[1]] = counts.get(reply[1], 0) + 1
    seen = sorted((n for n, c in counts.items() if c >= START_VALUE_SEEN), key=lambda n: (-counts[n], n))
    found: dict = {}
    for number in seen[:START_VALUES_TRIED]:
        for starts in ({"max": number}, {"min": number}, {"max": -abs(number), "min": abs(number)}):
            family = StartAt(starts)
            found[family.name] = family
        terminal = TerminalStart({"max": -abs(number), "min": abs(number)})
        found[terminal.name] = terminal
    return found


def _one_role_families() -> dict[str, OneRole]:
    found = {"sign-flip/not-turned-back": OneRole(
        "sign-flip", None, negate_root=True,
        text="Your values are right for MAX but come back with the wrong sign where MIN is to move: a negamax "
             "whose answer is never turned back to MAX's point of view.")}
    for code, rule, what in (("bad-initial-bound", _zero_start, "starts its best value at 0 instead of an infinity"),
                             ("averages-children", _average, "averages the values of the moves"),
                             ("first-child-only", _first, "keeps the first move's value only"),
                             ("bad-initial-bound/infinity", _wrong_infinity,
                              "starts its best value at the wrong infinity, one that no move can beat")):
        for role, other in (("max", "min"), ("min", "max")):
            found[f"{code}/{role}"] = OneRole(code.split("/")[0], role, rule, text=(
                f"Where {role.upper()} is to move your search {what} (where {other.upper()} is to move it is right)."))
    # both parts starting at the wrong infinity (each part's start copied from the other's)
    found["bad-initial-bound/infinity/both"] = OneRole("bad-initial-bound", "both", _wrong_infinity, text=(
        "Your search starts its best value at the wrong infinity for both players (+inf for MAX, -inf for MIN), one "
        "that no move can beat, so every position searched keeps it."))
    return found


def _moves_break_the_tie(mistakes, facts, winners: list) -> list:
    """A start value that no move beats leaves no move: where another family gives the same values and the
    student returned a move at every position that has one, the start value is not the mistake."""
    complete = [fit for fit in winners if fit.complete]
    if len(complete) < 2 or not any(fit.model.code == "bad-initial-bound" for fit in complete):
        return winners
    if "move" not in mistakes.hooks.decl["returns"]["items"]:
        return winners
    if any(mistakes._no_move_kept(o) for o in facts.outcomes if o.answer is not None and o.expected["moves"]
           and mistakes._student_value(o) is not None):
        return winners
    return [fit for fit in winners if fit.model.code != "bad-initial-bound"]


def _one_per_code(winners: list) -> list:
    """One finding per code: where two parameters of one code give exactly the student's values (which of the
    two parts was copied, say, when both give the same answers), the code's own text, not one parameter's."""
    found: dict[str, Fit] = {}
    for fit in winners:
        kept = found.get(fit.model.code)
        if kept is None:
            found[fit.model.code] = fit
        elif kept.model.explanation != fit.model.explanation:
            found[fit.model.code] = replace(kept, model=replace(kept.model, explanation=""))
    return list(found.values())


def _varied_by_role(hooks, outcomes) -> bool:
    """Several values among the answers of one player to move: not one start value kept."""
    seen: dict[str, set] = {}
    for outcome in outcomes:
        seen.setdefault(hooks.searcher.role(hooks.state_of(outcome.case.input)), set()).add(outcome.expected["value"])
    return any(len(values) > 1 for values in seen.values())


PARAMETERISED = {**_one_role_families(), "depth-off-by-one/deeper": DeeperByOne(), **player_families(),
                 **{f"{code}/below-root": BelowRoot(code) for code in BelowRoot.WORDS},
                 "sign-flip/unnegated": NegamaxUnnegated(),
                 "missing-terminal-check/max": TerminalUncheckedFor("max"),
                 "missing-terminal-check/min": TerminalUncheckedFor("min"),
                 "missing-terminal-check/default-0": TerminalDefault(0),
                 **{f"missing-terminal-check/default-0-{role}": TerminalDefaultFor(role, 0) for role in ("max", "min")},
                 "sign-flip/leaves-min": LeavesNegatedFor("min"), "sign-flip/leaves-max": LeavesNegatedFor("max"),
                 "sign-flip/ends": ScoreNegated(ends=True), "sign-flip/limit": ScoreNegated(ends=False),
                 "no-alternation/negamax-colour": ColourNotAlternated(),
                 "bad-initial-bound/own-value": OwnValueStart(),
                 "bad-initial-bound/win-value": OneRole(
                     "bad-initial-bound", "both", _win_value_start,
                     text="The best value so far starts at the win, +1 for MAX and -1 for MIN, instead of an "
                          "infinity on the losing side, so no move ever beats it and the start value is kept."),
                 "bad-initial-bound/one": OneRole(
                     "bad-initial-bound", "both", _unit_start,
                     text="The best value so far starts at -1 for MAX and +1 for MIN instead of an infinity, so when "
                          "every move is worse than that for the player to move, the start value is kept."),
                 **{f"bad-initial-bound/sentinel-{size}": OneRole(
                     "bad-initial-bound", "both", _sentinel_start(size),
                     text=f"The best value so far starts at {-size} for MAX and {size} for MIN instead of an infinity, "
                          f"so where every move is worse than that for the player to move, the start value is kept.")
                    for size in SENTINELS},
                 **copied_helpers()}


TRACE_CASES, TRACE_PATHS = 200, 200  # enough to see a pattern, few enough to stay cheap


def _depth_left(game, searcher, state, depth, path):
    """The depth left at the end of ``path`` (action indices from ``state``); None at a finished game
    (scoring one is always right, whatever the depth)."""
    for index in path:
        child = game.result(state, game.actions(state)[index])
        depth = searcher.child_depth(state, child, depth)
        state = child
    return None if game.is_terminal(state) else depth


def subproblem_plan(hooks, case_input, cap: int = 60) -> list[dict]:
    """Every position of the counterexample's search as a question of its own, parents before children.

    ``grader.judging.diagnose`` asks the student about each and reports the deepest position whose
    moves are valued right while its own value is not: where the mistake first shows.
    """
    game, searcher = hooks.game, hooks.searcher
    entries = [{"id": "the root", "path": (), "state": hooks.state_of(case_input), "depth": case_input.get("depth"),
                "level": 0, "children": []}]
    for entry in entries:
        state, left = entry["state"], entry["depth"]
        if game.is_terminal(state) or left == 0:
            continue
        for index, action in enumerate(game.actions(state)):
            if len(entries) >= cap:
                return []  # too large to ask about every position
            child = game.result(state, action)
            entry["children"].append(len(entries))
            path = entry["path"] + (index,)
            entries.append({"id": "after moves " + " then ".join(repr(m) for m in _moves_on(game, entries[0]["state"], path)),
                            "path": path, "state": child, "depth": searcher.child_depth(state, child, left),
                            "level": entry["level"] + 1, "children": []})
    plan = []
    for entry in entries:
        data = {"state": game.encode(entry["state"])}
        if "depth" in case_input:
            data["depth"] = entry["depth"]
        plan.append({"id": entry["id"], "input": data, "depth": entry["level"], "children": entry["children"],
                     "role": searcher.role(entry["state"])})
    return plan


def _moves_on(game, state, path) -> list:
    moves = []
    for index in path:
        action = game.actions(state)[index]
        moves.append(action)
        state = game.result(state, action)
    return moves


def explain(entry, expected, children, yours) -> str:
    if not children:
        return (f"at {entry['id']} no move is looked at (the game is over, or no depth is left), so the position "
                f"is worth its own score (the utility of a finished game, else the evaluation), "
                f"{expected['value']!r}; {yours}")
    worth = ", ".join(repr(c["value"]) for c in children)
    pick = "the highest" if entry["role"] == "max" else "the lowest"
    return (f"{entry['id']} ({entry['role'].upper()} to move), the moves are worth {worth}, so the position is "
            f"worth {pick}, {expected['value']!r}; {yours}")


def _same(a, b) -> bool:
    """A student's number against a prediction: exact first (the common case), else ``same_number`` (close; an
    int past a float's range, a student's ``10 ** 400``, compared exactly)."""
    return a == b or same_number(a, b)
