"""Pictures of positions: the game's own ``render`` as text, and the same text as inline SVG.

Text goes to terminals and plain reports; the SVG (one cell per character, marks drawn as
discs) goes into HTML reports. Both come from ``render(state)``: an instructor draws a board
once, as text, and gets both.
"""

from __future__ import annotations

from html import escape

CELL = 22
PALETTE = ("#d33", "#f5c400", "#36c", "#2a2", "#a3c", "#e80")


def text(game, state, caption: str) -> str:
    drawn = game.render(state)
    if drawn is None:
        drawn = str(game.encode(state))
    return f"{drawn.rstrip()}\n{caption}"


def svg(drawn: str) -> str:
    """The rendered board as an SVG: letters and digits become coloured discs, the rest stays text."""
    lines = drawn.rstrip("\n").splitlines() or [""]
    width = max(len(line) for line in lines) * CELL + 8
    height = len(lines) * CELL + 8
    colours: dict[str, str] = {}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="board">',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa" stroke="#999"/>']
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            x, y = 4 + col * CELL + CELL // 2, 4 + row * CELL + CELL // 2
            if char.isalpha() and char.isupper():
                colour = colours.setdefault(char, PALETTE[len(colours) % len(PALETTE)])
                parts.append(f'<circle cx="{x}" cy="{y}" r="{CELL // 2 - 2}" fill="{colour}"><title>{escape(char)}'
                             f'</title></circle>')
            elif not char.isspace():
                parts.append(f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-family="monospace" '
                             f'font-size="14">{escape(char)}</text>')
    parts.append("</svg>")
    return "".join(parts)
