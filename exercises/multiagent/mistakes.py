"""Grader side of multiagent: naming the mistake, per agent class, and showing where it first shows.

Every mistake is a family of the reference with one option turned (``grader.kit.agents.families``):
ghosts that maximise, depth counted in moves instead of rounds, only the first ghost moving, no
terminal test, one round too deep, a cut on equality, bounds not carried from one ghost to the next,
alpha not raised at the root, the minimum or a wrong divisor where the expectation is due. For each
class the student wrote, a family is named when it predicts what that class did on every case:
the action (one of the family's best) or the exception, and the exact set of states expanded (the
grader's own record of ``generateSuccessor``). Failing that, a single code whose families predict
every action (not the expansions) is named with that said. A number where an action is due is
``returns-value-not-action``. The evidence speaks of the smallest case: the first state where the
student's search goes wrong, which agent moves there and what it should choose, and the states
expanded that should not be (or skipped that should not be), drawn on the tree.
"""

from __future__ import annotations

from pathlib import Path

from grader.kit.agents.families import RETURNS_VALUE, of_search, value_instead_of_action
from grader.kit.agents.search import _close
from grader.kit.mistake_texts import of_folder
from grader.vocabulary.findings import Finding

CODES = of_folder(Path(__file__).parent)
MODELS = ()
SEARCH_OF = {"MinimaxAgent": "minimax", "AlphaBetaAgent": "alphabeta", "ExpectimaxAgent": "expectimax"}
CHECKS_OF = {"MinimaxAgent": ("minimax-action", "minimax-expanded"),
             "AlphaBetaAgent": ("alphabeta-action", "alphabeta-expanded"),
             "ExpectimaxAgent": ("expectimax-action", "expectimax-expanded")}


def _hooks(facts):
    return facts.exercise.hooks


def _replies(facts, name):
    """(outcome, kind, payload Answer, student's log) for every case this class answered or raised on."""
    hooks = _hooks(facts)
    out = []
    for outcome in facts.outcomes:
        if "skipped" in outcome.raw or outcome.raw.get("timed_out") or outcome.raw.get("raised"):
            continue
        parts = hooks._parts(outcome)
        if not parts or name not in parts or parts[name][0] == "missing":
            continue
        if not isinstance(outcome.expected, dict) or outcome.expected[name]["raised"]:
            continue
        kind, payload = parts[name]
        out.append((outcome, kind, payload, hooks.student_log(outcome, name)))
    return out


def _predict(facts, outcome, name, family):
    cache = facts.__dict__.setdefault("_multiagent_predictions", {})
    key = (id(outcome.case.input), name, family)
    if key not in cache:
        cache[key] = facts.exercise.reference.run(outcome.case.input, name, family.options)
    return cache[key]


def _wrong(facts, outcome, name, kind, payload, log) -> bool:
    hooks = _hooks(facts)
    expected = outcome.expected[name]
    if hooks.action_problem(outcome.case.input, expected, kind, payload):
        return True
    return kind == "answer" and (hooks.expanded_problem(outcome.case.input, expected, log) is not None
                                 or hooks.movers_problem(outcome.case.input, log) is not None)


def _agrees(predicted, kind, payload, log, expansions: bool) -> bool:
    if predicted.raised:
        return kind == "raised"
    if kind != "answer" or payload.kind not in ("str", "none") or payload.value not in predicted.best:
        return False
    if not expansions or log is None:
        return True
    if {0, *log.get("generated", [])} != set(predicted.expanded):
        return False
    return all(predicted.passed_at.get(number) == agent for number, agent in log.get("movers", []))


def _class_findings(facts, name) -> list[Finding]:
    replies = _replies(facts, name)
    wrong = [r for r in replies if _wrong(facts, *r[:1], name, *r[1:])]
    if not wrong:
        return []
    answers = [payload for _, kind, payload, _ in replies if kind == "answer"]
    if answers and all(value_instead_of_action(p.value) for p in answers):
        smallest = min(wrong, key=lambda r: facts.size(r[0]))
        return [Finding(RETURNS_VALUE, f"{name}.getAction returned {smallest[2].text} on {facts.call_text(smallest[0])}, "
                        f"a value; the right answer is the action {smallest[0].expected[name]['action']!r}",
                        checks=CHECKS_OF[name][:1])]
    families = of_search(SEARCH_OF[name])
    for expansions in (True, False):
        fits = []
        for family in families:
            if all(_agrees(_predict(facts, o, name, family), kind, payload, log, expansions)
                   for o, kind, payload, log in replies):
                fits.append(family)
        codes = list(dict.fromkeys(f.code for f in fits))
        if fits and (expansions or len(codes) == 1):
            found = []
            shown = [r for r in wrong if _hooks(facts).action_problem(r[0].case.input, r[0].expected[name], r[1], r[2])] or wrong
            smallest = min(shown, key=lambda r: facts.size(r[0]))
            for code in codes:
                family = next(f for f in fits if f.code == code)
                evidence = explain(facts, name, family, *smallest)
                if not expansions:
                    evidence += " (the states your search expanded differ from this mistake's in places too)"
                found.append(Finding(code, evidence, checks=CHECKS_OF[name]))
            return found
    return []


def _all(facts) -> list[Finding]:
    cached = facts.__dict__.get("_multiagent_findings")
    if cached is None:
        cached = []
        for name in SEARCH_OF:
            cached.extend(_class_findings(facts, name))
        facts.__dict__["_multiagent_findings"] = cached
    return cached


