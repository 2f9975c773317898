"""Sandbox side of aima-isolation: plays a case's moves and asks one part of the submission.

A case is plain data: the question (``kind``) and the moves from the empty board. Questions about
the rules use the submission's GameState (or the stand-in); the helpers and the decision get
positions built with the grader's own GameState, so wrong rules never make right helpers look
wrong. Answers go back as they came; only the no-mutation question is answered with data made here.
"""

import importlib.util
import os

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("_minimax_grader_isolation_rules", os.path.join(_here, "provided", "gamestate.py"))
_rules = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_rules)

NAMES = ("GameState", "terminal_test", "min_value", "max_value", "minimax_decision")


def resolve(namespace):
    """What the calls need: the five names of the exercise, the student's or the stand-ins'."""
    missing = [name for name in NAMES if not callable(namespace.get(name))]
    if missing:
        raise LookupError(f"the submission defines no {', '.join(missing)}")
    return {name: namespace[name] for name in NAMES}


def build(case_input):
    return case_input


def helpers(built, trace):
    return {}


def snapshot(built):
    return None


def _position(make, moves):
    state = make()
    for move in moves:
        state = state.forecast_move(tuple(move))
    return state


def call(entry, built):
    kind, moves = built["kind"], built["moves"]
    if kind == "rules":
        return _position(entry["GameState"], moves).get_legal_moves()
    if kind == "forecast":
        return _forecast_report(entry, moves)
    if kind == "published":  # a helpers question: the grader's GameState, so a rules bug never costs this part
        return entry["min_value"](_rules.GameState())
    state = _position(_rules.GameState, moves)
    if kind == "terminal":
        return entry["terminal_test"](state)
    if kind in ("min", "max"):
        return entry[f"{kind}_value"](state)
    if kind == "decision":
        return _with_reference_helpers(entry["minimax_decision"], state)
    raise ValueError(f"unknown question {kind!r}")


# -- the decision is judged on its own: the helpers it calls are the grader's -----------------

def _value(gameState, level):
    """min_value (level +1) or max_value (-1): a stuck player at a level loses, as the level says."""
    if not gameState.get_legal_moves():
        return level
    values = [_value(gameState.forecast_move(m), -level) for m in gameState.get_legal_moves()]
    return min(values) if level == 1 else max(values)


REFERENCE_HELPERS = {"terminal_test": lambda gameState: not gameState.get_legal_moves(),
                     "min_value": lambda gameState: _value(gameState, 1),
                     "max_value": lambda gameState: _value(gameState, -1)}


def _with_reference_helpers(decide, state):
    """minimax_decision(state), with the helper names it looks up replaced by right ones for the call.

    A decision that calls min_value is then never blamed for a wrong min_value (that is the
    helpers' part, graded on its own). Only a plain function's own module globals can be
    arranged; anything else (a method, a helper under another name) is called as it is.
    """
    space = getattr(decide, "__globals__", None)
    if type(space) is not dict:
        return decide(state)
    saved = {name: space[name] for name in REFERENCE_HELPERS if name in space}
    space.update(REFERENCE_HELPERS)
    try:
        return decide(state)
    finally:
        for name in REFERENCE_HELPERS:
            space.pop(name, None)
        space.update(saved)


def _plain(value, depth=0):
    """A state's attributes as plain data, to see whether forecast_move changed them.

    Runs in the student's call (on their thread: their code may run here, and it is their state that is looked at).
    A container is described by what it holds whatever its class, through the built-in type's own iteration, with
    the attributes a subclass instance carries: a ``class History(list)`` on the state was described by its class's
    name alone, and a forecast_move that appended to it changed the state unseen (10 against an honest 9, the hundred
    and nineteenth red team). An object with slots is described by its slots' values."""
    if depth > 6:
        return "..."
    kind = type(value)
    if kind in (int, float, str, bool, type(None)):
        return value
    if isinstance(value, (list, tuple)):
        items = list.__iter__(value) if isinstance(value, list) else tuple.__iter__(value)
        shown = [kind.__name__] + [_plain(v, depth + 1) for v in items]
    elif isinstance(value, (set, frozenset)):
        items = set.__iter__(value) if isinstance(value, set) else frozenset.__iter__(value)
        shown = ["set"] + sorted((_plain(v, depth + 1) for v in items), key=repr)
    elif isinstance(value, dict):
        shown = ["dict"] + sorted(([repr(k), _plain(v, depth + 1)] for k, v in dict.items(value)), key=repr)
    else:
        attributes = getattr(value, "__dict__", None)
        if type(attributes) is dict:
            return [kind.__name__] + [[k, _plain(v, depth + 1)] for k, v in sorted(attributes.items())]
        slots = [name for klass in kind.__mro__ for name in _slots_of(klass)]
        if slots:
            return [kind.__name__] + [[name, _plain(getattr(value, name, "(unset)"), depth + 1)] for name in slots]
        return repr(value)
    attributes = getattr(value, "__dict__", None)  # a subclass instance's own attributes, beside what it holds
    if type(attributes) is dict and attributes:
        shown.append(["attributes"] + [[k, _plain(v, depth + 1)] for k, v in sorted(attributes.items())])
    return shown


def _slots_of(klass):
    slots = vars(klass).get("__slots__", ())
    names = (slots,) if isinstance(slots, str) else tuple(slots)
    return [name for name in names if name not in ("__dict__", "__weakref__")]


def _forecast_report(entry, moves):
    """Forecast every legal move from the position; say whether forecast_move itself changed it.

    The state is looked at right before and right after each forecast_move, and only moves that
    both the rules and the submission's own get_legal_moves allow are forecast, so a wrong or
    unsteady get_legal_moves (the rules' part, graded by legal-moves) is never blamed on
    forecast_move. The legal moves are compared too, but only when asking twice gives the same.
    """
    state = _position(entry["GameState"], moves)
    own = _listed(state)
    steady = own is not None and _listed(state) == own
    problems = []
    for move in _position(_rules.GameState, moves).get_legal_moves():
        if own is not None and move not in own:
            continue  # the submission's rules do not allow this move: forecasting it proves nothing
        before = _plain(state)
        following = state.forecast_move(move)
        if following is state:
            problems.append(f"forecast_move({move}) returned the same object instead of a new state")
            break
        if _plain(state) != before or steady and _listed(state) != own:
            problems.append(f"forecast_move({move}) changed the state it was called on")
            break
    return problems


def _listed(state):
    """The state's legal moves as a sorted list of plain pairs, or None when they cannot be read."""
    try:
        return sorted(tuple(m) for m in state.get_legal_moves())
    except Exception:
        return None
