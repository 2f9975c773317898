"""``check --format junit|gradescope`` and the exporters behind them, on real grading runs."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from grader.doors import api
from grader.export import classroom, gradescope
from grader.export.junit import to_junit

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "fixtures/submissions"
BUGGY = SUBMISSIONS / "ctp-26/buggy/always_max.py"
PARTIAL = SUBMISSIONS / "ctp-26/buggy/evaluates_internal_nodes.py"
CORRECT = SUBMISSIONS / "ctp-26/correct/negamax.py"
BROKEN = SUBMISSIONS / "bad/syntax_error.py"


def check_cli(path: Path, fmt: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", "check", str(path), "--exercise", "ctp-26", "--format", fmt],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def results():
    return {name: api.check(path, "ctp-26") for name, path in
            (("buggy", BUGGY), ("partial", PARTIAL), ("correct", CORRECT), ("broken", BROKEN))}


@pytest.fixture(scope="module")
def schema():
    document = gradescope.schema()
    jsonschema.Draft202012Validator.check_schema(document)
    return document


def test_check_format_junit_is_junit_xml_with_one_testcase_per_check(ctp26):
    run = check_cli(BUGGY, "junit")
    assert run.returncode == 1, run.stderr
    root = ET.fromstring(run.stdout.encode("utf-8"))
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [spec.name for spec in ctp26.checks]
    assert all(c.get("classname") == "minimax-grader.ctp-26" for c in cases)
    failed = [c for c in cases if c.find("failure") is not None]
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped"), suite.get("errors")) == (
        str(len(cases)), str(len(failed)), str(len(skipped)), "0")
    assert len(failed) == 3 and len(skipped) == 4
    feedback = failed[0].find("failure").text
    # A published case fails: it is shown as itself (the exercise's tree), never shrunk into another one.
    assert "A tree on which it goes wrong" in feedback and "yours: 10" in feedback
    assert "published-cases" in skipped[0].find("skipped").get("message")
    # Each case's points under the names the pytest plugin gives its items' properties (the 120th helper)
    for case, spec in zip(cases, ctp26.checks):
        said = {p.get("name"): p.get("value") for p in case.find("properties")}
        assert said["max_score"] == f"{spec.points:g}" and said["points"] == f"{said['score']}/{said['max_score']}"
    assert [c.find("properties")[0].get("value") for c in failed] == ["0"] * 3


def test_a_passing_run_has_no_failures_and_an_ungradable_one_is_an_error(results):
    passing = ET.fromstring(to_junit(results["correct"]))
    assert passing.get("failures") == "0" and passing.get("errors") == "0" and passing.get("tests") == "7"
    broken = ET.fromstring(to_junit(results["broken"]))
    (case,) = broken.iter("testcase")
    assert case.get("name") == "grading" and "syntax error" in case.find("error").text


def test_junit_survives_whatever_the_student_printed(results):
    noisy = copy.deepcopy(results["buggy"])
    noisy.output = {"stdout": "bell \x07 nul \x00 escape \x1b[31m", "stderr": "\ufffe", "truncated": False}
    root = ET.fromstring(to_junit(noisy))
    assert "bell" in root.find("testsuite/system-out").text


def test_junit_survives_whatever_the_student_named_their_file(results):
    """The file's name is in attributes (the suite's name, a property's value): a control character there made the
    document unreadable (the hundred and tenth helper)."""
    odd = copy.deepcopy(results["buggy"])
    odd.submission = "solution\x01\x1b[31m.py"
    root = ET.fromstring(to_junit(odd))
    assert root.find("testsuite").get("name").startswith("ctp-26: solution")


def test_check_format_gradescope_validates_against_the_schema(schema):
    run = check_cli(PARTIAL, "gradescope")
    assert run.returncode == 1, run.stderr
    document = json.loads(run.stdout)
    jsonschema.validate(document, schema)
    assert document["score"] == 9.0
    assert sum(t["score"] for t in document["tests"]) == 9.0
    assert [t["number"] for t in document["tests"]] == [str(i) for i in range(1, 8)]
    failing = [t for t in document["tests"] if t["status"] == "failed"]
    assert [t["name"] for t in failing] == ["evaluation-discipline"]
    assert failing[0]["output_format"] == "md" and failing[0]["max_score"] == 1.0


@pytest.mark.parametrize("which", ["buggy", "partial", "correct", "broken"])
def test_every_export_is_schema_valid(results, schema, which):
    document = gradescope.to_gradescope(results[which])
    jsonschema.validate(document, schema)
    assert document["score"] == results[which].score
    if which == "broken":
        assert "could not be graded" in document["output"] and document["tests"] == []


def test_the_schema_rejects_what_gradescope_would_not_understand(results, schema):
    document = gradescope.to_gradescope(results["buggy"])
    for mutate in (lambda d: d["tests"][0].update(status="skipped"), lambda d: d.update(visibility="students"),
                   lambda d: d["tests"][0].update(output_format="markdown"), lambda d: d["tests"][0].update(numbr="1"),
                   lambda d: (d.pop("score"), [t.pop("score") for t in d["tests"]])):
        broken = copy.deepcopy(document)
        mutate(broken)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema)


def test_hidden_checks_are_hidden_from_students_until_published(results, schema):
    result = copy.deepcopy(results["partial"])
    result.checks[3].hidden = True
    document = gradescope.to_gradescope(result)
    jsonschema.validate(document, schema)
    visibility = {t["name"]: t["visibility"] for t in document["tests"]}
    assert visibility.pop("evaluation-discipline") == "after_published"
    assert set(visibility.values()) == {"visible"}


def test_classroom_result_adds_up_to_the_grader_score(results):
    for which, status in (("buggy", "fail"), ("partial", "fail"), ("correct", "pass"), ("broken", "error")):
        result = results[which]
        decoded = json.loads(base64.b64decode(classroom.encode(result)))
        assert decoded == classroom.to_classroom(result)
        assert decoded["version"] == 1 and decoded["status"] == status and decoded["max_score"] == 10.0
        assert sum(t["score"] for t in decoded["tests"]) == result.score
        assert all({"name", "status", "message", "score"} <= set(t) for t in decoded["tests"])


def test_machine_formats_say_where_it_goes_wrong_and_why_the_mistake_is_named(results):
    """The 120th helper: the text and Markdown reports say where the code first goes wrong and why the grader names
    the mistake; Gradescope, JUnit and Classroom (and the pytest plugin, which reads the same text) dropped both."""
    result = results["buggy"]
    where = next(c.counterexample.localisation["text"] for c in result.checks
                 if c.counterexample is not None and c.counterexample.localisation)
    evidence = result.mistakes[0].evidence
    assert where and evidence
    exported = {"gradescope": json.dumps(gradescope.to_gradescope(result)),
                "junit": to_junit(result), "classroom": json.dumps(classroom.to_classroom(result))}
    for name, text in exported.items():
        plain = text.replace("\\u2019", "'")
        assert "where it first goes wrong: " in plain, name
        assert "Why the grader thinks so: " in plain, name


def test_in_markdown_every_part_of_a_failure_is_its_own_paragraph(results):
    """The 125th helper: Gradescope showed "expected: ... yours: ..." and "where it first goes wrong: ..." as one
    paragraph (two lines with no blank line between them are one in Markdown); the text report keeps them together."""
    from grader.report.feedback import check_text

    result = results["buggy"]
    located = [c for c in result.checks if c.counterexample is not None and isinstance(c.counterexample.localisation, dict)
               and c.counterexample.localisation.get("text")]
    assert located, "no failing check here says where it first goes wrong: the test could not fail"
    for check in located:
        markdown = check_text(result, check, markdown=True)
        assert "\n\nwhere it first goes wrong: " in markdown, markdown
        assert "\nwhere it first goes wrong: " in check_text(result, check)
        tests = {t["name"]: t["output"] for t in gradescope.to_gradescope(result)["tests"]}
        assert "\n\nwhere it first goes wrong: " in tests[check.name]
