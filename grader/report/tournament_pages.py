"""A tournament's pages for people: the leaderboard, a page per agent, a replay per game.

Laid out from plain data (the standings and the game records, as ``grader.bulk.tournament``
reads them from ``games.jsonl``) with jinja2 templates like every other report. Each page is
self-contained: styles inline, pictures as inline SVG, and only inline scripts (sorting the
leaderboard, stepping through a replay); without scripts every table is complete and a replay
shows its final position and the whole list of moves.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html import escape

from grader.report import new_environment

CELL = 26
GRID = 30
PLAYERS = {"1": "#1f3b73", "2": "#f0a030"}
DISCS = {"X": "#c8312b", "O": "#e8b90c", "x": "#c8312b", "o": "#e8b90c"}


def page_name(name: str) -> str:
    """A file name for an agent's or a game's page (ids come from file names and may hold anything)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)[:120] or "_"


def grid_svg(frame: dict) -> str:
    """A position drawn from its cells (``{"cells": rows of marks, "moved": [row, col] or None}``): a square per
    cell, "#" a used cell, any other mark a player's disc ("1", "2" in two colours), the last move outlined.
    The replay page's script draws the same from the same data."""
    rows = frame["cells"]
    width = len(rows[0]) if rows else 0
    w, h = width * GRID + 28, len(rows) * GRID + 28
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{w}" height="{h}" role="img" '
             f'aria-label="the board">']
    for c in range(width):
        parts.append(f'<text x="{24 + c * GRID + GRID // 2}" y="14" text-anchor="middle">{c}</text>')
    for r, row in enumerate(rows):
        parts.append(f'<text x="12" y="{24 + r * GRID + GRID // 2 + 4}" text-anchor="middle">{r}</text>')
        for c, mark in enumerate(row):
            x, y = 24 + c * GRID, 20 + r * GRID
            fill = "#bbbbbb" if mark == "#" else "#e4e4e4" if mark else "#fff"
            parts.append(f'<rect x="{x}" y="{y}" width="{GRID}" height="{GRID}" fill="{fill}" stroke="#555"/>')
            if mark and mark != "#":
                parts.append(f'<circle cx="{x + GRID // 2}" cy="{y + GRID // 2}" r="{GRID // 2 - 4}" '
                             f'fill="{PLAYERS.get(mark, "#2f6f9f")}"/><text x="{x + GRID // 2}" y="{y + GRID // 2 + 4}" '
                             f'text-anchor="middle" style="fill: {"#fff" if mark == "1" else "#000"}">{escape(mark)}</text>')
    moved = frame.get("moved")
    if (isinstance(moved, list) and len(moved) == 2 and all(type(v) is int for v in moved)
            and 0 <= moved[0] < len(rows) and 0 <= moved[1] < width):
        parts.append(f'<rect x="{24 + moved[1] * GRID + 2}" y="{20 + moved[0] * GRID + 2}" width="{GRID - 4}" '
                     f'height="{GRID - 4}" fill="none" stroke="#c0392b" stroke-width="3"/>')
    parts.append("</svg>")
    return "".join(parts)


