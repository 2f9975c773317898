"""multiagent: minimax, alpha-beta and expectimax for Pacman and any number of ghosts.

Run `minimax-grader check this_file.py` to see how you are doing.
"""

from multiagent_base import MultiAgentSearchAgent


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
