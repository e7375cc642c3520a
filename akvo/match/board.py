"""Board geometry (R1–R5, R10–R11): sides, units, lanes, rows, distances, moves.

Everything is a small int so that the engine's hot paths stay cheap: side 0 is A, side 1
is B; units 0–4 are the Pédalair (lane 1), the Kitesurfeur (lane 2), the ship (lanes 3–4),
the Surfeur (lane 5) and the Plongeur (lane 6); characters 0–5 are lanes 1–6 (R1).
"""

from __future__ import annotations

from akvo.rules import CHARACTERS, DISTANCES, fold

SIDE_A = 0
SIDE_B = 1
SIDE_NAMES = ("A", "B")
SIDE_OF_NAME = {"A": SIDE_A, "B": SIDE_B}

UNITS = 5
CHARS = 6
SHIP = 2
BARREUR = 2
LANCEUR = 3
PEDALAIR = 0
KITESURFEUR = 1
SURFEUR = 4
PLONGEUR = 5
CHEST = 6  # shot target code for the chest of the shooter's lane

SHIP_NAME = "navire"
CHAR_NAMES = tuple(fold(c.name) for c in CHARACTERS)  # pedalair, kitesurfeur, barreur, …
CHAR_OF_NAME = {name: char for char, name in enumerate(CHAR_NAMES)}
CHAR_LABELS = tuple(c.label for c in CHARACTERS)  # Pédalair, Kitesurfeur, …
CHAR_INITIALS = "PKBLSD"  # one letter per character on the boards (D: the Plongeur, diver)
UNIT_NAMES = (*CHAR_NAMES[:2], SHIP_NAME, *CHAR_NAMES[4:])
UNIT_OF_NAME = {name: unit for unit, name in enumerate(UNIT_NAMES)}
ULTIME_LABELS = tuple(c.ultime.name for c in CHARACTERS)  # Souffle portant, Tourbillon, …
ULTIME_KEYS = tuple(fold(name) for name in ULTIME_LABELS)  # souffle portant, tourbillon, …
UNIT_OF_CHAR = (0, 1, 2, 2, 3, 4)
CHARS_OF_UNIT = ((0,), (1,), (2, 3), (4,), (5,))
LANE_OF_CHAR = (1, 2, 3, 4, 5, 6)

START_ROW = (3, 6)  # R2
FORWARD = (1, -1)
OWN_FIRST_ROW = (1, 8)  # a push stops here (R11)
ENEMY_LAST_ROW = (8, 1)  # an advance stops here (R10)
FIRST_ROW = 1
LAST_ROW = 8
MAX_RANGE = DISTANCES[-1]


def mage_distance(row: int, lane: int, other_row: int, other_lane: int) -> int:
    """R4: orthogonal steps between two mages (a neighbouring lane adds 1)."""
    return abs(row - other_row) + abs(lane - other_lane)


def chest_distance(side: int, row: int) -> int:
    """R5: steps from the shooter's cell to the enemy beach of its lane."""
    return 9 - row if side == SIDE_A else row


def in_enemy_half(side: int, row: int) -> bool:
    """R25: rows 5–8 are B's half (A's enemy half), rows 1–4 are A's half."""
    return row >= 5 if side == SIDE_A else row <= 4
