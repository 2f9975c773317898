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
