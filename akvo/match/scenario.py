"""Board positions for tests, golden files and "try a position" pages.

:func:`scenario` builds a match at the start of any turn (its weather node) with chosen
rows, Résilience, spent runes, used Ultimes, scores and weather bag. The setup is kept in
the state so that its record replays (:func:`akvo.match.state.replay`).
"""

from __future__ import annotations

import json
from typing import Any

from akvo.config import DEFAULT_RULES, RulesConfig
from akvo.errors import IllegalAction, excerpt
from akvo.match.board import (
    CHAR_OF_NAME,
    SIDE_NAMES,
    SIDE_OF_NAME,
    UNIT_OF_CHAR,
    UNIT_OF_NAME,
    UNITS,
)
from akvo.match.engine import settle
from akvo.match.names import team_of
from akvo.match.phases import START_TURN
from akvo.match.roster import letter_bit
from akvo.match.schema import STATE_FIELDS, STATE_INT_LISTS, STATE_INTS, mage_slot, unit_slot
from akvo.match.state import MatchState
from akvo.match.weather import bag_problem
from akvo.rules import LETTERS, TIE_BREAK_TURNS, TURNS
from akvo.teams import Team

SETUP_KEYS = ("turn", "rows", "resilience", "spent", "ultimes_used", "scores", "bag")


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what} must be an integer, got {excerpt(value)}")
    return value


def _unit(name: object) -> int:
    if isinstance(name, str) and name in UNIT_OF_NAME:
        return UNIT_OF_NAME[name]
    if isinstance(name, str) and name in CHAR_OF_NAME:
        return UNIT_OF_CHAR[CHAR_OF_NAME[name]]
    raise IllegalAction(f"unknown unit {excerpt(name)}; expected one of {sorted(UNIT_OF_NAME)}")


def _char(name: object) -> int:
    if not isinstance(name, str) or name not in CHAR_OF_NAME:
        raise IllegalAction(
            f"unknown character {excerpt(name)}; expected one of {sorted(CHAR_OF_NAME)}"
        )
    return CHAR_OF_NAME[name]


def _per_side(setup: dict[str, Any], key: str, kind: type) -> list[tuple[int, Any]]:
    """``setup[key]`` as (side index, value) pairs; the side names must be ``A`` / ``B``."""
    value = setup.get(key, {})
    if not isinstance(value, dict):
        raise IllegalAction(f"{key} must be a dict keyed by side 'A' / 'B', got {excerpt(value)}")
    pairs = []
    for side_name, entry in value.items():
        if not isinstance(side_name, str) or side_name not in SIDE_OF_NAME:
            raise IllegalAction(
                f"unknown side {excerpt(side_name)} in {key!r}; expected 'A' or 'B'"
            )
        if not isinstance(entry, kind):
            raise IllegalAction(
                f"{key}[{side_name!r}] must be a {kind.__name__}, got {excerpt(entry)}"
            )
        pairs.append((SIDE_OF_NAME[side_name], entry))
    return pairs


def _pair(setup: dict[str, Any], key: str) -> list[int] | None:
    """``scores`` / ``bag``: two counts (A, B) within the schema's range."""
    if key not in setup:
        return None
    value = setup[key]
    _length, low, high = STATE_INT_LISTS[key]
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise IllegalAction(f"{key} must be two counts {low}–{high} (A, B), got {excerpt(value)}")
    values = [_int(v, f"{key} must be two counts (A, B): {key}[{i}]") for i, v in enumerate(value)]
    if min(values) < low or max(values) > high:
        raise IllegalAction(f"{key} must be two counts {low}–{high} (A, B), got {values}")
    return values


def _range_check(value: object, what: str, field: str) -> int:
    """An int within the range the schema gives the state's ``field``."""
    number = _int(value, what)
    _length, low, high = STATE_INT_LISTS[field]
    if not low <= number <= high:
        raise IllegalAction(f"{what} = {number} is outside {low}–{high}")
    return number


