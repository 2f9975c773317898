"""The kit's mistake families as ``grader.judging.diagnose`` models, for an exercise graded by its own hooks.

An exercise that is not declared on the kit (its questions are its own, e.g. one per part) can
still take its wrong searches from the kit when some of its answers are values of a game's
positions: it gives a ``Searcher`` over its game, which families to try, and ``position``, which
turns a case input into ``(state, depth)`` (None where the case asks no value; the model then
answers None, which agrees with any reply that is not a number or a crash). Each family gives a
model, and a twin that raises where the family's search meets a finished game it does not
recognise (``max()`` of no moves). ``words`` words a code in the game's own terms.
"""

from __future__ import annotations

from grader.vocabulary.findings import Model
from grader.kit.families import CODES, PARAMETERISED, predictor


def value_models(searcher, position, families, words: dict | None = None) -> list[Model]:
    words = words or {}
    found = []
    for family in families:
        named = PARAMETERISED.get(family)
        code = named.code if named else family
        text, question = words.get(code) or CODES.get(code, ("", ""))
        text = words[family][0] if family in words else named.text if named else text
        found += [Model(code, _answer(searcher, position, family, raising), text, question) for raising in (False, True)]
    return found


def _answer(searcher, position, family, raising):
    predict = predictor(searcher, family)

    def answer(case_input):
        asked = position(case_input)
        if asked is None:
            return None
        value, empty = predict(*asked)
        if raising and empty:
            raise ValueError("max() or min() of no moves")
        return value

    return answer
