"""An exercise is a folder of data plus a little code; this module turns it into an object.

The folder holds ``exercise.toml`` (entry point, helpers, rubric, limits), a statement, a
starter file, ``exercise.py`` (grader-side hooks) and ``driver.py`` (sandbox-side code). The
reference lives under ``reference/`` and is loaded only here, in the grader's process.
Adding an exercise means adding a folder: nothing in the core names an exercise.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType

from grader import config, paths


class ExerciseError(Exception):
    """The exercise folder is missing or malformed (an instructor's problem, not a student's)."""


@dataclass(frozen=True)
class CheckSpec:
    name: str
    title: str
    kind: str
    points: float
    groups: tuple[str, ...] = ()
    depends: tuple[str, ...] = ()
    hidden: bool = False
    params: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Limits:
    call_timeout: float = 1.0
    submission_timeout: float = 30.0
    load_timeout: float = 5.0
    cpu_seconds: int = 30
    memory_mib: int = 512
    output_bytes: int = 1 << 20


LIMITS_ENV_PREFIX = "MINIMAX_GRADER_"


def load_limits(values: dict) -> Limits:
    """The exercise's limits, each overridable from the environment as ``MINIMAX_GRADER_<NAME>``.

    The exercise states what a fair submission needs; the machine grading it may be slower
    or faster (a loaded CI runner, a test that must see the wall-clock kill in seconds, not
    half a minute), so e.g. ``MINIMAX_GRADER_SUBMISSION_TIMEOUT=3`` wins over the file.
    """
    merged = dict(values)
    clock = os.environ.get(LIMITS_ENV_PREFIX + "CALL_CLOCK", "").strip().lower()
    if clock not in ("", "cpu", "wall"):  # what a call's limit counts (sandbox/session.call_clock_wanted)
        raise ExerciseError(f"{LIMITS_ENV_PREFIX}CALL_CLOCK={clock!r} is neither 'cpu' nor 'wall'")
    for name, field_ in Limits.__dataclass_fields__.items():
        raw = os.environ.get(LIMITS_ENV_PREFIX + name.upper())
        if raw is None or not raw.strip():
            continue
        kind = int if field_.type in (int, "int") else float
        try:
            value = kind(raw)
        except ValueError:
            value = None
        if value is None or value <= 0:
            raise ExerciseError(f"{LIMITS_ENV_PREFIX}{name.upper()}={raw!r} is not a positive {kind.__name__}")
        merged[name] = value
    unknown = sorted(set(merged) - set(Limits.__dataclass_fields__))
    if unknown:
        raise ExerciseError(f"unknown limit(s) in exercise.toml: {', '.join(unknown)}")
    if "cpu_seconds" not in merged and "submission_timeout" in merged:
        # The CPU a submission's process may use follows the time it is given, unless the exercise says otherwise:
        # with the default 30 s under a submission_timeout of 60, a search looping in one of two classes was killed
        # by the CPU limit at 30 s, and the whole submission was an error, where running out of its time grades what
        # it answered (the 130th helper's ivan, whose other class was correct).
        merged["cpu_seconds"] = max(Limits.cpu_seconds, math.ceil(float(merged["submission_timeout"])))
    return Limits(**merged)


def _load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ExerciseError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _parts(meta: dict) -> list[dict]:
    """``[[parts]]``: the pieces a submission may hand in separately, each a module and the names it defines.

    A part a student leaves out is supplied by the exercise's ``provided`` file of the same
    module name, and its checks are not graded. Exercises without parts are one piece.
    """
    parts = []
    for raw in meta.get("parts", []):
        if not isinstance(raw, dict) or not raw.get("name") or not raw.get("defines"):
            raise ExerciseError(f"{meta.get('id')}: every [[parts]] needs a name and the names it defines")
        parts.append({"name": str(raw["name"]), "module": str(raw.get("module", raw["name"])),
                      "defines": [str(n) for n in raw["defines"]], "title": str(raw.get("title", raw["name"]))})
    return parts


class Exercise:
    def __init__(self, folder: Path, meta: dict, search_root: Path):
        self.folder = folder
        self.meta = meta
        self.root = search_root
        self.id: str = meta["id"]
        self.title: str = meta.get("title", self.id)
        self.summary: str = meta.get("summary", self.title)
        student = meta.get("student") if isinstance(meta.get("student"), dict) else {}  # a kit exercise's declaration
        self.entry_point: str = meta.get("entry_point") or student.get("function") or meta["entry_point"]
        self.parameters: list[str] = list(meta.get("parameters") or student.get("arguments") or [])
        self.provided_helpers: list[str] = list(meta.get("provided_helpers") or student.get("helpers") or [])
        self.default_feedback: str = meta.get("default_feedback", "full")
        self.random_examples: int = int(meta.get("random_examples", 0 if "agent" in meta else 200))  # [agent]: its own
        self.limits = load_limits(meta.get("limits", {}))
        self.parts: list[dict] = _parts(meta)
        self.checks = [
            CheckSpec(
                name=c["name"], title=c.get("title", c["name"]), kind=c["kind"], points=float(c.get("points", 0)),
                groups=tuple(c.get("groups", ())), depends=tuple(c.get("depends", ())), hidden=bool(c.get("hidden", False)),
                params={k: v for k, v in c.items() if k not in {"name", "title", "kind", "points", "groups", "depends", "hidden"}},
            )
            for c in meta.get("checks", [])
        ]
        names = [c.name for c in self.checks]
        for check in self.checks:
            for dep in check.depends:
                if dep not in names[: names.index(check.name)]:
                    raise ExerciseError(f"{self.id}: check {check.name} depends on {dep}, which is not an earlier check")

    @property
    def max_score(self) -> float:
        return sum(c.points for c in self.checks)

    def _file(self, key: str, shared: str | None = None) -> Path:
        """Where a file named in exercise.toml lives.

        Plain keys are relative to the exercise folder. The reference and the fixtures may
        also sit in a ``reference/`` or ``fixtures/`` folder inside the exercise folder, or
        beside it in the root (the package's own layout): an instructor's folder of
        exercises can use whichever layout it likes. The first that exists wins.
        """
        value = self.meta.get(key)
        if not value:
            raise ExerciseError(f"{self.id}: exercise.toml has no {key!r}")
        if shared is None:
            return self.folder / value
        candidates = [self.folder / value, self.folder / shared / value, self.root / shared / value]
        return next((path for path in candidates if path.exists()), candidates[-1])

    @property
    def input_noun(self) -> str:
        """What a case is called in reports ("tree", "position", "board"): ``input_noun`` in exercise.toml, else a
        position where a game is declared ([game] or [agent]: a Nim counterexample was "a tree on which it goes
        wrong"), else a tree."""
        declared = self.meta.get("input_noun")
        if declared:
            return str(declared)
        return "position" if "game" in self.meta or "agent" in self.meta else "tree"

    @cached_property
    def kit(self):
        """The game-search kit's hooks when exercise.toml declares a ``[game]`` (else None): see grader/kit/."""
        if "game" not in self.meta:
            return None
        from grader.kit.declaration import DeclarationError
        from grader.kit.game import GameError
        from grader.kit.hooks import KitHooks

        try:
            return KitHooks(self)
        except (DeclarationError, GameError) as exc:
            raise ExerciseError(f"{self.id}: {exc}") from None

    @cached_property
    def agent(self):
        """The kit's object-route hooks when exercise.toml declares an ``[agent]`` (else None): see grader/kit/agent_hooks.py."""
        if "agent" not in self.meta:
            return None
        from grader.kit.agent_hooks import AgentHooks
        from grader.kit.declaration import DeclarationError
        from grader.kit.game import GameError

        try:
            return AgentHooks(self)
        except (DeclarationError, GameError) as exc:
            raise ExerciseError(f"{self.id}: {exc}") from None

    @property
    def driver_path(self) -> Path:
        if self.agent is not None:
            return self.agent.driver_path()
        if self.kit is not None:
            return self.kit.driver_path()
        made = self.hook("driver_path") if not self.meta.get("driver") else None  # hooks that write their driver
        return made(self) if made else self._file("driver")

    @property
    def statement_path(self) -> Path:
        return self._file("statement")

    @property
    def starter_path(self) -> Path:
        return self._file("starter")

    @property
    def driver_files(self) -> list[Path]:
        """Other sandbox-side files the driver loads (``driver_files``): the sandbox must let it read them."""
        kit = self.kit.driver_files() if self.kit is not None else []
        kit += self.agent.driver_files() if self.agent is not None else []
        made = (self.hook("driver_files") if self.kit is None and self.agent is None and not self.meta.get("driver")
                else None)
        kit += made(self) if made else []
        return kit + [(self.folder / name).resolve() for name in self.meta.get("driver_files", [])]

    @property
    def provided_dir(self) -> Path | None:
        """Sandbox-side files that stand in for the parts a student did not hand in (if any)."""
        return self._file("provided") if self.meta.get("provided") else None

    @property
    def fixtures_path(self) -> Path:
        if not self.meta.get("fixtures") and "agent" in self.meta:
            return self.folder  # the object route asks its own seeded positions (kit/agent_hooks.py)
        return self._file("fixtures", "fixtures")

    @cached_property
    def hooks(self) -> ModuleType:
        if self.agent is not None:
            return self.agent
        if self.kit is not None:
            return self.kit
        return _load_module(self._file("hooks"), f"_minimax_grader_hooks_{self.id.replace('-', '_')}")

    @cached_property
    def reference(self) -> ModuleType:
        if self.kit is not None or self.agent is not None:
            return None  # the kit's searcher is the reference (see KitHooks.reference, AgentHooks.reference)
        return _load_module(self._file("reference", "reference"), f"_minimax_grader_reference_{self.id.replace('-', '_')}")

    def hook(self, name: str, default=None):
        return getattr(self.hooks, name, default)

    @cached_property
    def fingerprint(self) -> str:
        """Changes whenever anything that shapes the cases or their verdicts changes (the exercise's
        folder with its hooks, the fixtures, the reference), so stale caches and gradebook rows are never used."""
        digest = hashlib.sha256()
        files = sorted(self.folder.rglob("*")) + sorted(self.fixtures_path.rglob("*"))
        if self.meta.get("reference"):  # the shared layout keeps it outside the exercise's folder
            files.append(self._file("reference", "reference"))
        # Files of a sibling exercise this one borrows (its driver's imports, its hooks' imports).
        files += self.driver_files + [(self.folder / name).resolve() for name in self.meta.get("shared_files", [])]
        if self.agent is not None:  # the object route's grader-side code decides the verdicts
            files += [Path(__file__).parents[1] / "kit" / name for name in (
                "agent_hooks.py", "agent_search.py", "agent_oracle.py", "agent_declaration.py", "agent_mistakes.py")]
        if self.kit is None and self.agent is None and self.hook("fingerprint_files"):  # grader-side code the hooks import (kit/tree_hooks.py)
            files += self.hook("fingerprint_files")(self)
        # The statement is read by students, never by the grading: a typo fixed in it regraded a whole class (30 s,
        # the 127th helper's). Everything else in the folder counts, whatever reads it.
        statement = (self.folder / self.meta["statement"]).resolve() if self.meta.get("statement") else None
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts and path.resolve() != statement:
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
        return digest.hexdigest()[:16]


def _search_roots(extra: list[Path] | None) -> list[Path]:
    """Every folder the exercises may come from, the first to name an id winning.

    In order: folders given on the command line or to the API, ``MINIMAX_GRADER_EXERCISES``,
    the ``exercises-dir`` of ``[tool.minimax-grader]`` in the current folder's pyproject.toml,
    and last the grader's built-in exercises. This is the only place that list is made, so
    every door (check, grade, exercises, the API, the pytest plugin) sees the same exercises.
    """
    roots = []
    for folder in extra or []:
        # Absolute at the door: the sandbox runs from its own work folder, where a relative path means nothing.
        roots.append(Path(folder).resolve())
    env = os.environ.get("MINIMAX_GRADER_EXERCISES")
    if env:
        roots.extend(Path(p).resolve() for p in env.split(os.pathsep) if p)
    try:
        roots.extend(config.exercises_dirs())
    except config.ConfigError as exc:
        raise ExerciseError(str(exc)) from None
    for folder in roots:
        if not folder.is_dir():
            raise ExerciseError(f"the exercises folder {folder} does not exist")
    roots.append(paths.data_root())
    return roots


def _exercise_folders(root: Path) -> list[Path]:
    if (root / "exercise.toml").is_file():  # the folder of one exercise
        return [root]
    base = root / "exercises" if (root / "exercises").is_dir() else root
    return sorted(p for p in base.iterdir() if (p / "exercise.toml").is_file()) if base.is_dir() else []


def _root_of(folder: Path) -> Path:
    """The folder that holds exercises/, reference/ and fixtures/ for this exercise."""
    parent = folder.parent
    return parent.parent if parent.name == "exercises" else parent


_PARSED: dict[Path, tuple] = {}


def _read_meta(path: Path) -> dict:
    """exercise.toml as a fresh dict, parsed once per version of the file (a command looks its exercise up
    more than once, and every lookup reads every exercise's table)."""
    stat = path.stat()
    # The change time too: an edit that keeps the size and has its modification time put back (tar, rsync -a,
    # cp -p, a coarse clock) still moves it, and no call can set it.
    version = (stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    hit = _PARSED.get(path)
    if hit is None or hit[0] != version:
        if len(_PARSED) > 256:  # a long-lived Dask worker unpacks each job's exercises into a new folder
            _PARSED.clear()
        hit = _PARSED[path] = (version, tomllib.loads(path.read_text(encoding="utf-8")))
    return copy.deepcopy(hit[1])


def load_all(extra_dirs: list[Path] | None = None) -> dict[str, Exercise]:
    found: dict[str, Exercise] = {}
    for root in _search_roots(extra_dirs):
        for folder in _exercise_folders(root):
            try:
                meta = _read_meta(folder / "exercise.toml")
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise ExerciseError(f"{folder / 'exercise.toml'}: {exc}") from None
            exercise_id = meta.get("id", folder.name)
            meta["id"] = exercise_id
            found.setdefault(exercise_id, Exercise(folder, meta, _root_of(folder)))
    return found


_SIMPLE_ID = re.compile(r"""id\s*=\s*"([A-Za-z0-9_.-]+)"\s*(#.*)?""")
# A top-level line the quick look understands: blank, a comment, or ``key = value`` whole on its line (a plain
# string, escapes and all, a number, a date, a boolean, a flat array of those). Anything else and the table is parsed.
_PLAIN_LINE = re.compile(r"""(#.*)?|[A-Za-z0-9_-]+\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*'|[-+0-9.:_TZeE]+|true|false|\[("(?:[^"\\]|\\.)*"|'[^']*'|[-+0-9._eE]+|\s|,)*\])\s*(#.*)?""")
_TABLE_HEADER = re.compile(r"\[\[?\s*[A-Za-z0-9_.-]+\s*\]\]?\s*(#.*)?")


def _declared_id(folder: Path) -> str | None:
    """The exercise's id without parsing its whole table (a check loads one exercise, and parsing all seven
    tables was a tenth of its start): the top-level ``id = "..."`` line, else the folder's name. None when
    the top level is not plain enough to be sure (a multi-line value, an inline table, an id written another
    way): then the table is parsed."""
    try:
        text = (folder / "exercise.toml").read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None
    named = None
    for line in text.splitlines():
        line = line.strip()
        if _TABLE_HEADER.fullmatch(line):
            break  # top-level keys come before any table
        if not _PLAIN_LINE.fullmatch(line):
            return None
        found = _SIMPLE_ID.fullmatch(line)
        if found is not None:
            if named is not None:
                return None
            named = found.group(1)
    return named or folder.name


def load(exercise_id: str, extra_dirs: list[Path] | None = None) -> Exercise:
    """The exercise ``exercise_id``: the first folder, in the order ``load_all`` reads them, that names it."""
    for root in _search_roots(extra_dirs):
        for folder in _exercise_folders(root):
            if _declared_id(folder) not in (exercise_id, None):
                continue
            try:
                meta = _read_meta(folder / "exercise.toml")
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise ExerciseError(f"{folder / 'exercise.toml'}: {exc}") from None
            if meta.get("id", folder.name) == exercise_id:
                meta["id"] = exercise_id
                return Exercise(folder, meta, _root_of(folder))
    every = load_all(extra_dirs)  # every table parsed: nothing the quick look missed can be lost
    if exercise_id in every:
        return every[exercise_id]
    known = ", ".join(sorted(every)) or "none"
    import difflib

    close = difflib.get_close_matches(exercise_id.lower(), list(every), n=1, cutoff=0.7)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    raise ExerciseError(f"unknown exercise {exercise_id!r}{hint} (known: {known})")
