"""multiagent: whose search a question belongs to is the grading process's knowledge, never the child's word.

The red team's hole H4: the per-class log was keyed by ``["agent", name]`` notes the child sent, so a
submission that reached the harness's link muted them, every later class's questions landed in the
first class's log, and a class with no log passed its expanded-set check. Now the oracle issues each
class its own start-state handle and every successor's handle belongs to the class it came from; the
driver sends no notes (a note is tampering); every class of a case has its log from the start; and
the driver's answer must be one well-formed item per class (a submission that trims it fails every
class, never passes those it dropped). Each test here grades a real hostile submission in the sandbox
(or asks the real oracle) and fails on the code before the fix.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from grader.sandbox.session import HARNESS_TAMPERED, TAMPERED
from grader.vocabulary.answers import Answer

MINIMAX = '''
import math
import sys

from multiagent_base import MultiAgentSearchAgent


def _minimax(agent, gameState):
    """Plain minimax over every agent: no pruning."""
    n = gameState.getNumAgents()

    def value(state, who, depth):
        if state.isWin() or state.isLose() or depth == agent.depth:
            return agent.evaluationFunction(state)
        nxt = (who + 1) % n
        nd = depth + 1 if nxt == 0 else depth
        vals = [value(state.generateSuccessor(who, a), nxt, nd) for a in state.getLegalActions(who)]
        return max(vals) if who == 0 else min(vals)

    best, act = -math.inf, None
    for a in gameState.getLegalActions(0):
        v = value(gameState.generateSuccessor(0, a), 1 % n, 1 if n == 1 else 0)
        if v > best:
            best, act = v, a
    return act


def _expectimax(agent, gameState):
    n = gameState.getNumAgents()

    def value(state, who, depth):
        if state.isWin() or state.isLose() or depth == agent.depth:
            return agent.evaluationFunction(state)
        nxt = (who + 1) % n
        nd = depth + 1 if nxt == 0 else depth
        vals = [value(state.generateSuccessor(who, a), nxt, nd) for a in state.getLegalActions(who)]
        return max(vals) if who == 0 else sum(vals) / len(vals)

    return max(gameState.getLegalActions(0), key=lambda a: value(gameState.generateSuccessor(0, a), 1, 0))


def _link():
    """The harness's link, reached the way the red team did: up the frames to the driver, whose ask is its bound method."""
    frame = sys._getframe(1)
    while "_ask" not in frame.f_globals:
        frame = frame.f_back
    return frame.f_globals["_ask"][0].__self__
'''

MUTED = MINIMAX + '''

class _Mute:
    """The driver's link with its notes swallowed (the red team's PoC)."""

    def __init__(self, link):
        self.ask = getattr(link, "ask", None)

    def tell(self, message):
        pass


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        act = _minimax(self, gameState)
        frame = sys._getframe(1)
        while "built" not in frame.f_locals:
            frame = frame.f_back
        built = frame.f_locals["built"]  # the driver's case, whose link its call() told notes on
        built.link = _Mute(getattr(built, "link", None))
        return act


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return _minimax(self, gameState)  # does not prune


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return _expectimax(self, gameState)
'''

NOTES = MINIMAX + '''

class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        _link().tell(["agent", "MinimaxAgent"])  # a note that looks like the driver's
        return _minimax(self, gameState)
'''

TRIMMED = MINIMAX + '''

class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return _minimax(self, gameState)


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return None


class ExpectimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        act = _minimax(self, gameState)
        frame = sys._getframe(1)
        while "out" not in frame.f_locals:
            frame = frame.f_back
        frame.f_locals["out"].clear()  # the driver's answers so far: this one becomes the only one
        return act
