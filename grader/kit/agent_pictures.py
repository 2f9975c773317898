"""Boards of an object-route game as people read them: text, SVG, and positions named by their moves.

Never the game's internal arrays: a report draws the position (both players, the blocked cells,
the move) and names a searched position by the moves that reach it from the drawn one.
"""

from __future__ import annotations

from html import escape

CELL = 28


def moves_of(rules, state, path) -> list:
    """The moves (cells) along ``path`` (move indices) from ``state``; None where the path leaves the game."""
    moves = []
    for index in path:
        options = rules.moves_for(state, rules.to_move(state))
        if not 0 <= index < len(options):
            return moves + [None]
        moves.append(options[index])
        state = rules.result(state, options[index])
    return moves


def path_text(rules, state, path) -> str:
    if not path:
        return "the drawn position itself"
    shown = [("?" if m is None else f"({m[0]}, {m[1]})") for m in moves_of(rules, state, path)]
    return "after " + " then ".join(shown)


def svg(rules, state, marks: dict | None = None) -> str:
    """The board: blocked cells grey, player 1 a dark disc, player 2 a light one, marked cells outlined."""
    marks = marks or {}
    rows = rules.cells(state)
    height, width = len(rows), len(rows[0]) if rows else 0
    size_w, size_h = width * CELL + 24, height * CELL + 24
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size_w}" height="{size_h}" '
             f'viewBox="0 0 {size_w} {size_h}" role="img" aria-label="the board">']
    for c in range(width):
        parts.append(f'<text x="{24 + c * CELL + CELL // 2}" y="14" font-size="11" text-anchor="middle">{c}</text>')
    for r in range(height):
        parts.append(f'<text x="10" y="{24 + r * CELL + CELL // 2 + 4}" font-size="11" text-anchor="middle">{r}</text>')
        for c in range(width):
            x, y = 24 + c * CELL, 20 + r * CELL
            mark = rows[r][c]
            fill = "#bbbbbb" if mark == "#" else "#ffffff"
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#555"/>')
            if mark in ("1", "2"):
                colour = "#1f3b73" if mark == "1" else "#f0a030"
                parts.append(f'<circle cx="{x + CELL // 2}" cy="{y + CELL // 2}" r="{CELL // 2 - 4}" fill="{colour}"/>'
                             f'<text x="{x + CELL // 2}" y="{y + CELL // 2 + 4}" font-size="11" text-anchor="middle" '
                             f'fill="{"#fff" if mark == "1" else "#000"}">{mark}</text>')
    for name, colour in (("best", "#2a8c2a"), ("yours", "#c0392b")):
        for cell in marks.get(name) or []:
            r, c = cell
            if 0 <= r < height and 0 <= c < width:
                parts.append(f'<rect x="{24 + c * CELL + 2}" y="{20 + r * CELL + 2}" width="{CELL - 4}" '
                             f'height="{CELL - 4}" fill="none" stroke="{colour}" stroke-width="3">'
                             f'<title>{escape(name)}</title></rect>')
    parts.append("</svg>")
    return "".join(parts)
