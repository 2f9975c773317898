"""What the recorded games say: per agent and opponent won | lost, win rates, ratings, rubric points.

Everything here is read from the game records alone (``games.jsonl``), so a resumed tournament
and one played in one go give the same standings. A draw is neither won nor lost (it counts half
for the ratings). The rubric's points are contract results (``SubmissionResult``), one check
per declared threshold, so the gradebook, ``grades.csv`` and the LMS files take them as any check.
"""

from __future__ import annotations

from collections import Counter

from grader.judging.result import CheckResult, SubmissionResult
from grader.tournament import ratings
from grader.version import __version__


def tally(records: list[dict]) -> dict[tuple[str, str], dict]:
    """(agent, opponent) -> {"won", "lost", "drawn", "games"} from both agents' sides."""
    found: dict[tuple[str, str], dict] = {}
    for record in records:
        a, b = record["pairing"]
        for me, other in ((a, b), (b, a)):
            cell = found.setdefault((me, other), {"won": 0, "lost": 0, "drawn": 0, "games": 0})
            cell["games"] += 1
            result = record["result"]
            if result["draw"]:
                cell["drawn"] += 1
            elif result["winner"] == me:
                cell["won"] += 1
            else:
                cell["lost"] += 1
    for cell in found.values():
        low, high = ratings.wilson(cell["won"], cell["games"])
        cell.update(rate=cell["won"] / cell["games"], low=low, high=high)
    return found


def failures(records: list[dict]) -> dict[str, Counter]:
    """Per agent: how many games it lost by its own fault, by reason (crash, illegal move, budget...)."""
    found: dict[str, Counter] = {}
    for record in records:
        moves = record["moves"]
        if moves and moves[-1].get("failure"):
            loser = record["result"]["loser"]
            found.setdefault(loser, Counter())[_kind(moves[-1]["failure"])] += 1
    return found


def _kind(failure: str) -> str:
    for word, kind in (("over budget", "over budget"), ("illegal move", "illegal move"), ("timed out", "timed out"),
                       ("could not", "did not load"), ("raised", "crashed")):
        if word in failure:
            return kind
    return "crashed"


def standings(records: list[dict], students: list[str], baselines: list[str]) -> dict:
    """The leaderboard's data: rows ranked by rating, the won | lost table, each cell's interval."""
    cells = tally(records)
    players = students + baselines
    results = [(r["pairing"][0], r["pairing"][1],
                0.5 if r["result"]["draw"] else 1.0 if r["result"]["winner"] == r["pairing"][0] else 0.0)
               for r in records]
    fitted = ratings.bradley_terry(players, results) if records else {p: {"rating": 1500.0, "error": 0.0} for p in players}
    faults = failures(records)
    rows = []
    for name in players:
        mine = [cell for (me, _), cell in cells.items() if me == name]
        won, lost, drawn = (sum(c[k] for c in mine) for k in ("won", "lost", "drawn"))
        games = won + lost + drawn
        low, high = ratings.wilson(won, games)
        rows.append({"agent": name, "baseline": name in baselines, "games": games, "won": won, "lost": lost,
                     "drawn": drawn, "rate": won / games if games else 0.0, "low": low, "high": high,
                     "rating": round(fitted[name]["rating"], 1), "error": round(fitted[name]["error"], 1),
                     "failures": dict(sorted(faults.get(name, Counter()).items()))})
    rows.sort(key=lambda r: (-r["rating"], -r["rate"], r["agent"]))
    for place, row in enumerate(rows, 1):  # tied on rating and win rate, tied in rank ("1, 2, 2, 4"): a name's
        before = rows[place - 2] if place > 1 else None  # letter placed equal agents apart (the 133rd helper)
        tied = before is not None and (before["rating"], before["rate"]) == (row["rating"], row["rate"])
        row["rank"] = before["rank"] if tied else place
    table = {(me, other): {k: cell[k] for k in ("won", "lost", "drawn", "games", "rate", "low", "high")}
             for (me, other), cell in cells.items()}
    return {"rows": rows, "table": table, "students": students, "baselines": baselines}


def rubric(name: str, display: str, exercise: str, declaration, table: dict, seed) -> dict:
    """The student's contract result: one check per declared threshold, scored from its games."""
    checks = []
    for threshold in declaration.thresholds:
        cell = table.get((name, threshold.against))
        if cell is None or not cell["games"]:
            checks.append(CheckResult(threshold.check_name, threshold.title, "error", 0.0, threshold.points,
                                      message=f"no game against {threshold.against} was played"))
            continue
        passed = cell["rate"] >= threshold.win_rate
        message = (f"won {cell['won']} of {cell['games']} games against {threshold.against} ({cell['rate']:.0%}, "
                   f"95% interval {cell['low']:.0%} to {cell['high']:.0%}); {threshold.win_rate:.0%} needed")
        checks.append(CheckResult(threshold.check_name, threshold.title, "passed" if passed else "failed",
                                  threshold.points if passed else 0.0, threshold.points, message=message,
                                  failed_cases=cell["games"] - cell["won"], total_cases=cell["games"]))
    score = sum(c.score for c in checks)
    top = sum(c.max_score for c in checks)
    result = SubmissionResult(submission=display, exercise=exercise, status="passed" if score == top else "failed",
                              score=score, max_score=top, seed=seed, grader_version=__version__)
    result.checks = checks
    return result.to_dict()
