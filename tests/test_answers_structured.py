"""Structured answers: what the sandbox sends for a returned value, and what the grader makes of it.

The child encodes with exact types only (``type(x) is list``), never calling the answer's own
methods; the parent decodes into ``Answer`` and compares with exact types all the way down.
The harness is a plain script, so it is loaded from its file as the child loads it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from grader.vocabulary.answers import Answer

HARNESS = Path(__file__).resolve().parent.parent / "grader" / "sandbox" / "harness.py"


@pytest.fixture(scope="module")
def harness():
    spec = importlib.util.spec_from_file_location("_test_harness", HARNESS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def roundtrip(harness, value) -> Answer:
    """Through JSON, as over the pipe."""
    return Answer.decode(json.loads(json.dumps(harness.encode_answer(value), allow_nan=False)))


def test_a_list_of_three_ints_keeps_its_shape(harness):
    answer = roundtrip(harness, [0, 2, 1])
    assert answer.kind == "list" and answer.is_sequence_of(("int",), 3)
    assert answer.same_as([0, 2, 1]) and not answer.same_as((0, 2, 1)) and not answer.same_as([0, 2, 1.0])
    assert answer.describe() == "[0, 2, 1]" and answer.plain() == [0, 2, 1]


def test_exact_types_all_the_way_down(harness):
    assert not roundtrip(harness, [1, 1, True]).same_as([1, 1, 1])  # True is not 1
    assert roundtrip(harness, [1, 1, True]).items[2].kind == "bool"
    assert roundtrip(harness, (1, 2)).kind == "tuple" and roundtrip(harness, (1, 2)).same_as((1, 2))
    assert roundtrip(harness, (1,)).describe() == "(1,)"
    assert roundtrip(harness, None).kind == "none"
    nested = roundtrip(harness, {"move": ("a", [None, 2.5])})
    assert nested.kind == "dict" and nested.same_as({"move": ("a", [None, 2.5])})
    assert nested.plain() == {"move": ["a", [None, 2.5]]}


def test_anything_else_is_other_and_never_equal(harness):
    class Sneaky(list):
        def __eq__(self, other):
            return True

    class Loud:
        def __repr__(self):
            raise RuntimeError("no")

    for value in (Sneaky([0, 2, 1]), {1: 2}, {"k": Sneaky()}, [Loud()]):
        answer = roundtrip(harness, value)
        assert not answer.same_as([0, 2, 1]) and not answer.is_plain
    assert roundtrip(harness, Sneaky([0, 2, 1])).type_name.endswith("Sneaky")
    assert roundtrip(harness, [Loud()]).items[0].text == "(repr raised)"


def test_size_and_depth_are_capped_without_calling_repr(harness):
    deep = [1]
    for _ in range(50):
        deep = [deep]
    loop = [1]
    loop.append(loop)
    for value in (list(range(100000)), deep, loop):
        encoded = harness.encode_answer(value)
        assert encoded["t"] == "other" and "too large" in encoded["repr"]
        assert len(json.dumps(encoded)) < 400
    long_text = harness.encode_answer("x" * 10000)
    assert long_text["t"] == "other" and len(long_text["repr"]) < 300


def test_numbers_are_decoded_as_before(harness):
    """ctp-26's contract: ints and floats exact, NaN equal to nothing, non-numbers described as such."""
    assert roundtrip(harness, 7).equals_number(7) and roundtrip(harness, 7.0).equals_number(7)
    assert not roundtrip(harness, float("nan")).equals_number(float("nan"))
    assert roundtrip(harness, True).show() == "True (of type bool, not an int or a float)"
    assert roundtrip(harness, "7").show() == "'7' (of type str, not an int or a float)"
    assert roundtrip(harness, "7").to_plain() == "'7' (of type str, not an int or a float)"
    assert roundtrip(harness, 2 ** 20000).kind == "other"


def test_garbage_from_the_pipe_decodes_to_other():
    for data in (None, [], {"t": "list", "v": "no"}, {"t": "dict", "v": [[1, {"t": "none"}]]}, {"t": "int", "v": "7"}):
        assert Answer.decode(data).kind == "other"


def test_a_float_too_large_to_read_is_an_undecodable_answer_not_a_crash():
    """``float.fromhex("0x1p99999")`` raises OverflowError, not ValueError: a reply carrying it (the harness
    never writes one; a forged reply can) is an undecodable answer, and a number check says "no number"."""
    from grader.judging.checks import tagged_number
    from grader.vocabulary.answers import Answer

    forged = {"t": "float", "v": "0x1p99999"}
    assert tagged_number(forged) is None
    assert Answer.decode(forged).kind == "other"


def test_a_huge_int_is_judged_and_shown_on_one_line(harness):
    """An int past a float's range (``10 ** 400``): compared without ``math`` (which raised OverflowError and made
    the whole submission "could not judge"), and shown by its ends and its length."""
    from grader.vocabulary.answers import int_text
    from grader.vocabulary.findings import same_number

    huge = 10 ** 400
    assert roundtrip(harness, huge).value == huge
    assert roundtrip(harness, huge).text == "100000000000...000000 (a 401-digit integer)"
    assert roundtrip(harness, -huge).text == "-100000000000...000000 (a 401-digit integer)"
    assert int_text(10 ** 29) == str(10 ** 29) and int_text(-(10 ** 29)) == str(-(10 ** 29))
    assert not same_number(huge, 7) and not same_number(7.5, huge) and not same_number(huge, float("inf"))
    assert same_number(huge, huge) and same_number(huge, huge + 1)  # within the relative tolerance, exactly
    assert not same_number(huge, huge * 2) and not same_number(-huge, huge)


@pytest.mark.parametrize("exercise, source", [
    ("ctp-26", "def minimax(node, max_depth, player_a_moves):\n    return 10 ** 400\n"),
    ("twin-heaps", "def minimax(state, depth):\n    return 10 ** 400\n"),
])
def test_a_submission_answering_a_huge_int_gets_a_wrong_answer_report(tmp_path, exercise, source):
    """Not "the grader could not judge": every rule and model that reads the answer takes the huge int (ctp-26's
    own ignores-player rule used math.isclose on the student's values, the kit's start-value families
    math.isinf, and either failed the whole check)."""
    from grader.doors import api

    path = tmp_path / "huge.py"
    path.write_text(source, encoding="utf-8")
    result = api.check(path, exercise)
    assert result.error is None and result.status == "failed" and result.score == 0
    shown = " ".join(c.message for c in result.checks)
    assert "(a 401-digit integer)" in shown and "0" * 100 not in shown
