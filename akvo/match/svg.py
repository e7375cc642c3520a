"""The board as a pure SVG string (no Jupyter import): lanes, rows, beaches with chests,
units with their side and character, Résilience pips and the wind level."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from akvo.match.board import (
    CHAR_INITIALS,
    CHAR_LABELS,
    CHARS,
    SHIP,
    SIDE_NAMES,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.rules import TIER_NUMERALS, lighthouse_level

if TYPE_CHECKING:
    from akvo.match.state import MatchState

CELL = 44
MARGIN = 30
SIDE_COLOURS = ("#1f6fb2", "#c0392b")


def _y(row: int) -> int:
    """Row 9 (B's beach) at the top, row 0 (A's beach) at the bottom."""
    return MARGIN + (9 - row) * CELL


def _x(lane: int) -> int:
    return MARGIN + (lane - 1) * CELL


def board_svg(state: MatchState) -> str:
    width = MARGIN * 2 + 6 * CELL + 70
    height = MARGIN * 2 + 10 * CELL
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>',
    ]
    for row in range(10):
        beach = row in (0, 9)
        fill = "#f3e2b3" if beach else "#cfe8f7"
        for lane in range(1, 7):
            out.append(
                f'<rect x="{_x(lane)}" y="{_y(row)}" width="{CELL}" height="{CELL}" '
                f'fill="{fill}" stroke="#7fa7c0" stroke-width="1"/>'
            )
            if beach:
                owner = 0 if row == 0 else 1
                out.append(
                    f'<rect class="chest" x="{_x(lane) + 14}" y="{_y(row) + 14}" width="16" '
                    f'height="12" rx="2" fill="#8e5b2e" stroke="{SIDE_COLOURS[owner]}" '
                    'stroke-width="2"/>'
                )
        label = {0: "A", 9: "B"}.get(row, str(row))
        out.append(f'<text x="{MARGIN - 16}" y="{_y(row) + 27}">{label}</text>')
    for lane in range(1, 7):
        out.append(f'<text x="{_x(lane) + 18}" y="{MARGIN - 10}">{lane}</text>')
    for side in (0, 1):
        colour = SIDE_COLOURS[side]
        for unit in range(UNITS):
            row = state.row(side, unit)
            if unit == SHIP:
                out.append(
                    f'<rect class="ship" x="{_x(3) + 3}" y="{_y(row) + 3}" width="{2 * CELL - 6}" '
                    f'height="{CELL - 6}" rx="12" fill="none" stroke="{colour}" '
                    'stroke-width="3"/>'
                )
        for char in range(CHARS):
            row = state.row(side, UNIT_OF_CHAR[char])
            cx, cy = _x(char + 1) + CELL // 2, _y(row) + CELL // 2
            title = escape(f"{CHAR_LABELS[char]} de {SIDE_NAMES[side]}")
            out.append(
                f'<g class="mage side-{SIDE_NAMES[side]}"><title>{title}</title>'
                f'<circle cx="{cx}" cy="{cy}" r="14" fill="{colour}"/>'
                f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" fill="white" '
                f'font-weight="bold">{SIDE_NAMES[side]}{CHAR_INITIALS[char]}</text></g>'
            )
            for pip in range(state.resilience(side, char)):
                out.append(
                    f'<circle class="resilience" cx="{cx - 12 + pip * 8}" cy="{cy + 18}" '
                    'r="3" fill="#f1c40f" stroke="#333" stroke-width="0.5"/>'
                )
    # Lighthouse: 8 levels, the current one lit.
    level = lighthouse_level(state.turn)
    px = MARGIN + 6 * CELL + 20
    for step in range(1, 9):
        lit = step <= level
        out.append(
            f'<rect class="wind{" lit" if lit else ""}" x="{px}" y="{_y(step) + 8}" width="24" '
            f'height="{CELL - 16}" fill="{"#f39c12" if lit else "#eee"}" stroke="#999"/>'
        )
    out.append(
        f'<text x="{px - 4}" y="{MARGIN - 10}">vent {level} · {TIER_NUMERALS[state.tier]}</text>'
    )
    out.append(
        f'<text x="{MARGIN}" y="{height - 8}">Tour {state.turn} · A {state.scores[0]} – '
        f"{state.scores[1]} B</text>"
    )
    out.append("</svg>")
    return "".join(out)
