"""Sandbox side of multiagent: the game state the student's agents search, as a proxy.

The child never holds the tree. It knows the start state's legal actions, the number of agents and
the depth; everything else is a question to the grader over the session channel:
``generateSuccessor`` asks for the successor (the grader answers with a handle it issued, the
state's legal actions and whether it is a win or a lose state, and logs the expansion with the
agent index the student passed), and the evaluation function asks for a state's value (the grader
answers and logs it). A state is known to both sides only by a handle the grader issued, and every
handle belongs to one agent class: the start state of the case's i-th class is handle i, and each
successor's handle belongs to the class of the state it came from. So the grader knows whose
search each question is part of from the question itself; the driver tells it nothing (it sends
no notes), and nothing the child says decides which class a log belongs to. Standard library only.
"""

CLASSES = ("MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent")

_ask = [None]  # the link's ask, set by the first case's helpers()
_str, _type, _int, _len, _isinstance = str, type, int, len, isinstance


def _question(message):
    answer = _ask[0](message)
    if _type(answer) is dict:
        raise RuntimeError(_str(answer.get("error"))[:200])
    return answer


class GameState:
    """A state of the game tree: CS188's GameState methods, over a state the grader knows by its handle."""

    # ``__weakref__`` as CS188's own GameState has it: a student's ``weakref.WeakKeyDictionary`` cache of states is
    # honest code, and raised "cannot create weak reference" here (the hundred and eighteenth helper). The states
    # are made and dropped on the runner's thread, in the student's call, as every object of theirs.
    __slots__ = ("_number", "_actions", "_end", "_agents", "__weakref__")

    def getLegalActions(self, agentIndex=0):
        self._agent(agentIndex, "getLegalActions")
        return list(self._actions)

    def generateSuccessor(self, agentIndex, action):
        self._agent(agentIndex, "generateSuccessor")
        if self._end is not None:
            raise Exception(f"Can't generate a successor of a terminal state ({self._end})")
        try:
            position = self._actions.index(action)
        except ValueError:
            raise Exception(f"Illegal action {action!r:.40}") from None
        number, actions, end = _question(["s", self._number, agentIndex, position])
        return _state(number, tuple(actions), end, self._agents)

    def getNumAgents(self):
        return self._agents

    def isWin(self):
        return self._end == "win"

    def isLose(self):
        return self._end == "lose"

    def getScore(self):
        return _question(["v", self._number])

    def _agent(self, agentIndex, method):
        if _type(agentIndex) is not _int or not 0 <= agentIndex < self._agents:
            raise Exception(f"{method}: agentIndex must be an int from 0 to {self._agents - 1}, not {agentIndex!r:.20}")

    def __repr__(self):
        return f"GameState(#{self._number})"


def _state(number, actions, end, agents):
    state = GameState.__new__(GameState)
    state._number, state._actions, state._end, state._agents = number, actions, end, agents
    return state


def evaluate(state):
    """The evaluation function every agent is given: the grader tells a state's value, and logs the question."""
    if _type(state) is not GameState:
        raise TypeError(f"the evaluation function takes a GameState, not {_type(state).__name__}")
    return _question(["v", state._number])


class Built:
    """One case: the start state's actions and end, the number of agents, the depth, which classes search."""

    def __init__(self, case_input):
        self.input = case_input
        root = case_input["root"]
        self.frozen = (tuple(root["actions"]), root["end"], case_input["agents"], case_input["depth"],
                       tuple(case_input.get("classes") or CLASSES))


def build(case_input):
    return Built(case_input)


def snapshot(built):
    return built.frozen


def changed(built, before):
    return built.frozen is not before


def helpers(built, link):
    """The link's ``ask``, set once (the link is the same for every case): set for each case, the one before
    was dropped on the harness's thread, and whatever the student's code had put in its place with it (an
    object whose ``__del__``, or a weak reference's callback, then ran there). A value the student puts there
    answers their own questions: asked nothing, the grader logs nothing, and the checks judge that."""
    if _ask[0] is None:
        _ask[0] = link.ask
    return {}


def resolve(namespace):
    found = {}
    for name in CLASSES:
        value = namespace.get(name)
        if value is not None and not _isinstance(value, type):
            raise TypeError(f"{name} is not a class (it is a {_type(value).__name__})")
        found[name] = value
    if not any(found.values()):
        raise LookupError("the submission defines none of the classes MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent")
    return found


def _describe(exc):
    try:
        text = _str(exc)
    except Exception:
        text = ""
    name = _type(exc).__name__
    return (f"{name}: {text}" if text else name)[:300]


def _make(agent_class, depth):
    try:
        agent = agent_class(depth=_str(depth))
    except TypeError:
        agent = agent_class()
    agent.index = 0
    agent.depth = depth
    agent.evaluationFunction = evaluate
    return agent


def call(entry, built):
    """Each class in turn searches its own start state (the i-th class's is the grader's handle i);
    what each returned (or raised) comes back in order, one item per class."""
    actions, end, agents, depth, classes = built.frozen
    out = []
    for start, name in enumerate(classes):
        agent_class = entry.get(name)
        if agent_class is None:
            out.append(["missing", name])
            continue
        try:
            action = _make(agent_class, depth).getAction(_state(start, actions, end, agents))
        except Exception as exc:  # one class failing is that class's failure; timeouts and exits end the case
            out.append(["raised", _describe(exc)])
        else:
            out.append(["answer", action])
    return out
