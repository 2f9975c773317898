"""A class of submissions compared all at once: pairs that share too much, grouped into clusters.

Two things every submission of an exercise shares are taken out before anything is compared:

* the exercise's own shapes: fingerprints of the starter, the reference and any other text
  the exercise hands over (``boilerplate``). A solution written the way the reference is
  written has few fingerprints left and is not paired for looking like the textbook;
* the class's common idioms: a fingerprint found in more than ``common_share`` of the
  submissions (and at least ``common_floor`` of them) is how everybody writes a loop over
  the children, not evidence of copying (MOSS's ``-m``).

What is left is compared through an inverted index (fingerprint -> submissions), so the work
grows with the shared fingerprints, not with the number of pairs: a class of a thousand is
compared in seconds (``benchmarks/duplicates_speed.py``). The price of the idiom discount: a
ring of copies larger than ``common_share`` of the class turns its own code into an "idiom"
and is found only where its files are identical. A pair's similarity is the share of the smaller
submission's remaining fingerprints that the other also has; a pair is flagged at
``threshold`` or above when both keep at least ``min_fingerprints`` (a submission that is
nearly all boilerplate carries too little of its own to judge). Flagged pairs are joined into
clusters (union-find); a cluster's similarity is the lowest among the flagged pairs that
built it, so the figure never overstates the weakest link.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import chain

from grader.similarity.fingerprints import fingerprints


@dataclass(frozen=True)
class Settings:
    """Tuned on the tuning half of ``fixtures/similarity`` only (see its ``split.toml``)."""

    k: int = 5                    # tokens per k-gram
    window: int = 1               # winnowing window, in k-grams (1: every k-gram is a fingerprint)
    threshold: float = 0.5        # share of the smaller side's own fingerprints found in the other
    min_fingerprints: int = 6     # fewer left after the discounts: too little to judge
    common_share: float = 0.2     # a fingerprint in more than this share of the class is an idiom ...
    common_floor: int = 5         # ... once it is in more than this many submissions


def find_near_duplicates(submissions: dict[str, str], boilerplate: list[str] = (), vocabulary=(),
                         settings: Settings = Settings()) -> list[dict]:
    """``submissions``: student id -> source text (several files already joined, in a stable order).

    Returns ``[{"students": [ids, sorted], "similarity": 0.0-1.0}, ...]``, the most similar
    cluster first. Identical texts are always a cluster (similarity 1.0), whatever is left of
    them after the discounts, unless the text is one of the exercise's own (the untouched starter).
    """
    scores = pair_scores(submissions, boilerplate, vocabulary, settings)
    flagged = {pair: value for pair, value in scores.items() if value >= settings.threshold}
    handed_out = {text.strip() for text in boilerplate}
    by_text: dict[str, list[str]] = defaultdict(list)
    for sid in sorted(submissions):
        text = submissions[sid].strip()
        if text and text not in handed_out:  # the untouched starter, handed in twice, is nobody's copy
            by_text[text].append(sid)
    for same in by_text.values():
        for other in same[1:]:  # a chain is enough to join them; n identical files cost n, not n^2
            flagged[(same[0], other)] = 1.0
    return _clusters(flagged)


def pair_scores(submissions: dict[str, str], boilerplate: list[str] = (), vocabulary=(),
                settings: Settings = Settings()) -> dict[tuple[str, str], float]:
    """The similarity of every pair that shares anything once the discounts are made (ids sorted
    within a pair); a pair where either side keeps fewer than ``min_fingerprints`` is left out."""
    ids = sorted(submissions)
    s = settings
    prints = {sid: fingerprints(submissions[sid], s.k, s.window, vocabulary) for sid in ids}
    shapes: set[int] = set()
    for text in boilerplate:
        shapes |= fingerprints(text, s.k, s.window, vocabulary)

    index: dict[int, list[int]] = defaultdict(list)  # fingerprint -> positions in ids, ascending
    for position, sid in enumerate(ids):
        for fp in prints[sid] - shapes:
            index[fp].append(position)
    common_limit = max(s.common_floor, s.common_share * len(ids))
    telling = {fp: holders for fp, holders in index.items() if len(holders) <= common_limit}
    own = [0] * len(ids)
    for holders in telling.values():
        for position in holders:
            own[position] += 1
    scores = {}
    for position, sid in enumerate(ids):
        if own[position] < s.min_fingerprints:
            continue
        # Counter counts in C: the shared fingerprints of this submission with every other at once.
        shared = Counter(chain.from_iterable(telling[fp] for fp in prints[sid] if fp in telling))
        for other, count in shared.items():
            if other > position and own[other] >= s.min_fingerprints:
                scores[(sid, ids[other])] = count / min(own[position], own[other])
    return scores


def _clusters(pairs: dict[tuple[str, str], float]) -> list[dict]:
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, dict] = {}
    for (a, b), similarity in pairs.items():
        group = groups.setdefault(root(a), {"students": set(), "similarity": 1.0})
        group["students"] |= {a, b}
        group["similarity"] = min(group["similarity"], similarity)
    clusters = [{"students": sorted(g["students"]), "similarity": round(g["similarity"], 3)} for g in groups.values()]
    return sorted(clusters, key=lambda c: (-c["similarity"], c["students"]))
