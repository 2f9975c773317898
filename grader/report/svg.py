"""Inline SVG pictures of a counterexample for the HTML report: a game tree or a board.

An exercise describes its counterexample as plain data (its ``drawing`` hook), never as
markup: ``{"kind": "tree", "root": node}`` where a node is ``{"id", "label", "detail",
"children"}``, or ``{"kind": "board", "rows": [[mark, ...], ...], "row_labels", "col_labels",
"caption"}``. This module lays it out and escapes every piece of text, so nothing a
submission returned can become markup. The first wrong node (the localisation) is drawn in
red with its expected and returned values beside it.
"""

from __future__ import annotations

from html import escape

NODE_W, NODE_H, GAP_X, GAP_Y, MARGIN = 118, 40, 14, 34, 12
CELL = 44
MAX_TREE_NODES = 80  # larger trees stay text: a picture of hundreds of nodes explains nothing


def to_svg(drawing, localisation=None, expected=None, actual=None) -> str:
    """The SVG element for ``drawing`` ('' when there is nothing to draw)."""
    from markupsafe import Markup

    if not isinstance(drawing, dict):
        return Markup("")
    if drawing.get("kind") == "tree":
        return Markup(_tree(drawing.get("root"), localisation, drawing.get("marks") or {}))
    if drawing.get("kind") == "board":
        return Markup(_board(drawing, expected, actual))
    return Markup("")


def _text(x, y, text, size=12, weight="normal", fill="#1b1b1b", anchor="middle") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" font-weight="{weight}" fill="{fill}" '
            f'text-anchor="{anchor}" font-family="system-ui, sans-serif">{escape(str(text))}</text>')


NOTE_CHAR_W = 7.2  # the width of a character of the red note (12 px, bold), a little over, so that nothing hides it


def _layout(root, wrong=None, note_width: float = 0.0):
    """(node, depth, x of its centre) for every node, and the picture's right edge: leaves are placed left to right,
    a parent over the middle of its children. Right of the wrong node's subtree, room is left for its red note
    (``note_width``), which is drawn on the node's own row: a neighbour there hid it (the hundred and thirteenth
    helper's report: "expected -0.75, your" and the rest under the next box)."""
    placed, cursor = [], [MARGIN + NODE_W / 2]
    right = [0.0]

    def walk(node, depth):
        kids = node.get("children") or []
        if not kids:
            x = cursor[0]
            cursor[0] += NODE_W + GAP_X
        else:
            xs = [walk(child, depth + 1) for child in kids]
            x = (xs[0] + xs[-1]) / 2
        placed.append((node, depth, x))
        right[0] = max(right[0], x + NODE_W / 2)
        if wrong is not None and node.get("id") == wrong:
            note_end = x + NODE_W / 2 + 6 + note_width
            right[0] = max(right[0], note_end)
            cursor[0] = max(cursor[0], note_end + GAP_X + NODE_W / 2)  # the next node of any row starts after it
        return x

    walk(root, 0)
    return placed, right[0] + MARGIN


def _note(localisation) -> str:
    """The red note beside the first wrong node; a long answer (an exception's text) cut, the picture kept narrow."""
    return _short(f"expected {_value(localisation.get('expected'))}, yours {_value(localisation.get('actual'))}", 64)


