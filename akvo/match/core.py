"""The match state's data: flat lists of small ints in ``__slots__``, cheap to copy.

The rules are functions over this data (:mod:`akvo.match.flow` for the turn sequence,
:mod:`akvo.match.shooting` and :mod:`akvo.match.outcome` for a shot), dispatched by phase in
:mod:`akvo.match.engine`; :class:`akvo.match.state.MatchState` adds the public API.

Compact layout (public, stable): ``rows[side * UNITS + unit]``, ``res[side * CHARS +
character]``, ``spent[side]`` and ``ult_used[side]`` bit masks (letter A = bit 0; character
c = bit c), ``effects[side]`` bits of the turn-long Ultimes, ``bag`` = weather tokens left
(A, B). The typed accessors of :class:`~akvo.match.state.MatchState` read them by name.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from akvo.config import RulesConfig
from akvo.match.board import CHARS, START_ROW, UNITS
from akvo.match.phases import (
    START_TURN,
    TRIDENT_AGAIN,
    Phase,
)
from akvo.match.roster import Roster, roster
from akvo.teams import Team, parse_team

CHANCE: Final = -1
TERMINAL: Final = -2

# Phases live in akvo.match.phases; these names stay importable from here.
TRIDENT_MORE: Final = TRIDENT_AGAIN
PHASE_NAMES: Final = {int(phase): phase.label for phase in Phase}

# Tasks of an activation.
TASK_ADVANCE, TASK_SHOT = 0, 1

# Ultime-effect bits, per side, for the current turn (R24).
EFFECT_TOURBILLON, EFFECT_EGIDE, EFFECT_VIGIE = 1, 2, 4
EFFECT_OF_CHAR: Final = {1: EFFECT_TOURBILLON, 2: EFFECT_EGIDE, 3: EFFECT_VIGIE}


# Field names of Roll and Shot, readable without the class (mypyc-compiled classes have no
# ``__slots__`` attribute to read). The engine's classes allow interpreted subclasses: under
# mypyc this keeps Python's ``cls.__new__(cls)`` (no ``__init__`` call), which copies,
# records and pickling rely on.
ROLL_FIELDS: Final = ("critical", "dice", "prodige", "success", "threshold", "total")
SHOT_FIELDS: Final = (
    "att_cat",
    "att_rune",
    "attack",
    "def_cat",
    "def_rune",
    "defence",
    "defender",
    "dice",
    "distance",
    "idist",
    "outcome",
    "pending",
    "relanced",
    "rouleau",
    "shooter",
    "side",
    "souffle",
    "stage",
    "target",
)


@mypyc_attr(allow_interpreted_subclasses=True)
class Roll:
    """A finished roll: total against threshold, its flags and the dice as rolled."""

    __slots__ = ROLL_FIELDS

    def __init__(
        self, dice: list[int], total: int, threshold: int, success: bool, critical: bool, prod: bool
    ) -> None:
        self.dice = dice
        self.total = total
        self.threshold = threshold
        self.success = success
        self.critical = critical
        self.prodige = prod

    def to_dict(self) -> dict[str, Any]:
        return {s: getattr(self, s) for s in ROLL_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        return cls(
            list(data["dice"]),
            data["total"],
            data["threshold"],
            data["success"],
            data["critical"],
            data["prodige"],
        )


@mypyc_attr(allow_interpreted_subclasses=True)
class Shot:
    """One resolution in progress (R16–R18): who shoots what, runes, rolls, consequences."""

    __slots__ = SHOT_FIELDS

    def __init__(self, side: int, shooter: int) -> None:
        self.side = side
        self.shooter = shooter
        self.target = -1  # 0–5 a mage, CHEST, -1 not chosen yet
        self.distance = 0
        self.souffle = False
        self.defender = -1  # the defending mage (target or interceptor); -1 none
        self.idist = 0  # interception distance (chest shots)
        self.att_rune = ""
        self.def_rune = ""
        self.att_cat = -1
        self.def_cat = -1
        self.stage = 0  # 0 attack roll, 1 defence roll
        self.dice: list[int] = []
        self.relanced = 0  # 0 undecided, i > 0 the die to reroll, -1 done
        self.attack: Roll | None = None
        self.defence: Roll | None = None
        self.outcome = ""
        self.pending: list[tuple[int, int]] = []  # prodiges to resolve: (side, character)
        self.rouleau = False

    def copy(self) -> Shot:
        new = Shot.__new__(Shot)
        for name in SHOT_FIELDS:
            setattr(new, name, getattr(self, name))
        new.dice = self.dice[:]
        new.pending = self.pending[:]
        return new

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {s: getattr(self, s) for s in SHOT_FIELDS}
        data["attack"] = self.attack.to_dict() if self.attack else None
        data["defence"] = self.defence.to_dict() if self.defence else None
        data["pending"] = [list(p) for p in self.pending]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Shot:
        new = cls(data["side"], data["shooter"])
        for name in SHOT_FIELDS:
            setattr(new, name, data[name])
        new.dice = list(data["dice"])
        new.attack = Roll.from_dict(data["attack"]) if data["attack"] else None
        new.defence = Roll.from_dict(data["defence"]) if data["defence"] else None
        new.pending = [(p[0], p[1]) for p in data["pending"]]
        return new


# Serialized plain-list fields of the state, in a fixed order.
LIST_FIELDS: Final = (
    "rows",
    "res",
    "spent",
    "ult_used",
    "ult_uses",
    "effects",
    "bag",
    "activated",
    "scores",
    "runes_spent_count",
)
INT_FIELDS: Final = ("turn", "phase", "player", "favoured", "side", "unit", "shots_done", "winner")


# The state's field names (the slots of StateCore), readable without the class.
STATE_FIELDS: Final = (
    "activated",
    "bag",
    "effects",
    "events",
    "favoured",
    "history",
    "last_outcome",
    "legal",
    "log",
    "orders",
    "origin",
    "phase",
    "player",
    "reason",
    "res",
    "rosters",
    "rows",
    "rules",
    "runes_spent_count",
    "scores",
    "shot",
    "shots_done",
    "side",
    "spent",
    "tasks",
    "teams",
    "trident",
    "turn",
    "ult_used",
    "ult_uses",
    "unit",
    "winner",
)


@mypyc_attr(allow_interpreted_subclasses=True)
class StateCore:
    """All the data of a match, and nothing else but copying and (de)serializing it."""

    __slots__ = STATE_FIELDS

    def __init__(self, team_a: Team, team_b: Team, rules: RulesConfig, log: bool = True) -> None:
        self.rules = rules
        self.log = log  # False: no French event strings are built (fast simulations)
        self.teams = (team_a, team_b)
        self.rosters: tuple[Roster, Roster] = (roster(team_a, rules), roster(team_b, rules))
        self.turn = 1
        self.phase: int = START_TURN
        self.player = CHANCE
        self.rows = [START_ROW[0]] * UNITS + [START_ROW[1]] * UNITS  # rows[side * 5 + unit]
        self.res = [0] * (2 * CHARS)  # Résilience, res[side * 6 + character]
        self.spent = [0, 0]  # bit mask of spent rune letters per side
        self.runes_spent_count = [0, 0]  # runes played so far (statistics, property tests)
        self.ult_used = [0, 0]  # bit mask of characters whose Ultime is not available
        self.ult_uses = [0] * (2 * CHARS)  # how many times each Ultime was used
        self.effects = [0, 0]  # EFFECT_* bits active until the end of the turn
        self.bag = [4, 4]  # weather tokens left favouring A, B (R8)
        self.favoured = -1
        self.orders: list[tuple[int, ...] | None] = [None, None]
        self.activated = [0, 0]  # bit mask of activated units this turn
        self.side = -1  # the side activating (or programming) now
        self.unit = -1  # the unit being activated
        self.tasks: list[tuple[int, int]] = []
        self.trident = False
        self.shots_done = 0
        self.shot: Shot | None = None
        self.scores = [0, 0]
        self.winner = -1  # 0 A, 1 B, 2 draw, -1 not over
        self.reason = ""
        self.last_outcome = ""  # the last resolution's outcome key (akvo.shots names)
        self.events: list[str] = []
        self.history: list[str] = []
        self.legal: tuple[str, ...] = ()
        self.origin: dict[str, Any] | None = None  # a scenario's setup, if any

    def copy_core(self) -> Any:
        new = self.__class__.__new__(self.__class__)
        new.rules = self.rules
        new.log = self.log
        new.teams = self.teams
        new.rosters = self.rosters
        new.turn = self.turn
        new.phase = self.phase
        new.player = self.player
        new.rows = self.rows[:]
        new.res = self.res[:]
        new.spent = self.spent[:]
        new.runes_spent_count = self.runes_spent_count[:]
        new.ult_used = self.ult_used[:]
        new.ult_uses = self.ult_uses[:]
        new.effects = self.effects[:]
        new.bag = self.bag[:]
        new.favoured = self.favoured
        new.orders = self.orders[:]
        new.activated = self.activated[:]
        new.side = self.side
        new.unit = self.unit
        new.tasks = self.tasks[:]
        new.trident = self.trident
        new.shots_done = self.shots_done
        new.shot = self.shot.copy() if self.shot else None
        new.scores = self.scores[:]
        new.winner = self.winner
        new.reason = self.reason
        new.last_outcome = self.last_outcome
        new.events = self.events[:]
        new.history = self.history[:]
        new.legal = self.legal
        new.origin = self.origin
        return new

    def core_to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "teams": [str(t) for t in self.teams],
            "team_names": [t.name for t in self.teams],
        }
        for name in INT_FIELDS:
            data[name] = getattr(self, name)
        for name in LIST_FIELDS:
            data[name] = list(getattr(self, name))
        data["orders"] = [list(o) if o is not None else None for o in self.orders]
        data["tasks"] = [list(t) for t in self.tasks]
        data["trident"] = self.trident
        data["shot"] = self.shot.to_dict() if self.shot else None
        data["reason"] = self.reason
        data["last_outcome"] = self.last_outcome
        data["events"] = list(self.events)
        data["history"] = list(self.history)
        data["legal"] = list(self.legal)
        data["origin"] = self.origin
        data["log"] = self.log
        return data

    def core_from_dict(self, data: dict[str, Any]) -> None:
        for name in INT_FIELDS:
            setattr(self, name, int(data[name]))
        for name in LIST_FIELDS:
            setattr(self, name, [int(v) for v in data[name]])
        self.orders = [tuple(o) if o is not None else None for o in data["orders"]]
        self.tasks = [(t[0], t[1]) for t in data["tasks"]]
        self.trident = bool(data["trident"])
        self.shot = Shot.from_dict(data["shot"]) if data["shot"] else None
        self.reason = str(data["reason"])
        self.last_outcome = str(data["last_outcome"])
        self.events = list(data["events"])
        self.history = list(data["history"])
        self.legal = tuple(data["legal"])
        self.origin = data.get("origin")


def teams_from_dict(data: dict[str, Any]) -> tuple[Team, Team]:
    names = data.get("team_names", ["", ""])
    return (
        parse_team(data["teams"][0], name=names[0]),
        parse_team(data["teams"][1], name=names[1]),
    )
