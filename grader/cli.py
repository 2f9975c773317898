"""The command line: ``minimax-grader check``, ``minimax-grader exercises`` and friends.

Exit codes are part of the interface: 0 full score, 1 anything less (or the submission could
not be graded), 2 a usage error (bad option, unknown exercise).
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import click

FORMATS = ["text", "json", "md", "html", "junit", "gradescope"]
# Formats meant for programs: on stdout, Actions annotations must not be mixed into them.
MACHINE_FORMATS = {"json", "junit", "gradescope"}


def _exercises_dirs(values) -> list[Path]:
    return [Path(v) for v in values or ()]


def guess_exercise(path: Path, extra_dirs: list[Path]) -> str:
    """The exercise whose entry point (name and parameters) the file defines, read with ast only."""
    from grader import exercise as exercises

    known = exercises.load_all(extra_dirs)
    if len(known) == 1:
        return next(iter(known))
    from grader.submissions import python_files

    files = python_files(path) if path.is_dir() else [path]  # a folder: every module of it
    defined: dict[str, list[str]] = {}
    for entry in files:
        try:
            tree = ast.parse(entry.read_bytes())
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
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
    raise click.UsageError(f"cannot tell which exercise {path} is for; pass --exercise (one of: {', '.join(sorted(known))})")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="minimax-grader", prog_name="minimax-grader")
def cli():
    """Grade minimax exercises: sandboxed, property-based, with the smallest counterexample."""


@cli.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--exercise", "-e", "exercise_id", help="Exercise id (see `minimax-grader exercises`); guessed from the file if omitted.")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Report format.")
@click.option("--seed", type=int, default=None, help="Seed for the random trees (default: the public seed).")
@click.option("--examples", type=click.IntRange(0, 100000), default=None, help="How many random trees (default: the exercise's, at least 200).")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "posix", "spawn"]), default=None, help="Force a sandbox kind (default: the best available).")
@click.option("--exercises-dir", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="An extra folder of exercises (also: exercises-dir in [tool.minimax-grader] of ./pyproject.toml).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), help="Write the report to a file instead of stdout.")
def check(path, exercise_id, fmt, seed, examples, sandbox, exercises_dir, output):
    """Grade one submission (a .py file or a folder) and print a report."""
    from grader import api, bank, report
    from grader.exercise import ExerciseError

    extra = _exercises_dirs(exercises_dir)
    try:
        exercise_id = exercise_id or guess_exercise(path, extra)
        result = api.check(path, exercise_id, seed=bank.PUBLIC_SEED if seed is None else seed, examples=examples,
                           sandbox=sandbox, exercises_dir=extra)
    except ExerciseError as exc:
        raise click.UsageError(str(exc)) from None
    if fmt == "json":
        text = result.to_json() + "\n"
    elif fmt == "junit":
        from grader.export.junit import to_junit

        text = to_junit(result)
    elif fmt == "gradescope":
        from grader.export import gradescope

        text = gradescope.to_json(result)
    else:
        color = output is None and fmt == "text" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        text = report.render(result, fmt, color=color)
    if output:
        output.write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
    from grader import github_actions

    if github_actions.active():
        stream = sys.stderr if output is None and fmt in MACHINE_FORMATS else sys.stdout
        github_actions.publish(result, path, stream, exercises_dir=extra)
    sys.exit(0 if result.passed else 1)


@cli.command("exercises")
@click.option("--exercises-dir", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="An extra folder of exercises (also: exercises-dir in [tool.minimax-grader] of ./pyproject.toml).")
def list_exercises(exercises_dir):
    """List the exercises, one line each."""
    from grader import api
    from grader.exercise import ExerciseError

    try:
        found = api.list_exercises(_exercises_dirs(exercises_dir))
    except ExerciseError as exc:
        raise click.UsageError(str(exc)) from None
    for exercise_id, summary in sorted(found):
        click.echo(f"{exercise_id:<16} {summary}")


def main():
    cli(prog_name="minimax-grader")
