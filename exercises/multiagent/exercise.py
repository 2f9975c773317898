"""Grader side of multiagent: trees of several agents, the oracle that answers the child, the checks.

A case is a game tree (``grader.kit.agents.trees``: named states, actions in order, win and lose
states, every state's evaluation), a number of agents and a depth in rounds. The child gets only
the start state's actions (``child_input``); ``AgentsOracle`` answers every ``generateSuccessor``
and every evaluation and logs them per agent class: the expanded-state checks compare that log
with the reference search's (``reference/multiagent.py``). Each class has its own two checks, the
action and the expanded set, so a submission that gets one agent right gets its points.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from grader.kit.agents import trees
from grader.kit.by_identity import ByIdentity

CLASSES = ("MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent")
TRACE_CAP = 20000
HERE = Path(__file__).resolve()


def fingerprint_files(exercise) -> list[Path]:
    """The kit's agents modules shape the references and the verdicts: the fingerprint follows them."""
    folder = Path(trees.__file__).resolve().parent
    return sorted(folder.glob("*.py"))


# -- what the child is told, and what the grading process answers ----------------------------

def child_input(case_input) -> dict:
    """The start state's actions and end, the number of agents, the depth: nothing of the tree below."""
    root = case_input["tree"]
    out = {"root": {"actions": [a for a, _ in root["moves"]], "end": root["end"]},
           "agents": case_input["agents"], "depth": case_input["depth"]}
    if case_input.get("classes"):
        out["classes"] = list(case_input["classes"])
    return out


_SHAPES = ByIdentity(4096)


def _states(tree) -> list:
    return _SHAPES.get(tree, lambda: trees.preorder(tree))


class AgentsOracle:
    """The grading process's side of one case: it holds the tree, answers the child's questions
    about it, and logs them per agent class.

    Which class a question belongs to is decided here, never told by the child: the child knows a
    state only by a handle this oracle issued, and every handle belongs to one class (the i-th
    class's start state is handle i; a successor's handle belongs to the class of the state it was
    generated from). Every class of the case has its log from the start, so a class that answered
    without asking anything is judged on an empty log, never on none. The classes search in order:
    once a class's start state is asked about, the handles of the classes before it are refused (a
    state kept from an earlier class's search is not this one's). Anything not handed out is
    answered with an error the child raises; the child sends no notes, so any note is tampering."""

    def __init__(self, case_input):
        self.tree = case_input["tree"]
        self.states = _states(self.tree)
        self.number = {id(s): i for i, s in enumerate(self.states)}
        self.classes = tuple(case_input.get("classes") or CLASSES)
        self.logs: dict[str, dict] = {name: {"generated": [], "evaluated": [], "movers": []} for name in self.classes}
        self.issued: list[tuple[int, int]] = [(cls, 0) for cls in range(len(self.classes))]  # handle -> (class, state)
        self.handle_of = {pair: handle for handle, pair in enumerate(self.issued)}
        self.searching = 0  # the latest class whose states were asked about
        self.count = 0
        self.truncated = False

    def tell(self, message):
        raise ValueError("the multiagent driver sends no notes")

    def _state(self, handle) -> tuple[int, int] | None:
        """(class, state number) of a handle this oracle issued to a class whose search is not over."""
        if type(handle) is not int or not 0 <= handle < len(self.issued):
            return None
        cls, number = self.issued[handle]
        if cls < self.searching:
            return None
        self.searching = cls
        return cls, number

    def ask(self, message):
        if type(message) is not list or not message or message[0] not in ("v", "s"):
            raise ValueError("not a question of the multiagent driver")
        self.count += 1
        if self.count > TRACE_CAP:
            self.truncated = True
            return {"error": f"more than {TRACE_CAP} questions in one case"}
        if message[0] == "v" and len(message) == 2:
            found = self._state(message[1])
            if found is None:
                return {"error": "not a state of this game"}
            cls, number = found
            self.logs[self.classes[cls]]["evaluated"].append(number)
            state = self.states[number]
            if state["value"] is None:
                return {"error": f"the evaluation function has no value for {state['name']}"}
            return state["value"]
        if message[0] == "s" and len(message) == 4:
            _, handle, agent, position = message
            if type(position) is not int or type(agent) is not int:
                return {"error": "not a state of this game"}
            found = self._state(handle)
            if found is None or not 0 <= position < len(self.states[found[1]]["moves"]):
                return {"error": "not a state of this game"}
            cls, number = found
            child = self.states[number]["moves"][position][1]
            reached = self.number[id(child)]
            given = self.handle_of.get((cls, reached))
            if given is None:
                given = self.handle_of[(cls, reached)] = len(self.issued)
                self.issued.append((cls, reached))
            log = self.logs[self.classes[cls]]
            log["generated"].append(reached)
            log["movers"].append([number, agent])
            return [given, [a for a, _ in child["moves"]], child["end"]]
        raise ValueError("not a question of the multiagent driver")

    def trace(self) -> dict:
        out = {"searches": self.logs}
        if self.truncated:
            out["truncated"] = True
        return out


