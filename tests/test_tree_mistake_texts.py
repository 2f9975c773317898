"""The given-tree exercises word their mistakes in their own exercise.toml ([mistake_texts]), not in the kit.

ctp-26 names the kit's families over the tree game (grader/kit/tree_mistakes.py) and adds wrong searches of
its own; every text and question comes from its folder, so a copy of the folder with other words says those.
"""

import re
import shutil

import pytest


@pytest.fixture()
def copied_ctp26(tmp_path):
    from grader.judging import exercise

    folder = tmp_path / "ctp-26"
    shutil.copytree(exercise.load("ctp-26").folder, folder)
    return folder


def _mistakes_of(folder):
    from grader.judging.exercise import _load_module

    return _load_module(folder / "mistakes.py", "_test_ctp26_copy_mistakes")


def test_a_model_says_the_words_its_exercise_gives_it(copied_ctp26):
    toml = copied_ctp26 / "exercise.toml"
    text = toml.read_text(encoding="utf-8")
    text, worded = re.subn(r'(\[mistake_texts\."averages-children/min"\]\ntext = )".*"', r'\1"B averages here."', text)
    assert worded == 1
    toml.write_text(text, encoding="utf-8")
    module = _mistakes_of(copied_ctp26)
    found = [m for m in module.MODELS if m.explanation == "B averages here."]
    assert [m.code for m in found] == ["averages-children"]
    assert found[0].question == module.CODES["averages-children"][1]  # the code's question, in its words too
    assert found[0].answer({"tree": {"name": "r", "value": 0, "children": [
        {"name": "x", "value": 1, "children": []}, {"name": "y", "value": 4, "children": []}]},
        "max_depth": 1, "player_a_moves": False}) == 2.5


def test_a_model_its_exercise_does_not_word_says_its_codes_text(copied_ctp26):
    """Without its own words, the family of players swapped below the root explains itself as the code does."""
    toml = copied_ctp26 / "exercise.toml"
    text = toml.read_text(encoding="utf-8")
    text, removed = re.subn(r'\[mistake_texts\."min-max-swapped/below-root"\]\ntext = ".*"\n', "", text)
    assert removed == 1
    toml.write_text(text, encoding="utf-8")
    module = _mistakes_of(copied_ctp26)
    swapped = [m.explanation for m in module.MODELS if m.code == "min-max-swapped"]
    assert len(swapped) == 2 and set(swapped) == {module.CODES["min-max-swapped"][0]}
    assert "player B" in module.CODES["min-max-swapped"][0]  # ctp-26's words, not the kit's MAX and MIN


@pytest.mark.parametrize("name", ["ctp-26", "alphabeta"])
def test_every_code_a_tree_exercise_can_name_is_in_its_words(name):
    from grader.judging import diagnose, exercise
    from grader.kit.families import CODES as KIT

    module = diagnose.mistakes_of(exercise.load(name))
    for model in module.MODELS:
        assert module.CODES[model.code] != KIT.get(model.code), (name, model.code)
        assert model.explanation and model.question, (name, model.code)
