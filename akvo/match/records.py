"""Loading saved states and match records, checked against their schema and the rules.

Every field is checked for its type, range and length; a state must also be one the engine
can rest in (its ``legal`` list and ``player`` are recomputed and must match, so a tampered
legal list cannot bring a spent rune back), and a record's actions must be legal when
replayed. Errors are :class:`~akvo.errors.RecordError` naming the field or the action by
index, with at most a short excerpt of the bad value.

Format versions: ``format`` is :data:`~akvo.match.state.FORMAT_VERSION` (1). Records and
states saved before the key existed have the same layout and load as version 1; any other
version is refused.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from akvo.config import RulesConfig
from akvo.errors import AkvoError, RecordError, excerpt
from akvo.match import engine
from akvo.match.actions import ORDER_ACTIONS
from akvo.match.board import CHARS, UNITS
from akvo.match.core import Roll, Shot, StateCore, fresh_uses
from akvo.match.phases import RESTING, Phase
from akvo.match.schema import (
    CHANCE,
    OUTCOMES,
    ROLL_BOOLS,
    ROLL_INTS,
    SHOT_BOOLS,
    SHOT_FIELDS,
    SHOT_INTS,
    SHOT_LETTERS,
    STATE_INT_LISTS,
    STATE_INTS,
    STATE_TEXT_LISTS,
    STATE_TEXTS,
    TERMINAL,
    unit_slot,
)
from akvo.resolution import DEFAULT_DICE
from akvo.teams import Team, parse_team

if TYPE_CHECKING:
    from akvo.match.state import MatchState

S = TypeVar("S", bound="MatchState")
MAX_JSON_CHARS = 20_000_000
MAX_ACTIONS = 100_000
_ORDERS = {tuple(o) for o in ORDER_ACTIONS.values()}


def parse_json(text: object) -> Any:
    if not isinstance(text, str | bytes):
        raise RecordError(f"a saved state is JSON text, got {type(text).__name__}")
    if len(text) > MAX_JSON_CHARS:
        raise RecordError(f"a saved state is at most {MAX_JSON_CHARS} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"not valid JSON: {excerpt(str(error), 80)}") from None


# --- field checks ----------------------------------------------------------------------------
def _field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: field {key!r} is missing")
    return data[key]


def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} must be an integer, got {excerpt(value)}")
    if not low <= value <= high:
        raise RecordError(f"{name} = {value} is outside {low}–{high}")
    return value


def _ints(value: Any, name: str, length: int, low: int, high: int) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise RecordError(f"{name} must be a list of {length} integers, got {excerpt(value)}")
    return [_int(v, f"{name}[{i}]", low, high) for i, v in enumerate(value)]


def _str(value: Any, name: str, allowed: set[str] | None = None, limit: int = 400) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise RecordError(f"{name} must be a string (≤ {limit} characters), got {excerpt(value)}")
    if allowed is not None and value not in allowed:
        raise RecordError(f"{name} = {excerpt(value)} is not one of {sorted(allowed)}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{name} must be true or false, got {excerpt(value)}")
    return value


def _strings(value: Any, name: str, limit: int = MAX_ACTIONS) -> list[str]:
    if not isinstance(value, list) or len(value) > limit:
        raise RecordError(f"{name} must be a list of strings, got {excerpt(value)}")
    return [_str(v, f"{name}[{i}]") for i, v in enumerate(value)]


def _dict(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{name} must be an object, got {excerpt(value)}")
    return value


def check_format(data: dict[str, Any], what: str) -> None:
    from akvo.match.state import FORMAT_VERSION

    version = data.get("format", FORMAT_VERSION)
    if isinstance(version, bool) or version != FORMAT_VERSION:
        raise RecordError(
            f"{what}: unknown format version {excerpt(version)} (this engine reads "
            f"{FORMAT_VERSION})"
        )


def _wrap(name: str, check: Callable[[], Any]) -> Any:
    """Run an engine constructor; its AkvoError becomes a RecordError naming the field."""
    try:
        return check()
    except RecordError:
        raise
    except AkvoError as error:
        raise RecordError(f"{name}: {error}") from None


def rules_and_teams(data: dict[str, Any], what: str) -> tuple[RulesConfig, Team, Team]:
    rules = _wrap("rules", lambda: RulesConfig.from_dict(_field(data, "rules", what)))
    teams = _field(data, "teams", what)
    if not isinstance(teams, list) or len(teams) != 2:
        raise RecordError(f"teams must be a list of two team lists, got {excerpt(teams)}")
    names = data.get("team_names", ["", ""])
    if not isinstance(names, list) or len(names) != 2:
        raise RecordError(f"team_names must be a list of two strings, got {excerpt(names)}")
    built = [
        _wrap(
            f"teams[{i}]",
            lambda i=i: parse_team(  # type: ignore[misc]
                _str(teams[i], f"teams[{i}]"), name=_str(names[i], f"team_names[{i}]")
            ),
        )
        for i in (0, 1)
    ]
    return rules, built[0], built[1]


# --- states ----------------------------------------------------------------------------------
def _ints_by_schema(
    data: dict[str, Any], where: str, schema: dict[str, tuple[int, int]]
) -> dict[str, int]:
    """Every int field of ``schema`` (name → (lowest, highest)) read from ``data``."""
    prefix = "" if where == "state" else f"{where}."
    return {
        name: _int(_field(data, name, where), prefix + name, low, high)
        for name, (low, high) in schema.items()
    }


def _bools_by_schema(data: dict[str, Any], where: str, names: tuple[str, ...]) -> dict[str, bool]:
    prefix = "" if where == "state" else f"{where}."
    return {name: _bool(_field(data, name, where), prefix + name) for name in names}


def _dice(value: Any, name: str, fewest: int) -> list[int]:
    if not isinstance(value, list) or not fewest <= len(value) <= DEFAULT_DICE:
        raise RecordError(f"{name} must be a list of {fewest}–{DEFAULT_DICE} faces")
    return [_int(v, f"{name}[{i}]", 1, 6) for i, v in enumerate(value)]


def _roll(value: Any, name: str) -> Roll | None:
    if value is None:
        return None
    data = _dict(value, name)
    ints = _ints_by_schema(data, name, ROLL_INTS)
    flags = _bools_by_schema(data, name, ROLL_BOOLS)
    return Roll(
        _dice(data.get("dice"), f"{name}.dice", 1),
        ints["total"],
        ints["threshold"],
        flags["success"],
        flags["critical"],
        flags["prodige"],
    )


def _letter_or_empty(value: Any, name: str) -> str:
    text = _str(value, name, limit=1)
    if text and not "A" <= text <= "Z":
        raise RecordError(f"{name} must be a rune letter A–Z or empty, got {excerpt(text)}")
    return text


def _pending(value: Any) -> list[tuple[int, int]]:
    if not isinstance(value, list) or len(value) > 2:
        raise RecordError("shot.pending must be a list of at most two [side, character]")
    pairs = [_ints(p, f"shot.pending[{i}]", 2, 0, CHARS - 1) for i, p in enumerate(value)]
    if any(side > 1 for side, _ in pairs):
        raise RecordError("shot.pending: a side is 0 or 1")
    return [(side, char) for side, char in pairs]


def _shot(value: Any) -> Shot | None:
    if value is None:
        return None
    data = _dict(value, "shot")
    unknown = set(data) - set(SHOT_FIELDS)
    if unknown:
        raise RecordError(f"shot: unknown field {excerpt(sorted(unknown)[0])}")
    shot = Shot(0, 0)
    for name, number in _ints_by_schema(data, "shot", SHOT_INTS).items():
        setattr(shot, name, number)
    for name, flag in _bools_by_schema(data, "shot", SHOT_BOOLS).items():
        setattr(shot, name, flag)
    for name in SHOT_LETTERS:
        setattr(shot, name, _letter_or_empty(_field(data, name, "shot"), f"shot.{name}"))
    shot.dice = _dice(_field(data, "dice", "shot"), "shot.dice", 0)
    if shot.relanced > len(shot.dice):
        raise RecordError(f"shot.relanced = {shot.relanced} is not one of the dice rolled")
    shot.attack = _roll(_field(data, "attack", "shot"), "shot.attack")
    shot.defence = _roll(_field(data, "defence", "shot"), "shot.defence")
    shot.outcome = _str(_field(data, "outcome", "shot"), "shot.outcome", set(OUTCOMES))
    shot.pending = _pending(_field(data, "pending", "shot"))
    return shot


def _orders(value: Any) -> list[tuple[int, ...] | None]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"orders must be a list of two entries, got {excerpt(value)}")
    orders: list[tuple[int, ...] | None] = []
    for i, order in enumerate(value):
        if order is None:
            orders.append(None)
            continue
        values = tuple(_ints(order, f"orders[{i}]", UNITS, 0, 3))
        if values not in _ORDERS:
            raise RecordError(f"orders[{i}] = {excerpt(order)} is not a set of orders")
        orders.append(values)
    return orders


def _tasks(value: Any) -> list[tuple[int, int]]:
    if not isinstance(value, list) or len(value) > 2:
        raise RecordError(f"tasks must be a list of at most two tasks, got {excerpt(value)}")
    pairs = [_ints(t, f"tasks[{i}]", 2, 0, CHARS - 1) for i, t in enumerate(value)]
    return [(kind, arg) for kind, arg in pairs]


def _fill(state: StateCore, data: dict[str, Any]) -> None:
    """Copy every field of the schema from ``data`` into ``state``, each checked for its
    type and range."""
    what = "state"
    for name, number in _ints_by_schema(data, what, STATE_INTS).items():
        setattr(state, name, number)
    if state.phase not in RESTING:
        raise RecordError(f"phase = {state.phase} is not a phase a match can rest in")
    for name, (length, low, high) in STATE_INT_LISTS.items():
        setattr(state, name, _ints(_field(data, name, what), name, length, low, high))
    for unit in range(UNITS):
        if state.rows[unit_slot(0, unit)] >= state.rows[unit_slot(1, unit)]:
            raise RecordError(f"rows: in lane of unit {unit} A's unit must stand below B's")
    for name, allowed in STATE_TEXTS.items():
        setattr(state, name, _str(_field(data, name, what), name, set(allowed)))
    for name, most in STATE_TEXT_LISTS.items():
        texts = _strings(_field(data, name, what), name, most)
        setattr(state, name, tuple(texts) if name == "legal" else texts)  # legal: a tuple
    state.trident = _bool(_field(data, "trident", what), "trident")
    state.log = _bool(data.get("log", True), "log")
    state.orders = _orders(_field(data, "orders", what))
    state.tasks = _tasks(_field(data, "tasks", what))
    state.shot = _shot(_field(data, "shot", what))
    origin = data.get("origin")
    state.origin = None if origin is None else _dict(origin, "origin")
    state.uses = fresh_uses()  # a tally of this process's play, never saved


def _check_invariants(state: MatchState) -> None:
    """The state must be one the engine rests in: recompute who decides what."""
    phase = state.phase
    if (phase == Phase.END) != (state.winner >= 0):
        raise RecordError("winner and phase disagree: only a finished match has a winner")
    needs_shot = Phase.PRE_SHOT <= phase <= Phase.ROULEAU
    if needs_shot != (state.shot is not None):
        raise RecordError(
            f"shot: phase {Phase(phase).label!r} {'needs' if needs_shot else 'has no'} shot"
        )
    if state.side < 0 and phase not in (Phase.WEATHER, Phase.END):
        raise RecordError("side: a side must be acting in this phase")
    legal: tuple[str, ...] = ()
    try:
        if phase == Phase.END:
            expected_player = TERMINAL
        elif phase in engine.CHANCE_PHASES:
            expected_player = CHANCE
            outcomes = state.chance_outcomes() if state.player == CHANCE else ()
            if not outcomes:
                raise RecordError("player: a chance phase must be a chance node")
            state.copy()._apply_chance(outcomes[0][0])
        else:
            legal_of, _decide, player_of = engine.DECISIONS[Phase(phase)]
            legal = legal_of(state)  # a pure look-up
            if len(legal) < 2:
                raise RecordError(f"phase {Phase(phase).label!r}: no choice to rest on here")
            expected_player = player_of(state)
            for action in legal:
                trial = state.copy()
                trial.legal = legal
                trial.player = expected_player
                trial.apply_action(action)
    except RecordError:
        raise
    except Exception as error:  # an inconsistent combination of valid fields
        raise RecordError(
            f"inconsistent state ({type(error).__name__}): {excerpt(str(error))}"
        ) from None
    if state.player != expected_player:
        raise RecordError(f"player = {state.player}, but {expected_player} decides here")
    if tuple(state.legal) != legal:
        raise RecordError("legal does not match the legal actions of this state")


def load_state(cls: type[S], data: object) -> S:
    data = _dict(data, "state")
    check_format(data, "state")
    rules, team_a, team_b = rules_and_teams(data, "state")
    new = cls.__new__(cls)
    StateCore.__init__(new, team_a, team_b, rules)
    _fill(new, data)
    _check_invariants(new)
    return new


# --- records ---------------------------------------------------------------------------------
def replay_record(record: object, log: object) -> MatchState:
    from akvo.match.state import MatchState

    data = _dict(record, "record")
    check_format(data, "record")
    unknown = set(data) - {"format", "rules", "teams", "team_names", "setup", "actions"}
    if unknown:
        raise RecordError(f"record: unknown field {excerpt(sorted(unknown)[0])}")
    rules, team_a, team_b = rules_and_teams(data, "record")
    actions = _strings(_field(data, "actions", "record"), "actions")
    setup = data.get("setup")
    if setup:
        from akvo.match.scenario import apply_setup

        state = MatchState(team_a, team_b, rules, log)
        _wrap("setup", lambda: apply_setup(state, _dict(setup, "setup")))
    elif setup is None or setup == {}:
        state = MatchState(team_a, team_b, rules, log)
    else:
        raise RecordError(f"setup must be an object or null, got {excerpt(setup)}")
    for index, action in enumerate(actions):
        try:
            state.apply_action(action)
        except AkvoError as error:
            raise RecordError(f"actions[{index}]: {error}") from None
    return state
