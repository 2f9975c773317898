"""Naming an agent's mistake from the record of what it asked (the object route's evidence).

Each code is read from what the grading process saw, never from a guess: the seats the scores
were asked for, the positions expanded and scored against the references at the asked depth and
one off, alpha-beta's leaves with and without the bounds passed in, the clock reads around the
moment it ran out, the depths an iterative deepening began and finished. One code may come from
the answers alone (``min-max-swapped``: every wrong move is a best move of the swapped search).
"""

from __future__ import annotations

from grader.kit import mistake_texts
from grader.kit.agent_oracle import BOARD_STOPPED, SLACK
from grader.vocabulary.findings import Finding

CODES = {
    "scores-from-active-player": ("Your search scores positions for the player to move there, not for the player "
                                  "searching.", "Whose view is a leaf's score from, at a MIN level?"),
    "no-legal-moves-root": ("With no legal move, your search does not answer the no-move value (-1, -1).",
                            "What does your code return when get_legal_moves() is empty at the root?"),
    "depth-off-by-one": ("Your search goes one level deeper or shallower than the depth it is given.",
                         "When your recursion scores a position, how many moves have been made since the root?"),
    "timer-checked-only-at-root": ("Your search checks the clock only at the top, so it runs on after the time is up.",
                                   "Once time_left() is low, how long does your search go on if only the top looks?"),
    "answers-when-time-is-up": ("Your search reads that the time is up and then answers (a move, or the no-move "
                                "answer) instead of raising the timeout, so the caller never learns the search was "
                                "cut short.",
                                "Once the time is up, who should decide what to do with a search that did not finish: "
                                "the search, or the method that called it?"),
    "returns-interrupted-depth-move": ("Your iterative deepening returns a move from the depth the clock cut short.",
                                       "Which depth's move is complete when the time runs out?"),
    "under-pruning": ("Your alpha-beta scores leaves it could prune.",
                      "After each child, which bound does each level move, the root's loop included, and when does it "
                      "stop?"),
    "over-pruning": ("Your alpha-beta prunes leaves it still needs.",
                     "Is each bound updated only after the comparison, and passed down unchanged?"),
    "ignores-passed-bounds": ("Your alpha-beta does not search within the bounds it is given: somewhere (at the "
                              "start, or on the way down) it starts again from -inf and +inf.",
                              "Where do the alpha and beta a call receives go: into its own loop, and on to its "
                              "children?"),
    "min-max-swapped": ("Your search minimises where it should maximise, and back, at some level or all of them.",
                        "Going down from the root, which levels take the max and which the min, and which of your "
                        "functions does each call?"),
    "wrong-return-type": ("Your method returns something else than the course's answer (a move, a pair of ints).",
                          "What does the caller unpack from your return value?"),
    "depth-not-decremented": mistake_texts.CODES["depth-not-decremented"],
    "no-move-with-moves": ("Your search answers the no-move value where the player has legal moves: where every "
                           "move looks equally bad (all of them lose), none of them ever becomes the best move.",
                           "Which move does your code keep when no move's value beats the starting best value, and "
                           "what should that starting value be?"),
    "illegal-move": ("The move your search returns is not a legal move of the position it was asked about.",
                     "Where does the move you return come from: the board's list of legal moves, or a cell you work "
                     "out yourself?"),
}


CLOCK_CODES = {"timer-checked-only-at-root", "answers-when-time-is-up"}


