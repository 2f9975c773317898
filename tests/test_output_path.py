"""The one-way output path: `check`'s every format at every feedback level, pinned byte for byte.

A ``SubmissionResult`` goes one way, from the judge to the outputs: the feedback level makes a
redacted copy of it (``feedback_levels.redact``), and that copy is what the reports, the
exporters and the doors are handed. Nothing goes through the contract's dictionary and back to
result objects, and no door loads the exercise again for what the result carries.

``test_outputs_are_as_recorded`` runs ``minimax-grader check`` (in process, through click) on a
few submissions, for every ``--format`` and every feedback level (the exercise's default,
``score``, ``hints``, ``full``, ``--instructor``), under a simulated GitHub Actions run, and
compares a hash of everything it wrote (exit code, stdout, stderr, step summary,
``$GITHUB_OUTPUT``) with ``tests/golden/output_path.json``. Each submission is graded once
(``api.check`` is cached), and what legitimately varies between runs and machines is fixed
on that result before any output is made: ``duration_seconds`` (JSON ``duration_seconds``,
Gradescope ``execution_time``, JUnit ``time``), the sandbox (``bwrap`` here, a posix fallback
with a warning elsewhere) and the grader's version. The golden hashes were recorded with the
code from before the one-way path, so they pin that the change altered no output.

When an output changes on purpose (another branch's wording, say "judged on records kept inside
the sandbox"), regenerate and commit the file::

    MINIMAX_GRADER_REGENERATE_GOLDEN=1 python -m pytest -n 0 tests/test_output_path.py -k recorded

On a mismatch the test writes every output it made to a folder it names, so the difference can
be read; ``MINIMAX_GRADER_GOLDEN_DUMP=DIR`` writes them to DIR on every run, so running it in
a checkout of each side and ``diff -r`` of the two folders shows what changed.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "output_path.json"
REGENERATE = os.environ.get("MINIMAX_GRADER_REGENERATE_GOLDEN") == "1"
FORMATS = ["text", "json", "md", "html", "junit", "gradescope"]
LEVELS = {"default": [], "score": ["--feedback", "score"], "hints": ["--feedback", "hints"],
          "full": ["--feedback", "full"], "instructor": ["--instructor"]}
QUIET = "ctp-26-quiet"  # ctp-26 with hints by default and its random trees hidden
# (name, submission relative to the repository, exercise or None to let check guess it)
SUBMISSIONS = [
    ("ctp26-buggy", "fixtures/submissions/ctp-26/buggy/no_alternation.py", "ctp-26"),
    ("ctp26-prints", "fixtures/submissions/ctp-26/correct/prints_a_lot.py", "ctp-26"),
    ("ctp26-syntax-error", "fixtures/submissions/bad/syntax_error.py", "ctp-26"),
    ("ungradable", "fixtures/submissions/bad/empty.py", None),
    ("connect-four-buggy", "fixtures/submissions/connect-four/buggy/no_alternation.py", "connect-four"),
    ("quiet-buggy", "fixtures/submissions/ctp-26/buggy/no_alternation.py", QUIET),
]
SEED = "12345"
FIXED = {"duration_seconds": 1.25, "sandbox": {"mode": "bwrap", "warning": None}, "grader_version": "0.0.0+golden"}


@pytest.fixture(scope="module")
def quiet_exercises(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("exercises")
    target = folder / QUIET
    shutil.copytree(ROOT / "exercises" / "ctp-26", target, ignore=shutil.ignore_patterns("__pycache__"))
    (target / "reference").mkdir()
    shutil.copy(ROOT / "reference" / "ctp_26.py", target / "reference" / "ctp_26.py")
    shutil.copytree(ROOT / "fixtures" / "trees" / "ctp-26", target / "fixtures" / "trees" / "ctp-26")
    toml = (target / "exercise.toml").read_text(encoding="utf-8")
    toml = toml.replace('id = "ctp-26"', f'id = "{QUIET}"').replace('default_feedback = "full"', 'default_feedback = "hints"')
    toml = toml.replace('groups = ["random"]\n', 'groups = ["random"]\nhidden = true\n')
    assert 'default_feedback = "hints"' in toml and "hidden = true" in toml
    (target / "exercise.toml").write_text(toml, encoding="utf-8")
    return folder


def _outputs(tmp_path: Path, quiet_exercises: Path, monkeypatch) -> dict[str, str]:
    """Every (submission, format, level) run of ``check``, as one text each."""
    from click.testing import CliRunner

    from grader.doors import api
    from grader.doors.cli import cli

    graded: dict = {}
    real_check = api.check

    def check_once(path, exercise, **kwargs):
        key = (str(path), exercise, kwargs.get("seed"))
        if key not in graded:
            result = real_check(path, exercise, **kwargs)
            for name, value in FIXED.items():
                setattr(result, name, value)
            graded[key] = result
        return graded[key]

    monkeypatch.setattr(api, "check", check_once)
    real_ungradable = api.ungradable

    def ungradable_fixed(path, *args, **kwargs):  # its version too, so that a version bump is no golden change
        result = real_ungradable(path, *args, **kwargs)
        result.grader_version = FIXED["grader_version"]
        return result

    monkeypatch.setattr(api, "ungradable", ungradable_fixed)
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)
    outputs = {}
    for name, submission, exercise in SUBMISSIONS:
        for fmt in FORMATS:
            for level, flags in LEVELS.items():
                summary, github_output = tmp_path / "summary.md", tmp_path / "output.txt"
                for stale in (summary, github_output):
                    stale.unlink(missing_ok=True)
                env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(github_output),
                       "GITHUB_WORKSPACE": str(ROOT)}
                args = ["check", submission, "--format", fmt, "--seed", SEED, *flags]
                if exercise is not None:
                    args += ["--exercise", exercise]
                if exercise == QUIET:
                    args += ["--exercises-dir", str(quiet_exercises)]
                run = CliRunner().invoke(cli, args, env=env, catch_exceptions=False)
                text = (f"== rc {run.exit_code}\n== stdout\n{run.stdout}\n== stderr\n{run.stderr}\n"
                        f"== step summary\n{summary.read_text(encoding='utf-8') if summary.exists() else '<none>'}\n"
                        f"== github output\n{github_output.read_text(encoding='utf-8') if github_output.exists() else '<none>'}\n")
                outputs[f"{name} {fmt} {level}"] = text.replace(str(quiet_exercises), "<EXERCISES>")
    return outputs


def _dump(outputs: dict[str, str], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for key, text in outputs.items():
        (folder / (key.replace(" ", ".") + ".txt")).write_text(text, encoding="utf-8")
    return folder


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_outputs_are_as_recorded(tmp_path, quiet_exercises, monkeypatch):
    outputs = _outputs(tmp_path, quiet_exercises, monkeypatch)
    hashes = {key: _digest(text) for key, text in outputs.items()}
    if os.environ.get("MINIMAX_GRADER_GOLDEN_DUMP"):
        _dump(outputs, Path(os.environ["MINIMAX_GRADER_GOLDEN_DUMP"]))
    assert len(hashes) == len(SUBMISSIONS) * len(FORMATS) * len(LEVELS)
    if REGENERATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        pytest.skip(f"golden hashes written to {GOLDEN}")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = sorted(key for key in golden if hashes.get(key) != golden[key])
    if changed or set(hashes) != set(golden):
        written = _dump(outputs, tmp_path / "outputs")
        pytest.fail(f"{len(changed)} of {len(golden)} outputs differ from {GOLDEN.name} (first: {changed[:5]}); "
                    f"this run's outputs are in {written}; if the change is meant, regenerate (see this module's docstring)")
    # The graded function's line reached the annotations (the result carried it there).
    assert ",line=" in outputs["ctp26-buggy text full"] and "::error file=fixtures/submissions/ctp-26/buggy/" in outputs["ctp26-buggy text full"]


# -- the structure ---------------------------------------------------------------------------

OUTPUT_PACKAGES = ("grader/export", "grader/report", "grader/doors")
# Where the output packages may load an exercise: each before any result exists (the grading
# itself, listing, the statement, writing CI or a Gradescope bundle, the pytest plugin's item names).
LOADS_BEFORE_A_RESULT = {
    ("grader/doors/api.py", "check"), ("grader/doors/api.py", "list_exercises"), ("grader/doors/api.py", "load_problems"),
    ("grader/doors/cli.py", "guess_exercise"), ("grader/doors/cli.py", "show"), ("grader/doors/cli.py", "init_ci"),
    ("grader/doors/gradescope_bundle.py", "build"), ("grader/doors/pytest_plugin.py", "_load_exercise"),
    ("grader/doors/cli.py", "_publish_usage_error"),  # no result was made: the usage error's points out of the exercise's
}


def _exercise_loads(path: Path) -> list[tuple[str, int]]:
    """(enclosing function, line) of every ``exercise(s).load(...)``/``load_all(...)`` call, and of every
    import of those functions by name (which would hide a call from this scan)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if (isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                    and child.func.attr in ("load", "load_all") and isinstance(child.func.value, ast.Name)
                    and child.func.value.id in ("exercise", "exercises")):
                found.append((function, child.lineno))
            if (isinstance(child, ast.ImportFrom) and (child.module or "").endswith("judging.exercise")
                    and any(alias.name in ("load", "load_all") for alias in child.names)):
                found.append((function, child.lineno))
            visit(child, inner)

    visit(tree, "<module>")
    return found


