"""The sample submissions of an exercise, their pinned verdicts, and grading each one once.

Every exercise keeps ``fixtures/submissions/<id>/expected.toml`` (status and mistake code per
file); the exercise test modules share this one reader instead of each keeping a copy.
"""

from __future__ import annotations

import tomllib
from pathlib import Path


def pinned(folder: Path) -> tuple[dict, list[str], list[str]]:
    """(the table, the files pinned as passing, the others), in a stable order."""
    expected = tomllib.loads((folder / "expected.toml").read_text(encoding="utf-8"))
    correct = sorted(k for k, v in expected.items() if v["status"] == "passed")
    buggy = sorted(k for k, v in expected.items() if v["status"] != "passed")
    return expected, correct, buggy


def on_disk(folder: Path, folders_too: bool = False) -> set[str]:
    """The samples under ``folder``'s subfolders as expected.toml names them ("buggy/x.py"), and the
    multi-file samples (folders) too when an exercise has them."""
    return {f"{p.parent.name}/{p.name}" for p in folder.glob("*/*") if p.suffix == ".py" or folders_too and p.is_dir()}


def assert_full_score(result, points: float = 10.0) -> None:
    """Graded without error, every check passed, the whole of ``points`` awarded."""
    assert result.error is None
    # only the checks that did not pass, each message whole: a long list is cut short in pytest's report
    assert result.status == "passed", "; ".join(f"{c.name} {c.status}: {c.message}" for c in result.checks
                                                 if c.status != "passed")
    assert result.score == result.max_score == points


def grader_of(folder: Path, exercise_id: str):
    """A function grading a sample (relative to ``folder``) once, remembering the result."""
    from grader.doors import api

    results: dict[str, object] = {}

    def result_of(relative: str):
        if relative not in results:
            results[relative] = api.check(folder / relative, exercise_id)
        return results[relative]

    return result_of


RECORDED = Path(__file__).resolve().parent.parent / "fixtures" / "submissions" / "verdicts-before-kit.json"


def recorded(exercise_id: str) -> dict:
    """Every sample's status, score and max_score as recorded before the exercises were rebuilt on the kit
    (``tests/record_verdicts.py`` wrote the table; nothing edits it to match new behaviour)."""
    import json

    return json.loads(RECORDED.read_text(encoding="utf-8"))[exercise_id]


# Departures from the recorded table, each made on purpose and said why (the table itself is never edited).
CHANGED_ON_PURPOSE = {
    # A rules bug no longer costs the helpers part: published-min-value asks min_value on the grader's GameState
    # (the statement promises each part is graded apart), so the point it took is kept: 4.5 -> 5.5.
    ("aima-isolation", relative): {"status": "failed", "score": 5.5, "max_score": 10.0}
    for relative in ("buggy/corner_not_blocked.py", "buggy/legal_moves_checked_in_forecast.py",
                     "buggy/no_first_move_rule.py", "buggy/rook_moves_only.py")
}


def assert_as_recorded(result, exercise_id: str, relative: str) -> None:
    """The sample's status, score and max_score exactly as in the table recorded before the kit (or as
    ``CHANGED_ON_PURPOSE`` says, for the few a fix moved on purpose)."""
    wanted = CHANGED_ON_PURPOSE.get((exercise_id, relative)) or recorded(exercise_id)[relative]
    found = {"status": result.status, "score": result.score, "max_score": result.max_score}
    assert found == wanted, (result.error, [(c.name, c.status, c.score, c.message) for c in result.checks])


def flag_twin(forger: Path, folder: Path) -> Path:
    """A red team's forger with its switch (the line ``FORGE = True``) turned off, written into ``folder`` as
    ``honest_<name>``: the same code, honest about what the forger hides. The forger must have the line."""
    source = forger.read_text(encoding="utf-8")
    assert "\nFORGE = True\n" in source, f"{forger.name} has no line FORGE = True"
    twin = folder / f"honest_{forger.name}"
    twin.write_text(source.replace("\nFORGE = True\n", "\nFORGE = False\n"), encoding="utf-8")
    return twin


def honest_twin(fixture: Path, folder: Path) -> Path:
    """A forging fixture with its forging call (the line ``_forge()``) made ``pass``, written into
    ``folder``: what the same code earns without forging. The fixture must make that call."""
    lines = fixture.read_text(encoding="utf-8").splitlines(keepends=True)
    forging = [i for i, line in enumerate(lines) if line.strip() == "_forge()"]
    assert forging, f"{fixture.name} never calls _forge()"
    for i in forging:
        lines[i] = lines[i].replace("_forge()", "pass")
    twin = folder / f"honest_{fixture.name}"
    twin.write_text("".join(lines), encoding="utf-8")
    return twin


def graded_under(path: Path, exercise, bank, sandbox: str, warm: bool):
    """One submission graded under ``sandbox`` (through a warm fork server of its own when ``warm``)."""
    from grader.judging import judge, submissions
    from grader.sandbox import forkserver, launch

    launcher = launch.choose(sandbox)
    if warm:
        launcher = forkserver.ZygoteLauncher.wrap(launcher, exercise, bank)
    try:
        return judge.grade(submissions.load(path), exercise, bank, launcher)
    finally:
        if warm:
            launcher.close()
