"""The class summary page: what an instructor reads first after grading a whole class.

The numbers are computed here, from the result dictionaries alone; the template only lays
them out. The page is one self-contained HTML file: inline CSS, the histogram as inline
SVG, no font, no image, nothing fetched. Its one small inline script sorts and filters the
roster; with scripts off the roster is the same complete table, sorted by student id.

Every number counts every student: a submission that could not be graded scores 0 in the
mean, the median and the histogram, as it does in ``grades.csv`` (the page says so, and
gives the mean of the graded submissions beside it).
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

TEMPLATE = "summary.html.j2"
SLOWEST = 10
BINS = 10


@cache
def _environment():
    from grader.report import new_environment

    return new_environment(autoescape=True, keep_trailing_newline=False)


def histogram(scores: list[float], max_score: float, bins: int = BINS) -> list[dict]:
    """Equal-width score bins from 0 to the maximum; a full score lands in the last bin."""
    if max_score <= 0:
        return [{"low": 0.0, "high": 0.0, "count": len(scores)}]
    width = max_score / bins
    counts = [0] * bins
    for score in scores:
        index = min(int(max(score, 0.0) / width), bins - 1)
        counts[index] += 1
    return [{"low": round(i * width, 2), "high": round((i + 1) * width, 2), "count": c} for i, c in enumerate(counts)]


def svg_bars(bins: list[dict], width: int = 640, height: int = 220) -> dict:
    """Geometry for the histogram's bars (the template draws them), with a little room for labels."""
    top = max((b["count"] for b in bins), default=0) or 1
    pad_left, pad_bottom, pad_top = 36, 34, 14
    plot_w, plot_h = width - pad_left - 20, height - pad_bottom - pad_top  # room for the last edge's number
    step = plot_w / max(len(bins), 1)
    bars = []
    for i, b in enumerate(bins):
        h = plot_h * b["count"] / top
        bars.append({"x": round(pad_left + i * step + 2, 1), "y": round(pad_top + plot_h - h, 1), "w": round(step - 4, 1),
                     "h": round(h, 1), "count": b["count"], "label": f"{b['low']:g}–{b['high']:g}",
                     "label_x": round(pad_left + i * step + step / 2, 1)})
    # The axis names each bin's edges, not its range under it: "11.7–13.65" beside "13.65–15.6" ran together
    # under bins of a 19.5-point rubric (the 130th helper's class summary). The range is the bar's tooltip.
    ticks = [{"x": round(pad_left + i * step, 1), "text": f"{b['low']:g}"} for i, b in enumerate(bins)]
    if bins:
        ticks.append({"x": round(pad_left + len(bins) * step, 1), "text": f"{bins[-1]['high']:g}"})
    return {"width": width, "height": height, "bars": bars, "ticks": ticks, "top": top, "base_y": pad_top + plot_h,
            "pad_left": pad_left, "pad_top": pad_top}


def roster(entries: list[dict]) -> list[dict]:
    """One row per student, sorted by id: what the roster table shows and sorts by."""
    rows = []
    for entry in sorted(entries, key=lambda e: e["student"]):
        result = entry["result"]
        rows.append({"student": entry["student"], "report": entry["report"], "status": result.get("status", "error"),
                     "score": float(result.get("score") or 0.0), "max_score": float(result.get("max_score") or 0.0),
                     "mistakes": [m.get("code", "") for m in result.get("mistakes") or []],
                     "error": result.get("error") or "", "seconds": float(result.get("duration_seconds") or 0.0)})
    return rows


def summarise(entries: list[dict], *, exercise: str, seed: int | None, grader_version: str,
              discovered: dict | None = None) -> dict:
    """``entries``: one dict per student: ``student``, ``report`` (a relative link) and ``result``.
    ``discovered``: discovery's account (what was graded, what was skipped and why), if any."""
    results = [e["result"] for e in entries]
    graded = [e for e in entries if e["result"].get("status") != "error"]
    scores = [float(e["result"].get("score") or 0.0) for e in entries]  # an error counts 0, as in grades.csv
    graded_scores = [float(e["result"].get("score") or 0.0) for e in graded]
    max_score = max((r.get("max_score", 0.0) for r in results), default=0.0)
    statuses = Counter(r.get("status") for r in results)

    checks: dict[str, dict] = {}
    for entry in graded:
        for check in entry["result"].get("checks") or []:
            row = checks.setdefault(check["name"], {"name": check["name"], "title": check.get("title", ""),
                                                    "passed": 0, "failed": 0, "skipped": 0, "error": 0, "total": 0})
            row[check["status"] if check["status"] in ("passed", "failed", "skipped", "error") else "error"] += 1
            row["total"] += 1
    for row in checks.values():
        row["rate"] = row["passed"] / row["total"] if row["total"] else 0.0

    mistakes: dict[str, dict] = {}
    for entry in sorted(entries, key=lambda e: e["student"]):
        for mistake in entry["result"].get("mistakes") or []:
            row = mistakes.setdefault(mistake["code"], {"code": mistake["code"], "count": 0,
                                                        "explanation": mistake.get("explanation", ""),
                                                        "example": entry["student"], "example_report": entry["report"]})
            row["count"] += 1

    problems = []
    for entry in sorted(entries, key=lambda e: e["student"]):
        result = entry["result"]
        timeouts = [c["name"] for c in result.get("checks") or [] if "timed out" in (c.get("message") or "")]
        if result.get("status") == "error" or timeouts:
            kind = "timeout" if "timed out" in (result.get("error") or "") or timeouts else "error"
            what = result.get("error") or f"timed out in {', '.join(timeouts)}"
            problems.append({"student": entry["student"], "report": entry["report"], "kind": kind, "what": what})

    slowest = sorted(entries, key=lambda e: (-(e["result"].get("duration_seconds") or 0.0), e["student"]))[:SLOWEST]
    bins = histogram(scores, max_score)
    return {
        "exercise": exercise, "seed": seed, "grader_version": grader_version, "public_seed": seed == _public_seed(),
        "total": len(entries), "passed": statuses.get("passed", 0), "failed": statuses.get("failed", 0),
        "errors": statuses.get("error", 0), "max_score": max_score,
        "mean": (sum(scores) / len(scores)) if scores else None,
        "median": _median(scores),
        "mean_graded": (sum(graded_scores) / len(graded_scores)) if graded_scores else None,
        "graded": len(graded),
        "roster": roster(entries),
        "statuses": [s for s in ("passed", "failed", "error") if statuses.get(s)],
        "mistake_codes": sorted({m.get("code", "") for r in results for m in r.get("mistakes") or []}),
        "discovered": discovered,
        "lms": None,  # the LMS files and the roster's notes, where grade wrote them (batch.write_outputs)
        "histogram": bins, "svg": svg_bars(bins),
        "checks": list(checks.values()),
        "mistakes": sorted(mistakes.values(), key=lambda m: (-m["count"], m["code"])),
        "problems": problems,
        "slowest": [{"student": e["student"], "report": e["report"], "seconds": e["result"].get("duration_seconds") or 0.0,
                     "status": e["result"].get("status")} for e in slowest],
    }


def _public_seed() -> int:
    from grader.judging.bank import PUBLIC_SEED

    return PUBLIC_SEED


def _median(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def render(summary: dict) -> str:
    return _environment().get_template(TEMPLATE).render(s=summary, isfinite=math.isfinite)
