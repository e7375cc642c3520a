"""Arguments by name or index, checked: sides, units, characters, rune letters, teams.

Every public function of :mod:`akvo.match` reads its side / unit / character arguments
through these, so a wrong type or an unknown name raises :class:`~akvo.errors.MatchError`
naming it (never a bare ``KeyError`` or ``IndexError``).
"""

from __future__ import annotations

from akvo.errors import AkvoError, MatchError, excerpt
from akvo.match.board import (
    CHAR_OF_NAME,
    CHARS,
    SIDE_OF_NAME,
    UNIT_OF_CHAR,
    UNIT_OF_NAME,
    UNITS,
)
from akvo.rules import LETTERS, Character
from akvo.teams import Team, preset_team


def _plain(value: object) -> object:
    """An ``int`` or ``str`` subclass as its plain value (its methods may lie), else itself."""
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int.__index__(value)
    return value


def _index(kind: str, value: object, count: int, names: dict[str, int]) -> int:
    value = _plain(value)
    if isinstance(value, bool):
        raise MatchError(f"{kind} must be a name or an index, got {excerpt(value)}")
    if isinstance(value, int):
        if 0 <= value < count:
            return value
        raise MatchError(f"{kind} index {value} is outside 0–{count - 1}")
    if isinstance(value, str) and value in names:
        return names[value]
    choices = ", ".join(names)
    raise MatchError(f"unknown {kind} {excerpt(value)}; expected one of {choices}")


def side_index(side: object) -> int:
    """0 / 1 or ``"A"`` / ``"B"``."""
    return _index("side", side, 2, SIDE_OF_NAME)


def unit_index(unit: object) -> int:
    """0–4, a unit name (``navire``) or a character name (``barreur`` is the ship)."""
    unit = _plain(unit)
    if isinstance(unit, str) and unit in CHAR_OF_NAME:
        return UNIT_OF_CHAR[CHAR_OF_NAME[unit]]
    return _index("unit", unit, UNITS, UNIT_OF_NAME)


def character_index(character: object) -> int:
    """0–5, a character name (``surfeur``) or an :class:`akvo.rules.Character`."""
    if isinstance(character, Character):
        return character.lane - 1
    return _index("character", character, CHARS, CHAR_OF_NAME)


def letter_index(letter: object) -> int:
    """A rune letter A–Z as its bit position."""
    letter = _plain(letter)
    if isinstance(letter, str) and letter in LETTERS:
        return ord(letter) - 65
    raise MatchError(f"a rune letter is one of A–Z, got {excerpt(letter)}")


#: Preset teams already parsed (a Team is immutable).
_PRESETS: dict[str, Team] = {}


def team_of(team: object, name: str) -> Team:
    """A :class:`~akvo.teams.Team`, or a preset key turned into one."""
    if isinstance(team, Team):
        return team
    if isinstance(team, str):
        team = str.__str__(team)
        found = _PRESETS.get(team)
        if found is not None:
            return found
        try:
            found = _PRESETS[team] = preset_team(team)
        except AkvoError as error:
            raise MatchError(f"{name}: {error}") from None
        return found
    raise MatchError(f"{name} must be a preset key or a Team, got {excerpt(team)}")
