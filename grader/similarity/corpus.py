"""The labelled corpus in ``fixtures/similarity`` and the detector's figures on it.

``independent/<kind>/`` holds solutions written apart from each other; ``copies/<kind>/``
holds disguised copies of them (``<original>__c<N>``); ``split.toml`` says which originals
(with their copies) are in the tuning half and which are held out. A half of one kind is
graded as one class: its originals and their copies together, the exercise's own texts
discounted, exactly as ``grade`` would compare them.

Figures: a copy is *caught* when it lands in one cluster with the original it was made from
(two copies of one original found together, without it, do not count: in a class the
original is there, and the copies share the marks of the tool that made them); an *independent pair* is two originals of different families,
*flagged* when they land in one cluster. Used by the held-out test, the benchmark and the
tuning script; nothing in the detector reads it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from grader import paths
from grader.similarity import sources
from grader.similarity.clusters import Settings, find_near_duplicates

HALVES = ("tuning", "held_out")


def corpus_root() -> Path:
    return paths.fixtures_dir() / "similarity"


@dataclass
class ClassUnderTest:
    kind: str
    half: str
    texts: dict[str, str]                 # id -> source text
    family: dict[str, str]                # id -> the original it was made from (itself for an original)
    boilerplate: list[str] = field(default_factory=list)
    vocabulary: set[str] = field(default_factory=set)


@dataclass
class Figures:
    copies: int = 0
    caught: int = 0
    independent_pairs: int = 0
    flagged_pairs: int = 0
    missed: list[str] = field(default_factory=list)
    wrongly_paired: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: "Figures") -> "Figures":
        return Figures(self.copies + other.copies, self.caught + other.caught,
                       self.independent_pairs + other.independent_pairs, self.flagged_pairs + other.flagged_pairs,
                       self.missed + other.missed, self.wrongly_paired + other.wrongly_paired)

    @property
    def catch_rate(self) -> float:
        return self.caught / self.copies if self.copies else 0.0

    @property
    def false_pair_rate(self) -> float:
        return self.flagged_pairs / self.independent_pairs if self.independent_pairs else 0.0

    def line(self) -> str:
        return (f"copies caught {self.caught}/{self.copies} ({100 * self.catch_rate:.1f}%), "
                f"independent pairs flagged {self.flagged_pairs}/{self.independent_pairs} ({100 * self.false_pair_rate:.1f}%)")


@cache
def split() -> dict[str, dict[str, list[str]]]:
    return tomllib.loads((corpus_root() / "split.toml").read_text())


def kinds() -> list[str]:
    return sorted(split())


def _files(path: Path) -> list[Path]:
    return [path] if path.is_file() else sorted(path.glob("*.py"))


def load_class(kind: str, half: str) -> ClassUnderTest:
    from grader.judging import exercise

    root = corpus_root()
    ex = exercise.load(kind)
    shapes = sources.exercise_texts(ex)
    texts, family = {}, {}
    for name in split()[kind][half]:
        original = root / "independent" / kind / name
        stem = original.stem if original.is_file() else original.name
        texts[stem] = sources.submission_text(_files(original))
        family[stem] = stem
        for copy in sorted((root / "copies" / kind).glob(f"{stem}__c*")):
            cid = copy.stem if copy.is_file() else copy.name
            texts[cid] = sources.submission_text(_files(copy))
            family[cid] = stem
    return ClassUnderTest(kind, half, texts, family, shapes, sources.vocabulary(ex))


def figures(cls: ClassUnderTest, settings: Settings = Settings()) -> Figures:
    clusters = find_near_duplicates(cls.texts, cls.boilerplate, cls.vocabulary, settings)
    cluster_of = {sid: i for i, c in enumerate(clusters) for sid in c["students"]}
    result = Figures()
    for sid, fam in cls.family.items():
        if sid == fam:
            continue
        result.copies += 1
        if sid in cluster_of and cluster_of.get(fam) == cluster_of[sid]:
            result.caught += 1
        else:
            result.missed.append(f"{cls.kind}/{sid}")
    originals = sorted(sid for sid, fam in cls.family.items() if sid == fam)
    for i, a in enumerate(originals):
        for b in originals[i + 1:]:
            result.independent_pairs += 1
            if a in cluster_of and cluster_of.get(b) == cluster_of[a]:
                result.flagged_pairs += 1
                result.wrongly_paired.append((f"{cls.kind}/{a}", f"{cls.kind}/{b}"))
    return result


def half_figures(half: str, settings: Settings = Settings()) -> tuple[Figures, dict[str, Figures]]:
    per_kind = {kind: figures(load_class(kind, half), settings) for kind in kinds()}
    total = Figures()
    for item in per_kind.values():
        total = total.add(item)
    return total, per_kind
