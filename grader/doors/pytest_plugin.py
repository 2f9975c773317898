"""pytest plugin: a student's plain ``pytest`` runs the grader, one test item per rubric check.

Activated by a ``[tool.minimax-grader]`` table in the project's ``pyproject.toml``::

    [tool.minimax-grader]
    exercise = "ctp-26"
    submission = "solution.py"

or by ``--minimax-exercise`` / ``--minimax-submission`` on the command line (which override
the table). The items hang off the submission file (``solution.py::published-cases``), so
``-k``, ``-x``, ``--junitxml`` and ``-q`` work as for any test. The submission is graded once,
through the same sandbox as ``minimax-grader check``, when the first item runs; the student's
file is never imported into the pytest process.

This module is loaded by every pytest run in an environment where the grader is installed, so
at import and configure time it only reads one small TOML file at most, and imports nothing of
the grader until a project has asked for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TABLE = "minimax-grader"
TABLE_KEYS = ("exercise", "submission", "seed", "examples", "sandbox", "exercises-dir")
SANDBOXES = ("auto", "bwrap", "posix", "spawn")
STATE_KEY = pytest.StashKey["Settings | None"]()


class Settings:
    """What to grade and how, once a project has asked for it (a plain class: no dataclass
    machinery to build at import, since this module loads in every pytest run)."""

    def __init__(self, exercise: str | None, submission: Path, seed: int | None = None, examples: int | None = None,
                 sandbox: str | None = None, exercises_dir: list[Path] | None = None, source: str = ""):
        self.exercise, self.submission, self.seed, self.examples = exercise, submission, seed, examples
        self.sandbox, self.exercises_dir, self.source = sandbox, exercises_dir or [], source
        self.checks: list = []
        self.entry_point: str | None = None  # the exercise's function or class, once loaded
        self.anchor: Path | None = None  # the file the items hang off, worked out once (``_anchor``)
        self.result = None  # the SubmissionResult once graded (or the exception grading raised)


def pytest_addoption(parser):
    group = parser.getgroup("minimax-grader", "minimax-grader (grade a submission as test items)")
    group.addoption("--minimax-exercise", metavar="ID", help="exercise id; overrides [tool.minimax-grader] exercise")
    group.addoption("--minimax-submission", metavar="PATH",
                    help="the file or folder to grade; overrides [tool.minimax-grader] submission")
    group.addoption("--minimax-seed", type=int, metavar="N", help="seed for the random cases (default: the public seed)")
    group.addoption("--minimax-examples", type=int, metavar="N", help="how many random cases")
    group.addoption("--minimax-sandbox", choices=list(SANDBOXES), help="force a sandbox kind")
    group.addoption("--minimax-exercises-dir", action="append", default=[], metavar="DIR", help="an extra folder of exercises")


def pytest_configure(config):
    config.stash[STATE_KEY] = _settings(config)
    settings = config.stash[STATE_KEY]
    if settings is None:
        return
    if not settings.submission.exists():
        raise pytest.UsageError(f"minimax-grader: the submission {settings.submission} does not exist ({settings.source})")
    _load_exercise(settings)
    _make_sure_it_is_collected(config, settings)


def _load_exercise(settings: Settings) -> None:
    """Fail early, as a usage error, for an unknown exercise; the rubric gives the item names."""
    from grader.judging import exercise as exercises
    from grader.judging.exercise import ExerciseError

    try:
        if settings.exercise is None:
            from grader.doors.cli import guess_exercise

            settings.exercise = guess_exercise(settings.submission, settings.exercises_dir)
        loaded = exercises.load(settings.exercise, settings.exercises_dir or None)
        settings.checks, settings.entry_point = list(loaded.checks), loaded.entry_point
    except ExerciseError as exc:
        raise pytest.UsageError(f"minimax-grader: {exc}") from None
    except Exception as exc:  # click's UsageError from the guess
        raise pytest.UsageError(f"minimax-grader: {getattr(exc, 'message', None) or exc}") from None


def pytest_report_header(config):
    settings = config.stash.get(STATE_KEY, None)
    if settings is not None:
        return f"minimax-grader: grading {settings.submission} as {settings.exercise or '(guessed exercise)'} ({settings.source})"
    return None


def pytest_collect_file(file_path: Path, parent):
    settings = parent.config.stash.get(STATE_KEY, None)
    if settings is None or file_path != _anchor(settings):
        return None
    return SubmissionFile.from_parent(parent, path=file_path)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent):
    """Never let pytest's Python collector import the student's file (named on the command line
    or called test_*.py): student code only ever runs in the grader's sandbox."""
    settings = parent.config.stash.get(STATE_KEY, None)
    if settings is not None and module_path == _anchor(settings):
        return _NotImported.from_parent(parent, path=module_path)
    return None


