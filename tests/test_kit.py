"""The game-search kit on its own: references, the declaration, the sandbox driver, pictures.

Small games are written here as modules in a temporary folder, as an instructor would.
"""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path

import pytest

from grader.kit import declaration, pictures
from grader.kit.game import Game, GameError, load_module
from grader.kit.search import Searcher

# A game tree as a game: a state is the path taken so far; leaves carry the values of AIMA's figure 5.2.
TREE_GAME = '''
PLAYERS = ("MAX", "MIN")
TREE = {LEAVES}
initial = ()

def _node(state):
    node = TREE
    for i in state:
        node = node[i]
    return node

def to_move(state):
    return {MOVER}

def actions(state):
    return list(range(len(_node(state))))

def result(state, action):
    return state + (action,)

def is_terminal(state):
    return not isinstance(_node(state), list)

def utility(state, player):
    value = _node(state)
    return value if player == "MAX" else -value

def evaluate(state, player):
    return 0
'''


def make_game(tmp_path: Path, leaves, mover='"MAX" if len(state) % 2 == 0 else "MIN"', name="tree") -> Game:
    path = tmp_path / f"{name}.py"
    path.write_text(TREE_GAME.replace("{LEAVES}", repr(leaves)).replace("{MOVER}", mover), encoding="utf-8")
    return Game.from_file(path, f"_test_game_{name}")