def board_svg(lines: list[str] | str | dict) -> str:
    """A position drawn from its text rendering: one cell per character, X and O as discs (or from its cells)."""
    if isinstance(lines, dict):
        return grid_svg(lines)
    rows = lines.splitlines() if isinstance(lines, str) else list(lines)
    width = max((len(r) for r in rows), default=1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width * CELL // 2 + 8}" '
             f'height="{len(rows) * CELL + 8}" role="img" aria-label="{escape(chr(10).join(rows))}">']
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            cx, cy = 4 + x * CELL // 2 + CELL // 4, 4 + y * CELL + CELL // 2
            if char in DISCS:
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.42:.1f}" fill="{DISCS[char]}" stroke="#333"/>')
            elif char == "." and row.strip().startswith("|"):
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.42:.1f}" fill="#fff" stroke="#999"/>')
            elif not char.isspace():
                parts.append(f'<text x="{cx}" y="{cy + 4}" text-anchor="middle">{escape(char)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def ratings_svg(rows: list[dict]) -> str:
    """Each agent's rating as a dot with its 95% interval, best first."""
    if not rows:
        return ""
    low = min(r["rating"] - 1.96 * r["error"] for r in rows)
    high = max(r["rating"] + 1.96 * r["error"] for r in rows)
    span = max(high - low, 1.0)
    left, width, line = 160, 420, 18

    def x(value):
        return left + (value - low) / span * width

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 70}" height="{len(rows) * line + 24}" '
             'role="img" aria-label="ratings with 95% intervals">']
    for i, row in enumerate(rows):
        y = 12 + i * line
        colour = "#777" if row["baseline"] else "#2f6f9f"
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end">{escape(row["agent"][:24])}</text>')
        parts.append(f'<line x1="{x(row["rating"] - 1.96 * row["error"]):.1f}" x2="{x(row["rating"] + 1.96 * row["error"]):.1f}" '
                     f'y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<circle cx="{x(row["rating"]):.1f}" cy="{y}" r="4" fill="{colour}"/>')
        parts.append(f'<text x="{left + width + 8}" y="{y + 4}">{row["rating"]:.0f}</text>')
    parts.append("</svg>")
    return "".join(parts)


@cache
def _environment():
    env = new_environment(autoescape=True)
    env.filters["page"] = page_name
    env.filters["pct"] = lambda v: f"{100 * v:.0f}%"
    return env


def render_all(board: dict, records: list[dict], *, exercise: str, title: str, seed: int, declared: dict,
               pictures) -> dict[str, str]:
    """{relative path: page}: leaderboard.html, agents/<agent>.html, replays/<game>.html."""
    env = _environment()
    players = board["students"] + board["baselines"]
    common = {"exercise": exercise, "title": title, "seed": seed, "declared": declared}
    # the won|lost table's rows: only opponents some agent played (without --round-robin the students never meet,
    # and their rows were a grid of dots above the baselines': the 133rd helper)
    opponents = [o for o in players if any((a, o) in board["table"] for a in board["students"])]
    pages = {"leaderboard.html": env.get_template("tournament_leaderboard.html.j2").render(
        b=board, players=players, opponents=opponents, ratings_svg=ratings_svg(board["rows"]), **common)}
    by_agent: dict[str, list[dict]] = {p: [] for p in players}
    for record in records:
        for me in record["pairing"]:
            other = record["pairing"][1] if me == record["pairing"][0] else record["pairing"][0]
            result = record["result"]
            outcome = "drawn" if result["draw"] else "won" if result["winner"] == me else "lost"
            side = "max" if record["max"] == me else "min"
            used = [m["used"] for m in record["moves"] if m["by"] == side]
            by_agent[me].append({"id": record["id"], "opponent": other, "side": side, "outcome": outcome,
                                 "reason": result["reason"], "moves": len(record["moves"]),
                                 "most": max(used, default=0), "opening": record["opening"]})
    rows = {r["agent"]: r for r in board["rows"]}
    for name in board["students"]:
        against = [(other, board["table"].get((name, other))) for other in players if other != name]
        pages[f"agents/{page_name(name)}.html"] = env.get_template("tournament_agent.html.j2").render(
            agent=name, row=rows[name], against=[a for a in against if a[1]], games=by_agent[name], **common)
    for record in records:
        frames = pictures(record)
        pages[f"replays/{page_name(record['id'])}.html"] = env.get_template("tournament_replay.html.j2").render(
            g=record, frames_json=json.dumps([f if isinstance(f, dict) else f.splitlines() for f in frames]).replace("</", "<\\/"), last=board_svg(frames[-1]),
            opening=len(record["opening_moves"]), baselines=board["baselines"], **common)
    return pages