class _NotImported(pytest.File):
    def collect(self):
        return []


# --- settings ------------------------------------------------------------------------------


def _settings(config) -> Settings | None:
    option = config.option
    table, table_dir, pyproject = _table(config)
    unknown = sorted(set(table) - set(TABLE_KEYS))
    if unknown:  # a typo would otherwise be a setting silently not made (the 120th helper's ``typo_key``)
        raise pytest.UsageError(f"minimax-grader: unknown key(s) {', '.join(unknown)} in [tool.{TABLE}] of {pyproject} "
                                f"(known: {', '.join(TABLE_KEYS)})")
    exercise = option.minimax_exercise or table.get("exercise")
    submission = option.minimax_submission
    base = Path(config.invocation_params.dir)
    source = "command line"
    if submission is None and table.get("submission"):
        submission, base, source = table["submission"], table_dir, f"[tool.{TABLE}] in {pyproject}"
    if exercise is None and submission is None:
        return None  # not a grader project: stay out of the way
    if submission is None:
        # No file named: the repository's folder, read as `check` reads a folder (its code folder, the file holding
        # the exercise's function) and as init-ci's workflow grades it: the plugin refused where the other doors
        # graded (the 125th helper)
        if table:  # the folder of the table that set the exercise
            submission, source = table_dir, f"the folder of {pyproject}"
        else:  # an option alone: a pyproject.toml above that is no grader's says nothing (the 126th helper)
            submission, source = base, "the folder pytest runs in"
    path = Path(submission)
    path = (path if path.is_absolute() else base / path).resolve()

    def pick(name, kind):
        value = getattr(option, f"minimax_{name}")
        if value is None and name in table:
            value = table[name]
            if not isinstance(value, kind) or isinstance(value, bool):
                what = {"int": "a whole number", "str": "a string"}[kind.__name__]
                raise pytest.UsageError(f"minimax-grader: [tool.{TABLE}] {name} should be {what}, not {value!r}")
        return value

    dirs = [Path(d).resolve() for d in option.minimax_exercises_dir]
    if not dirs and "exercises-dir" in table:
        from grader import config as project_config  # the one reader of the table's exercises-dir

        try:
            dirs = project_config.exercises_dirs(table_dir)
        except project_config.ConfigError as exc:
            raise pytest.UsageError(f"minimax-grader: {exc}") from None
    sandbox = pick("sandbox", str)
    if sandbox is not None and sandbox not in SANDBOXES:  # was 7 failed items and 23,000 lines of one traceback
        raise pytest.UsageError(f"minimax-grader: [tool.{TABLE}] sandbox should be one of {', '.join(SANDBOXES)}, "
                                f"not {sandbox!r}")
    return Settings(exercise=exercise, submission=path, seed=pick("seed", int), examples=pick("examples", int),
                    sandbox=sandbox, exercises_dir=dirs, source=source)


def _table(config) -> tuple[dict, Path, Path | None]:
    """The ``[tool.minimax-grader]`` table of the nearest pyproject.toml, or an empty one."""
    for folder in _candidate_dirs(config):
        pyproject = folder / "pyproject.toml"
        try:
            text = pyproject.read_text(encoding="utf-8")
        except OSError:
            continue
        if TABLE not in text:  # the common case costs one read and no parsing
            if "tool.minimax_grader" in text:
                raise pytest.UsageError(f"minimax-grader: {pyproject} has [tool.minimax_grader]; the table is "
                                        f"[tool.{TABLE}], with a hyphen")
            return {}, folder, pyproject
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise pytest.UsageError(f"minimax-grader: cannot read {pyproject}: {exc}") from None
        table = data.get("tool", {}).get(TABLE, {})
        if not isinstance(table, dict):
            raise pytest.UsageError(f"minimax-grader: [tool.{TABLE}] in {pyproject} should be a table")
        return table, folder, pyproject
    return {}, Path(config.invocation_params.dir), None


def _candidate_dirs(config):
    seen = set()
    inipath = getattr(config, "inipath", None)
    starts = ([Path(inipath).parent] if inipath and Path(inipath).name == "pyproject.toml" else [])
    starts += [Path(config.rootpath), Path(config.invocation_params.dir)]
    for start in starts:
        for folder in (start, *start.parents):
            if folder in seen:
                break
            seen.add(folder)
            yield folder


