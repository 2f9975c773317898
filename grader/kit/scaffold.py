"""``minimax-grader new-exercise ID --game FILE``: a working exercise folder from a game module.

The folder gets a copy of the game, an ``exercise.toml`` whose ``[student]`` part (last in the
file, to be edited) declares a plain ``minimax`` over the game's own operation names, a
statement and a starter to rewrite, and a positions file with the start positions. It grades
as soon as it is written; the instructor then renames what the course calls things.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from grader.kit.game import Game, GameError


class ScaffoldError(Exception):
    """The folder cannot be made (it exists, or the game module is not a game)."""


def _toml_value(value) -> str:
    return json.dumps(value) if not isinstance(value, bool) else ("true" if value else "false")


def _student_table(game: Game, depth_limited: bool) -> str:
    arguments = ['state = "state"'] + (['depth = "depth"'] if depth_limited else []) + ['player = "player"']
    helpers = ['actions = "actions"', 'result = "result"', 'is_terminal = "is_terminal"',
               'utility = { op = "utility", player = "max" }']
    if depth_limited:
        helpers.append('evaluate = { op = "evaluate", player = "max" }')
    return "\n".join([
        "# --- What the student writes: edit from here to the end of the file. ---",
        "[student]",
        'function = "minimax"',
        'returns = "(value, move)"       # or "value", "move", "[move, value]"',
        'search = "minimax"               # "alphabeta" to judge the evaluated positions as alpha-beta\'s',
        "",
        "[student.arguments]              # each parameter, in order: state, depth, player, alpha or beta",
        *arguments,
        "",
        "[student.players]                # the player to move, as the course writes it",
        f"max = {_toml_value(game.max_player)}",
        f"min = {_toml_value(game.min_player)}",
        "",
        "[student.helpers]                # name the student calls = the game operation it runs",
        *helpers,
        "",
    ])


def _toml(exercise_id: str, game_file: str, game: Game, depth_limited: bool) -> str:
    depth_lines = ['depths = [1, 2, 3]                # the depths asked about'] if depth_limited else []
    checks = [("values", "the value is the minimax value", "value", 4.0, []),
              ("moves", "the move is one of the optimal moves, None when there is none", "move", 3.0, []),
              ("returns-value-move", "returns (value, move)", "shape", 1.0, ["values"]),
              ("same-answer-again", "asked again later, gives the same answer", "consistent", 2.0, ["values"])]
    groups = '["fixtures", "reachable", "random"]'
    lines = [
        f"# {exercise_id}: declared over the game in {game_file} (made by minimax-grader new-exercise).",
        f'id = "{exercise_id}"',
        f'title = "{exercise_id}: minimax over {game.name}"',
        f'summary = "minimax over {game.name}, returning (value, move)"',
        'statement = "statement.md"',
        'starter = "starter.py"',
        'fixtures = "positions"           # hand-made positions: *.json in this folder',
        'input_noun = "position"',
        "random_examples = 40             # positions reached by random play",
        "",
        "[game]",
        f'module = "{game_file}"',
        'positions = "reachable"          # every reachable position (up to cap); "random" for large games',
        "cap = 500",
        "random_moves = [0, 10]",
        *depth_lines,
        *(['depth_counts = "plies"            # a player may move again here: "plies" (every move uses depth)',
           '                                 # or "turns" (depth goes down only when the player changes)']
          if depth_limited and game.has_extra_turns() else []),
        "",
    ]
    for name, title, kind, points, depends in checks:
        lines += ["[[checks]]", f'name = "{name}"', f'title = "{title}"', f'kind = "{kind}"']
        lines += [f"groups = {groups}"] if kind in ("value", "move") else []
        lines += [f"depends = {json.dumps(depends)}"] if depends else []
        lines += [f"points = {points}", ""]
    return "\n".join(lines) + "\n" + _student_table(game, depth_limited)


STATEMENT = """# {id}

{interface_start}
{interface}
{interface_end}

The game is {game}. A position's value is its value for MAX with best play on both sides; a best
move is one that gets it (any of them when several do).
"""

# Nothing here names what the function returns or what it is called beyond the def line: the def line is
# rewritten from [student] (``show --rewrite``), and words written now would go stale when it changes.
STARTER = '''"""{id}: write the function statement.md asks for. The helpers it names are provided by the grader."""


def minimax({args}):
    """statement.md says what to return."""
    raise NotImplementedError("write minimax here")
'''


def scaffold(exercise_id: str, game_path: Path, parent: Path) -> Path:
    """Write ``parent/exercise_id/`` and return it."""
    target = parent / exercise_id
    if target.exists():
        raise ScaffoldError(f"{target} already exists: pick another id or folder")
    if not game_path.is_file():
        raise ScaffoldError(f"the game module {game_path} does not exist")
    try:
        game = Game.from_file(game_path.resolve(), "_minimax_grader_scaffold_game")
        starts = [game.encode(state) for state in game.starts]
    except GameError as exc:
        raise ScaffoldError(str(exc)) from None
    depth_limited = game.has_evaluate
    args = "state, depth, player" if depth_limited else "state, player"
    (target / "positions").mkdir(parents=True)
    shutil.copyfile(game_path, target / game_path.name)
    (target / "exercise.toml").write_text(_toml(exercise_id, game_path.name, game, depth_limited), encoding="utf-8")
    from grader.kit import declaration, student_api

    import tomllib

    decl = declaration.read(tomllib.loads((target / "exercise.toml").read_text(encoding="utf-8")))
    (target / "statement.md").write_text(STATEMENT.format(
        id=exercise_id, game=game.name, interface=student_api.interface_text(decl),
        interface_start=student_api.INTERFACE_START, interface_end=student_api.INTERFACE_END), encoding="utf-8")
    (target / "starter.py").write_text(STARTER.format(id=exercise_id, args=args), encoding="utf-8")
    positions = [{"name": f"start-{i + 1}", "state": state} for i, state in enumerate(starts)]
    (target / "positions" / "starts.json").write_text(json.dumps({"positions": positions}, indent=1) + "\n",
                                                      encoding="utf-8")
    return target
