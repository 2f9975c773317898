"""The command line: ``minimax-grader check``, ``minimax-grader exercises`` and friends.

Exit codes are part of the interface: 0 full score, 1 anything less (or the submission could
not be graded), 2 a usage error (bad option, unknown exercise).
"""

from __future__ import annotations

import ast
from grader import python_source
from grader.file_names import for_terminal, warnings_as_text
import os
import shlex
import sys
from typing import NoReturn
from pathlib import Path

import click

EXERCISES_DIR = click.option(
    "--exercises-dir", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="An extra folder of exercises (also: exercises-dir in [tool.minimax-grader] of ./pyproject.toml).")
SEED = click.IntRange(-(2**63), 2**63 - 1)  # what the gradebook (SQLite INTEGER) can hold
FORMATS = ["text", "json", "md", "html", "junit", "gradescope"]
# Formats meant for programs: on stdout, Actions annotations must not be mixed into them.
MACHINE_FORMATS = {"json", "junit", "gradescope"}


def _exercises_dirs(values) -> list[Path]:
    """Absolute at the door: the sandbox resolves paths from its own work folder."""
    return [Path(v).resolve() for v in values or ()]


def guess_exercise(path: Path, extra_dirs: list[Path]) -> str:
    """The exercise whose entry point (name and parameters) the file defines, read with ast only."""
    from grader.judging import exercise as exercises

    known = exercises.load_all(extra_dirs)
    if len(known) == 1:
        return next(iter(known))
    from grader.judging import submissions

    # a folder: every module of it, from where its code is (a repository's src/, as the judge reads it)
    files = (submissions.load(path).files or submissions.python_files(path)) if path.is_dir() else [path]
    defined: dict[str, list[str]] = {}
    used: set[str] = set()
    for entry in files:
        try:
            tree = python_source.parse(entry.read_bytes())
            for node in ast.walk(tree):
                if isinstance(node, ast.Name):
                    used.add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined.setdefault(node.name, [a.arg for a in node.args.args])
                elif isinstance(node, ast.ClassDef):
                    defined.setdefault(node.name, [])
        except (OSError, SyntaxError, ValueError, RecursionError):
            pass
    exact = [ex.id for ex in known.values() if defined.get(ex.entry_point) == ex.parameters]
    if len(exact) == 1:
        return exact[0]
    named = [ex.id for ex in known.values() if ex.entry_point in defined]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:  # one entry-point name, several exercises: the one whose provided helpers the file uses
        uses = {ex_id: sum(h in used for h in known[ex_id].provided_helpers) for ex_id in named}
        most = max(uses.values())
        by_helpers = [ex_id for ex_id, count in uses.items() if count == most]
        if most and len(by_helpers) == 1:
            return by_helpers[0]
    if not named:  # a submission of some parts only: the exercise whose parts it defines
        by_parts = [ex.id for ex in known.values() if any(n in defined for part in ex.parts for n in part["defines"])]
        if len(by_parts) == 1:
            return by_parts[0]
    if named:
        why = f"it could be any of {', '.join(sorted(named))}"
    else:  # the student's likeliest mistake: the function is not named as the exercise asks
        asked = sorted({ex.entry_point for ex in known.values()})
        why = f"it defines none of the names an exercise asks for ({', '.join(asked)}); check your function's name"
    raise click.UsageError(f"cannot tell which exercise {path.name} is for: {why}, or pass --exercise "
                           f"(one of: {', '.join(sorted(known))})")


def _guess_or_none(path: Path, extra_dirs: list[Path]) -> str | None:
    """The guessed exercise; None when the submission is unreadable anyway (missing, empty, not Python)."""
    try:
        return guess_exercise(path, extra_dirs)
    except click.UsageError:
        from grader.judging import submissions

        if submissions.load(path).problem:
            return None
        raise


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="minimax-grader", prog_name="minimax-grader")
def cli():
    """Grade minimax exercises: sandboxed, property-based, with the smallest counterexample."""


@cli.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--exercise", "-e", "exercise_id", help="Exercise id (see `minimax-grader exercises`); guessed from the file if omitted.")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Report format.")
@click.option("--seed", type=SEED, default=None, envvar="MINIMAX_GRADER_SEED", show_envvar=True,
              help="Seed for the random trees (default: the public seed). From the environment, a secret seed is in "
                   "no command line another process can read.")