def _anchor(settings: Settings) -> Path:
    """The file the items hang off: the submission, or a folder submission's entry file, chosen as the judge
    chooses it (``choose_entry``: the file that holds the exercise's function), once: pytest asks for every file
    it collects."""
    if settings.anchor is None:
        if settings.submission.is_dir():
            from grader.judging import submissions

            loaded = submissions.load(settings.submission)
            if settings.entry_point:
                submissions.choose_entry(loaded, settings.entry_point)
            if loaded.entry_file is None:
                # No file to hang the items off: pytest collected nothing and said nothing, and a student's own
                # tests made the run green (the 126th helper). Said as check says it.
                raise pytest.UsageError(f"minimax-grader: nothing to grade in {settings.submission} "
                                        f"({settings.source}): {loaded.problem or 'no Python file'}")
            settings.anchor = loaded.entry_file.resolve()
        else:
            settings.anchor = settings.submission
    return settings.anchor


def _make_sure_it_is_collected(config, settings: Settings) -> None:
    """Add the submission to what pytest collects unless an argument already covers it."""
    anchor = _anchor(settings)
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0]).resolve()
        if anchor == path or path in anchor.parents:
            return
    if config.args and getattr(config, "args_source", None) == pytest.Config.ArgsSource.ARGS:
        return  # the user named other tests explicitly: run just those
    config.args.append(str(anchor))


# --- collection and running ----------------------------------------------------------------


class SubmissionFile(pytest.File):
    def collect(self):
        settings = self.config.stash[STATE_KEY]
        for spec in settings.checks:
            yield CheckItem.from_parent(self, name=spec.name, title=spec.title, points=spec.points)

    def graded(self):
        """Grade once for all items (checks depend on each other, so always all of them)."""
        settings = self.config.stash[STATE_KEY]
        if settings.result is None:
            from grader.doors import api
            from grader.judging import bank

            try:
                settings.result = api.check(settings.submission, settings.exercise,
                                            seed=bank.PUBLIC_SEED if settings.seed is None else settings.seed,
                                            examples=settings.examples, sandbox=settings.sandbox,
                                            exercises_dir=settings.exercises_dir or None)
                settings.result = _as_student_sees_it(settings.result)
            except Exception as exc:  # the grader itself broke: every item says so, none retries
                settings.result = exc
        if isinstance(settings.result, Exception):
            raise settings.result
        return settings.result


def _as_student_sees_it(result):
    """The exercise's feedback level (the result carries it), as ``minimax-grader check`` applies it for a student."""
    from grader.report import feedback_levels

    return feedback_levels.redact(result, feedback_levels.resolve(None, result.default_feedback), "student")


class CheckFailed(Exception):
    """Carries the grader's feedback for one check to ``repr_failure``."""


class CheckItem(pytest.Item):
    def __init__(self, *, title: str, points: float, **kwargs):
        super().__init__(**kwargs)
        self.title = title
        self.points = points
        self.user_properties.append(("max_score", f"{points:g}"))  # written as `check --format junit` writes it

    def runtest(self):
        from grader.report.feedback import LABELS, check_text, error_text

        result = self.parent.graded()
        if result.status == "error" and not result.checks:
            raise CheckFailed(f"ERROR {self.name}: {error_text(result)}")
        check = next((c for c in result.checks if c.name == self.name), None)
        if check is None:
            raise CheckFailed(f"ERROR {self.name}: the grader reported no result for this check")
        self.user_properties.append(("score", f"{check.score:g}"))
        if check.status == "passed":
            return
        if check.status == "skipped":
            # Said once, at the student's file: ``-rs`` printed "pytest_plugin.py:281: skipped: skipped: it counts
            # only once ..." (the 120th helper). The item's own location is pytest's keyword for what its skip marks do
            reason = (check.message or "").removeprefix("skipped: ") or "skipped"
            try:
                raise pytest.skip.Exception(reason, _use_item_location=True)
            except TypeError:  # a pytest without it: the reason alone
                pytest.skip(reason)
        label = LABELS.get(check.status, check.status.upper())
        body = check_text(result, check)
        raise CheckFailed(f"{label} {self.name} ({check.score:g}/{check.max_score:g}): {self.title}\n\n{body}".rstrip())

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CheckFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        # Line 0 (shown as 1): the file as a whole; a skip said at the item's location needs a line
        return self.path, 0, f"minimax-grader check {self.name}"
