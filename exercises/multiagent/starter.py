"""multiagent: minimax, alpha-beta and expectimax for Pacman and any number of ghosts.

Run `minimax-grader check this_file.py` to see how you are doing.
"""

try:
    from multiagent_base import MultiAgentSearchAgent  # provided by the grader while grading
except ImportError:  # at home, without the grader: the same base class
    class MultiAgentSearchAgent:
        def __init__(self, evalFn="scoreEvaluationFunction", depth="2"):
            self.index = 0
            self.evaluationFunction = lambda state: state.getScore()
            self.depth = int(depth)


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        """Pacman's minimax action from gameState, searching self.depth rounds."""
        raise NotImplementedError("write MinimaxAgent.getAction here")


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        """The minimax action, found with alpha-beta pruning (no cut on equality)."""
        raise NotImplementedError("write AlphaBetaAgent.getAction here")


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        """The expectimax action: every ghost moves uniformly at random."""
        raise NotImplementedError("write ExpectimaxAgent.getAction here")