@click.option("--examples", type=click.IntRange(0, 100000), default=None, help="How many random trees (default: the exercise's, at least 200).")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "posix", "spawn"]), default=None, help="Force a sandbox kind (default: the best available).")
@EXERCISES_DIR
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write the report to a file instead of stdout.")
@click.option("--feedback", "feedback_level", type=click.Choice(["score", "hints", "full"]), default=None,
              help="How much the report shows: score (pass/fail per check), hints (+ the likely mistake and a question), "
                   "full (+ counterexamples and where it goes wrong). Default: the exercise's, else full.")
@click.option("--instructor", is_flag=True, help="Report for the instructor: always full, hidden checks shown.")
def check(path, exercise_id, fmt, seed, examples, sandbox, exercises_dir, output, feedback_level, instructor):
    """Grade one submission (a .py file or a folder) and print a report."""
    try:
        _check(path, exercise_id, fmt, seed, examples, sandbox, exercises_dir, output, feedback_level, instructor)
    except click.UsageError as exc:  # a usage error only: an output file that cannot be written is no verdict
        _publish_usage_error(path, exercise_id, exercises_dir, exc)
        raise


def _publish_usage_error(path: Path, exercise_id: str | None, exercises_dir, exc: click.ClickException) -> None:
    """Under GitHub Actions, a usage error (exit 2) is a result too: Classroom's reporter reads ``result`` from
    the step's outputs and failed on an empty one (the job red, no points, and no word of why on the run's page).
    It gets an error result saying what was wrong, out of the exercise's points where the exercise is known."""
    from grader.doors import github_actions

    if not github_actions.active():
        return
    from grader.file_names import readable
    from grader.judging.result import SubmissionResult
    from grader.version import __version__

    max_score = 0.0
    if exercise_id:
        try:
            from grader.judging import exercise as exercises

            max_score = exercises.load(exercise_id, _exercises_dirs(exercises_dir)).max_score
        except Exception:  # noqa: BLE001 - an exercise that does not load is the usage error itself
            pass
    shown = readable(str(path))  # a name that is not UTF-8 is written as the other doors write it (the 126th helper)
    try:
        result = SubmissionResult(submission=shown, exercise=readable(exercise_id or ""), status="error", score=0.0,
                                  max_score=max_score, error="the grader was not run as it should be: "
                                  + readable(exc.format_message()), grader_version=__version__, entry_file=shown)
        github_actions.publish(result, Path(shown), sys.stderr)
    except Exception as failure:  # noqa: BLE001 - the usage error is what the run ends with, never this
        click.echo(f"minimax-grader: could not publish the usage error for GitHub Actions: "
                   f"{readable(str(failure))}", err=True)


def _say_seed_from_environment(instead: str) -> None:
    """Said, never silent, where ``--seed`` came from MINIMAX_GRADER_SEED rather than ``instead``: an instructor who
    exported it to re-run a bundle would otherwise show students the secret seed's cases in a "public" self-check
    (the 124th helper), or grade a class on other cases than its gradebook's. The number itself is not printed."""
    if click.get_current_context().get_parameter_source("seed") is click.core.ParameterSource.ENVIRONMENT:
        click.echo(f"minimax-grader: the seed comes from MINIMAX_GRADER_SEED, not {instead}", err=True)


