"""French sentences for the event log ("Tour 3 — le Surfeur de B tire sur …")."""

from __future__ import annotations

from akvo.match.board import CHAR_LABELS, SHIP, SIDE_NAMES, ULTIME_LABELS, UNIT_OF_CHAR
from akvo.match.roster import CATEGORY_LABELS
from akvo.rules import TIER_NUMERALS

ULTIME_NAMES = ULTIME_LABELS


def mage(side: int, char: int) -> str:
    return f"le {CHAR_LABELS[char]} de {SIDE_NAMES[side]}"


def unit(side: int, unit_index: int) -> str:
    if unit_index == SHIP:
        return f"le navire de {SIDE_NAMES[side]}"
    char = UNIT_OF_CHAR.index(unit_index)
    return mage(side, char)


def rune_played(letter: str, category: int) -> str:
    """« joue la rune V (Mouvement) »."""
    return f"joue la rune {letter} ({CATEGORY_LABELS[category]})"


def cells(count: int) -> str:
    return f"{count} case" if count == 1 else f"{count} cases"


def points(count: int) -> str:
    return f"+{count} point" if count == 1 else f"+{count} points"


def prefix(turn: int) -> str:
    return f"Tour {turn} — "


def tier(tier_value: int) -> str:
    return TIER_NUMERALS[tier_value]
