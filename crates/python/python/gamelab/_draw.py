"""Positions drawn as SVG in the web app's look, for Jupyter (`Position._repr_svg_`):
the board in the game's colours, its labels, the pieces (marks or discs), the legal
moves dotted, a winning line marked, and who is to move."""

from __future__ import annotations

import html


def _info(game: str) -> dict:
    from . import _BY_NAME

    return _BY_NAME[game]


def svg(pos, cell: int = 0) -> str:
    """The position as an SVG document."""
    info = _info(pos.game)
    rows, cols = info["rows"], info["cols"]
    cell = cell or (56 if max(rows, cols) <= 4 else 40)
    margin = 22
    width, height = margin + cols * cell + 4, margin + rows * cell + 30
    colours = info["piece_colours"]
    sides = info["sides"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect x="{margin}" y="{margin}" width="{cols * cell}" height="{rows * cell}" '
        f'fill="{info["board_colour"]}" stroke="#333"/>',
    ]
    for i, label in enumerate(info["col_labels"]):
        x = margin + i * cell + cell / 2
        out.append(f'<text x="{x}" y="{margin - 6}" font-size="12" text-anchor="middle" fill="#555">{html.escape(label)}</text>')
    for i, label in enumerate(info["row_labels"]):
        y = margin + i * cell + cell / 2 + 4
        out.append(f'<text x="{margin - 8}" y="{y}" font-size="12" text-anchor="middle" fill="#555">{html.escape(label)}</text>')
    for i in range(1, cols):
        x = margin + i * cell
        out.append(f'<line x1="{x}" y1="{margin}" x2="{x}" y2="{margin + rows * cell}" stroke="#333" stroke-width="1"/>')
    for i in range(1, rows):
        y = margin + i * cell
        out.append(f'<line x1="{margin}" y1="{y}" x2="{margin + cols * cell}" y2="{y}" stroke="#333" stroke-width="1"/>')
    for index in pos.highlight():
        r, c = divmod(index, cols)
        out.append(
            f'<rect x="{margin + c * cell + 2}" y="{margin + r * cell + 2}" width="{cell - 4}" '
            f'height="{cell - 4}" fill="#facc15" fill-opacity="0.45"/>'
        )
    for r, row in enumerate(pos.cells):
        for c, holder in enumerate(row):
            if holder is None:
                continue
            colour = colours[sides.index(holder)]
            cx, cy = margin + c * cell + cell / 2, margin + r * cell + cell / 2
            if info["pieces"] == "discs":
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.4}" fill="{colour}" stroke="#222" stroke-width="1"/>'
                )
            else:
                out.append(
                    f'<text x="{cx}" y="{cy + cell * 0.18}" font-size="{cell * 0.55}" font-weight="bold" '
                    f'text-anchor="middle" fill="{colour}">{html.escape(holder)}</text>'
                )
    if not pos.is_over:
        for mv in pos.legal_moves():
            index = pos.square_of(mv)
            if index is None:
                continue
            r, c = divmod(index, cols)
            cx, cy = margin + c * cell + cell / 2, margin + r * cell + cell / 2
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{max(cell * 0.08, 2.5)}" fill="#000" fill-opacity="0.25"/>')
    out.append(
        f'<text x="{margin}" y="{height - 10}" font-size="13" fill="#222">{html.escape(caption(pos))}</text>'
    )
    out.append("</svg>")
    return "".join(out)


def caption(pos) -> str:
    """Who is to move, or how the game ended, with the count where the game keeps one."""
    text = pos.outcome if pos.is_over else f"{pos.to_move} to move"
    if pos.score is not None:
        a, b = pos.sides
        text += f" · {a} {pos.score[0]}, {b} {pos.score[1]}"
    if not pos.is_over and pos.legal_moves() and all(pos.square_of(m) is None for m in pos.legal_moves()):
        text += " (must pass)"
    return text


def html_figure(pos) -> str:
    """The drawing and the position's text, for `_repr_html_`."""
    return f'<div style="display:inline-block">{svg(pos)}</div>'
