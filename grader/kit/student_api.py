"""The student's side of a kit exercise in the student's own words, derived from the declaration.

Two doors need to speak the API an exercise hands over, and neither may be written per
exercise (an instructor's new exercise gets both for free):

* ``grader.judging.api_mismatch`` says in one line what a submission used against what the exercise
  provides: the helpers as call forms (``drop(state, move)``), read from ``[student.helpers]``
  with each game operation's parameters and the fixed player left out; the type of the states
  handed over (a mismatch is reading an attribute of *that* object, never of a ``None`` the
  student's own bug made); and which check kinds ask for the answers.
* ``grader.doors.student_door`` writes a starter that runs at home: local stand-ins of the same
  helpers, each calling the game operation it is mapped onto (the game's rules copied beside
  the starter, as the student may read them), the constants, and a ``__main__`` block that
  calls the student's function on the statement's example. While grading, the sandbox puts
  the kit's instrumented helpers back before every call, so the stand-ins never decide a verdict.
"""

from __future__ import annotations

import math

# The parameters of each game operation, as the student calls the helper mapped onto it.
_OPERATION_PARAMETERS = {
    "to_move": ["state"],
    "actions": ["state"],
    "result": ["state", "move"],
    "is_terminal": ["state"],
    "utility": ["state", "player"],
    "evaluate": ["state", "player"],
}
_OPERATION_WORDS = {
    "to_move": "the player to move, as this course writes it",
    "actions": "the legal moves, in the game's fixed order",
    "result": "the position after the move (a new one; the given one is left as it was)",
    "is_terminal": "True when the game is over",
    "utility": "the value of a finished game",
    "evaluate": "the heuristic value of the position",
}
ANSWER_KINDS = ("answers", "value", "move")  # the checks that ask for the student's answers


def _argument_name(decl: dict, source: str, default: str) -> str:
    """The student's own name for an argument built from ``source`` (``state``, ``player``)."""
    return next((name for name, given in decl["arguments"].items() if given == source), default)


def helper_parameters(decl: dict, helper: dict) -> list[str]:
    """The parameters of one provided helper: the operation's, less the player when it is fixed."""
    names = {"state": _argument_name(decl, "state", "state"), "player": _argument_name(decl, "player", "player"),
             "move": "move"}
    if helper["op"] == "function":  # a function of the game handed over as it is, with its declared parameters
        return [names.get(p, p) for p in helper["parameters"]]
    return [names[p] for p in _OPERATION_PARAMETERS[helper["op"]] if not (p == "player" and helper["player"])]


def provides(decl: dict) -> list[str]:
    """Every provided helper as a call form, e.g. ``["valid_moves(state)", "drop(state, move)"]``."""
    return [f"{name}({', '.join(helper_parameters(decl, helper))})" for name, helper in decl["helpers"].items()]


def known_names(decl: dict) -> list[str]:
    """Every name the student's code may use without defining it: the helpers and the constants."""
    return list(decl["helpers"]) + list(decl["constants"])


def state_types(game, decl: dict | None = None) -> dict[str, str]:
    """The type names of the positions handed to the student (from the game's start positions, as handed)."""
    view = getattr(game.module, decl["state_view"]) if decl and decl.get("state_view") else (lambda state: state)
    return {type(view(state)).__name__: "state" for state in game.starts}


# -- stand-ins for a starter that runs at home ---------------------------------------------------

def rules_file_name(exercise_id: str) -> str:
    """The copy of the game's rules written beside the starter (never the starter's own name)."""
    return f"{exercise_id.replace('-', '_')}_rules.py"


def _literal(value) -> str:
    if isinstance(value, float) and math.isinf(value):
        return 'float("inf")' if value > 0 else 'float("-inf")'
    return repr(value)


def _stand_in(decl: dict, game, name: str, helper: dict) -> list[str]:
    """One helper as a local function over the rules module ``_rules``."""
    op, fixed = helper["op"], helper["player"]
    parameters = helper_parameters(decl, helper)
    if op == "function":
        doc = (getattr(getattr(game.module, helper["function"], None), "__doc__", None) or "").strip().splitlines()
        return [f"def {name}({', '.join(parameters)}):", f'    """Stand-in: {(doc[0][:1].lower() + doc[0][1:]) if doc else helper["function"]}"""',
                f"    return _rules.{helper['function']}({', '.join(parameters)})", "", ""]
    state = parameters[0]
    words = _OPERATION_WORDS[op]
    if op in ("utility", "evaluate") and getattr(game, "max_valued", {}).get(op):  # the rules give MAX's value alone
        if fixed:
            words += f" for {fixed.upper()}"
            body = f"_rules.{op}({state})" if fixed == "max" else f"-_rules.{op}({state})"
        else:
            words += f" for {parameters[1]}"
            body = (f"_rules.{op}({state}) if _game_player({parameters[1]}) == {game.max_player!r} "
                    f"else -_rules.{op}({state})")
    elif op in ("utility", "evaluate"):
        if fixed:
            whose = game.max_player if fixed == "max" else game.min_player
            words += f" for {fixed.upper()} ({whose!r})"
            body = f"_rules.{op}({state}, {whose!r})"
        else:
            words += f" for {parameters[1]}"
            body = f"_rules.{op}({state}, _game_player({parameters[1]}))"
    elif op == "to_move":
        body = f"_course_player(_rules.to_move({state}))"
    elif op == "actions":
        body = f"list(_rules.actions({state}))"
    else:
        body = f"_rules.{op}({', '.join(parameters)})"
    return [f"def {name}({', '.join(parameters)}):",
            f'    """Stand-in: the game\'s {op}: {words}."""',
            f"    return {body}", "", ""]


