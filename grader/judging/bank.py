"""The case bank: every input a submission is asked about, built once per (exercise, seed).

Fixture cases come from data files; random cases come from the exercise's hypothesis
strategy, driven by a seed so that the same seed always gives the same cases. The bank is
plain data and is cached on disk, so a student's second check and an instructor's 300th
submission pay nothing for it. Expected answers are not part of the bank: the judge computes
them only after a submission has answered.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, fields

from grader import paths
from grader.version import __version__

PUBLIC_SEED = 26


@dataclass(frozen=True)
class Case:
    id: str
    group: str  # "published", "fixtures", "random", or an exercise's own group name
    input: dict
    known: object = None  # the value a fixture file states (used to test the reference)
    title: str = ""
    # (the shipped predictions table, this case's index in it): what the mistake models answer here, read
    # instead of computed by grader.judging.diagnose; never part of the case itself.
    predicted: tuple | None = field(default=None, compare=False, repr=False)

    def to_request(self) -> dict:
        return {"id": self.id, "input": self.input}

    def to_data(self) -> dict:
        """The case as plain data (what a bank file holds): every field but the shipped predictions."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "predicted"}


@dataclass
class Bank:
    exercise_id: str
    seed: int
    examples: int
    cases: list[Case]

    def group(self, name: str) -> list[Case]:
        return [c for c in self.cases if c.group == name]


def random_inputs(strategy, seed: int, count: int) -> list[dict]:
    """``count`` distinct inputs drawn by hypothesis from ``strategy``, reproducibly for ``seed``."""
    from grader.judging.hypothesis_setup import hypothesis, settings

    hyp = hypothesis()
    drawn: dict[str, dict] = {}

    @hyp.seed(seed)
    @settings(max_examples=count + count // 2, shrink=False)
    @hyp.given(strategy)
    def collect(case_input):
        drawn.setdefault(json.dumps(case_input, sort_keys=True), case_input)

    collect()
    return list(drawn.values())[:count]


def _cache_path(exercise, seed: int, examples: int):
    return paths.cache_dir() / "banks" / f"{exercise.id}-{exercise.fingerprint}-v{__version__}-s{seed}-n{examples}.json"


def build(exercise, seed: int = PUBLIC_SEED, examples: int | None = None, use_cache: bool = True,
          use_shipped: bool = True) -> Bank:
    """``use_shipped``: the public bank may come from the package (grader/judging/shipped_banks.py), so the
    first check on a fresh machine costs what the next one does."""
    examples = exercise.random_examples if examples is None else examples
    if use_shipped:  # first: only the shipped bank carries the mistake models' predictions
        from grader.judging import shipped_banks

        shipped = shipped_banks.load_with_predictions(exercise, seed, examples)
        if shipped is not None:
            cases, predictions = shipped
            return Bank(exercise.id, seed, examples,
                        [Case(**c, predicted=None if predictions is None else (predictions, index))
                         for index, c in enumerate(cases)])
    path = _cache_path(exercise, seed, examples)
    try:
        cached = use_cache and path.is_file()
    except OSError:  # a banks folder of another user's, in a cache shared by mistake (0700 since 0.2.0)
        cached = use_cache = False
    if cached:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Bank(exercise.id, seed, examples, [Case(**c) for c in data["cases"]])
        except (OSError, ValueError, TypeError, KeyError):
            pass  # a damaged cache entry is rebuilt
    cases = [Case(**c) for c in exercise.hook("fixture_cases")(exercise.fixtures_path)]
    if examples > 0:
        strategy = exercise.hook("strategy")()
        for i, case_input in enumerate(random_inputs(strategy, seed, examples)):
            cases.append(Case(id=f"random-{i + 1}", group="random", input=case_input))
    bank = Bank(exercise.id, seed, examples, cases)
    if use_cache:
        try:
            _write_atomically(path, {"cases": [c.to_data() for c in cases]})
        except OSError:  # a cache it may not write: the bank is drawn again next time, the same cases
            pass
    return bank


def _write_atomically(path, data) -> None:
    # The banks' folder is the user's alone: a bank's name holds its seed, the grading cases' secret in a class or
    # a Gradescope bundle, and a child given a throw-away uid listed it where the sandbox has no Landlock (the 123rd
    # helper). The cache above it stays open: children read the grader's child-side modules from it.
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        os.chmod(path.parent, 0o700)
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    os.replace(tmp, path)