def apply_setup(state: MatchState, setup: dict[str, Any]) -> None:
    """Overwrite a fresh state's position with ``setup`` (see :func:`scenario`); the state
    is changed only once the whole setup is valid."""
    if not isinstance(setup, dict):
        raise IllegalAction(f"a setup is a dict, got {excerpt(setup)}")
    try:  # plain data from here on (and kept as the state's origin, saved with it)
        setup = json.loads(json.dumps(setup))
    except (TypeError, ValueError, RecursionError) as error:
        raise IllegalAction(f"a setup is plain data (JSON): {excerpt(str(error), 80)}") from None
    unknown = [key for key in setup if key not in SETUP_KEYS]
    if unknown:
        raise IllegalAction(
            f"unknown scenario keyword {excerpt(unknown[0])}; expected one of {SETUP_KEYS}"
        )
    work = state.copy()
    turn = _int(setup.get("turn", 1), "turn")
    first, last = STATE_INTS["turn"]
    if not first <= turn <= last:
        raise IllegalAction(f"turn {turn} is outside {first}–{last}")
    work.turn = turn
    for side, units in _per_side(setup, "rows", dict):
        for name, row in units.items():
            who = f"row of {SIDE_NAMES[side]} {excerpt(name)}"
            work.rows[unit_slot(side, _unit(name))] = _range_check(row, who, "rows")
    for unit in range(UNITS):
        if work.rows[unit_slot(0, unit)] >= work.rows[unit_slot(1, unit)]:
            raise IllegalAction("in every lane A's unit must stand below B's (R11)")
    for side, chars in _per_side(setup, "resilience", dict):
        for name, value in chars.items():
            who = f"Résilience of {SIDE_NAMES[side]} {excerpt(name)}"
            work.res[mage_slot(side, _char(name))] = _range_check(value, who, "res")
    for side, letters in _per_side(setup, "spent", str):
        for letter in letters.upper():
            if letter not in LETTERS:
                raise IllegalAction(f"spent rune {excerpt(letter)} is not a letter A–Z")
            work.spent[side] |= letter_bit(letter)
    for side, names in _per_side(setup, "ultimes_used", list):
        for name in names:
            bit = 1 << _char(name)
            if work.ult_used[side] & bit:
                raise IllegalAction(f"ultimes_used: {name!r} is listed twice for side {'AB'[side]}")
            work.ult_used[side] |= bit
    scores = _pair(setup, "scores")
    if scores is not None:
        work.scores = scores
    bag = _pair(setup, "bag")
    if bag is not None:
        end = TURNS[-1] if turn in TURNS else TIE_BREAK_TURNS[-1]
        problem = bag_problem(work.rules, bag, end - turn + 1)
        if problem:
            raise IllegalAction(problem)
        work.bag = bag
    work.origin = setup
    work.events = []
    work.history = []
    work.phase = START_TURN
    settle(work)
    for name in STATE_FIELDS:
        setattr(state, name, getattr(work, name))


def scenario(
    team_a: Team | str = "perrockiss",
    team_b: Team | str = "fish-tank",
    rules: RulesConfig = DEFAULT_RULES,
    **setup: Any,
) -> MatchState:
    """A match at the weather node of ``turn``, with the given position.

    Keywords: ``turn``; ``rows={"A": {"surfeur": 5, "navire": 4}, "B": {...}}``;
    ``resilience={"B": {"surfeur": 2}}``; ``spent={"A": "PQ"}``;
    ``ultimes_used={"A": ["pedalair"]}``; ``scores=[1, 0]``; ``bag=[2, 1]``. Any other
    keyword, or a value of the wrong type (``turn=3.7``, ``scores="12"``), raises
    :class:`~akvo.errors.IllegalAction`.
    """
    state = MatchState(team_of(team_a, "team_a"), team_of(team_b, "team_b"), rules)
    apply_setup(state, setup)
    return state
