"""Board positions for tests, golden files and "try a position" pages.

:func:`scenario` builds a match at the start of any turn (its weather node) with chosen
rows, Résilience, spent runes, used Ultimes, scores and weather bag. The setup is kept in
the state so that its record replays (:func:`akvo.match.state.replay`).
"""

from __future__ import annotations

from typing import Any

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction
from akvo.match.board import (
    CHAR_OF_NAME,
    CHARS,
    SIDE_OF_NAME,
    UNIT_OF_CHAR,
    UNIT_OF_NAME,
    UNITS,
)
from akvo.match.core import START_TURN
from akvo.match.roster import letter_bit
from akvo.match.state import MatchState
from akvo.rules import TIE_BREAK_TURNS, TURNS
from akvo.teams import Team, preset_team


def _unit(name: str) -> int:
    if name in UNIT_OF_NAME:
        return UNIT_OF_NAME[name]
    if name in CHAR_OF_NAME:
        return UNIT_OF_CHAR[CHAR_OF_NAME[name]]
    raise IllegalAction(f"unknown unit {name!r}; expected one of {sorted(UNIT_OF_NAME)}")


def _char(name: str) -> int:
    if name not in CHAR_OF_NAME:
        raise IllegalAction(f"unknown character {name!r}; expected one of {sorted(CHAR_OF_NAME)}")
    return CHAR_OF_NAME[name]


def apply_setup(state: MatchState, setup: dict[str, Any]) -> None:
    """Overwrite a fresh state's position with ``setup`` (see :func:`scenario`)."""
    turn = int(setup.get("turn", 1))
    if turn not in TURNS + TIE_BREAK_TURNS:
        raise IllegalAction(f"turn {turn} is outside 1–10")
    state.turn = turn
    for side_name, units in setup.get("rows", {}).items():
        side = SIDE_OF_NAME[side_name]
        for name, row in units.items():
            if not 1 <= int(row) <= 8:
                raise IllegalAction(f"row {row} of {side_name} {name} is outside 1–8")
            state.rows[side * UNITS + _unit(name)] = int(row)
    for unit in range(UNITS):
        if state.rows[unit] >= state.rows[UNITS + unit]:
            raise IllegalAction("in every lane A's unit must stand below B's (R11)")
    for side_name, chars in setup.get("resilience", {}).items():
        side = SIDE_OF_NAME[side_name]
        for name, value in chars.items():
            if not 0 <= int(value) <= 3:
                raise IllegalAction(f"Résilience {value} is outside 0–3")
            state.res[side * CHARS + _char(name)] = int(value)
    for side_name, letters in setup.get("spent", {}).items():
        side = SIDE_OF_NAME[side_name]
        for letter in letters:
            state.spent[side] |= letter_bit(letter.upper())
    for side_name, names in setup.get("ultimes_used", {}).items():
        side = SIDE_OF_NAME[side_name]
        for name in names:
            state.ult_used[side] |= 1 << _char(name)
    if "scores" in setup:
        state.scores = [int(v) for v in setup["scores"]]
    if "bag" in setup:
        state.bag = [int(v) for v in setup["bag"]]
    state.origin = setup
    state.events = []
    state.history = []
    state.phase = START_TURN
    state._settle()


def scenario(
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
    **setup: Any,
) -> MatchState:
    """A match at the weather node of ``turn``, with the given position.

    Keywords: ``turn``; ``rows={"A": {"surfeur": 5, "navire": 4}, "B": {...}}``;
    ``resilience={"B": {"surfeur": 2}}``; ``spent={"A": "PQ"}``;
    ``ultimes_used={"A": ["pedalair"]}``; ``scores=[1, 0]``; ``bag=[2, 1]``.
    """
    a = preset_team(team_a) if isinstance(team_a, str) else team_a
    b = preset_team(team_b) if isinstance(team_b, str) else team_b
    state = MatchState(a, b, rules)
    apply_setup(state, setup)
    return state
