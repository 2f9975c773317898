# --- A stand-in game state, so that this file runs at home. ------------------------------------
# While grading, the grader hands your agents its own GameState (the same methods) and its own
# evaluation function, and records every successor you generate.


class TreeState:
    """A state of a game tree given as plain data {"name", "value", "end", "moves": [[action, state], ...]}."""

    def __init__(self, data, agents):
        self.data, self.agents = data, agents

    def getLegalActions(self, agentIndex=0):
        return [action for action, _ in self.data["moves"]]

    def generateSuccessor(self, agentIndex, action):
        return TreeState(dict(self.data["moves"])[action], self.agents)

    def getNumAgents(self):
        return self.agents

    def isWin(self):
        return self.data["end"] == "win"

    def isLose(self):
        return self.data["end"] == "lose"

    def getScore(self):
        return self.data["value"]


EXAMPLE = None  # the statement's example, written in when the starter is made


if __name__ == "__main__":
    for agent_class in (MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent):
        agent = agent_class(depth=str(EXAMPLE["depth"]))
        try:
            action = agent.getAction(TreeState(EXAMPLE["tree"], EXAMPLE["agents"]))
        except NotImplementedError as exc:
            action = f"not written yet ({exc})"
        print(f"{agent_class.__name__}(depth={EXAMPLE['depth']}).getAction(start) = {action!r}")
