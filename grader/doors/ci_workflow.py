"""``minimax-grader init-ci``: the GitHub Actions workflow a student repository needs.

The workflow installs the grader, runs ``minimax-grader check`` (which, under Actions, writes
the step summary, the annotations and the Classroom ``result`` output by itself) and hands
that output to GitHub Classroom's grading reporter, which records the points. The job is
named "Autograding Tests" because that is the check run the reporter looks for.
"""

from __future__ import annotations

import json
from pathlib import Path

WORKFLOW_PATH = Path(".github/workflows/classroom.yml")
WHEEL_FOLDER = Path(".github/minimax-grader")  # the grader the workflow installs, unless told another (``install``)
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
STEP_ID = "minimax"


def render(exercise_id: str, submission: str, *, install: str, python_version: str = "3.12") -> str:
    # JSON strings are valid YAML scalars, so every value goes through json.dumps: no quoting bugs.
    q = json.dumps
    check = f"minimax-grader check {_shell_quote(submission)} --exercise {_shell_quote(exercise_id)}"
    return f"""# Written by `minimax-grader init-ci`: grades {submission} as exercise {exercise_id} on every push.
name: Autograding Tests
on:
  push:
  workflow_dispatch:
  repository_dispatch:
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    name: Autograding Tests
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    timeout-minutes: 10
    steps:
      - name: Check out the repository
        uses: actions/checkout@v4
      - name: Set up Python
        uses: actions/setup-python@v5
        with:
          python-version: {q(python_version)}
      - name: Install minimax-grader
        run: |
          (sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap) || echo "no bubblewrap: grading with the weaker sandbox"
          python -m pip install --disable-pip-version-check {_shell_quote(install)}
      - name: Grade {exercise_id}
        id: {STEP_ID}
        # A failing grade must not stop the reporter below from recording the points.
        continue-on-error: true
        run: {q(check)}
      - name: Report the points to GitHub Classroom
        uses: {REPORTER}
        env:
          {STEP_ID.upper()}_RESULTS: "${{{{ steps.{STEP_ID}.outputs.result }}}}"
        with:
          runners: {STEP_ID}
"""


def write(folder: Path, exercise_id: str, submission: str, *, install: str | None = None,
          wheel: tuple[str, bytes] | None = None, force: bool = False) -> Path:
    """The workflow, installing ``install`` (a pip requirement: a git URL, a course's index) or, without one, the
    ``wheel`` (name, bytes) written beside it into the repository: the grader is on no public index, and a
    requirement by name alone (``minimax-grader==0.1.0``) failed to install, or would install whatever package someone
    registers under that name (the 120th helper). The wheel is the grader that wrote the workflow, as
    ``gradescope-bundle`` packs it."""
    folder = Path(folder)
    target = folder / WORKFLOW_PATH
    if target.exists() and not force:
        raise FileExistsError(f"{target} exists; pass --force to replace it")
    if install is None:
        if wheel is None:
            raise ValueError("either a pip requirement to install or a wheel to write into the repository")
        wheels = folder / WHEEL_FOLDER
        wheels.mkdir(parents=True, exist_ok=True)
        for old in wheels.glob("*.whl"):  # one grader in the repository: an earlier version's wheel goes
            old.unlink()
        (wheels / wheel[0]).write_bytes(wheel[1])
        install = f"./{(WHEEL_FOLDER / wheel[0]).as_posix()}"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(exercise_id, submission, install=install), encoding="utf-8")
    return target


def _shell_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)
