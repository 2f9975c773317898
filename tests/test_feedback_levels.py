"""Feedback levels and hidden checks: each level shows what it should and hides the rest,
in the JSON and in every rendered report; instructors always see everything."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from conftest import ROOT, SUBMISSIONS

BUGGY = SUBMISSIONS / "ctp-26" / "buggy" / "no_alternation.py"
SECRET_TREE = "Move Secret"


def _result():
    """A failing result with one visible and one hidden failing check, each with a counterexample."""
    from grader.judging.result import CheckResult, Counterexample, Mistake, SubmissionResult

    def example(name):
        tree = {"name": name, "value": 3, "children": []}
        return Counterexample(call="minimax(root, 1, True)", picture=f"root: {name} [value 3, A to move]", expected=3,
                              actual=4, input={"tree": tree, "max_depth": 1, "player_a_moves": True}, shrunk=True,
                              localisation={"node": f"/{name}", "depth": 0, "expected": 3, "actual": 4, "children": [],
                                            "text": f"at node /{name} it is A's turn; it has no moves; your code says 4"})

    checks = [
        CheckResult("visible", "a visible check", "failed", 0.0, 2.0, message="minimax(root, 1, True): returned 4, expected 3",
                    counterexample=example("Move Shown"), failed_cases=3, total_cases=10),
        CheckResult("secret", "a hidden check", "failed", 0.0, 1.0, message=f"on {SECRET_TREE}: returned 4",
                    counterexample=example(SECRET_TREE), hidden=True, failed_cases=1, total_cases=5),
        CheckResult("fine", "a check that passed", "passed", 1.0, 1.0),
    ]
    mistakes = [
        Mistake("always-max", "Takes the largest value everywhere.", "Which value does B pick?",
                "gives exactly your answers on 10 cases", checks=["visible"]),
        Mistake("mutates-tree", "The tree changes.", "Could the caller reuse it?", f"on {SECRET_TREE}", checks=["secret"]),
    ]
    return SubmissionResult(submission="s.py", exercise="ctp-26", status="failed", score=1.0, max_score=4.0,
                            checks=checks, mistakes=mistakes, sandbox={"mode": "posix", "warning": None}, output={"stdout": f"visiting {SECRET_TREE}\n", "stderr": "",
                                                                      "truncated": False})


def _views():
    from grader.report import feedback_levels

    result = _result()
    return {(level, audience): feedback_levels.redact(result, level, audience).to_dict()
            for level in feedback_levels.LEVELS for audience in feedback_levels.AUDIENCES}


def _rendered(view):
    from grader import report

    return {fmt: report.render(view, fmt) for fmt in ("text", "md", "html")} | {"json": json.dumps(view)}


def test_score_shows_pass_or_fail_per_check_only():
    view = _views()[("score", "student")]
    assert [(c["name"], c["status"], c["score"]) for c in view["checks"]] == [
        ("visible", "failed", 0.0), ("secret", "failed", 0.0), ("fine", "passed", 1.0)]
    assert view["mistakes"] == []
    assert all(c["counterexample"] is None and c["message"] == "" for c in view["checks"])
    for fmt, text in _rendered(view).items():
        for secret in ("always-max", "Which value does B pick?", "Move Shown", "returned 4", "your code says"):
            assert secret not in text, (fmt, secret)


def test_hints_add_the_explanation_and_question_but_no_counterexample():
    view = _views()[("hints", "student")]
    assert [m["code"] for m in view["mistakes"]] == ["always-max"]
    assert view["mistakes"][0]["question"] == "Which value does B pick?" and view["mistakes"][0]["evidence"] == ""
    assert view["checks"][0]["message"] == "fails on 3 of 10 cases"
    for fmt, text in _rendered(view).items():
        assert "always-max" in text and "Which value does B pick?" in text, fmt
        for secret in ("Move Shown", "expected 3", "your code says", "gives exactly your answers"):
            assert secret not in text, (fmt, secret)


def test_full_adds_counterexamples_localisation_and_evidence():
    view = _views()[("full", "student")]
    visible = view["checks"][0]
    assert visible["counterexample"]["localisation"]["node"] == "/Move Shown"
    assert view["mistakes"][0]["evidence"] == "gives exactly your answers on 10 cases"
    for fmt, text in _rendered(view).items():
        assert "Move Shown" in text and "your code says 4" in text and "gives exactly your answers" in text, fmt


@pytest.mark.parametrize("level", ["score", "hints", "full"])
def test_hidden_checks_are_hidden_from_students_at_every_level(level):
    view = _views()[(level, "student")]
    secret = next(c for c in view["checks"] if c["name"] == "secret")
    assert secret["title"] == "hidden check" and secret["status"] == "failed" and secret["max_score"] == 1.0
    assert secret["message"] == "" and secret["counterexample"] is None
    assert "mutates-tree" not in [m["code"] for m in view["mistakes"]]  # only the hidden check showed it
    for fmt, text in _rendered(view).items():
        assert SECRET_TREE not in text and "a hidden check" not in text, fmt


@pytest.mark.parametrize("level", ["score", "hints", "full"])
def test_instructors_see_everything_whatever_the_level(level):
    from grader.report import feedback_levels

    assert feedback_levels.resolve(level, "score", "instructor") == "full"
    view = _views()[("full", "instructor")]
    secret = next(c for c in view["checks"] if c["name"] == "secret")
    assert secret["title"] == "a hidden check" and secret["counterexample"]["tree"]
    assert [m["code"] for m in view["mistakes"]] == ["always-max", "mutates-tree"]
    assert SECRET_TREE in _rendered(view)["text"]


def test_the_level_comes_from_the_flag_else_the_exercise_else_full():
    from grader.report import feedback_levels

    assert feedback_levels.resolve(None, None) == "full"
    assert feedback_levels.resolve(None, "hints") == "hints"
    assert feedback_levels.resolve("full", "hints") == "full"
    with pytest.raises(ValueError):
        feedback_levels.resolve(None, "everything")


def test_judging_is_untouched_by_the_level():
    from grader.report import feedback_levels

    result = _result()
    before = result.to_json()
    for level in feedback_levels.LEVELS:
        for audience in feedback_levels.AUDIENCES:
            shown = feedback_levels.redact(result, level, audience)
            assert shown is not result and shown.feedback == {"level": level, "audience": audience}
    assert result.to_json() == before and result.feedback is None


# -- through the command line --------------------------------------------------------------

def _check(*args):
    from grader.doors.cli import cli

    run = CliRunner().invoke(cli, ["check", str(BUGGY), "--exercise", *args], catch_exceptions=False)
    assert run.exit_code == 1, run.output
    return run.output


@pytest.fixture(scope="module")
def quiet_exercise(tmp_path_factory):
    """ctp-26 as an instructor might set it before a deadline: hints by default, random trees hidden."""
    folder = tmp_path_factory.mktemp("exercises") / "ctp-26-quiet"
    shutil.copytree(ROOT / "exercises" / "ctp-26", folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "reference").mkdir()
    shutil.copy(ROOT / "reference" / "ctp_26.py", folder / "reference" / "ctp_26.py")
    shutil.copytree(ROOT / "fixtures" / "trees" / "ctp-26", folder / "fixtures" / "trees" / "ctp-26")
    toml = (folder / "exercise.toml").read_text(encoding="utf-8")
    toml = toml.replace('id = "ctp-26"', 'id = "ctp-26-quiet"').replace('default_feedback = "full"', 'default_feedback = "hints"')
    toml = toml.replace('groups = ["random"]\n', 'groups = ["random"]\nhidden = true\n')
    assert 'default_feedback = "hints"' in toml and "hidden = true" in toml
    (folder / "exercise.toml").write_text(toml, encoding="utf-8")
    return folder


@pytest.mark.parametrize("level", ["score", "hints", "full"])
def test_cli_json_follows_the_level(level):
    data = json.loads(_check("ctp-26", "--format", "json", "--feedback", level))
    assert data["feedback"] == {"level": level, "audience": "student"}
    examples = [c["counterexample"] for c in data["checks"] if c["counterexample"]]
    codes = [m["code"] for m in data["mistakes"]]
    if level == "score":
        assert codes == [] and examples == []
    elif level == "hints":
        assert codes == ["no-alternation"] and examples == [] and data["mistakes"][0]["question"]
    else:
        assert codes == ["no-alternation"] and examples and all(e["localisation"] for e in examples)


def test_cli_text_at_each_level():
    full, hints, score = (_check("ctp-26", "--feedback", level) for level in ("full", "hints", "score"))
    assert "where it first goes wrong: at node /" in full and "no-alternation" in full and "expected:" in full
    assert "no-alternation" in hints and "Ask yourself:" in hints and "expected:" not in hints
    assert "where it first goes wrong" not in hints
    assert "no-alternation" not in score and "Ask yourself" not in score and "[FAIL] published-cases" in score


def test_cli_uses_the_exercise_default_and_hides_hidden_checks(quiet_exercise):
    args = ("ctp-26-quiet", "--exercises-dir", str(quiet_exercise.parent), "--examples", "30", "--format", "json")
    student = json.loads(_check(*args))
    assert student["feedback"]["level"] == "hints"
    hidden = next(c for c in student["checks"] if c["name"] == "random-trees")
    assert hidden["title"] == "hidden check" and hidden["counterexample"] is None and hidden["message"] == ""
    assert all(c["counterexample"] is None for c in student["checks"])

    full_student = json.loads(_check(*args, "--feedback", "full"))
    hidden = next(c for c in full_student["checks"] if c["name"] == "random-trees")
    assert hidden["counterexample"] is None and hidden["title"] == "hidden check"
    assert any(c["counterexample"] for c in full_student["checks"])

    instructor = json.loads(_check(*args, "--instructor"))
    assert instructor["feedback"] == {"level": "full", "audience": "instructor"}
    hidden = next(c for c in instructor["checks"] if c["name"] == "random-trees")
    assert hidden["title"] == "right value on the random trees" and hidden["counterexample"]["localisation"]
