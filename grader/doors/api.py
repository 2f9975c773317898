"""The Python API for instructors who script: one call grades one submission."""

from __future__ import annotations

from pathlib import Path

from grader.judging import bank as banks
from grader.judging import exercise as exercises
from grader.judging import judge, submissions
from grader.judging.result import SubmissionResult
from grader.sandbox import launch


def check(path: str | Path, exercise: str = "ctp-26", *, seed: int = banks.PUBLIC_SEED, examples: int | None = None,
          sandbox: str | None = None, exercises_dir: list[Path] | None = None, shrink: bool = True) -> SubmissionResult:
    """Grade the submission at ``path`` and return its result (never raises for a bad submission)."""
    launch.start_choosing(sandbox)  # the sandbox probe runs while the exercise and its bank load
    ex = exercises.load(exercise, exercises_dir)
    bank = banks.build(ex, seed=seed, examples=examples)
    return judge.grade(submissions.load(path), ex, bank, launch.choose(sandbox), shrink=shrink)


def list_exercises(exercises_dir: list[Path] | None = None) -> list[tuple[str, str]]:
    """(id, one-line summary) for every exercise the grader can find."""
    return [(ex.id, ex.summary) for ex in exercises.load_all(exercises_dir).values()]


def load_problems(exercises_dir: list[Path]) -> dict[str, str]:
    """{id: one-line error} for the exercises under the given folders that list but cannot be graded (a
    declaration or a game module the kit refuses): ``exercises`` says so at once, not at the first check.
    The built-in exercises are not loaded here: their own tests load them."""
    problems = {}
    folders = [Path(d).resolve() for d in exercises_dir or ()]
    for exercise_id, ex in exercises.load_all(exercises_dir).items():
        if not any(ex.folder.resolve().is_relative_to(folder) for folder in folders):
            continue
        try:
            ex.hooks
        except exercises.ExerciseError as exc:
            problems[exercise_id] = str(exc).removeprefix(f"{exercise_id}: ")
        except Exception as exc:  # an instructor's hooks module that raises on import: one line, the rest listed
            problems[exercise_id] = f"its hooks raise {type(exc).__name__}: {exc}".splitlines()[0]
    return problems


def ungradable(path: str | Path) -> SubmissionResult:
    """The error result for a submission that cannot be graded whatever the exercise (missing, empty, ...)."""
    from grader.version import __version__

    submission = submissions.load(path)
    return SubmissionResult(submission=submission.display, exercise="", status="error", score=0.0, max_score=0.0,
                            error=submission.problem or "the submission could not be read", grader_version=__version__,
                            entry_file=str(submission.entry_file or submission.path))
