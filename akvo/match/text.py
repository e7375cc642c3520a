"""A compact text board for tests and terminals (rows 9 → 0, lanes 1 → 6).

Each water cell shows ``.`` or a unit as side + lane (``A5`` is A's Surfeur; the ship
shows ``A3 A4``); the Résilience of a mage follows as ``'`` marks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from akvo.match.board import CHAR_INITIALS, CHARS, SIDE_NAMES, UNIT_OF_CHAR
from akvo.rules import TIER_NUMERALS, lighthouse_level

if TYPE_CHECKING:
    from akvo.match.state import MatchState


def board_text(state: MatchState) -> str:
    cells: dict[tuple[int, int], str] = {}
    for side in (0, 1):
        for char in range(CHARS):
            row = state.row(side, UNIT_OF_CHAR[char])
            marks = "'" * state.resilience(side, char)
            cells[(row, char + 1)] = f"{SIDE_NAMES[side]}{char + 1}{marks}"
    favoured = SIDE_NAMES[state.favoured] if state.favoured >= 0 else "-"
    player = {-1: "hasard", -2: "fin"}.get(state.player) or SIDE_NAMES[state.player]
    lines = [
        f"Tour {state.turn} · phare {lighthouse_level(state.turn)} · palier "
        f"{TIER_NUMERALS[state.tier]} · météo {favoured} · score A {state.scores[0]} – "
        f"{state.scores[1]} B · {state.phase_name()} ({player})",
        "     " + "".join(f"{lane:<6}" for lane in range(1, 7)),
        " 9  " + "[B]   " * 6,
    ]
    for row in range(8, 0, -1):
        line = "".join(f"{cells.get((row, lane), '.'):<6}" for lane in range(1, 7))
        lines.append(f" {row}   {line}".rstrip())
    lines.append(" 0  " + "[A]   " * 6)
    for side in (0, 1):
        res = " ".join(f"{CHAR_INITIALS[c]}{state.resilience(side, c)}" for c in range(CHARS))
        used = "".join(CHAR_INITIALS[c] for c in range(CHARS) if state.ult_used[side] >> c & 1)
        lines.append(
            f"{SIDE_NAMES[side]} : Résilience {res} · runes dépensées "
            f"{state.spent_letters(side) or '-'} · Ultimes utilisés {used or '-'}"
        )
    return "\n".join(line.rstrip() for line in lines)
