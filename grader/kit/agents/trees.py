"""The plain-data game tree of a game with several agents, and who moves where.

A state is ``{"name", "value", "end", "moves"}``: ``value`` is the evaluation function's value of
the state (``None`` where the game gives none: asking for it is an error, as in CS188's trees),
``end`` is ``"win"``, ``"lose"`` or ``None``, and ``moves`` lists ``[action, state]`` pairs in the
order ``getLegalActions`` gives them (a win or lose state has none). States are known by their
preorder number, which the sandbox driver and the grading process's oracle share.

Who moves is a matter of the search, not of the state: at ply ``p`` below the root agent
``p % agents`` is to move when every agent moves once per round. ``Roles`` says what each agent
does (``max``, ``min`` or ``chance``, with uniform or given probabilities) and how depth counts
(``rounds``: every agent once, CS188's unit; ``plies``: one move).
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("max", "min", "chance")
UNITS = ("rounds", "plies")


class TreeError(ValueError):
    """A tree or a role declaration that is not well formed (an author's mistake, one line)."""


@dataclass(frozen=True)
class Roles:
    """What every agent does. ``probabilities(state, agent)`` gives a chance agent's weights over the
    state's moves (None: uniform), ``depth_unit`` whether a unit of depth is a round or a ply."""

    roles: tuple[str, ...]
    depth_unit: str = "rounds"
    probabilities: object = None

    def __post_init__(self):
        if not self.roles or any(role not in ROLES for role in self.roles):
            raise TreeError(f"every agent is one of {', '.join(ROLES)}; got {list(self.roles)!r}")
        if self.depth_unit not in UNITS:
            raise TreeError(f"depth is counted in {' or '.join(UNITS)}, not {self.depth_unit!r}")

    @property
    def agents(self) -> int:
        return len(self.roles)

    def weights(self, state, agent) -> list[float]:
        moves = state["moves"]
        if self.probabilities is None:
            return [1 / len(moves)] * len(moves)
        given = list(self.probabilities(state, agent))
        if len(given) != len(moves) or any(p < 0 for p in given) or abs(sum(given) - 1) > 1e-9:
            raise TreeError(f"the chance agent's probabilities at {state['name']} do not fit its {len(moves)} moves")
        return given


def pacman(agents: int, ghosts: str = "min") -> Roles:
    """CS188's roles: agent 0 maximises, every ghost minimises (or is a uniform chance agent)."""
    return Roles(("max",) + (ghosts,) * (agents - 1))


def preorder(tree) -> list:
    """Every state in preorder: the numbering the driver and the oracle share."""
    out, stack = [], [tree]
    while stack:
        state = stack.pop()
        out.append(state)
        stack.extend(child for _, child in reversed(state["moves"]))
    return out


def index_of(tree) -> dict[int, int]:
    """id(state) -> its preorder number."""
    return {id(state): i for i, state in enumerate(preorder(tree))}


def check(tree) -> None:
    """A well-formed tree: names, ends, values, actions distinct within a state, end states without moves."""
    for state in preorder(tree):
        if type(state.get("name")) is not str or state.get("end") not in (None, "win", "lose"):
            raise TreeError(f"a state needs a name and an end of win, lose or none: {state.get('name')!r}")
        actions = [action for action, _ in state["moves"]]
        if len(set(actions)) != len(actions) or any(type(a) is not str for a in actions):
            raise TreeError(f"the actions at {state['name']} must be distinct strings")
        if state["end"] and actions:
            raise TreeError(f"{state['name']} is a {state['end']} state and has moves")


def height(state) -> int:
    return 1 + max((height(child) for _, child in state["moves"]), default=-1)


def size(tree) -> int:
    return len(preorder(tree))


def from_successors(start: str, successors, win=(), lose=(), evaluation=None) -> dict:
    """A tree from a list of ``(state, action, next state)`` lines, the way graph game trees are written
    down (CS188's test trees among them): the actions of a state in the order of its lines."""
    evaluation = evaluation or {}
    moves: dict[str, list] = {}
    for parent, action, child in successors:
        moves.setdefault(parent, []).append((action, child))
    seen = set()

    def make(name):
        if name in seen:
            raise TreeError(f"{name} is reached twice: a game tree, not a graph, is expected")
        seen.add(name)
        end = "win" if name in win else "lose" if name in lose else None
        return {"name": name, "value": evaluation.get(name), "end": end,
                "moves": [[action, make(child)] for action, child in moves.get(name, ())]}

    tree = make(start)
    check(tree)
    return tree