def oracle(case_input) -> AgentsOracle:
    return AgentsOracle(case_input)


# -- cases -----------------------------------------------------------------------------------

def load_tree(data) -> dict:
    """A fixture's tree, written as successor lines (``[state, action, next]``), win and lose states
    and every state's evaluation."""
    return trees.from_successors(data["start"], data["successors"], data.get("win", ()), data.get("lose", ()),
                                 data.get("evaluation", {}))


def fixture_cases(folder: Path):
    cases = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        tree = load_tree(data)
        for depth in data["depths"]:
            # Down to a round past the limit every state has moves or ends, so a search one round too deep
            # evaluates (as a correct one does at the limit) rather than meeting a state that just stops.
            unfinished = _dead_ends(tree, data["agents"] * (depth + 1))
            if unfinished:
                raise trees.TreeError(f"{path.name}: {unfinished} has no moves within a round past the depth limit "
                                      f"{depth} and is no win or lose state")
            case_input = {"tree": tree, "agents": data["agents"], "depth": depth}
            cases.append({"id": f"{path.stem}/depth-{depth}", "group": "published" if data.get("published") else "fixtures",
                          "input": case_input, "title": data["title"]})
    return cases


def _dead_ends(tree, horizon, ply=0):
    """The first state above the horizon with no moves that is not a win or lose state (CS188's trees have none)."""
    if ply < horizon and not tree["moves"] and not tree["end"]:
        return tree["name"]
    return next((found for _, child in tree["moves"] if (found := _dead_ends(child, horizon, ply + 1))), None)


ACTIONS = ("Left", "Center", "Right", "Stop")
MAX_STATES = 36


def strategy():
    """Random trees with 2 to 4 agents, depth 1 or 2 rounds, down to one round past the horizon (so a
    search one round too deep shows), win and lose states above it, values small ints or quarters. Every
    state above the end of that extra round has moves or is a win or lose state."""
    from hypothesis import strategies as st

    # Mostly small integers, so values tie often (a cut on equality shows only on ties), some quarters.
    values = st.one_of(st.integers(-4, 4), st.integers(-4, 4), st.integers(-12, 12), st.integers(-40, 40).map(lambda q: q / 4))

    @st.composite
    def cases(draw):
        agents = draw(st.integers(2, 4))
        depth = draw(st.integers(1, 2))
        horizon = depth * agents
        budget = [draw(st.integers(4, MAX_STATES))]
        counters: dict[int, int] = {}

        def name(ply):
            counters[ply] = counters.get(ply, 0) + 1
            letter = chr(ord("a") + ply) if ply < 26 else f"z{ply}"
            return letter if ply == 0 else f"{letter}{counters[ply]}"

        def state(ply):
            budget[0] -= 1
            node = {"name": name(ply), "value": draw(values), "end": None, "moves": []}
            if ply > 0 and ply < horizon and draw(st.integers(0, 7)) == 0:
                node["end"] = draw(st.sampled_from(["win", "lose"]))
                return node
            if ply < horizon + agents and budget[0] > 0:
                wanted = draw(st.integers(1, 3)) if ply < horizon else draw(st.integers(1, 2))
                for action in ACTIONS[:wanted]:
                    if budget[0] <= 0:
                        break
                    node["moves"].append([action, state(ply + 1)])
            if not node["moves"] and ply < horizon + agents:  # the budget ran out: the game ends here
                node["end"] = draw(st.sampled_from(["win", "lose"]))
            return node

        tree = state(0)
        if not tree["moves"]:
            tree["moves"].append(["Left", {"name": "b1", "value": draw(values), "end": "win", "moves": []}])
        return {"tree": tree, "agents": agents, "depth": depth}

    return cases()


