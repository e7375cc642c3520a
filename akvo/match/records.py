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
from akvo.match.board import CHARS, LAST_ROW, UNITS
from akvo.match.core import CHANCE, SHOT_FIELDS, TERMINAL, Roll, Shot, StateCore
from akvo.match.phases import RESTING, Phase
from akvo.resolution import DEFAULT_DICE, MAX_RANGE, TRIDENT_SHOTS
from akvo.rules import MAX_RESILIENCE, TIE_BREAK_TURNS, TURNS
from akvo.shots import CHEST_OUTCOMES, MAGE_OUTCOMES
from akvo.teams import Team, parse_team

if TYPE_CHECKING:
    from akvo.match.state import MatchState

S = TypeVar("S", bound="MatchState")
MAX_JSON_CHARS = 20_000_000
MAX_ACTIONS = 100_000
ALL_LETTERS = (1 << 26) - 1
_ORDERS = {tuple(o) for o in ORDER_ACTIONS.values()}
_OUTCOMES = {"", *MAGE_OUTCOMES, *CHEST_OUTCOMES}
_REASONS = {"", "score", "half", "draw"}


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
def _roll(value: Any, name: str) -> Roll | None:
    if value is None:
        return None
    data = _dict(value, name)
    dice = data.get("dice")
    if not isinstance(dice, list) or not 1 <= len(dice) <= DEFAULT_DICE:
        raise RecordError(f"{name}.dice must be a list of 1–{DEFAULT_DICE} faces")
    faces = [_int(v, f"{name}.dice[{i}]", 1, 6) for i, v in enumerate(dice)]
    return Roll(
        faces,
        _int(_field(data, "total", name), f"{name}.total", 1, 60),
        _int(_field(data, "threshold", name), f"{name}.threshold", 1, 30),
        _bool(_field(data, "success", name), f"{name}.success"),
        _bool(_field(data, "critical", name), f"{name}.critical"),
        _bool(_field(data, "prodige", name), f"{name}.prodige"),
    )


def _letter_or_empty(value: Any, name: str) -> str:
    text = _str(value, name, limit=1)
    if text and not "A" <= text <= "Z":
        raise RecordError(f"{name} must be a rune letter A–Z or empty, got {excerpt(text)}")
    return text


def _shot(value: Any) -> Shot | None:
    if value is None:
        return None
    data = _dict(value, "shot")
    unknown = set(data) - set(SHOT_FIELDS)
    if unknown:
        raise RecordError(f"shot: unknown field {excerpt(sorted(unknown)[0])}")
    shot = Shot(_int(_field(data, "side", "shot"), "shot.side", 0, 1), 0)
    shot.shooter = _int(_field(data, "shooter", "shot"), "shot.shooter", 0, CHARS - 1)
    shot.target = _int(_field(data, "target", "shot"), "shot.target", -1, CHARS)
    shot.distance = _int(_field(data, "distance", "shot"), "shot.distance", 0, MAX_RANGE)
    shot.souffle = _bool(_field(data, "souffle", "shot"), "shot.souffle")
    shot.defender = _int(_field(data, "defender", "shot"), "shot.defender", -1, CHARS - 1)
    shot.idist = _int(_field(data, "idist", "shot"), "shot.idist", 0, LAST_ROW)
    shot.att_rune = _letter_or_empty(_field(data, "att_rune", "shot"), "shot.att_rune")
    shot.def_rune = _letter_or_empty(_field(data, "def_rune", "shot"), "shot.def_rune")
    shot.att_cat = _int(_field(data, "att_cat", "shot"), "shot.att_cat", -1, 5)
    shot.def_cat = _int(_field(data, "def_cat", "shot"), "shot.def_cat", -1, 5)
    shot.stage = _int(_field(data, "stage", "shot"), "shot.stage", 0, 1)
    dice = _field(data, "dice", "shot")
    if not isinstance(dice, list) or len(dice) > DEFAULT_DICE:
        raise RecordError(f"shot.dice must be a list of at most {DEFAULT_DICE} faces")
    shot.dice = [_int(v, f"shot.dice[{i}]", 1, 6) for i, v in enumerate(dice)]
    shot.relanced = _int(_field(data, "relanced", "shot"), "shot.relanced", -1, len(shot.dice))
    shot.attack = _roll(_field(data, "attack", "shot"), "shot.attack")
    shot.defence = _roll(_field(data, "defence", "shot"), "shot.defence")
    shot.outcome = _str(_field(data, "outcome", "shot"), "shot.outcome", _OUTCOMES)
    pending = _field(data, "pending", "shot")
    if not isinstance(pending, list) or len(pending) > 2:
        raise RecordError("shot.pending must be a list of at most two [side, character]")
    shot.pending = [
        (
            _ints(p, f"shot.pending[{i}]", 2, 0, CHARS - 1)[0],
            _ints(p, f"shot.pending[{i}]", 2, 0, CHARS - 1)[1],
        )
        for i, p in enumerate(pending)
    ]
    if any(side > 1 for side, _ in shot.pending):
        raise RecordError("shot.pending: a side is 0 or 1")
    shot.rouleau = _bool(_field(data, "rouleau", "shot"), "shot.rouleau")
    return shot


