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
    SIDE_NAMES,
    SIDE_OF_NAME,
    UNIT_OF_CHAR,
    UNIT_OF_NAME,
    UNITS,
)
from akvo.match.core import START_TURN
from akvo.match.roster import letter_bit
from akvo.match.state import MatchState
from akvo.rules import MAX_RESILIENCE, TIE_BREAK_TURNS, TURNS
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


def _per_side(setup: dict[str, Any], key: str) -> list[tuple[int, Any]]:
    """``setup[key]`` as (side index, value) pairs; the side names must be ``A`` / ``B``."""
    pairs = []
    for side_name, value in setup.get(key, {}).items():
        if side_name not in SIDE_OF_NAME:
            raise IllegalAction(f"unknown side {side_name!r} in {key!r}; expected 'A' or 'B'")
        pairs.append((SIDE_OF_NAME[side_name], value))
    return pairs


def _pair(setup: dict[str, Any], key: str) -> list[int] | None:
    """``scores`` / ``bag``: two counts, never negative."""
    if key not in setup:
        return None
    try:
        values = [int(v) for v in setup[key]]
    except (TypeError, ValueError):
        values = []
    if len(values) != 2 or min(values) < 0:
        raise IllegalAction(f"{key} must be two counts ≥ 0 (A, B), got {setup[key]!r}")
    return values


def apply_setup(state: MatchState, setup: dict[str, Any]) -> None:
    """Overwrite a fresh state's position with ``setup`` (see :func:`scenario`)."""
    turn = int(setup.get("turn", 1))
    if turn not in TURNS + TIE_BREAK_TURNS:
        raise IllegalAction(f"turn {turn} is outside 1–10")
    state.turn = turn
    for side, units in _per_side(setup, "rows"):
        for name, row in units.items():
            if not 1 <= int(row) <= 8:
                raise IllegalAction(f"row {row} of {SIDE_NAMES[side]} {name} is outside 1–8")
            state.rows[side * UNITS + _unit(name)] = int(row)
    for unit in range(UNITS):
        if state.rows[unit] >= state.rows[UNITS + unit]:
            raise IllegalAction("in every lane A's unit must stand below B's (R11)")
    for side, chars in _per_side(setup, "resilience"):
        for name, value in chars.items():
            if not 0 <= int(value) <= MAX_RESILIENCE:
                raise IllegalAction(f"Résilience {value} is outside 0–{MAX_RESILIENCE}")
            state.res[side * CHARS + _char(name)] = int(value)
    for side, letters in _per_side(setup, "spent"):
        for letter in letters.upper():
            if not "A" <= letter <= "Z":
                raise IllegalAction(f"spent rune {letter!r} is not a letter A–Z")
            state.spent[side] |= letter_bit(letter)
    for side, names in _per_side(setup, "ultimes_used"):
        for name in names:
            state.ult_used[side] |= 1 << _char(name)
    scores = _pair(setup, "scores")
    if scores is not None:
        state.scores = scores
    bag = _pair(setup, "bag")
    if bag is not None:
        draws = (TURNS[-1] if turn in TURNS else TIE_BREAK_TURNS[-1]) - turn + 1
        if state.rules.weather == "bag" and (max(bag) > 4 or sum(bag) < draws):
            raise IllegalAction(
                f"the weather bag (R8) holds at most 4 tokens of each side and needs one "
                f"per turn left before a reshuffle ({draws} from turn {turn}), got {bag}"
            )
        state.bag = bag
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