def example_call(decl: dict, game, hooks, case_input) -> tuple[str, str]:
    """(the example position as a Python literal, the call of the student's function on it)."""
    state = hooks.state_of(case_input)
    arguments = []
    for source in decl["arguments"].values():
        if source == "state":
            arguments.append("EXAMPLE")
        elif source == "depth":
            arguments.append(repr(case_input.get("depth")))
        elif source == "player":
            role = hooks.searcher.role(state)
            arguments.append(repr(decl["players"][role]))
        else:
            arguments.append(_literal(decl[source]))
    handed = getattr(game.module, decl["state_view"])(state) if decl.get("state_view") else state
    return repr(handed), f"{decl['function']}({', '.join(arguments)})"


def stand_ins(exercise_id: str, decl: dict, game, hooks, case_input) -> str:
    """The block appended to a kit exercise's starter (see the module's docstring)."""
    rules = rules_file_name(exercise_id)
    course = [(decl["players"]["max"], game.max_player), (decl["players"]["min"], game.min_player)]
    names = ", ".join(decl["helpers"])
    lines = [
        "# --- Stand-ins for what the grader provides, so that this file runs at home. -----------------",
        f"# They play by the game's rules in {rules} (beside this file; read it, do not hand it in).",
        f"# While grading, the grader's own {names} replace these before every call,",
        "# so whatever you write above must use them only as the statement says.",
        "try:",
        f"    import {rules[:-3]} as _rules",
        "except ImportError:  # while grading: the grader's helpers are used, not these",
        "    _rules = None",
        "",
        *[f"{name} = {_literal(value)}" for name, value in decl["constants"].items()],
        f"_PLAYERS = {course!r}  # (as this course writes the player, as the rules do)",
        "",
        "",
        "def _game_player(player):",
        "    return next(rules for course, rules in _PLAYERS if type(course) is type(player) and course == player)",
        "",
        "",
        "def _course_player(player):",
        "    return next(course for course, rules in _PLAYERS if rules == player)",
        "",
        "",
    ]
    for name, helper in decl["helpers"].items():
        lines += _stand_in(decl, game, name, helper)
    if case_input is not None:
        literal, call = example_call(decl, game, hooks, case_input)
        lines += [f"EXAMPLE = {literal}  # the statement's example position", "",
                  "", 'if __name__ == "__main__":']
        render = getattr(game.module, "render", None)
        if callable(render) and not decl.get("state_view"):  # a view is not a state the rules can draw
            lines.append("    print(_rules.render(EXAMPLE))")
        lines.append(f"    print({call!r}, '=', {call})")
    return "\n".join(lines).rstrip() + "\n"


INTERFACE_START = "<!-- interface: written from exercise.toml by minimax-grader show; edits here are replaced -->"
INTERFACE_END = "<!-- /interface -->"


def interface_text(decl: dict) -> str:
    """What the statement promises, from the declaration as it is now: the call, the answer, the helpers."""
    from grader.kit import answer_shape

    call = f"{decl['function']}({', '.join(decl['arguments'])})"
    lines = [f"Write `{call}`; it returns {answer_shape.words(decl['returns'])}."]
    if not decl["helpers"]:
        return "\n".join(lines + ["No helper is handed over."])
    lines.append("You are handed:")
    for (name, helper), form in zip(decl["helpers"].items(), provides(decl)):
        words = _OPERATION_WORDS.get(helper["op"], f"the game's {helper.get('function')}")
        if helper["op"] == "to_move":  # the course's values, said: "as this course writes it" told nobody which
            players = decl["players"]
            words = f"the player to move: `{_literal(players['max'])}` for MAX, `{_literal(players['min'])}` for MIN"
        if helper.get("player"):
            words += f", for {helper['player'].upper()}"
        lines.append(f"- `{form}`: {words}")
    for name, value in decl["constants"].items():
        lines.append(f"- `{name}` = `{_literal(value)}`")
    return "\n".join(lines)


def refresh_interface(text: str, decl: dict) -> str:
    """The statement with its interface block (between the markers) written again from the declaration."""
    start, end = text.find(INTERFACE_START), text.find(INTERFACE_END)
    if start < 0 or end < start:
        return text
    return text[:start + len(INTERFACE_START)] + "\n" + interface_text(decl) + "\n" + text[end:]


def declared_stub(starter: str, decl: dict) -> str:
    """The starter with the declared function's ``def`` line as the declaration says now (read with ``ast``):
    a stub written before ``[student]`` was edited keeps its body, under the current name and parameters."""
    import ast
    from grader import python_source

    wanted = f"def {decl['function']}({', '.join(decl['arguments'])}):"
    try:
        tree = python_source.parse(starter)
    except SyntaxError:
        return starter
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    own = next((f for f in functions if f.name == decl["function"]), None)
    if own is None and len(functions) == 1 and not functions[0].name.startswith("_"):
        own = functions[0]  # the scaffold's one stub, written for another name
    lines = starter.splitlines(keepends=True)
    if own is None:
        stub = f"\n\n{wanted}\n    raise NotImplementedError(\"write {decl['function']} here\")\n"
        return starter.rstrip("\n") + "\n" + stub
    if [a.arg for a in own.args.args] == list(decl["arguments"]) and own.name == decl["function"] \
            and not own.args.vararg and not own.args.kwonlyargs:
        return starter
    start, header_end = own.lineno - 1, own.body[0].lineno - 1  # the def, over one line or more, before its body
    if header_end == start:  # "def f(x): return 1" on one line: the body moves under the new def
        body = lines[start][own.body[0].col_offset:]
        rest = "    " + body + "".join(lines[start + 1:])
    else:
        rest = "".join(lines[header_end:])
    return "".join(lines[:start]) + wanted + "\n" + rest.replace(f"write {own.name} here", f"write {decl['function']} here")
