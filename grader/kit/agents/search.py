"""Minimax, alpha-beta and expectimax over a tree of several agents, and their mistakes.

One search, written the way a CS188 student writes it (a depth counter that moves on after the last
agent, the agent index that wraps round to Pacman), with every known mistake an option turned
(``Options``): the reference is the search with every option at its default. What it returns
(``Result``) is everything a check or a report needs: the action (the first best in the order of
``getLegalActions``, a later move only on a strict improvement), every optimal action, the value,
the states generated (``generateSuccessor``'s results, in order: CS188's "expanded" set is these
plus the start state) and the states evaluated, each state's value and the agent moving there.

Alpha-beta follows CS188: moves in the order given, a cut only on a strict inequality
(``v > beta`` at a maximiser, ``v < alpha`` at a minimiser), the bounds handed from every agent to
the next, the root's alpha raised after each of its moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from grader.kit.agents.trees import Roles, TreeError, index_of

TOLERANCE = 1e-9


@dataclass(frozen=True)
class Options:
    """What the search does; the defaults are right, anything else is a mistake family.

    ``depth_unit``: None (the game's) or ``"plies"`` (the depth counter moves on after every agent);
    ``root_counts``: False when the counter starts at Pacman's successors (it moves on from the first ghost);
    ``next_agent``: ``"all"`` or ``"first-ghost"`` (after the first ghost it is Pacman again);
    ``ghost_index``: ``"own"`` or ``"first"`` (every ghost's move is asked for with agent index 1);
    ``ghost_role``: None or a role every ghost plays instead of its own;
    ``terminal_check``: True, ``"infinity"`` (win and lose states above the horizon are searched: no
    moves, the starting value comes back) or ``"raises"`` (``max`` of no values);
    ``extra_rounds``: units searched beyond the depth; ``prune_equal``: cut on equality too (``"max"`` or
    ``"min"``: only at that role's states);
    ``bounds``: ``"carried"``, ``"reset"`` (a ghost hands the next ghost fresh infinite bounds),
    ``"beta-reset"`` (a ghost hands the next ghost its alpha and an infinite beta) or
    ``"stale"`` (a ghost hands on the bounds it was given, not the ones it tightened);
    ``root_alpha``: whether the root raises alpha after each move;
    ``chance``: ``"mean"``, ``"min"``, ``"sum"`` (no division), ``"num-agents"`` (divided by the number
    of agents), ``"plus-one"`` (divided by one more than the number of moves).
    """

    depth_unit: str | None = None
    root_counts: bool = True
    next_agent: str = "all"
    ghost_index: str = "own"
    ghost_role: str | None = None
    terminal_check: object = True
    extra_rounds: int = 0
    prune_equal: object = False
    bounds: str = "carried"
    root_alpha: bool = True
    chance: str = "mean"


RIGHT = Options()


class Raised(Exception):
    """What the searched code would raise (a mistake's prediction, or a state without a value)."""


@dataclass
class Result:
    action: str | None
    best: tuple[str, ...]
    value: float | None
    root_values: list = field(default_factory=list)
    generated: list[int] = field(default_factory=list)
    evaluated: list[int] = field(default_factory=list)
    values: dict[int, float] = field(default_factory=dict)
    agent_at: dict[int, int] = field(default_factory=dict)
    passed_at: dict[int, int] = field(default_factory=dict)  # the agent index generateSuccessor is called with
    raised: str | None = None

    @property
    def expanded(self) -> list[int]:
        """CS188's expanded set: the start state and every state generated, sorted by number."""
        return sorted({0, *self.generated})


def search(tree, roles: Roles, depth: int, prune: bool = False, options: Options = RIGHT) -> Result:
    """Pacman's (agent 0's) decision at ``tree``'s root, searched ``depth`` units deep."""
    if prune and "chance" in roles.roles and options.ghost_role != "max" and options.ghost_role != "min":
        raise TreeError("alpha-beta searches maximisers and minimisers only")
    return _Search(tree, roles, depth, prune, options).run()


class _Search:
    def __init__(self, tree, roles, depth, prune, options):
        self.tree, self.roles, self.prune, self.o = tree, roles, prune, options
        self.number = index_of(tree)
        self.unit = options.depth_unit or roles.depth_unit
        self.stop = depth + options.extra_rounds
        self.result = Result(None, (), None)

    # -- the pieces a student writes -------------------------------------------------------

    def role(self, agent):
        if agent and self.o.ghost_role:
            return self.o.ghost_role
        return self.roles.roles[agent]

    def next_of(self, agent, d):
        n = self.roles.agents
        following = (1 if agent == 0 and n > 1 else 0) if self.o.next_agent == "first-ghost" else (agent + 1) % n
        return following, d + (1 if self.unit == "plies" or following == 0 else 0)

    def generate(self, state, action_index):
        child = state["moves"][action_index][1]
        self.result.generated.append(self.number[id(child)])
        return child

    def evaluate(self, state):
        number = self.number[id(state)]
        self.result.evaluated.append(number)
        if state["value"] is None:
            raise Raised(f"the evaluation was asked for {state['name']}, which has none")
        return state["value"]

    # -- the search ------------------------------------------------------------------------

    def run(self) -> Result:
        out = self.result
        try:
            self._root()
        except Raised as exc:
            out.raised = str(exc)
        return out

    def _root(self):
        out, root = self.result, self.tree
        out.agent_at[0] = out.passed_at[0] = 0
        if not root["moves"]:
            raise Raised("Pacman has no legal action at the start state")
        alpha, values = -math.inf, []
        following, d = self.next_of(0, 0)
        if not self.o.root_counts:
            d = 0
        for i in range(len(root["moves"])):
            child = self.generate(root, i)
            value = self.value(child, following, d, alpha, math.inf)
            values.append(value)
            if self.prune and self.o.root_alpha:
                alpha = max(alpha, value)
        top = max(values)
        out.root_values = values
        out.value = top
        out.values[0] = top
        out.best = tuple(a for (a, _), v in zip(root["moves"], values) if _close(v, top))
        if top == -math.inf:  # every action lost (only a mistake gets here): a search keeping "> best so far" has none
            out.best += (None,)
        out.action = root["moves"][values.index(top)][0]

    def value(self, state, agent, d, alpha, beta):
        number = self.number[id(state)]
        self.result.agent_at[number] = agent
        self.result.passed_at[number] = 1 if agent and self.o.ghost_index == "first" else agent
        found = self._value(state, agent, d, alpha, beta)
        self.result.values[number] = found
        return found

    def _value(self, state, agent, d, alpha, beta):
        if state["end"] and self.o.terminal_check is True:
            return self.evaluate(state)
        if d >= self.stop:
            return self.evaluate(state)
        moves = state["moves"]
        role = self.role(agent)
        if not moves:
            if not state["end"]:
                return self.evaluate(state)  # a state without moves that is no end: its evaluation
            if self.o.terminal_check == "raises" or role == "chance":
                raise Raised(f"no legal actions at the {state['end']} state {state['name']}")
            return -math.inf if role == "max" else math.inf
        following, nd = self.next_of(agent, d)
        if role == "chance":
            return self._chance(state, agent, following, nd, alpha, beta)
        best = -math.inf if role == "max" else math.inf
        a, b = alpha, beta
        for i in range(len(moves)):
            child = self.generate(state, i)
            passed = (a, b)
            if self.prune and agent and self.o.bounds == "stale":
                passed = (alpha, beta)
            if self.prune and agent and following and self.o.bounds == "reset":
                passed = (-math.inf, math.inf)
            if self.prune and agent and following and self.o.bounds == "beta-reset":
                passed = (a, math.inf)
            v = self.value(child, following, nd, *passed)
            if role == "max":
                best = max(best, v)
                if self.prune:
                    if best > b or self.o.prune_equal in (True, "max") and best == b:
                        return best
                    a = max(a, best)
            else:
                best = min(best, v)
                if self.prune:
                    if best < a or self.o.prune_equal in (True, "min") and best == a:
                        return best
                    b = min(b, best)
        return best

    def _chance(self, state, agent, following, nd, alpha, beta):
        values = [self.value(self.generate(state, i), following, nd, alpha, beta) for i in range(len(state["moves"]))]
        how = self.o.chance
        if how == "min":
            return min(values)
        if how == "sum":
            return sum(values)
        if how == "num-agents":
            return sum(values) / self.roles.agents
        if how == "plus-one":
            return sum(values) / (len(values) + 1)
        weights = self.roles.weights(state, agent)
        return sum(w * v for w, v in zip(weights, values))


def _close(a, b) -> bool:
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def with_options(options: Options, **changes) -> Options:
    return replace(options, **changes)