class AgentMistakes:
    MODELS = ()
    ANSWER_KINDS = ()  # no localisation: the evidence is the record, read below
    CODES = CODES

    def __init__(self, hooks):
        self.hooks = hooks

    def rules(self, facts) -> list[Finding]:
        return self.behaviour_rules(facts)

    def trace_evidence(self, facts) -> list:
        return []

    def _failed(self, facts, kind) -> list:
        names = {s.name for s in self.hooks.exercise.checks if s.kind == kind}
        return [c for c in facts.checks if c.name in names and c.status == "failed"]

    def _failing(self, facts, kind):
        """(check, outcomes it fails on) for every failed check of this kind."""
        found = []
        for check in self._failed(facts, kind):
            spec = next(s for s in self.hooks.exercise.checks if s.name == check.name)
            predicate = getattr(self.hooks, f"check_{kind.replace('-', '_')}")
            bad = [o for o in facts.outcomes if (not spec.groups or o.case.group in spec.groups)
                   and predicate(o, spec)]
            found.append((check, bad))
        return found

    def behaviour_rules(self, facts) -> list[Finding]:
        hooks, found, codes = self.hooks, [], set()

        def name(code, evidence, check):
            if code not in codes:
                codes.add(code)
                found.append(Finding(code, evidence, checks=(check.name,)))

        for check, bad in self._failing(facts, "interface"):
            if any(self._wrong_shape(o) for o in bad):  # a search that raised shows no shape, right or wrong
                name("wrong-return-type", check.message, check)
        for check, bad in self._failing(facts, "timeout"):
            readings = [hooks.timeout_reading(o) for o in bad]
            if readings and all(r["ran_out"] is not None and (r["noticed"] is None or r["late"] > SLACK)
                                for r in readings):
                name("timer-checked-only-at-root", check.message, check)
            elif readings and all(r["ran_out"] is not None and r["noticed"] is not None and r["late"] <= SLACK
                                  and not r["after"] and self._answered_a_move(o) for r, o in zip(readings, bad)):
                # read the clock in time, asked nothing after, then answered where it should raise (caught, or returned)
                name("answers-when-time-is-up", check.message, check)
        for check, bad in self._failing(facts, "no-move"):
            # only calls that ran to an end of their own say what the search answers with no move: the cases never
            # run, or cut short, after a search looped elsewhere named this mistake (the 130th helper's ivan)
            bad = [o for o in bad if "skipped" not in o.raw and not o.raw.get("timed_out")]
            if not bad:
                continue
            if "wrong-return-type" in codes and all(self._holds_no_move(o) for o in bad):
                continue  # the no-move answer is there, inside the wrong shape: one mistake, not two
            if codes & CLOCK_CODES and bad and all(BOARD_STOPPED in str(o.raw.get("raised") or "") for o in bad):
                continue  # it never answered: a search that never raises looped until the board stopped it
            name("no-legal-moves-root", check.message, check)
        searches_right = not any(self._failed(facts, kind) for kind in ("move", "scored", "expanded", "timeout"))
        for check, bad in self._failing(facts, "iterative") if searches_right else ():  # else the search explains it
            if bad and all("the last depth completed" in (hooks.check_iterative(o, None) or "") for o in bad):
                name("returns-interrupted-depth-move", check.message, check)
        for kind in ("scored", "expanded"):  # every failing case of the kind votes once, whichever check it fails
            failing = self._failing(facts, kind)
            bad = list({id(o): o for _, cases in failing for o in cases}.values())
            for code in self._search_codes(bad, kind) if failing else ():
                name(code, "; ".join(c.message for c, _ in failing), failing[0][0])
        if not codes:
            for check, bad in self._failing(facts, "move"):
                wrong = [o for o in bad if not o.raw.get("raised") and not o.raw.get("timed_out") and "skipped" not in o.raw]
                illegal = {self._illegal(o) for o in wrong}
                if wrong and illegal == {"illegal"}:
                    name("illegal-move", check.message, check)
                    continue
                if wrong and illegal == {"no-move"}:  # (-1, -1) where every move loses: the best move was never set
                    name("no-move-with-moves", check.message, check)
                    continue
                if wrong and all(self._swapped(o) for o in wrong):
                    name("min-max-swapped", f"{check.message}; every wrong move is a best move for the opponent", check)
        return found

    def _answered_a_move(self, outcome) -> bool:
        """An answer of the course's shape that is not the timeout raised."""
        answer, problem = self.hooks._answer(outcome)
        return problem is None and answer is not None and not self.hooks._timeout_answer(answer)

    def _wrong_shape(self, outcome) -> bool:
        answer = outcome.answer
        if outcome.did_not_answer(0.0) or answer is None or self.hooks._timeout_answer(answer):
            return False
        return self.hooks._move_of(answer, outcome.case.input["task"])[1] is not None

    def _holds_no_move(self, outcome) -> bool:
        answer = outcome.answer
        no_move = list(self.hooks.decl["no_move"])
        if answer is None or answer.kind not in ("list", "tuple"):
            return False
        return [i.value for i in answer.items] == no_move or any(
            item.kind in ("list", "tuple") and [i.value for i in item.items] == no_move for item in answer.items)

    def _illegal(self, outcome) -> str | None:
        """The answer's move as ``AgentHooks.illegal_kind`` reads it (None where it is not a move of the course's
        shape: the timeout raised, or another shape)."""
        move, problem = self.hooks._move_of(outcome.answer, outcome.case.input["task"])
        if problem is not None or self.hooks._timeout_answer(outcome.answer):
            return None
        return self.hooks.illegal_kind(outcome.case.input, move)

    def _swapped(self, outcome) -> bool:
        move, problem = self.hooks._move_of(outcome.answer, outcome.case.input["task"])
        if problem is not None:
            return False
        task = outcome.case.input["task"]
        # a search with its min and max swapped still searches: a plain minimax scores the very leaves a correct one
        # does, an alpha-beta some. An agent that scored nothing (the 130th helper's, returning its first legal move,
        # which happened to be the opponent's best in every position it got wrong) searched nothing to swap.
        scored = self.hooks.scored_of(outcome)[0]
        plain = task["search"] != "alphabeta" and task["kind"] != "bounds"
        if not scored or (plain and scored != self.hooks.variant(outcome.case.input)["scored"]):
            return False
        legal = len(self.hooks.legal_moves(outcome.case.input))
        for how in ("below", "all", "min"):
            found = self.hooks.variant(outcome.case.input, swapped=how)
            if len(found["moves"]) >= legal and task["returns"] != "(value, move)":
                continue  # every move is a best one there: a move alone says nothing (an agent returning its first)
            if move in found["moves"] and (task["returns"] != "(value, move)"
                                           or outcome.answer.items[0].equals_number(found["value"])):
                return True
        return False

    def _at_depth(self, outcome, depth, alphabeta=False, kind="scored") -> bool:
        """Whether the record is a correct search's at ``depth`` instead of the depth asked."""
        hooks, case_input = self.hooks, outcome.case.input
        if kind == "expanded":
            return hooks.expanded_of(outcome) == hooks.variant(case_input, depth)["expanded"]
        done = hooks.scored_of(outcome, depth)[0]
        if alphabeta:
            return done in hooks.alphabeta_sets({**case_input, "depth": depth}, hooks.order_of(outcome, depth))
        return done == hooks.variant(case_input, depth)["scored"]

    def _search_codes(self, bad, kind) -> list[str]:
        hooks = self.hooks
        votes: list[str | None] = []
        for outcome in bad:
            case_input = outcome.case.input
            if outcome.raw.get("raised") or outcome.raw.get("timed_out") or "skipped" in outcome.raw:
                continue
            done, seats = hooks.scored_of(outcome)
            if kind == "scored" and any(s != case_input["seat"] for s in seats):
                votes.append("scores-from-active-player")
                continue
            task = case_input["task"]
            alphabeta = task["search"] == "alphabeta" or task["kind"] == "bounds"
            if kind == "expanded":
                done = hooks.expanded_of(outcome)
            depth = case_input["depth"]
            off = [d for d in (depth - 1, depth + 1) if d >= 0]
            # past the depth limit by more than one move (one move deeper is depth-off-by-one, below): a search that
            # never stops there, which was named over-pruning because it missed the leaves at the limit (the 130th
            # helper's erin, who forgot the limit: 2,287 positions scored where a correct search scores 4)
            if max((len(path) for path in done), default=0) > depth + 1:  # (an expansion's path is the child's)
                votes.append("depth-not-decremented")
                continue
            if alphabeta and kind == "scored":
                order = hooks.order_of(outcome)
                wanted = hooks.alphabeta_sets(case_input, order)
                closest = min(wanted, key=lambda w: len(w ^ done))
                wrong_move = task["kind"] == "search" and hooks.verify(case_input, outcome.expected, outcome.answer)
                if task["kind"] == "bounds" and done in hooks.alphabeta_sets(case_input, order, (-float("inf"), float("inf"))):
                    votes.append("ignores-passed-bounds")
                elif any(self._at_depth(outcome, d, alphabeta=True) for d in off):
                    votes.append("depth-off-by-one")
                elif done != hooks.variant(case_input)["scored"] and any(
                        done in hooks.alphabeta_sets(case_input, order, fresh=how) for how in ("below-root", "all")):
                    votes.append("ignores-passed-bounds")  # (pruning nothing at all is under-pruning)
                elif any(done > w for w in wanted) and not wrong_move:
                    votes.append("under-pruning")  # looser bounds visit a superset of the leaves, and keep the move
                elif done and len(done) < len(closest) and done <= hooks.variant(case_input)["scored"]:
                    # a leaf alpha-beta needs was cut (the move may go wrong with it): fewer leaves than alpha-beta
                    # scores, every one a leaf of the search. Not a search that scored nothing (the helper's agent
                    # that returns its first move), nor one that scored more than alpha-beta, or other positions
                    # (its min and max swapped below the root): each was told it prunes too much
                    votes.append("over-pruning")
                else:
                    votes.append(None)
                continue
            if any(self._at_depth(outcome, d, kind=kind) for d in off):
                votes.append("depth-off-by-one")
            else:
                votes.append(None)
        named = [v for v in votes if v]
        if not named:
            return []
        top = max(set(named), key=named.count)
        return [top] if named.count(top) * 2 > len(votes) else []
