"""The mistakes of multi-agent search, each a family of the reference with one option turned.

A family is (code, variant, searches, options): ``searches`` says which of the three agents it can
be a mistake of (``minimax``, ``alphabeta``, ``expectimax``), ``options`` how the search differs
(``grader.kit.agents.search.Options``). ``returns-value-not-action`` is no search of its own: the
answer's type says it (see ``value_instead_of_action``).
"""

from __future__ import annotations

from dataclasses import dataclass

from grader.kit.agents.search import Options

SEARCHES = ("minimax", "alphabeta", "expectimax")
ALL, PRUNING, CHANCE = SEARCHES, ("alphabeta",), ("expectimax",)


@dataclass(frozen=True)
class Family:
    code: str
    variant: str
    searches: tuple[str, ...]
    options: Options


FAMILIES = (
    Family("depth-counts-agents-not-rounds", "plies", ALL, Options(depth_unit="plies")),
    Family("depth-counts-agents-not-rounds", "plies-after-root", ALL, Options(depth_unit="plies", root_counts=False)),
    Family("only-first-ghost", "first-ghost", ALL, Options(next_agent="first-ghost")),
    Family("only-first-ghost", "index-one", ALL, Options(ghost_index="first")),
    Family("ghosts-maximise", "max", ("minimax", "alphabeta"), Options(ghost_role="max")),
    Family("missing-terminal-check", "infinity", ALL, Options(terminal_check="infinity")),
    Family("missing-terminal-check", "raises", ALL, Options(terminal_check="raises")),
    Family("one-round-too-deep", "plus-one", ALL, Options(extra_rounds=1)),
    Family("prunes-on-equality", "equal", PRUNING, Options(prune_equal=True)),
    Family("prunes-on-equality", "max", PRUNING, Options(prune_equal="max")),
    Family("prunes-on-equality", "min", PRUNING, Options(prune_equal="min")),
    Family("bounds-not-carried", "stale", PRUNING, Options(bounds="stale")),
    Family("bounds-not-carried", "reset", PRUNING, Options(bounds="reset")),
    Family("bounds-not-carried", "beta-reset", PRUNING, Options(bounds="beta-reset")),
    Family("alpha-not-updated-at-root", "root", PRUNING, Options(root_alpha=False)),
    Family("expectimax-takes-minimum", "min", CHANCE, Options(chance="min")),
    Family("expectimax-wrong-divisor", "sum", CHANCE, Options(chance="sum")),
    Family("expectimax-wrong-divisor", "num-agents", CHANCE, Options(chance="num-agents")),
    Family("expectimax-wrong-divisor", "plus-one", CHANCE, Options(chance="plus-one")),
)

RETURNS_VALUE = "returns-value-not-action"
CODES = tuple(dict.fromkeys([f.code for f in FAMILIES] + [RETURNS_VALUE]))


def of_search(search: str) -> list[Family]:
    return [family for family in FAMILIES if search in family.searches]


def value_instead_of_action(answer) -> bool:
    """A number where an action is due (the root's value or a value of the student's own making), or a
    list of numbers only: no action at all came back, a value did."""
    if type(answer) in (list, tuple) and answer:
        return all(type(part) in (int, float) for part in answer)
    return type(answer) in (int, float)
