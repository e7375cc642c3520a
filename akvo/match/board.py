"""The board's vocabulary (R1–R2): sides, units, characters, lanes and rows, as small ints.

Everything is a small int so that the engine's hot paths stay cheap: side 0 is A, side 1
is B; units 0–4 are the Pédalair (lane 1), the Kitesurfeur (lane 2), the ship (lanes 3–4),
the Surfeur (lane 5) and the Plongeur (lane 6); characters 0–5 are lanes 1–6 (R1).
Distances, targets in range, advances and pushes are :mod:`akvo.match.geometry`.
"""

from __future__ import annotations

from typing import Final

from akvo.rules import CHARACTERS, fold

SIDE_A: Final = 0
SIDE_B: Final = 1
SIDE_NAMES: Final[tuple[str, ...]] = ("A", "B")
SIDE_OF_NAME: Final = {"A": SIDE_A, "B": SIDE_B}

UNITS: Final = 5
CHARS: Final = 6
SHIP: Final = 2
BARREUR: Final = 2
LANCEUR: Final = 3
PEDALAIR: Final = 0
KITESURFEUR: Final = 1
SURFEUR: Final = 4
PLONGEUR: Final = 5
CHEST: Final = 6  # shot target code for the chest of the shooter's lane

SHIP_NAME: Final = "navire"
CHAR_NAMES: Final = tuple(fold(c.name) for c in CHARACTERS)  # pedalair, kitesurfeur, barreur, …
CHAR_OF_NAME: Final = {name: char for char, name in enumerate(CHAR_NAMES)}
CHAR_LABELS: Final = tuple(c.label for c in CHARACTERS)  # Pédalair, Kitesurfeur, …
CHAR_INITIALS: Final = "PKBLSD"  # one letter per character on the boards (D: the Plongeur, diver)
UNIT_NAMES: Final = (*CHAR_NAMES[:2], SHIP_NAME, *CHAR_NAMES[4:])
UNIT_OF_NAME: Final = {name: unit for unit, name in enumerate(UNIT_NAMES)}
ULTIME_LABELS: Final = tuple(c.ultime.name for c in CHARACTERS)  # Souffle portant, Tourbillon, …
ULTIME_KEYS: Final = tuple(fold(name) for name in ULTIME_LABELS)  # souffle portant, tourbillon, …
UNIT_OF_CHAR: Final[tuple[int, ...]] = (0, 1, 2, 2, 3, 4)
CHARS_OF_UNIT: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,), (2, 3), (4,), (5,))
LANE_OF_CHAR: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)

START_ROW: Final[tuple[int, ...]] = (3, 6)  # R2
FORWARD: Final[tuple[int, ...]] = (1, -1)
OWN_FIRST_ROW: Final[tuple[int, ...]] = (1, 8)  # a push stops here (R11)
ENEMY_LAST_ROW: Final[tuple[int, ...]] = (8, 1)  # an advance stops here (R10)
FIRST_ROW: Final = 1
LAST_ROW: Final = 8
