"""Reference for the multiagent exercise: the kit's searches over agents with roles.

Runs only in the grader's process, after the student's code has answered. MinimaxAgent and
AlphaBetaAgent search Pacman (max) against minimising ghosts, ExpectimaxAgent against uniform
chance ghosts; depth counts rounds. What each returns is what the checks compare: the best
actions, the first of them, the value and CS188's expanded set (the start state and every state
generated).
"""

from grader.kit.agents.search import RIGHT, search
from grader.kit.agents.trees import pacman

CLASSES = {"MinimaxAgent": ("min", False), "AlphaBetaAgent": ("min", True), "ExpectimaxAgent": ("chance", False)}


def run(case_input, class_name, options=RIGHT):
    ghosts, prune = CLASSES[class_name]
    return search(case_input["tree"], pacman(case_input["agents"], ghosts), case_input["depth"], prune, options)


def expected(case_input) -> dict:
    out = {}
    for name in case_input.get("classes") or CLASSES:
        found = run(case_input, name)
        out[name] = {"action": found.action, "best": list(found.best), "value": found.value,
                     "expanded": found.expanded, "evaluated": sorted(set(found.evaluated)), "raised": found.raised}
    return out