def _check(path, exercise_id, fmt, seed, examples, sandbox, exercises_dir, output, feedback_level, instructor):
    from grader.sandbox import launch

    launch.start_choosing(sandbox)  # the sandbox probe runs while the rest of the grader is imported
    from grader.doors import api
    from grader.judging import bank
    from grader.report import feedback_levels
    from grader import report
    from grader.judging.exercise import ExerciseError

    extra = _exercises_dirs(exercises_dir)
    _say_seed_from_environment("the public seed")
    if output is not None and not output.resolve().parent.is_dir():  # say so before grading, not after
        raise click.BadParameter(f"the folder of {output} does not exist", param_hint="--output")
    audience = "instructor" if instructor else "student"
    try:
        exercise_id = exercise_id or _guess_or_none(path, extra)
        if exercise_id is None:  # a file nobody could grade: say why it cannot be graded, not "which exercise?"
            result = api.ungradable(path)
            level = feedback_levels.resolve(feedback_level, "full", audience)
        else:
            result = api.check(path, exercise_id, seed=bank.PUBLIC_SEED if seed is None else seed, examples=examples,
                               sandbox=sandbox, exercises_dir=extra)
            level = feedback_levels.resolve(feedback_level, result.default_feedback, audience)
    except ExerciseError as exc:  # a ValueError while grading is the grader's failure, not the user's
        raise click.UsageError(str(exc)) from None
    except click.ClickException:  # the exercise could not be guessed: the user's to fix (exit 2), not the grader's
        raise
    except Exception as exc:  # noqa: BLE001 - the grader's own failure: one line and exit 3
        _the_grader_failed(exc)
    # The level shapes what is shown, never what was judged: every format below gets this one copy.
    shown = feedback_levels.redact(result, level, audience)
    if fmt == "json":
        text = shown.to_json() + "\n"
    elif fmt == "junit":
        from grader.export.junit import to_junit

        text = to_junit(shown)
    elif fmt == "gradescope":
        from grader.export import gradescope

        text = gradescope.to_json(shown)
    else:
        color = output is None and fmt == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        text = report.render(shown, fmt, color=color)
    if output:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise click.FileError(str(output), hint=exc.strerror or str(exc)) from None
    else:
        click.echo(text, nl=False)
    from grader.doors import github_actions

    if github_actions.active():
        stream = sys.stderr if output is None and fmt in MACHINE_FORMATS else sys.stdout
        github_actions.publish(shown, path, stream)
    sys.exit(0 if result.passed else 1)


@cli.command("exercises")
@EXERCISES_DIR
def list_exercises(exercises_dir):
    """List the exercises, one line each."""
    from grader.doors import api
    from grader.judging.exercise import ExerciseError

    dirs = _exercises_dirs(exercises_dir)
    try:
        found = api.list_exercises(dirs)
    except ExerciseError as exc:
        raise click.UsageError(str(exc)) from None
    problems = api.load_problems(dirs)  # the instructor's own exercises are loaded in full, not only listed
    for exercise_id, summary in sorted(found):
        click.echo(f"{exercise_id:<16} {summary}")
        if exercise_id in problems:
            click.echo(f"{'':<16} cannot be graded: {problems[exercise_id]}")
    if problems:
        sys.exit(1)


@cli.command("show")
@click.argument("exercise_id")
@click.option("--starter", "starter_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write a starter you can run at home (local stand-ins of the provided helpers) into DIR.")
@click.option("--rewrite", is_flag=True,
              help="Write the interface block of statement.md and the starter's def line again from exercise.toml "
                   "(after editing [student]).")
@EXERCISES_DIR
def show(exercise_id, starter_dir, rewrite, exercises_dir):
    """Print an exercise's statement with its example drawn (and write a runnable starter)."""
    from grader.judging import exercise as exercises
    from grader.doors import student_door
    from grader.judging.exercise import ExerciseError

    where = "".join(f" --exercises-dir {shlex.quote(str(d))}" for d in exercises_dir or ())
    try:
        chosen = exercises.load(exercise_id, _exercises_dirs(exercises_dir))
        if rewrite:
            for path in student_door.rewrite_from_declaration(chosen):
                click.echo(f"rewritten from exercise.toml: {path}", err=True)
        click.echo(student_door.statement(chosen))
        if starter_dir is not None:
            written = student_door.write_starter(chosen, starter_dir)
            click.echo(f"starter written: {written} (run it with python; check it with minimax-grader check{where} "
                       f"--exercise {exercise_id} {shlex.quote(str(written))})")
        else:
            click.echo(f"check a submission with: minimax-grader check{where} --exercise {exercise_id} FILE.py")
    except (ExerciseError, student_door.DoorError) as exc:
        raise click.UsageError(str(exc)) from None


@cli.command("new-exercise")
@click.argument("exercise_id")
@click.option("--game", "game", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The game's rules as a Python module (to_move, actions, result, is_terminal, utility).")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="The folder of exercises to write it into (what --exercises-dir will name).")
def new_exercise(exercise_id, game, folder):
    """Scaffold an exercise folder (toml, statement, starter, positions) from a game module."""
    from grader.kit.scaffold import ScaffoldError, scaffold

    try:
        target = scaffold(exercise_id, game, folder)
    except ScaffoldError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {target}: edit the [student] part of its exercise.toml, then "
               f"`minimax-grader check --exercises-dir {folder} --exercise {exercise_id} FILE`")