# -- the reference and the checks ------------------------------------------------------------

def reference(case_input, module):
    return module.expected(case_input)


KINDS = ("answer", "raised", "missing")
UNREADABLE = ("the answers did not come back as the grader's driver sends them (one item per agent class): a "
              "getAction returned something too large to read, or the submission changed the driver's list")


def _parts(outcome) -> dict | None:
    """What each class answered: name -> ("answer", value) | ("raised", text) | ("missing", name).

    None unless the answer is exactly what the driver sends, one well-formed item per class of the
    case in order: a submission that reaches into the driver and drops, adds or reshapes items
    gets no class judged on what is left (every class fails), never a class judged on nothing."""
    answer = outcome.answer
    if answer is None or answer.kind != "list":
        return None
    classes = outcome.case.input.get("classes") or CLASSES
    if len(answer.items) != len(classes):
        return None
    out = {}
    for name, item in zip(classes, answer.items):
        if item.kind != "list" or len(item.items) != 2 or item.items[0].kind != "str" or item.items[0].value not in KINDS:
            return None
        kind, payload = item.items[0].value, item.items[1]
        if kind == "missing" and (payload.kind != "str" or payload.value != name):
            return None
        if kind == "raised" and payload.kind != "str":
            return None
        out[name] = (kind, payload)
    return out


def _no_answer(outcome, timeout) -> str | None:
    return outcome.did_not_answer(timeout)


def action_problem(case_input, expected, kind, payload) -> str | None:
    """What is wrong with one class's answer (an ``Answer``), or None."""
    want = expected["best"]
    shown = repr(want[0]) if len(want) == 1 else " or ".join(map(repr, want))
    if kind == "missing":
        return f"the submission defines no class {payload.value}"
    if kind == "raised":
        return f"getAction raised {payload.value}, expected {shown}"
    if payload.kind == "str" and payload.value in want:
        return None
    if payload.is_number or payload.kind in ("list", "tuple") and payload.items and all(i.is_number for i in payload.items):
        return f"returned {payload.text}, a value where an action is due; expected {shown}"
    return f"returned {payload.text if payload.kind == 'str' else payload.show()}, expected {shown}"


def check_action(outcome, spec):
    name = spec.params["agent"]
    problem = _no_answer(outcome, 2.0)
    if problem:
        return problem
    parts = _parts(outcome)
    if parts is None:
        return UNREADABLE
    if name not in (outcome.case.input.get("classes") or CLASSES):
        return None  # a case for other classes only
    expected = outcome.expected[name]
    if expected["raised"]:
        return None  # the reference itself cannot search this tree (a state without a value): no verdict
    return action_problem(outcome.case.input, expected, *parts[name])


def student_log(outcome, name) -> dict | None:
    trace = outcome.raw.get("trace") or {}
    return (trace.get("searches") or {}).get(name)


def expanded_of(log) -> set[int]:
    return {0, *[g for g in log.get("generated", []) if type(g) is int]}


def names_of(case_input, numbers, limit=8) -> str:
    states = _states(case_input["tree"])
    shown = [states[i]["name"] for i in sorted(numbers)[:limit]]
    more = len(numbers) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def expanded_problem(case_input, expected, log) -> str | None:
    if log is None:  # never for a class of the case (the oracle logs each from the start): no evidence, no pass
        return "the grader has no record of this search's questions"
    mine, want = expanded_of(log), set(expected["expanded"])
    extra, missing = mine - want, want - mine
    if not extra and not missing:
        return None
    said = []
    if extra:
        said.append(f"generated {names_of(case_input, extra)}, which the search must not expand")
    if missing:
        said.append(f"never generated {names_of(case_input, missing)}, which it must")
    return "; ".join(said)


_PLIES = ByIdentity(4096)


def plies(tree) -> list[int]:
    """Each state's depth in moves below the start state, in preorder."""

    def walk():
        out, stack = [], [(tree, 0)]
        while stack:
            state, ply = stack.pop()
            out.append(ply)
            stack.extend((child, ply + 1) for _, child in reversed(state["moves"]))
        return out

    return _PLIES.get(tree, walk)