def _fill(state: StateCore, data: dict[str, Any]) -> None:
    """Copy every field from ``data`` into ``state``, each checked for type and range."""
    what = "state"
    state.turn = _int(_field(data, "turn", what), "turn", TURNS[0], TIE_BREAK_TURNS[-1])
    phase = _int(_field(data, "phase", what), "phase", 0, max(Phase))
    if phase not in RESTING:
        raise RecordError(f"phase = {phase} is not a phase a match can rest in")
    state.phase = phase
    state.player = _int(_field(data, "player", what), "player", TERMINAL, 1)
    state.favoured = _int(_field(data, "favoured", what), "favoured", -1, 1)
    state.side = _int(_field(data, "side", what), "side", -1, 1)
    state.unit = _int(_field(data, "unit", what), "unit", -1, UNITS - 1)
    state.shots_done = _int(_field(data, "shots_done", what), "shots_done", 0, TRIDENT_SHOTS)
    state.winner = _int(_field(data, "winner", what), "winner", -1, 2)
    state.rows = _ints(_field(data, "rows", what), "rows", 2 * UNITS, 1, LAST_ROW)
    for unit in range(UNITS):
        if state.rows[unit] >= state.rows[UNITS + unit]:
            raise RecordError(f"rows: in lane of unit {unit} A's unit must stand below B's")
    state.res = _ints(_field(data, "res", what), "res", 2 * CHARS, 0, MAX_RESILIENCE)
    state.spent = _ints(_field(data, "spent", what), "spent", 2, 0, ALL_LETTERS)
    state.ult_used = _ints(_field(data, "ult_used", what), "ult_used", 2, 0, (1 << CHARS) - 1)
    state.ult_uses = _ints(_field(data, "ult_uses", what), "ult_uses", 2 * CHARS, 0, 27)
    state.effects = _ints(_field(data, "effects", what), "effects", 2, 0, 7)
    state.bag = _ints(_field(data, "bag", what), "bag", 2, 0, 4)
    state.activated = _ints(_field(data, "activated", what), "activated", 2, 0, (1 << UNITS) - 1)
    state.scores = _ints(_field(data, "scores", what), "scores", 2, 0, 999)
    state.runes_spent_count = _ints(
        _field(data, "runes_spent_count", what), "runes_spent_count", 2, 0, 9999
    )
    orders = _field(data, "orders", what)
    if not isinstance(orders, list) or len(orders) != 2:
        raise RecordError(f"orders must be a list of two entries, got {excerpt(orders)}")
    state.orders = []
    for i, order in enumerate(orders):
        if order is None:
            state.orders.append(None)
            continue
        values = tuple(_ints(order, f"orders[{i}]", UNITS, 0, 3))
        if values not in _ORDERS:
            raise RecordError(f"orders[{i}] = {excerpt(order)} is not a set of orders")
        state.orders.append(values)
    tasks = _field(data, "tasks", what)
    if not isinstance(tasks, list) or len(tasks) > 2:
        raise RecordError(f"tasks must be a list of at most two tasks, got {excerpt(tasks)}")
    state.tasks = [tuple(_ints(t, f"tasks[{i}]", 2, 0, CHARS - 1)) for i, t in enumerate(tasks)]  # type: ignore[misc]
    state.trident = _bool(_field(data, "trident", what), "trident")
    state.shot = _shot(_field(data, "shot", what))
    state.reason = _str(_field(data, "reason", what), "reason", _REASONS)
    state.last_outcome = _str(_field(data, "last_outcome", what), "last_outcome", _OUTCOMES)
    state.events = _strings(_field(data, "events", what), "events")
    state.history = _strings(_field(data, "history", what), "history")
    state.legal = tuple(_strings(_field(data, "legal", what), "legal", 200))
    origin = data.get("origin")
    state.origin = None if origin is None else _dict(origin, "origin")
    state.log = _bool(data.get("log", True), "log")


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
