"""The board's geometry in one place (R4–R6, R10, R11, R25): distances, targets in range,
advances and blocking, pushes, halves.

Every function reads the compact row list of :class:`~akvo.match.core.StateCore`
(``rows[side * UNITS + unit]``, rows 1–8), so that the engine (:mod:`.flow`,
:mod:`.shooting`, :mod:`.ultimes`, :mod:`.outcome`), the preview (:mod:`.preview`, which the
board widget draws), the bots and the pages all ask the same question the same way. Only
:func:`advance` and :func:`push` change the list; everything else is a pure look-up.

Target codes are those of :data:`~akvo.match.board.CHEST`: 0–5 an enemy mage (its lane − 1),
6 the chest of the shooter's own lane.
"""

from __future__ import annotations

from typing import Final

from akvo.match.board import (
    CHARS,
    CHARS_OF_UNIT,
    CHEST,
    ENEMY_LAST_ROW,
    FORWARD,
    OWN_FIRST_ROW,
    SIDE_A,
    UNIT_OF_CHAR,
    UNITS,
)
from akvo.resolution import MAX_RANGE, MIN_DISTANCE, souffle_helps

#: B's beach, where A's chests stand (A's beach is row 0: R1).
B_BEACH_ROW: Final = 9
#: R25: rows 5–8 are B's half, rows 1–4 A's.
B_HALF_FIRST_ROW: Final = 5


# --- distances (R4–R6) -----------------------------------------------------------------------
def mage_distance(row: int, lane: int, other_row: int, other_lane: int) -> int:
    """R4: orthogonal steps between two mages (a neighbouring lane adds 1)."""
    return abs(row - other_row) + abs(lane - other_lane)


def chest_distance(side: int, row: int) -> int:
    """R5: steps from the shooter's cell to the enemy beach of its lane."""
    return B_BEACH_ROW - row if side == SIDE_A else row


def in_range(distance: int) -> bool:
    """R4, R5: a shot is legal at distance 1–4 (Souffle portant aside)."""
    return MIN_DISTANCE <= distance <= MAX_RANGE


def shot_distance(rows: list[int], side: int, shooter: int, target: int, row: int = -1) -> int:
    """The distance of ``side``'s ``shooter`` to ``target`` (an enemy mage, R4, or
    :data:`CHEST`, R5), with the shooter on its own row or on ``row`` if given."""
    at = rows[side * UNITS + UNIT_OF_CHAR[shooter]] if row < 0 else row
    if target == CHEST:
        return chest_distance(side, at)
    # mage_distance (R4) inlined, as in targets: once per shot
    return abs(at - rows[(1 - side) * UNITS + UNIT_OF_CHAR[target]]) + abs(shooter - target)


def interception_distance(rows: list[int], side: int, shooter: int, row: int = -1) -> int:
    """R6: the distance of the enemy mage of the shooter's lane (who intercepts a chest
    shot) to the shooter; the same lane, so rows apart."""
    at = rows[side * UNITS + UNIT_OF_CHAR[shooter]] if row < 0 else row
    return abs(at - rows[(1 - side) * UNITS + UNIT_OF_CHAR[shooter]])


def targets(
    rows: list[int], side: int, shooter: int, souffle: bool, mages_only: bool
) -> tuple[list[int], list[int]]:
    """The targets of ``side``'s ``shooter``: those in range (enemy mages in lane order, then
    the chest), and those Souffle portant brings in range (R24, when ``souffle``: its
    Ultime is free), in the same order. ``mages_only``: Trident's shots (R24)."""
    plain: list[int] = []
    boosted: list[int] = []
    at = rows[side * UNITS + UNIT_OF_CHAR[shooter]]
    enemy = (1 - side) * UNITS
    for target in range(CHARS):
        # mage_distance (R4) inlined: this loop runs at every shot of every match, and a
        # call per enemy mage cost the pure-Python engine ~1 % of its speed (issue 22.7).
        distance = abs(at - rows[enemy + UNIT_OF_CHAR[target]]) + abs(shooter - target)
        if distance <= MAX_RANGE:
            plain.append(target)
        if souffle and souffle_helps(distance):
            boosted.append(target)
    if not mages_only:
        distance = chest_distance(side, at)
        if distance <= MAX_RANGE:
            plain.append(CHEST)
        if souffle and souffle_helps(distance):
            boosted.append(CHEST)
    return plain, boosted


# --- advances and blocking (R10) -------------------------------------------------------------
def room_ahead(rows: list[int], side: int, unit: int) -> int:
    """R10: free cells ahead of a unit before it meets the enemy unit of its lane or the
    last row of the water."""
    row = rows[side * UNITS + unit]
    enemy = rows[(1 - side) * UNITS + unit]
    return min(abs(enemy - row) - 1, abs(ENEMY_LAST_ROW[side] - row))


def reach(rows: list[int], side: int, unit: int, cells: int) -> int:
    """R10: the row an advance of ``cells`` steps ends on (a blocked step ends the move)."""
    moved = min(cells, room_ahead(rows, side, unit))
    return rows[side * UNITS + unit] + moved * FORWARD[side]


def advance_path(rows: list[int], side: int, unit: int, cells: int) -> tuple[int, ...]:
    """R10: the rows an advance of ``cells`` steps passes through, in order, up to where it
    is blocked (empty: the unit cannot move)."""
    row = rows[side * UNITS + unit]
    step = FORWARD[side]
    moved = min(cells, room_ahead(rows, side, unit))
    return tuple(row + step * k for k in range(1, moved + 1))


def advance(rows: list[int], side: int, unit: int, cells: int) -> int:
    """R10: move a unit ``cells`` steps towards the enemy beach, step by step, until blocked;
    returns the cells moved."""
    moved = min(cells, room_ahead(rows, side, unit))
    rows[side * UNITS + unit] += moved * FORWARD[side]
    return moved


# --- pushes (R11) ----------------------------------------------------------------------------
def push(rows: list[int], side: int, unit: int, cells: int) -> int:
    """R11: move a unit ``cells`` steps towards its own beach, stopping at its own first row
    (in every lane A's unit stays below B's, so a push never meets a unit); returns the
    cells moved."""
    index = side * UNITS + unit
    moved = min(cells, abs(rows[index] - OWN_FIRST_ROW[side]))
    rows[index] -= moved * FORWARD[side]
    return moved


# --- halves (R25) ----------------------------------------------------------------------------
def in_enemy_half(side: int, row: int) -> bool:
    """R25: rows 5–8 are B's half (A's enemy half), rows 1–4 are A's half."""
    return row >= B_HALF_FIRST_ROW if side == SIDE_A else row < B_HALF_FIRST_ROW


def mages_in_enemy_half(rows: list[int], side: int) -> int:
    """R25: mages of ``side`` in the enemy half; both central mages count."""
    return sum(
        len(CHARS_OF_UNIT[unit])
        for unit in range(UNITS)
        if in_enemy_half(side, rows[side * UNITS + unit])
    )