def wrong_movers(case_input, log) -> list[tuple[int, object, int]]:
    """Where generateSuccessor was called with another agent than the one to move: (state, passed, due)."""
    depth, n = plies(case_input["tree"]), case_input["agents"]
    return [(number, agent, depth[number] % n) for number, agent in log.get("movers", [])
            if type(number) is int and 0 <= number < len(depth) and agent != depth[number] % n]


def movers_problem(case_input, log) -> str | None:
    wrong = wrong_movers(case_input, log) if log else []
    if not wrong:
        return None
    number, passed, due = wrong[0]
    name = _states(case_input["tree"])[number]["name"]
    return (f"at {name} it is {agent_name(due)} who moves, but your code called generateSuccessor({passed}, ...)"
            + (f" (and {len(wrong) - 1} more such calls)" if len(wrong) > 1 else ""))


def check_expanded(outcome, spec):
    name = spec.params["agent"]
    if "skipped" in outcome.raw or outcome.raw.get("timed_out") or outcome.raw.get("raised"):
        return None
    parts = _parts(outcome)
    if parts is None:
        return UNREADABLE
    if name not in parts or parts[name][0] != "answer" or outcome.expected[name]["raised"]:
        return None  # a case for other classes, or the action check already says what went wrong
    if (outcome.raw.get("trace") or {}).get("truncated"):
        return "asked the grader more questions than the tree has states, many times over"
    log = student_log(outcome, name)
    return expanded_problem(outcome.case.input, outcome.expected[name], log) or movers_problem(outcome.case.input, log)


def verify(case_input, expected, answer):
    """Any class's action wrong (the diagnosis asks this of every reply)."""
    if answer is None or answer.kind != "list":
        return f"returned {answer.show() if answer is not None else None}"
    classes = case_input.get("classes") or CLASSES
    for name, item in zip(classes, answer.items):
        if item.kind != "list" or len(item.items) != 2 or expected[name]["raised"]:
            continue
        problem = action_problem(case_input, expected[name], item.items[0].value, item.items[1])
        if problem:
            return f"{name}: {problem}"
    return None


def show_expected(case_input, expected):
    if not isinstance(expected, dict):
        return expected
    return "; ".join(f"{name} {' or '.join(map(repr, e['best']))}" for name, e in expected.items())


def show_answer(answer):
    if answer.kind != "list":
        return answer.show()
    shown = []
    for name, item in zip(CLASSES, answer.items):
        if item.kind == "list" and len(item.items) == 2:
            kind, payload = item.items[0].value, item.items[1]
            shown.append(f"{name} {payload.text}" if kind == "answer" else f"{name} {kind}" if kind == "missing"
                         else f"{name} raised {payload.value}")
    return "; ".join(shown)


# -- words and pictures ----------------------------------------------------------------------

def agent_name(agent: int) -> str:
    return "Pacman (agent 0)" if agent == 0 else f"ghost {agent} (agent {agent})"


def call_text(case_input) -> str:
    n, d = case_input["agents"], case_input["depth"]
    ghosts = "1 ghost" if n == 2 else f"{n - 1} ghosts"
    return f"getAction(start state {case_input['tree']['name']}) with depth={d}, Pacman and {ghosts}"


def size(case_input) -> int:
    return len(_states(case_input["tree"]))


def picture(case_input, marks: dict | None = None, trim: bool = False) -> str:
    """The tree as text: each state's name, the action leading to it, the agent to move there (each
    level's agent), win and lose states, the evaluation where the search uses it, the horizon.
    ``marks``: state number -> a short note written after it (an expansion added or skipped); ``trim``
    leaves out what lies beyond the depth limit and carries no mark."""
    n, horizon = case_input["agents"], case_input["agents"] * case_input["depth"]
    number = {id(s): i for i, s in enumerate(_states(case_input["tree"]))}
    marks = marks or {}
    lines = []

    def label(state, ply):
        note = marks.get(number[id(state)], "")
        if ply > horizon:
            text = f"{state['name']} (beyond the depth limit)"
        elif state["end"]:
            text = f"{state['name']} [{state['end']}, value {_fmt(state['value'])}]"
        elif ply == horizon:
            text = f"{state['name']} [depth limit, value {_fmt(state['value'])}]"
        elif ply > horizon:
            text = f"{state['name']} (beyond the depth limit)"
        else:
            text = f"{state['name']} [{agent_name(ply % n)} to move]"
        return text + (f"   <- {note}" if note else "")

    def walk(state, ply, prefix, last, action):
        if ply == 0:
            lines.append(f"start: {label(state, ply)}")
        else:
            lines.append(f"{prefix}{'└── ' if last else '├── '}{action} -> {label(state, ply)}")
        kids = [(act, child) for act, child in state["moves"] if not trim or ply + 1 <= horizon or _marked(child, number, marks)]
        inner = prefix + ("    " if last or ply == 0 else "│   ") if ply else ""
        for i, (act, child) in enumerate(kids):
            walk(child, ply + 1, inner, i == len(kids) - 1, act)

    walk(case_input["tree"], 0, "", True, None)
    return "\n".join(lines)