def test_alphabeta_evaluates_exactly_the_textbook_leaves(tmp_path):
    game = make_game(tmp_path, [[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    searcher = Searcher(game)
    value, evaluated = searcher.alphabeta((), None)
    assert value == 3 == searcher.value((), None)
    # The second MIN node is cut off after its first leaf (2 < alpha = 3).
    assert evaluated == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert searcher.best_moves((), None) == [0]


def test_alphabeta_prunes_only_on_a_strict_inequality(tmp_path):
    game = make_game(tmp_path, [[3, 5], [3, 9]])
    searcher = Searcher(game)
    _, strict = searcher.alphabeta((), None)
    _, equal = searcher.alphabeta((), None, pruning="equal")
    _, none = searcher.alphabeta((), None, pruning="none")
    assert strict == none == [(0, 0), (0, 1), (1, 0), (1, 1)]  # 3 equals alpha: no cut
    assert equal == [(0, 0), (0, 1), (1, 0)]
    assert sorted(searcher.best_moves((), None)) == [0, 1]  # a tie: both moves are right


def test_whose_turn_comes_from_to_move_so_a_player_may_move_twice(tmp_path):
    # MAX moves twice (at the root and at depth 1), then MIN.
    game = make_game(tmp_path, [[[1, 9], [4, 2]], [[0, 3], [5, 6]]], mover='"MIN" if len(state) == 2 else "MAX"')
    searcher = Searcher(game)
    # MAX picks among MIN nodes' values: min(1,9)=1, min(4,2)=2, min(0,3)=0, min(5,6)=5.
    assert searcher.value((), None) == 5
    assert searcher.best_moves((), None) == [1]


def test_depth_counts_plies_unless_the_declaration_says_turns(tmp_path):
    game = make_game(tmp_path, [[[1, 9], [4, 2]], [[0, 3], [5, 6]]], mover='"MIN" if len(state) == 2 else "MAX"')
    plies, turns = Searcher(game, "plies"), Searcher(game, "turns")
    # Depth 1: plies stop after one move (the heuristic is 0); turns let MAX's second move happen too.
    assert plies.value((), 1) == 0
    assert turns.child_depth((), (0,), 1) == 1 and turns.child_depth((0,), (0, 0), 1) == 0
    assert turns.value((), 1) == 0 and turns.value((), 2) == 5


def test_mistake_families_are_variants_of_the_same_search(tmp_path):
    game = make_game(tmp_path, [[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    searcher = Searcher(game)
    predicted = {f: searcher.variant_value(f, (), None)[0]
                 for f in ("min-max-swapped", "always-max", "always-min", "first-child-only", "averages-children",
                           "sign-flip", "bad-initial-bound")}
    assert predicted == {"min-max-swapped": 6, "always-max": 14, "always-min": 2, "first-child-only": 3,
                         "averages-children": (23 / 3 + 4 + 7) / 3, "sign-flip": -6, "bad-initial-bound": 0}


def test_a_game_without_its_rules_is_refused_in_one_line(tmp_path):
    path = tmp_path / "broken.py"
    path.write_text("PLAYERS = ('a', 'b')\ndef to_move(s): return 'a'\n", encoding="utf-8")
    with pytest.raises(GameError, match="lacks actions, result, is_terminal, utility"):
        Game.from_file(path)


@pytest.mark.parametrize("change, words", [
    ({"student": {"function": "f", "arguments": {"s": "board"}}}, "one of state, depth"),
    ({"student": {"function": "f", "arguments": {"s": "state"}, "returns": "value, move"}}, "returns"),
    ({"student": {"function": "f", "arguments": {"s": "state", "d": "depth"}}}, "depths"),
    ({"student": {"function": "f", "arguments": {"s": "state"}, "helpers": {"h": "teleport"}}}, "[student.helpers] h"),
    ({"game": {}}, "[game] must name"),
])
def test_declaration_mistakes_are_named_by_key(change, words):
    meta = {"game": {"module": "g.py"}, "student": {"function": "f", "arguments": {"s": "state"}}}
    meta.update(change)
    with pytest.raises(declaration.DeclarationError, match=None) as caught:
        declaration.read(meta)
    assert words in str(caught.value)


def test_declared_returns_shapes():
    read = declaration._returns
    assert read("value") == {"container": None, "items": ["value"]}
    assert read("(value, move)") == {"container": "tuple", "items": ["value", "move"]}
    assert read("[move, value]") == {"container": "list", "items": ["move", "value"]}


def test_a_move_spread_into_the_answer_and_no_move_written_as_the_course_writes_it():
    """``[row, col, score]``: a move that is a pair spread into the list, "no move" as ``[-1, -1]``."""
    from grader.vocabulary.answers import Answer
    from grader.kit import answer_shape

    base = {"game": {"module": "g.py"}, "student": {"function": "f", "arguments": {"s": "state"},
                                                     "returns": "[*move, value]"}}
    with pytest.raises(declaration.DeclarationError, match="no_move"):
        declaration.read(base)
    base["student"].update(no_move=[-1, -1], answer_words="a list [row, col, score]")
    shape = declaration.read(base)["returns"]

    def tagged(value):
        if type(value) is list:
            return {"t": "list", "v": [tagged(v) for v in value]}
        return {"t": "int", "v": value}

    parts, problem = answer_shape.split(shape, Answer.decode(tagged([0, 2, 1])), "f")
    assert problem is None and parts["move"].same_as([0, 2]) and parts["value"].value == 1
    assert answer_shape.is_no_move(shape, answer_shape.split(shape, Answer.decode(tagged([-1, -1, 0])), "f")[0]["move"])
    _, problem = answer_shape.split(shape, Answer.decode(tagged(3)), "f")
    assert "must return a list [row, col, score]" in problem
    assert answer_shape.show_expected(shape, {"value": 0, "moves": []}) == "[-1, -1, 0]"
    assert answer_shape.show_expected(shape, {"value": 1, "moves": [[0, 2], [2, 0]]}) == "[0, 2, 1] or [2, 0, 1]"
    pair = declaration.read({**base, "student": {**base["student"], "returns": "(value, move)", "no_move": None}})
    assert answer_shape.show_expected(pair["returns"], {"value": -1, "moves": [[0, 1]]}) == "(-1, (0, 1))"
    assert answer_shape.show_expected(pair["returns"], {"value": 0, "moves": []}) == "(0, None)"


def _driver(tmp_path, nim_decl):
    from grader.kit import driver

    game = Path(__file__).resolve().parent.parent / "exercises" / "nim" / "nim.py"
    return driver.configure(json.dumps(nim_decl), str(game))


def _as_sent(message):
    """A helper's question as the grading process reads it off the channel (the driver may write it out itself)."""
    from grader.sandbox import replies

    return replies.loads_question(message if type(message) is bytes else json.dumps(message).encode("utf-8"))


def test_the_driver_asks_evaluations_by_path_and_the_oracle_logs_them(tmp_path):
    """The child's evaluation helper asks the grading process with the state's path from the root (a state
    the kit handed out) or its plain data (any other); the oracle finds the position itself, answers,
    and logs what was asked. The child's copy of the game has no evaluation function left."""
    from grader.kit.game import Game
    from grader.kit.hooks import KitOracle

    decl = declaration.read({"game": {"module": "nim.py"}, "student": {
        "function": "f", "arguments": {"state": "state", "me": "player"}, "players": {"max": 1, "min": -1},
        "helpers": {"moves": "actions", "play": "result", "won": {"op": "utility", "player": "max"}}}})
    side = _driver(tmp_path, decl)
    built = side["build"]({"state": [[1, 1], "MAX"]})
    game = Game(load_module(Path(__file__).resolve().parent.parent / "exercises" / "nim" / "nim.py", "_test_nim_oracle"))
    oracle = KitOracle(game, game.decode([[1, 1], "MAX"]))
    asked = []

    class Link:
        @staticmethod
        def ask(message):  # as the question reaches the grading process: written out, read back
            message = _as_sent(message)
            asked.append(message)
            return oracle.ask(message)

    helpers = side["helpers"](built, Link)
    root = built.root
    first = helpers["play"](root, helpers["moves"](root)[1])      # take the second heap's object
    last = helpers["play"](first, helpers["moves"](first)[0])
    assert helpers["won"](last) == game.utility(game.decode([[0, 0], "MAX"]), game.max_player)
    helpers["won"](((0, 0), "MAX"))  # an equal position the kit never handed out
    assert asked == [["e", "utility", [1, 0], 0], ["e", "utility", {"state": [[0, 0], "MAX"]}, 0]]
    assert oracle.trace() == {"evaluated": [[1, 0], "?"]}
    with pytest.raises(ValueError):
        oracle.ask(["e", "utility", [7], 0])  # not a path of this case: the child's tampering
    child_game = next(cell.cell_contents for cell in helpers["moves"].__closure__
                      if type(cell.cell_contents).__name__ == "module")
    assert callable(child_game.actions) and not hasattr(child_game, "utility")
    with pytest.raises(ValueError, match="not a legal move"):
        helpers["play"](root, (5, 1))
    assert side["call"](lambda state, me: (state, me), built) == (root, 1)
    assert side["snapshot"](built) == side["snapshot"](side["build"]({"state": [[1, 1], "MAX"]}))


def test_evaluations_are_asked_only_where_the_declaration_makes_them_evidence():
    """Which positions were evaluated is evidence only where a check (kind ``evaluations``) or the naming
    (a depth-limited search) reads it: only there does the child ask for every evaluation and the grader keep
    an oracle. Elsewhere the generated driver evaluates in the child, and the grader keeps no oracle at all,
    so a question from such a child finds nothing to answer it (the session's tampering)."""
    from grader.judging import exercise as exercises

    asked = {name: exercises.load(name).hooks for name in ("nim", "coin-row", "connect-four", "twin-heaps")}
    assert {name: hooks.evaluations_are_evidence for name, hooks in asked.items()} == {
        "nim": False, "coin-row": False, "connect-four": True, "twin-heaps": True}
    for name, hooks in asked.items():
        case_input = {"state": hooks.game.encode(hooks.game.starts[0]), "depth": 2}
        evidence = hooks.evaluations_are_evidence
        assert (hooks.oracle(case_input) is not None) == evidence
        assert (hooks.loading_oracle() is not None) == evidence
        assert ('"evaluate_in_child": true' in hooks.driver_path().read_text()) == (not evidence)


def test_an_evaluation_in_the_child_is_the_one_the_oracle_gives(tmp_path):
    """Where evaluations are no evidence the driver answers them itself, as the oracle would: the position at
    the state's path from the case's own root (not the object handed out), the plain data of any other
    state read back, and the game's own error in the oracle's words."""
    from grader.kit.game import Game
    from grader.kit.hooks import KitOracle

    decl = declaration.read({"game": {"module": "nim.py"}, "student": {
        "function": "f", "arguments": {"state": "state", "me": "player"}, "players": {"max": 1, "min": -1},
        "helpers": {"moves": "actions", "play": "result", "won": {"op": "utility", "player": "max"},
                    "score": {"op": "utility"}}}})
    asking = _driver(tmp_path, decl)
    here = _driver(tmp_path, {**decl, "evaluate_in_child": True})
    game = Game(load_module(Path(__file__).resolve().parent.parent / "exercises" / "nim" / "nim.py", "_test_nim_here"))

    class Link:
        @staticmethod
        def ask(message):
            raise AssertionError(f"asked {message!r}")

    case = {"state": [[2, 1], "MAX"]}
    oracle = KitOracle(game, game.decode(case["state"]))

    class Asking:
        @staticmethod
        def ask(message):
            message = _as_sent(message)
            return oracle.ask(message)

    for side, link in ((here, Link), (asking, Asking)):
        built = side["build"](case)
        helpers = side["helpers"](built, link)
        root = built.root
        states = [root]
        while helpers["moves"](states[-1]):
            states.append(helpers["play"](states[-1], helpers["moves"](states[-1])[0]))
        found = [helpers["won"](s) for s in states[-1:]] + [helpers["score"](states[-1], -1)]
        found.append(helpers["won"](((0, 0), "MIN")))  # one the kit never handed out
        if side is here:
            from_here = found
        else:
            assert found == from_here
    child_game = next(cell.cell_contents for cell in here["helpers"](here["build"](case), Link)["moves"].__closure__
                      if type(cell.cell_contents).__name__ == "module")
    assert callable(child_game.utility)  # kept: the child answers with it
    assert here["loading_helpers"](Link)["won"](((0, 0), "MAX")) == game.utility(game.decode([[0, 0], "MAX"]), "MAX")


def test_pictures_are_text_and_svg(tmp_path):
    game = Game(load_module(Path(__file__).resolve().parent.parent / "exercises" / "connect-four" / "connect_four.py",
                            "_test_c4"))
    state = game.result(game.result(game.module.initial, 2), 3)
    text = pictures.text(game, state, "X to move")
    assert text.splitlines()[-3] == "| . . X O . |" and text.endswith("X to move")
    svg = pictures.svg(game.render(state))
    assert svg.startswith("<svg") and svg.count("<circle") == 2 and "<title>X</title>" in svg


def test_values_from_max_point_of_view_match_math():
    assert math.isinf(declaration.read({"game": {"module": "g.py"}, "student": {
        "function": "f", "arguments": {"s": "state"}}})["alpha"])


def test_new_exercise_refuses_an_existing_folder_and_a_game_without_rules(tmp_path):
    from grader.kit.scaffold import ScaffoldError, scaffold

    game = Path(__file__).resolve().parent.parent / "exercises" / "nim" / "nim.py"
    made = scaffold("heaps", game, tmp_path)
    assert (made / "nim.py").is_file() and "[student]" in (made / "exercise.toml").read_text(encoding="utf-8")
    with pytest.raises(ScaffoldError, match="already exists"):
        scaffold("heaps", game, tmp_path)
    broken = tmp_path / "broken.py"
    broken.write_text("PLAYERS = (1, 2)\n", encoding="utf-8")
    with pytest.raises(ScaffoldError, match="lacks to_move"):
        scaffold("other", broken, tmp_path)
    assert not (tmp_path / "other").exists()


def test_case_groups_are_chosen_by_a_predicate_and_asked_with_the_moves_left(tmp_path):
    """``[game.groups]``: finished positions (one in two), unfinished ones with at most one move left;
    ``depths = "moves-left"``: each asked with its longest line of play as the depth."""
    from grader.kit import bank, groups

    game = make_game(tmp_path, [[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    decl = declaration.read({"game": {"module": "tree.py", "depths": "moves-left", "groups": {
        "leaves": {"terminal": True, "every": 2}, "last": {"terminal": False, "moves_left": 1}}},
        "student": {"function": "f", "arguments": {"s": "state", "d": "depth"}}})
    cases = groups.cases(game, decl, bank._input)
    leaves = [c for c in cases if c["group"] == "leaves"]
    last = [c for c in cases if c["group"] == "last"]
    assert len(leaves) == 5 and all(c["input"]["depth"] == 0 for c in leaves)
    assert sorted(c["input"]["state"][0] for c in last) == [0, 1, 2] and all(c["input"]["depth"] == 1 for c in last)
    with pytest.raises(declaration.DeclarationError, match="groups.bad"):
        declaration.read({"game": {"module": "tree.py", "groups": {"bad": {"terminal": "yes"}}},
                          "student": {"function": "f", "arguments": {"s": "state"}}})
