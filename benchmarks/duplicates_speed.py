"""How fast near-duplicates are found in a large class, and how well on the labelled corpus.

A class of N submissions (1,000 by default) is built from the corpus's independent solutions
of one exercise, each submission a disguised copy made by ``fixtures/similarity/make_copies.py``
with its own seed (renamed, reordered, reformatted, recommented): as many shared fingerprints
as a class can have, so the inverted index does its most work. It prints, measured in the
same run on the same machine:

  * the detector (tokenising, fingerprinting, discounting, comparing, clustering): seconds,
    submissions per second and pairs per second, against the 10 s target for 1,000;
  * the baseline: the same fingerprints compared pair by pair (every one of the N(N-1)/2 set
    intersections, the way a pairwise tool such as copydetect works), and the ratio;
  * the corpus figures on the tuning half and on the held-out half (copies caught,
    independent pairs flagged), against the targets of 90% and 2%.

    python benchmarks/duplicates_speed.py [--n 1000] [--kind ctp-26]

It reports; it does not judge (exit 0 unless something fails).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.similarity import corpus, find_near_duplicates  # noqa: E402
from grader.similarity.clusters import Settings  # noqa: E402
from grader.similarity.fingerprints import fingerprints  # noqa: E402


def _copier():
    spec = importlib.util.spec_from_file_location("make_copies", corpus.corpus_root() / "make_copies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build_class(kind: str, n: int) -> tuple[dict[str, str], list[str], set[str]]:
    copier = _copier()
    keep = copier.fixed_names(kind)
    originals = []
    for path in sorted((corpus.corpus_root() / "independent" / kind).iterdir()):
        files = [path] if path.is_file() else sorted(path.glob("*.py"))
        originals.append({f.name: f.read_text() for f in files})
    rng = random.Random(20261122)
    texts = {}
    for i in range(n):
        source = originals[i % len(originals)]
        copied = copier.disguise(source, keep, rng.randrange(1 << 30))
        texts[f"student{i:04d}"] = "\n".join(copied[name] for name in sorted(copied))
    cls = corpus.load_class(kind, "tuning")
    return texts, cls.boilerplate, cls.vocabulary


def pairwise_baseline(texts: dict[str, str], vocabulary, settings: Settings) -> float:
    started = time.perf_counter()
    prints = [fingerprints(t, settings.k, settings.window, vocabulary) for t in texts.values()]
    for a, b in combinations(prints, 2):
        shared = len(a & b)
        _ = shared / (min(len(a), len(b)) or 1)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--kind", default="ctp-26")
    args = parser.parse_args()
    settings = Settings()

    texts, boilerplate, vocabulary = build_class(args.kind, args.n)
    pairs = args.n * (args.n - 1) // 2
    started = time.perf_counter()
    clusters = find_near_duplicates(texts, boilerplate, vocabulary, settings)
    seconds = time.perf_counter() - started
    print(f"{args.n} submissions of {args.kind} ({pairs} pairs): {seconds:.2f} s, "
          f"{args.n / seconds:.0f} submissions/s, {pairs / seconds:.0f} pairs/s; "
          f"{len(clusters)} clusters; target 1,000 in under 10 s: {'met' if seconds < 10 * args.n / 1000 else 'NOT met'}")
    baseline = pairwise_baseline(texts, vocabulary, settings)
    print(f"baseline, every pair's fingerprint sets intersected: {baseline:.2f} s; "
          f"detector / baseline = {seconds / baseline:.2f}")

    for half in corpus.HALVES:
        total, per_kind = corpus.half_figures(half, settings)
        print(f"{half:>8}: {total.line()}  (targets: >= 90% caught, <= 2% flagged)")
        for kind, figures in per_kind.items():
            print(f"          {kind:<15} {figures.line()}")
            for missed in figures.missed:
                print(f"            missed: {missed}")
            for a, b in figures.wrongly_paired:
                print(f"            paired: {a} ~ {b}")


if __name__ == "__main__":
    main()