def test_no_door_exporter_or_report_loads_an_exercise_for_a_result_already_made():
    found = {}
    for package in OUTPUT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for function, line in _exercise_loads(path):
                found.setdefault((rel, function), []).append(line)
    unexpected = {key: lines for key, lines in found.items() if key not in LOADS_BEFORE_A_RESULT}
    assert not unexpected, f"an exercise loaded where a result already exists (the result should carry it): {unexpected}"
    # The scan sees what it should: the allowed loads are really there.
    assert ("grader/doors/api.py", "check") in found and ("grader/doors/pytest_plugin.py", "_load_exercise") in found
    for key in (("grader/doors/github_actions.py", "publish"), ("grader/doors/cli.py", "check"),
                ("grader/doors/pytest_plugin.py", "_as_student_sees_it")):
        assert key not in found


def test_nothing_rebuilds_results_from_dictionaries():
    assert not (ROOT / "grader/export/shown.py").exists()
    for path in sorted((ROOT / "grader").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "result_from_dict" not in text and "export.shown" not in text, path
        assert "feedback_levels.view(" not in text, path


def test_the_redacted_result_reaches_every_exporter_without_a_dictionary(monkeypatch):
    """Redacting and every object exporter work on the objects: ``to_dict`` is only for JSON and templates."""
    from grader.doors import github_actions
    from grader.export import classroom, gradescope, junit
    from grader.judging.result import CheckResult, Counterexample, Mistake, SubmissionResult
    from grader.report import feedback_levels

    cx = Counterexample(call="minimax(root, 1, True)", picture="root [3]", expected=3, actual=4, input={}, shrunk=True)
    result = SubmissionResult(
        submission="s.py", exercise="ctp-26", status="failed", score=1.0, max_score=3.0,
        checks=[CheckResult("visible", "a check", "failed", 0.0, 2.0, message="returned 4, expected 3", counterexample=cx,
                            failed_cases=2, total_cases=9),
                CheckResult("secret", "a hidden check", "failed", 1.0, 1.0, message="on Move Secret", hidden=True,
                            counterexample=cx, failed_cases=1, total_cases=4)],
        mistakes=[Mistake("always-max", "Takes the largest value.", "Which value does B pick?", "on 9 cases", checks=["visible"])],
        default_feedback="hints", entry_point="minimax", entry_file="s.py", entry_line=7)
    before = result.to_json()

    def no_dict(self, *args, **kwargs):
        raise AssertionError("a dictionary was made on the way to an export")

    with monkeypatch.context() as patched:
        for kind in (SubmissionResult, CheckResult, Mistake, Counterexample):
            patched.setattr(kind, "to_dict", no_dict)
        shown = feedback_levels.redact(result, feedback_levels.resolve(None, result.default_feedback), "student")
        exported = "\n".join([junit.to_junit(shown), gradescope.to_json(shown), json.dumps(classroom.to_classroom(shown)),
                              *github_actions.annotations(shown, "s.py", shown.entry_line)])
    assert isinstance(shown, SubmissionResult) and shown.feedback == {"level": "hints", "audience": "student"}
    assert shown.entry_line == 7 and shown.default_feedback == "hints"  # what the doors need travels with the copy
    assert "fails on 2 of 9 cases" in exported and "Which value does B pick?" in exported
    for secret in ("Move Secret", "returned 4, expected 3", "root [3]", "on 9 cases", "a hidden check"):
        assert secret not in exported, secret
    assert ",line=7," in exported
    assert result.to_json() == before  # the original is untouched
    # The fields the doors use stay out of the contract's dictionary (and so out of the JSON).
    assert not {"default_feedback", "entry_point", "entry_file", "entry_line"} & set(shown.to_dict())


def test_the_pytest_plugin_applies_the_level_the_result_carries():
    from grader.doors.pytest_plugin import _as_student_sees_it
    from grader.judging.result import CheckResult, Counterexample, SubmissionResult

    cx = Counterexample(call="minimax(root, 1, True)", picture="root [3]", expected=3, actual=4, input={})
    result = SubmissionResult(submission="s.py", exercise="no-such-exercise", status="failed", score=0.0, max_score=1.0,
                              checks=[CheckResult("c", "a check", "failed", 0.0, 1.0, message="returned 4", counterexample=cx,
                                                  failed_cases=1, total_cases=3)],
                              default_feedback="score")
    shown = _as_student_sees_it(result)  # an exercise that cannot be loaded: nothing tries to
    assert shown.feedback == {"level": "score", "audience": "student"}
    assert shown.checks[0].counterexample is None and shown.checks[0].message == ""
    assert result.checks[0].counterexample is cx