def _marked(state, number, marks) -> bool:
    return number[id(state)] in marks or any(_marked(child, number, marks) for _, child in state["moves"])


def _fmt(value):
    return "none" if value is None else repr(value)


def drawing(case_input):
    """The tree as plain data for the HTML report's picture: each state with the agent moving there."""
    n, horizon = case_input["agents"], case_input["agents"] * case_input["depth"]

    def walk(state, ply, path):
        if state["end"] and ply <= horizon:
            detail = f"{state['end']} {_fmt(state['value'])}"
        elif ply >= horizon:
            detail = f"limit {_fmt(state['value'])}" if ply == horizon else "beyond"
        else:
            detail = "Pacman" if ply % n == 0 else f"ghost {ply % n}"
        children = [walk(child, ply + 1, f"{path}/{action}") for action, child in state["moves"]]
        return {"id": path, "label": state["name"], "detail": detail, "children": children}

    return {"kind": "tree", "root": walk(case_input["tree"], 0, "")}


def drawing_marks(case_input, answer, expected):
    """The best start actions in green; the student's first wrong one framed (when one came back)."""
    if not isinstance(expected, dict):
        return None
    first = next(iter(expected.values()))
    best = [f"/{a}" for a in first["best"]]
    return {"best_nodes": best}


API_PROVIDES = ["gameState.getLegalActions(agentIndex)", "gameState.generateSuccessor(agentIndex, action)",
                "gameState.getNumAgents()", "gameState.isWin()", "gameState.isLose()", "self.evaluationFunction(state)"]
API_CALLS = ["MinimaxAgent().getAction(gameState)"]


# -- shrinking -------------------------------------------------------------------------------

def shrink_candidates(case_input):
    """Smaller trees first: a lower depth, a subtree made a win state, one action dropped, values made
    small; the number of agents stays (it is what many mistakes are about)."""
    tree = case_input["tree"]
    out = []
    if case_input["depth"] > 1:
        out.append({**case_input, "depth": case_input["depth"] - 1})
    paths = list(_paths(tree))
    for path in paths:
        node = _at(tree, path)
        if node["moves"] and path:
            out.append({**case_input, "tree": _replace(tree, path, {**node, "moves": [], "end": "win"})})
            out.append({**case_input, "tree": _replace(tree, path, {**node, "moves": [], "end": "lose"})})
    for path in paths:
        node = _at(tree, path)
        if len(node["moves"]) > 1:
            for i in range(len(node["moves"])):
                kept = node["moves"][:i] + node["moves"][i + 1:]
                out.append({**case_input, "tree": _replace(tree, path, {**node, "moves": kept})})
    for path in paths:
        node = _at(tree, path)
        value = node["value"]
        for simpler in (0, 1, -1, 2, -2, 3, int(value) if isinstance(value, float) and math.isfinite(value) else None):
            if simpler is not None and value is not None and simpler != value and abs(simpler) < abs(value):
                out.append({**case_input, "tree": _replace(tree, path, {**node, "value": simpler})})
                break
    return out


def _paths(state, path=()):
    yield path
    for i, (_, child) in enumerate(state["moves"]):
        yield from _paths(child, path + (i,))


def _at(state, path):
    for i in path:
        state = state["moves"][i][1]
    return state


def _replace(state, path, new):
    if not path:
        return new
    moves = [list(m) for m in state["moves"]]
    moves[path[0]][1] = _replace(moves[path[0]][1], path[1:], new)
    return {**state, "moves": moves}