def rules(facts) -> list[Finding]:
    """Mistakes that make an action wrong (the diagnosis asks when no value model fits)."""
    return _merge([f for f in _all(facts) if any(c.endswith("-action") for c in f.checks)])


def behaviour_rules(facts) -> list[Finding]:
    """Every mistake found, actions right or not: the expanded-set mistakes (a cut on equality, bounds
    not carried, alpha kept at the root) leave every action right."""
    return _merge(_all(facts))


def _merge(findings) -> list[Finding]:
    by_code: dict[str, Finding] = {}
    for finding in findings:
        if finding.code in by_code:
            first = by_code[finding.code]
            by_code[finding.code] = Finding(first.code, first.evidence, checks=first.checks + finding.checks)
        else:
            by_code[finding.code] = finding
    return list(by_code.values())


# -- the evidence, in the student's terms --------------------------------------------------

def explain(facts, name, family, outcome, kind, payload, log) -> str:
    """The smallest wrong case: the first state the search values wrongly (who moves there, what it should
    choose), the states expanded wrongly, and the tree with both marked."""
    hooks = _hooks(facts)
    case_input = outcome.case.input
    right = facts.exercise.reference.run(case_input, name)
    theirs = _predict(facts, outcome, name, family)
    said = [f"{name} on {facts.call_text(outcome)}"]
    said.append(f"returned {payload.text}" if kind == "answer" else f"raised {payload.value}")
    said[-1] += f", the right action is {right.action!r}"
    states = hooks._states(case_input["tree"])
    marks = {}
    node = first_wrong_state(right, theirs, case_input)
    if node is not None:
        state = states[node]
        agent = right.agent_at.get(node, 0)
        moves = [(action, _number(states, child)) for action, child in state["moves"]]
        values = [right.values.get(n) for _, n in moves]
        mover = hooks.agent_name(agent)
        should = _should(agent, name, moves, values)
        said.append(f"the first state your search gets wrong is {state['name']}, where {mover} moves: "
                    f"it is worth {_show(right.values.get(node))} ({should}), your search makes it "
                    f"{_show(theirs.values.get(node))}")
        marks[node] = f"yours {_show(theirs.values.get(node))}, right {_show(right.values.get(node))}"
    movers = hooks.wrong_movers(case_input, log) if log else []
    if movers:
        number, passed, due = movers[0]
        said.append(f"at {states[number]['name']} it is {hooks.agent_name(due)} who moves, but your code called "
                    f"generateSuccessor({passed}, ...)")
    if kind == "answer" and log is not None:
        mine, want = {0, *log.get("generated", [])}, set(right.expanded)
        extra, missing = sorted(mine - want), sorted(want - mine)
        for n in extra:
            marks[n] = (marks.get(n, "") + "; " if n in marks else "") + "expanded, should not be"
        for n in missing:
            marks[n] = (marks.get(n, "") + "; " if n in marks else "") + "skipped, must be expanded"
        if extra:
            said.append((f"it expanded {hooks.names_of(case_input, extra)} that alpha-beta never needs"
                         if name == "AlphaBetaAgent" else f"it expanded {hooks.names_of(case_input, extra)} beyond the search")
                        + _whose(hooks, states, extra[0], right, case_input))
        if missing:
            said.append(f"it skipped {hooks.names_of(case_input, missing)}, which must be expanded"
                        + _whose(hooks, states, missing[0], right, case_input))
    text = "; ".join(said)
    if marks:
        text += "\n" + hooks.picture(case_input, marks, trim=True)
    return text


def _whose(hooks, states, number, right, case_input) -> str:
    """Whose move leads to a state: '(c4 is ghost 1's move Right at b3)'."""
    for parent_number, parent in enumerate(states):
        for action, child in parent["moves"]:
            if child is states[number]:
                mover = hooks.agent_name(hooks.plies(case_input["tree"])[parent_number] % case_input["agents"])
                return f" ({states[number]['name']} is {mover}'s move {action} at {parent['name']})"
    return ""


def _number(states, child):
    for i, state in enumerate(states):
        if state is child:
            return i
    return -1


def _should(agent, name, moves, values) -> str:
    shown = ", ".join(f"{a} {_show(v)}" for (a, _), v in zip(moves, values) if v is not None)
    if not shown:
        return "its evaluation: a win or lose state, or the depth limit"
    if agent == 0:
        return f"Pacman takes the largest of {shown}"
    if name == "ExpectimaxAgent":
        return f"the ghost's moves are equally likely: the average of {shown}"
    return f"the ghost takes the smallest of {shown}"


def first_wrong_state(right, theirs, case_input):
    """The deepest state valued by both searches whose value differs while every child valued by both agrees."""
    from grader.kit.agents.trees import preorder

    states = preorder(case_input["tree"])
    number = {id(s): i for i, s in enumerate(states)}
    candidates = []
    for i, state in enumerate(states):
        a, b = right.values.get(i), theirs.values.get(i)
        if a is None or b is None or _close(a, b):
            continue
        kids = [number[id(c)] for _, c in state["moves"]]
        if all(right.values.get(k) is None or theirs.values.get(k) is None or _close(right.values[k], theirs.values[k])
               for k in kids):
            candidates.append(i)
    if not candidates:
        return None
    return candidates[0]


def _show(value):
    if value is None:
        return "not searched"
    if isinstance(value, float) and value.is_integer():
        return repr(int(value))
    return repr(value)
