"""Pictures of positions: the game's own ``render`` as text, and the same text as inline SVG.

Text goes to terminals and plain reports; the SVG (one cell per character, marks drawn as
discs, words such as "heap" or "to move" written as text) goes into HTML reports. Both come from ``render(state)``: an instructor draws a board
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


def _words(line: str) -> dict[int, str]:
    """The runs of two or more letters or digits in a line, by where they start: text, not cells of a grid
    (a board's cells are single marks, "X . O" or "|X|O|"; "player 1 to move" is words)."""
    import re

    return {match.start(): match.group() for match in re.finditer(r"[^\W_]{2,}", line)}


def _covered(words: dict[int, str]) -> set[int]:
    return {start + i for start, word in words.items() for i in range(len(word))}


CAPTION_CHAR = 8.5  # the width of a character of the caption's 14 px monospace text


def svg(drawn: str, caption: str = "") -> str:
    """The rendered board as an SVG: letters and digits become coloured discs, the rest stays text. ``caption``
    (whose turn it is and the depth left, or that the game is over and its score) is a line of text under the
    board: the text picture ends with it, and an HTML report showed the board alone, the caption folded away."""
    lines = drawn.rstrip("\n").splitlines() or [""]
    width = max(max(len(line) for line in lines) * CELL + 8, int(len(caption) * CAPTION_CHAR) + 12 if caption else 0)
    height = len(lines) * CELL + 8 + (CELL if caption else 0)
    colours: dict[str, str] = {}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="board">',
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa" stroke="#999"/>']
    for row, line in enumerate(lines):
        words = _words(line)
        if words and not any(c.isalpha() and c.isupper() and col not in _covered(words) for col, c in enumerate(line)):
            # a line of text with no marks in it ("player 1 to move"): one line of text, as written
            parts.append(f'<text x="4" y="{4 + row * CELL + CELL // 2 + 5}" font-family="monospace" font-size="14" '
                         f'xml:space="preserve">{escape(line.rstrip())}</text>')
            continue
        for col, char in enumerate(line):
            x, y = 4 + col * CELL + CELL // 2, 4 + row * CELL + CELL // 2
            if col in words:  # a word ("player", "heap") is text, written at its place, not a letter per cell
                parts.append(f'<text x="{4 + col * CELL}" y="{y + 5}" text-anchor="start" font-family="monospace" '
                             f'font-size="14">{escape(words[col])}</text>')
            elif any(start <= col < start + len(word) for start, word in words.items()):
                continue
            elif char.isalpha() and char.isupper():
                colour = colours.setdefault(char, PALETTE[len(colours) % len(PALETTE)])
                parts.append(f'<circle cx="{x}" cy="{y}" r="{CELL // 2 - 2}" fill="{colour}"><title>{escape(char)}'
                             f'</title></circle>')
            elif not char.isspace():
                parts.append(f'<text x="{x}" y="{y + 5}" text-anchor="middle" font-family="monospace" '
                             f'font-size="14">{escape(char)}</text>')
    if caption:
        parts.append(f'<text x="4" y="{4 + len(lines) * CELL + CELL // 2 + 5}" font-family="monospace" font-size="14" '
                     f'fill="#444" xml:space="preserve">{escape(caption)}</text>')
    parts.append("</svg>")
    return "".join(parts)
