"""An object-route exercise as a class tournament sees it: the game, a student's move, the baselines.

A tournament (``grader.tournament``) plays games between players from plain data; for an exercise
declared through the object route (``[agent]``) this is what it asks the exercise for, generic over
any rules module the route accepts (nothing here knows the game):

- ``game``: the rules under the names the tournament's referee uses (``actions``, ``result``,
  ``to_move``, ``utility`` as +1 / -1 / 0 from MAX's view, MAX being seat 0, ``encode``,
  ``move_data``, ``cells`` for the replay's drawing);
- ``case(state)``: one move asked of a student's agent, a case of the grading driver: the agent class
  constructed as ``[agent.constructor]`` says (its own score function, e.g. ``custom_score``), its
  method (``get_move(game, time_left)``) called on the grader's board with a virtual clock of
  ``budget`` ticks (one per expansion, score, utility or clock read: every one a question the
  grading process answers and counts, ``agent_oracle``);
- ``oracle(case)``: the grading process's side of that move, refusing every question past the budget;
- ``move(answer, state)``: the answered move as an action of the game, or why it is none;
- ``baseline(spec, state, rng)``: the declared baselines (random, greedy on a named score, the
  references minimax and alpha-beta at a fixed depth on a named score), trusted, in this process.
"""

from __future__ import annotations

from grader.kit.agent_oracle import AgentOracle
from grader.kit.agent_search import AgentSearch
from grader.kit.errors import DeclarationError
from grader.vocabulary.answers import Answer

OVER_BUDGET = "the move's budget is spent"
TABLE_KEYS = ("class", "method", "arguments", "score_function", "constants")


class ArenaGame:
    """The rules with the referee's names; MAX is seat 0 (the player who moves first)."""

    max_player = 0
    has_evaluate = False

    def __init__(self, rules):
        self.rules = rules
        self.starts = list(rules.start_positions())

    def actions(self, state):
        return list(self.rules.moves_for(state, self.rules.to_move(state)))

    def result(self, state, action):
        return self.rules.result(state, action)

    def to_move(self, state):
        return self.rules.to_move(state)

    def is_terminal(self, state) -> bool:
        return not self.actions(state)

    def utility(self, state, player) -> float:
        value = self.rules.utility(state, player)
        return 1.0 if value > 0 else -1.0 if value < 0 else 0.0  # the rules may say +-inf; a record holds JSON

    def encode(self, state):
        return self.rules.encode(state)

    def decode(self, data):
        return self.rules.decode(data)

    @staticmethod
    def move_data(action):
        return list(action)

    def render(self, state) -> str:
        return self.rules.render(state)

    def cells(self, state) -> list:
        return [list(row) for row in self.rules.cells(state)]


class Counted:
    """The oracle of one move: every tick of the virtual clock counted, every question past the budget refused."""

    def __init__(self, inner: AgentOracle, budget: int):
        self.inner = inner
        self.budget = budget
        self.refused = 0

    def ask(self, message):
        if type(message) is list and message and message[0] in ("x", "e", "u", "t") and self.inner.ticks >= self.budget:
            self.refused += 1
            return {"error": f"{OVER_BUDGET}: {self.budget} calls on the clock"}
        return self.inner.ask(message)

    def tell(self, message):
        return self.inner.tell(message)

    @property
    def asked(self) -> int:
        """Ticks used; one more than the budget once a question past it was refused."""
        return self.inner.ticks + min(self.refused, 1)

    def trace(self) -> dict:
        return {"asked": self.asked}


class AgentArena:
    """The tournament's view of an ``AgentHooks`` (its rules, its declaration, its driver) and a ``[tournament]`` table."""

    unit = "calls on the clock"

    def __init__(self, hooks, table: dict):
        self.hooks = hooks
        self.rules = hooks.rules
        self.game = ArenaGame(hooks.rules)
        decl = hooks.decl
        player = {key: table[key] for key in TABLE_KEYS if key in table}
        known = [t for t in decl["tasks"] if t["kind"] == "game"]
        model = known[0] if known else {}
        arguments = [str(a) for a in player.get("arguments", model.get("arguments", ["game", "time_left"]))]
        if "time_left" not in arguments:
            raise DeclarationError(f"[tournament] arguments = {arguments!r}: the agent's move needs its clock, time_left")
        constants = player.get("constants", model.get("constants", {}))
        if not isinstance(constants, dict) or not all(type(v) in (bool, int, float, str) for v in constants.values()):
            raise DeclarationError("[tournament] constants = {keyword = value}, each value a bool, number or string")
        self.task = {"group": "tournament", "kind": "move", "class": str(player.get("class", model.get("class", ""))),
                     "method": str(player.get("method", model.get("method", "get_move"))), "arguments": arguments,
                     "constructor": decl["constructor"], "constants": dict(constants), "threshold": decl["threshold"],
                     "timeout_exception": decl["timeout_exception"], "score": None,
                     "own_score": str(player.get("score_function", model.get("own_score", "custom_score")))}
        if not self.task["class"]:
            raise DeclarationError("[tournament] class = \"...\": the agent class every student's move comes from")

    # -- a student's move -------------------------------------------------------------------------

    def driver_path(self):
        return self.hooks.driver_path()

    def loading_oracle(self) -> AgentOracle:
        return AgentOracle(self.rules)

    def case(self, state, depth: int | None, budget: int) -> dict:
        found = {"task": self.task, "state": self.rules.encode(state), "seat": self.rules.to_move(state),
                 "clock": float(budget)}
        if depth is not None:
            found["depth"] = depth
        return found

    def oracle(self, case_input: dict, budget: int) -> Counted:
        return Counted(AgentOracle(self.rules, case_input), budget)

    def move(self, answer: Answer, state):
        """(action, None) or (None, why the answer is no move of this position)."""
        if answer.kind == "dict" and answer.items and answer.items[0][0] == "raised":
            return None, f"let {self.task['timeout_exception']} out of {self.task['method']}"
        if (answer.kind not in ("tuple", "list") or len(answer.items) != 2
                or any(item.kind != "int" for item in answer.items)):
            return None, f"answered {answer.describe()[:80]}, not a move (a pair of ints)"
        key = (answer.items[0].value, answer.items[1].value)
        if key not in self.game.actions(state):
            return None, f"illegal move ({key[0]}, {key[1]})"
        return key, None

    # -- the baselines ----------------------------------------------------------------------------

    def scores(self) -> list[str]:
        return sorted(self.rules.SCORES)

    def baseline(self, spec: dict, state, rng):
        """(action, positions scored) of a declared baseline in ``state``."""
        actions = self.game.actions(state)
        kind, seat = spec["kind"], self.rules.to_move(state)
        if kind == "random":
            return actions[rng.randrange(len(actions))], 0
        search = AgentSearch(self.rules, spec.get("score") or "improved")
        if kind == "greedy":
            values = [search.score(self.rules.result(state, a), seat) for a in actions]
            return actions[values.index(max(values))], len(actions)
        depth = spec["depth"]  # declared: a search to the end of the game is the function route's alone
        _, best, _, scored = search.minimax(state, depth, seat)
        if kind == "alphabeta":
            scored = search.alphabeta(state, depth, seat, {})[1]
        return (best[0] if best else actions[0]), len(scored)