def _tree(root, localisation, marks=None) -> str:
    """``marks``: ``yours_node`` (framed in red) and ``best_nodes`` (green), e.g. the moves of a root."""
    marks = marks or {}
    best = set(marks.get("best_nodes") or [])
    yours = marks.get("yours_node")
    if not isinstance(root, dict):
        return ""
    wrong = (localisation or {}).get("node")
    note = _note(localisation) if wrong is not None else ""
    placed, width = _layout(root, wrong, NOTE_CHAR_W * len(note))
    if len(placed) > MAX_TREE_NODES:
        return ""
    depth = max(d for _, d, _ in placed)
    legend = "green: the best moves" + ("; red frame: yours" if yours else "") if best or yours else ""
    width = max(width, MARGIN * 2 + 6.5 * len(legend))  # a narrow tree still shows its whole legend
    height = MARGIN * 2 + (depth + 1) * NODE_H + depth * GAP_Y + (16 if marks.get("best_nodes") else 0)
    cy = lambda d: MARGIN + d * (NODE_H + GAP_Y)  # noqa: E731
    where = {id(node): (x, cy(d)) for node, d, x in placed}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="counterexample-picture" role="img" '
             f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
             f"<title>{escape('the counterexample as a tree')}</title>"]
    for node, d, _ in placed:
        x, y = where[id(node)]
        for child in node.get("children") or []:
            x2, y2 = where[id(child)]
            parts.append(f'<line x1="{x:.0f}" y1="{y + NODE_H:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="#888"/>')
    for node, d, _ in placed:
        x, y = where[id(node)]
        is_wrong = wrong is not None and node.get("id") == wrong
        stroke, fill = ("#b00020", "#fde7ea") if is_wrong else ("#555", "#f6f6f6")
        if node.get("id") in best:
            fill = "#d8f0dc"
        if yours is not None and node.get("id") == yours:
            stroke, is_yours = "#b00020", True
        else:
            is_yours = False
        parts.append(f'<g class="node{" wrong" if is_wrong else ""}" data-node="{escape(str(node.get("id", "")))}">'
                     f'<rect x="{x - NODE_W / 2:.0f}" y="{y:.0f}" width="{NODE_W}" height="{NODE_H}" rx="6" '
                     f'fill="{fill}" stroke="{stroke}" stroke-width="{3 if is_wrong or is_yours else 1}"/>')
        parts.append(_text(x, y + 16, _short(node.get("label", "")), weight="bold"))
        parts.append(_text(x, y + 31, _short(node.get("detail", "")), size=11, fill="#444"))
        if is_wrong:
            parts.append(_text(x + NODE_W / 2 + 6, y + 25, note, weight="bold", fill="#b00020", anchor="start"))
        parts.append("</g>")
    if best or yours:
        parts.append(_text(MARGIN, height - 4, legend, size=11, anchor="start", fill="#444"))
    parts.append("</svg>")
    return "".join(parts)


def _board(drawing, expected, actual) -> str:
    rows = drawing.get("rows") or []
    if not rows or not all(isinstance(r, list) for r in rows):
        return ""
    n_rows, n_cols = len(rows), max(len(r) for r in rows)
    left, top = 34, 26
    width = left + n_cols * CELL + MARGIN
    marks = drawing.get("marks") or {}
    best = {tuple(m) for m in marks.get("best") or [] if isinstance(m, list) and len(m) == 2}
    yours = tuple(marks["yours"]) if isinstance(marks.get("yours"), list) and len(marks["yours"]) == 2 else None
    caption = [str(drawing.get("caption") or "")]
    if best or yours:
        caption[0] += "; green: the best moves" + ("; red frame: yours" if yours else "")
    if expected is not None or actual is not None:
        caption.append(f"expected {_value(expected)}, yours {_value(actual)}")
    height = top + n_rows * CELL + 8 + 18 * len(caption)
    width = max(width, 8 * max(len(c) for c in caption) + 2 * MARGIN)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="counterexample-picture" role="img" '
             f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
             f"<title>{escape('the counterexample as a board')}</title>"]
    col_labels = drawing.get("col_labels") or [str(c) for c in range(n_cols)]
    row_labels = drawing.get("row_labels") or [str(r) for r in range(n_rows)]
    for c, label in enumerate(col_labels[:n_cols]):
        parts.append(_text(left + c * CELL + CELL / 2, top - 8, label, size=11, fill="#555"))
    for r, row in enumerate(rows):
        parts.append(_text(left - 8, top + r * CELL + CELL / 2 + 4, row_labels[r] if r < len(row_labels) else "",
                           size=11, fill="#555", anchor="end"))
        for c, mark in enumerate(row):
            shade = "#333" if mark == "#" else "#d8f0dc" if (r, c) in best else "#fff"
            parts.append(f'<rect x="{left + c * CELL}" y="{top + r * CELL}" width="{CELL}" height="{CELL}" '
                         f'fill="{shade}" stroke="#555"/>')
            if (r, c) == yours:
                parts.append(f'<rect class="yours" x="{left + c * CELL + 2}" y="{top + r * CELL + 2}" '
                             f'width="{CELL - 4}" height="{CELL - 4}" fill="none" stroke="#b00020" stroke-width="3"/>')
            if mark not in (".", "#", ""):
                parts.append(_text(left + c * CELL + CELL / 2, top + r * CELL + CELL / 2 + 7, mark, size=20,
                                   weight="bold"))
    for i, line in enumerate(caption):
        parts.append(_text(MARGIN, top + n_rows * CELL + 20 + 18 * i, line, size=12, anchor="start",
                           fill="#b00020" if i else "#1b1b1b"))
    parts.append("</svg>")
    return "".join(parts)


def _short(text, limit=18) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _value(value) -> str:
    return value if isinstance(value, str) else repr(value)