@cli.command("gradescope-bundle")
@click.option("--exercise", "-e", "exercise_id", required=True, help="Exercise id the autograder grades.")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=Path("autograder.zip"), show_default=True,
              help="Where to write the zip.")
@click.option("--exercises-dir", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="An extra folder of exercises; it is copied into the bundle.")
@click.option("--wheel", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Bundle this minimax-grader wheel instead of packing the running grader.")
@click.option("--feedback", "feedback_level", type=click.Choice(["score", "hints", "full"]), default=None,
              help="How much students see on Gradescope (default: the exercise's level).")
@click.option("--seed", type=SEED, default=None,
              help="The grading cases' seed, the same for every submission (default: a fresh secret one, said).")
def gradescope_bundle(exercise_id, out, exercises_dir, wheel, feedback_level, seed):
    """Build the autograder zip to upload to Gradescope (setup.sh, run_autograder, the grader)."""
    import secrets

    from grader.doors import gradescope_bundle as bundle
    from grader.judging.exercise import ExerciseError

    seed = secrets.randbits(32) if seed is None else seed
    try:
        path = bundle.build(exercise_id, out, exercises_dir=_exercises_dirs(exercises_dir), wheel=wheel,
                            feedback=feedback_level, seed=seed)
    except ExerciseError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {path}: upload it as the autograder of a Gradescope programming assignment; it grades with "
               f"seed {seed} (--seed {seed} builds the same cases again)")


@cli.command("init-ci")
@click.option("--exercise", "-e", "exercise_id", default=None,
              help="Exercise id the workflow grades (default: the repository's [tool.minimax-grader] exercise).")
@click.option("--submission", default=None,
              help="The student's file (or folder) in the repository (default: the table's submission, else solution.py).")
@click.option("--install", default=None,
              help="What pip installs in CI, e.g. a git URL (default: this grader, written into the repository as a wheel).")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path), default=Path("."), show_default=True,
              help="The student repository.")
@click.option("--force", is_flag=True, help="Replace an existing workflow file.")
def init_ci(exercise_id, submission, install, folder, force):
    """Write .github/workflows/classroom.yml: grade on every push, points to GitHub Classroom."""
    from grader import config
    from grader.doors import ci_workflow
    from grader.doors.gradescope_bundle import pack_wheel
    from grader.judging import exercise as exercises
    from grader.judging.exercise import ExerciseError

    try:
        table = config.read_table(folder)
    except config.ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    named = table.get("exercise") if isinstance(table.get("exercise"), str) else None
    if exercise_id is None and named is None:
        raise click.UsageError("which exercise? pass --exercise, or set exercise in [tool.minimax-grader] of the "
                               "repository's pyproject.toml")
    if exercise_id is not None and named is not None and exercise_id != named:
        click.echo(f"minimax-grader: note: the workflow grades {exercise_id}; the repository's pyproject.toml says "
                   f"{named} (pytest grades that one)", err=True)
    exercise_id = exercise_id or named
    if submission is None:
        submission = table.get("submission") if isinstance(table.get("submission"), str) else "solution.py"
    if "\\" in submission:  # the workflow runs on Linux, where a backslash is no separator
        submission = submission.replace("\\", "/")
        click.echo(f"minimax-grader: note: the workflow grades {submission} (written with / for Linux)", err=True)
    try:
        exercises.load(exercise_id)
        path = ci_workflow.write(folder, exercise_id, submission, install=install,
                                 wheel=None if install else pack_wheel(), force=force)
    except (ExerciseError, FileExistsError) as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"wrote {path}" + ("" if install else f" and the grader it installs, in {Path(folder) / ci_workflow.WHEEL_FOLDER}"
                                                     " (commit both)"))
    if not (Path(folder) / submission).exists():
        click.echo(f"minimax-grader: note: {submission} is not in {folder} yet; the workflow grades it once it is",
                   err=True)


@cli.command("grade")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--exercise", "-e", "exercise_id", required=True, help="Exercise id (see `minimax-grader exercises`).")
@click.option("--out", "-o", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Output folder: gradebook, results.json, grades.csv, reports/, summary.html.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None, help="Parallel workers (default: one per CPU).")
@click.option("--seed", type=SEED, default=None, envvar="MINIMAX_GRADER_SEED", show_envvar=True,
              help="The instructor's seed (default: the one in the gradebook, else a fresh secret one). From the "
                   "environment, as check reads it: a Gradescope bundle's seed, to grade its cases again here.")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "posix", "spawn"]), default=None, help="Force a sandbox kind.")