'''


@pytest.fixture(scope="module")
def multiagent():
    from grader.judging import exercise

    return exercise.load("multiagent")


def _check(tmp_path, source, name="hostile.py"):
    from grader.doors import api

    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return api.check(path, "multiagent")


def _status(result):
    return {c.name: c.status for c in result.checks}


def test_muted_notes_leave_each_class_judged_on_its_own_questions(tmp_path):
    """H4: the red team's PoC (notes muted, AlphaBetaAgent = plain minimax) scored 10/10; then 8/10 like its honest
    twin. It mutes the link by setting an attribute on the driver's own object for the case, which the harness now
    vouches for after every call (seal.call_seal, the hundred and sixteenth red team): tampering, 0."""
    result = _check(tmp_path, MUTED)
    assert result.status == "error" and result.error == HARNESS_TAMPERED and result.score == 0
    honest = _check(tmp_path, MUTED.replace("        built.link = _Mute(getattr(built, \"link\", None))\n", ""), "twin.py")
    status = _status(honest)
    assert honest.error is None and {name for name, s in status.items() if s != "passed"} == {"alphabeta-expanded"}
    assert honest.score == 8.0
    alphabeta = next(c for c in honest.checks if c.name == "alphabeta-expanded")
    assert "which the search must not expand" in alphabeta.message


def test_a_note_from_the_submission_is_tampering_in_one_line(tmp_path):
    """The driver tells the grader nothing: a note (even one shaped like the old ``["agent", name]``) is tampering."""
    result = _check(tmp_path, NOTES)
    assert result.status == "error" and result.error == TAMPERED and "\n" not in result.error


def test_an_answer_trimmed_by_the_submission_fails_every_class(tmp_path):
    """Only MinimaxAgent written, the driver's answer list emptied before the last class's item: it scored 10/10."""
    result = _check(tmp_path, TRIMMED)
    assert result.error is None and result.score == 0.0
    assert set(_status(result).values()) <= {"failed", "skipped"}
    minimax = next(c for c in result.checks if c.name == "minimax-action")
    assert "the submission changed the driver's list" in minimax.message


def _outcome(items, classes=None):
    data = {"t": "list", "v": [{"t": "list", "v": [{"t": "str", "v": k}, {"t": "str", "v": v}]} for k, v in items]}
    case_input = {"agents": 2, "depth": 1, **({"classes": classes} if classes else {})}
    return SimpleNamespace(answer=Answer.decode(data), case=SimpleNamespace(input=case_input))


def test_only_the_driver_s_own_answer_shape_is_read(multiagent):
    parts = multiagent.hooks._parts
    right = [("answer", "Left"), ("missing", "AlphaBetaAgent"), ("raised", "ValueError: x")]
    assert set(parts(_outcome(right))) == {"MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent"}
    assert parts(_outcome(right[:2])) is None  # one class's item dropped
    assert parts(_outcome(right + [("answer", "Left")])) is None  # one added
    assert parts(_outcome([("answer", "Left"), ("skipped", "x"), ("answer", "Left")])) is None  # a kind the driver never sends
    assert parts(_outcome([("answer", "Left"), ("missing", "MinimaxAgent"), ("answer", "Left")])) is None  # another's name
    assert set(parts(_outcome([("answer", "Left")], classes=["AlphaBetaAgent"]))) == {"AlphaBetaAgent"}


def test_a_class_without_a_log_fails_its_expanded_check(multiagent):
    from grader.kit.agents.trees import from_successors

    tree = from_successors("a", [["a", "Left", "b1"], ["a", "Right", "b2"]], evaluation={"b1": 1, "b2": 2})
    case_input = {"tree": tree, "agents": 2, "depth": 1}
    expected = multiagent.reference.run(case_input, "AlphaBetaAgent")
    assert multiagent.hooks.expanded_problem(case_input, {"expanded": list(expected.expanded)}, None)
    oracle = multiagent.hook("oracle")(case_input)
    assert set(oracle.trace()["searches"]) == {"MinimaxAgent", "AlphaBetaAgent", "ExpectimaxAgent"}  # before any question


@pytest.mark.parametrize("message", [["s", [0], 0, 0], ["s", 0, 0, [1]], ["s", True, 0, 0], ["s", 0, True, 0],
                                     ["v", 10 ** 40], ["v", -1], ["v", {"a": 1}], ["s", 0, 0, 10 ** 40], ["s", 0, 0, -1],
                                     ["v", 3.0], ["s", 0, None, 0]])
def test_a_malformed_question_is_answered_with_an_error_never_a_grader_traceback(multiagent, message):
    from grader.kit.agents.trees import from_successors

    tree = from_successors("a", [["a", "Left", "b1"]], evaluation={"b1": 1})
    oracle = multiagent.hook("oracle")({"tree": tree, "agents": 2, "depth": 1})
    assert "error" in oracle.ask(message)


@pytest.mark.parametrize("message", [["x"], [], "s", ["s", 0], ["v", 0, 1], None])
def test_anything_but_the_driver_s_questions_is_tampering(multiagent, message):
    """ValueError is what the session turns into the one-line tampering error."""
    from grader.kit.agents.trees import from_successors

    tree = from_successors("a", [["a", "Left", "b1"]], evaluation={"b1": 1})
    oracle = multiagent.hook("oracle")({"tree": tree, "agents": 2, "depth": 1})
    with pytest.raises(ValueError):
        oracle.ask(message)


REUSED = MINIMAX + '''

FOUND = {}


class MinimaxAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        FOUND["action"] = _minimax(self, gameState)
        return FOUND["action"]


class AlphaBetaAgent(MultiAgentSearchAgent):
    def getAction(self, gameState):
        return FOUND["action"]  # the same tree: MinimaxAgent's action, without a question asked
'''


def test_a_class_that_answered_without_asking_is_judged_on_an_empty_record(tmp_path):
    result = _check(tmp_path, REUSED)
    status = _status(result)
    assert status["alphabeta-action"] == "passed" and status["alphabeta-expanded"] == "failed"
    assert "never generated" in next(c for c in result.checks if c.name == "alphabeta-expanded").message
