"""What the multiagent exercise provides: the base class of the three agents (CS188's interface).

Your agents subclass ``MultiAgentSearchAgent``. The grader makes each with ``depth`` set, sets
``index = 0`` (you choose Pacman's action) and ``evaluationFunction`` (call it on a win state, a
lose state or a state at the depth limit), and calls ``getAction(gameState)``.
"""


def scoreEvaluationFunction(currentGameState):
    """The default evaluation: the state's score."""
    return currentGameState.getScore()


class Agent:
    def __init__(self, index=0):
        self.index = index

    def getAction(self, state):
        raise NotImplementedError("getAction is yours to write")


class MultiAgentSearchAgent(Agent):
    """Pacman is agent 0 and moves first; the ghosts are agents 1, 2, ... One unit of ``depth`` is a
    round in which every agent moves once."""

    def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
        self.index = 0
        self.evaluationFunction = globals()[evalFn] if isinstance(evalFn, str) else evalFn
        self.depth = int(depth)