@EXERCISES_DIR
@click.option("--examples", type=click.IntRange(0, 100000), default=None,
              help="How many random cases (default: the exercise's); part of the gradebook key, like the seed.")
@click.option("--lms", "lms", multiple=True, type=click.Choice(["canvas", "moodle"]),
              help="Also write that LMS's grade-import CSV (canvas.csv, moodle.csv); may be repeated.")
@click.option("--roster", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="CSV mapping the grader's student ids to the LMS's: columns id, name, login, sis_id, lms_id, email, "
                   "section (Canvas's gradebook export works as it is).")
@click.option("--sections", is_flag=True, default=False,
              help="Read every archive named here, or in a folder named here, that holds several submissions as a "
                   "class (one export per section); without it only an archive named alone is, and each of several is "
                   "one student's.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default=None,
              help="Where to grade: local worker processes (default), or dask (a LocalCluster, or the --scheduler's cluster).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Grade on a running Dask cluster, e.g. tcp://10.0.0.5:8786 (implies --executor dask).")
@click.option("--unconfined-ok", is_flag=True, default=False,
              help="Grade even where nothing keeps a submission from the others' files and the outputs (no bwrap, no Landlock).")
def grade(paths, exercise_id, out, jobs, seed, sandbox, exercises_dir, examples, lms, roster, sections, executor,
          scheduler, unconfined_ok):
    """Grade a whole class (files, folders, zips, Gradescope or GitHub Classroom layouts) in parallel.

    Exits 0 when every submission was graded, whatever the scores; 2 for a usage error (before
    anything is created, and when it refuses to grade a class unconfined: see --unconfined-ok);
    3 when the grader itself failed.
    """
    from grader.sandbox import launch

    launch.start_choosing(sandbox)  # the sandbox probe runs while the rest of the grader is imported
    _say_seed_from_environment("the gradebook or a fresh one")
    from grader.bulk import batch
    from grader.judging.exercise import ExerciseError
    from grader.export import roster as lms_exports

    refusal = launch.refuse_unconfined(launch.choose(sandbox), unconfined_ok)
    if refusal:
        raise click.UsageError(refusal)

    if scheduler and executor == "local":
        raise click.UsageError("--scheduler grades on a Dask cluster; it cannot go with --executor local")
    chosen = _dask_executor(scheduler, jobs) if scheduler or executor == "dask" else None
    try:
        roster_rows = lms_exports.read_roster(roster) if roster else None
        outcome = batch.grade(list(paths), exercise_id, out, jobs=jobs, seed=seed, examples=examples, executor=chosen,
                              exercises_dirs=_exercises_dirs(exercises_dir), sandbox=sandbox, progress=batch.make_progress(),
                              lms=tuple(lms), roster=roster_rows, sections=sections)
    except (ExerciseError, batch.UsageProblem, lms_exports.RosterError) as exc:
        raise click.UsageError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - the grader's own failure: one line and exit 3
        _the_grader_failed(exc)
    finally:
        if chosen is not None:
            chosen.close()
    for line in outcome.notes:
        click.echo(f"minimax-grader: {for_terminal(line)}", err=True)
    for failure in outcome.failures:
        click.echo(f"minimax-grader: {for_terminal(failure)}", err=True)
    sys.exit(3 if outcome.failures else 0)


@cli.command("tournament")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--exercise", "-e", "exercise_id", required=True, help="Exercise id (one with a [tournament] table).")
@click.option("--out", "-o", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Output folder: games.jsonl, standings.csv, leaderboard.html, agents/, replays/, gradebook, grades.csv.")
@click.option("--games", type=click.IntRange(2, 100000), default=None,
              help="Games per pairing, even (default: the exercise's); each opening is played from both sides.")
@click.option("--seed", type=SEED, default=None,
              help="The openings' seed (default: the one in the gradebook, else a fresh one); same seed, same games.")
@click.option("--round-robin", is_flag=True, default=False, help="Also play every pair of students' agents.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None, help="Parallel workers (default: one per CPU).")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "posix", "spawn"]), default=None, help="Force a sandbox kind.")
@EXERCISES_DIR
@click.option("--lms", "lms", multiple=True, type=click.Choice(["canvas", "moodle"]),
              help="Also write that LMS's grade-import CSV of the tournament's points; may be repeated.")
@click.option("--roster", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="CSV mapping the grader's student ids to the LMS's (as for grade).")
@click.option("--executor", type=click.Choice(["local", "dask"]), default=None,
              help="Where to play: local worker processes (default), or dask (a LocalCluster, or the --scheduler's cluster).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Play on a running Dask cluster, e.g. tcp://10.0.0.5:8786 (implies --executor dask).")
@click.option("--unconfined-ok", is_flag=True, default=False,
              help="Play even where nothing keeps an agent from the others' files and the outputs (no bwrap, no Landlock).")
def tournament(paths, exercise_id, out, games, seed, round_robin, jobs, sandbox, exercises_dir, lms, roster, executor,
               scheduler, unconfined_ok):
    """A class tournament: every student's agent against the exercise's baselines (and each other).

    Re-running with the same --out plays only the games not yet in games.jsonl. Exits 0 when every
    game was played; 2 for a usage error; 3 when the grader itself failed on a game.
    """
    from grader.sandbox import launch

    launch.start_choosing(sandbox)
    from grader.bulk import batch
    from grader.bulk import tournament as tournaments
    from grader.judging.exercise import ExerciseError
    from grader.export import roster as lms_exports

    refusal = launch.refuse_unconfined(launch.choose(sandbox), unconfined_ok)
    if refusal:
        raise click.UsageError(refusal)
    if scheduler and executor == "local":
        raise click.UsageError("--scheduler plays on a Dask cluster; it cannot go with --executor local")
    chosen = _dask_executor(scheduler, jobs) if scheduler or executor == "dask" else None
    try:
        roster_rows = lms_exports.read_roster(roster) if roster else None
        outcome = tournaments.run(list(paths), exercise_id, out, games=games, seed=seed, round_robin=round_robin,
                                  jobs=jobs, executor=chosen, exercises_dirs=_exercises_dirs(exercises_dir),
                                  sandbox=sandbox, lms=tuple(lms), roster=roster_rows, stream=sys.stderr)
    except (ExerciseError, batch.UsageProblem, lms_exports.RosterError) as exc:
        raise click.UsageError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - the grader's own failure: one line and exit 3
        _the_grader_failed(exc)
    finally:
        if chosen is not None:
            chosen.close()
    for line in outcome.notes + outcome.failures:
        click.echo(f"minimax-grader: {for_terminal(line)}", err=True)
    top = outcome.standings["rows"][:5] if outcome.standings else []
    for row in top:
        click.echo(f"{row['rank']:>3}. {for_terminal(row['agent']):<24} rating {row['rating']:7.0f} ± {1.96 * row['error']:4.0f}  "
                   f"won {row['won']}, lost {row['lost']}, drawn {row['drawn']}")
    click.echo(f"wrote {Path(out) / 'leaderboard.html'}")
    sys.exit(3 if outcome.failures else 0)


def _dask_executor(scheduler, jobs):
    """A connected Dask executor, or a one-line usage error (Dask missing, scheduler unreachable)."""
    from grader.bulk.dask_cluster import DaskExecutor, DaskUnavailable  # imports nothing optional itself

    try:
        executor = DaskExecutor(scheduler=scheduler, jobs=jobs)
        if scheduler:  # a bad address is said now; a LocalCluster starts only if there is something to grade
            executor.connect()
    except (DaskUnavailable, ConnectionError) as exc:
        raise click.UsageError(str(exc)) from None
    return executor


def _the_grader_failed(exc: Exception) -> NoReturn:
    """The grader's own failure (a bug, a cache it could not repair, a sandbox that would not start): one line and
    exit 3, never a traceback and never "usage"; ``MINIMAX_GRADER_DEBUG=1`` raises it instead, to show where."""
    if os.environ.get("MINIMAX_GRADER_DEBUG"):
        raise exc
    click.echo(f"minimax-grader: the grader failed: {type(exc).__name__}: {exc} (MINIMAX_GRADER_DEBUG=1 shows where)",
               err=True)
    sys.exit(3)


def main():
    warnings_as_text()  # a warning naming a student's file prints as text (file_names.warnings_as_text)
    try:
        os.getcwd()
    except FileNotFoundError:  # removed under the shell still in it: hypothesis, for one, reads it as it is imported
        click.echo("minimax-grader: the folder this runs in no longer exists; change to a folder and run it again",
                   err=True)
        sys.exit(2)
    cli(prog_name="minimax-grader")
