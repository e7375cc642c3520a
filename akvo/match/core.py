"""The match state's data: flat lists of small ints in ``__slots__``, cheap to copy.

The rules are functions over this data (:mod:`akvo.match.flow` for the turn sequence,
:mod:`akvo.match.shooting` and :mod:`akvo.match.outcome` for a shot), dispatched by phase in
:mod:`akvo.match.engine`; :class:`akvo.match.state.MatchState` adds the public API. The
fields, their kinds and ranges, and the compact layout are :mod:`akvo.match.schema`: the
slots, the copies and the JSON below all walk it.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from akvo.config import CHOICES, RulesConfig
from akvo.match.board import CHARS, START_ROW, UNITS
from akvo.match.phases import START_TURN
from akvo.match.roster import Roster, roster
from akvo.match.schema import CHANCE as CHANCE
from akvo.match.schema import (
    COPIED_LISTS,
    ROLL_FIELDS,
    SAVED_LISTS,
    SAVED_VALUES,
    SHARED_FIELDS,
    SHOT_FIELDS,
    STATE_FIELDS,
    USES_LENGTH,
    USES_SWITCHES,
)
from akvo.match.schema import TERMINAL as TERMINAL
from akvo.match.weather import full_bag
from akvo.teams import Team

# Tasks of an activation.
TASK_ADVANCE, TASK_SHOT = 0, 1
#: Each rules switch's slot in a state's ``uses`` (:mod:`akvo.match.schema`).
SWITCH_SLOT: Final[dict[str, int]] = {field: USES_SWITCHES + i for i, field in enumerate(CHOICES)}


def rule_played(s: StateCore, field: str) -> None:
    """A moment where the two readings of the rules switch ``field`` part, counted where the
    engine decides it (each switch's place is declared in :mod:`akvo.switches`)."""
    s.uses[SWITCH_SLOT[field]] += 1


def fresh_uses() -> list[int]:
    """A state's ``uses`` before anything was played."""
    return [0] * USES_LENGTH


# The engine's classes allow interpreted subclasses: under mypyc this keeps Python's
# ``cls.__new__(cls)`` (no ``__init__`` call), which copies, records and pickling rely on.
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
        data = {name: getattr(self, name) for name in ROLL_FIELDS}
        data["dice"] = list(self.dice)
        return data


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
        data: dict[str, Any] = {name: getattr(self, name) for name in SHOT_FIELDS}
        data["dice"] = list(self.dice)
        data["attack"] = self.attack.to_dict() if self.attack else None
        data["defence"] = self.defence.to_dict() if self.defence else None
        data["pending"] = [list(p) for p in self.pending]
        return data


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
        self.bag = full_bag()  # weather tokens left favouring A, B (R8)
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
        self.uses = fresh_uses()  # what the play used (akvo.match.schema.STATE_TALLIES)

    def copy_core(self) -> Any:
        new = self.__class__.__new__(self.__class__)
        for name in SHARED_FIELDS:
            setattr(new, name, getattr(self, name))
        for name in COPIED_LISTS:
            setattr(new, name, getattr(self, name)[:])
        new.shot = self.shot.copy() if self.shot else None
        return new

    def core_to_dict(self) -> dict[str, Any]:
        """The saved fields (:mod:`akvo.match.schema`) as JSON-ready values."""
        data: dict[str, Any] = {
            "rules": self.rules.to_dict(),
            "teams": [str(t) for t in self.teams],
            "team_names": [t.name for t in self.teams],
        }
        for name in SAVED_VALUES:
            data[name] = getattr(self, name)
        for name in SAVED_LISTS:
            data[name] = list(getattr(self, name))
        data["orders"] = [list(o) if o is not None else None for o in self.orders]
        data["tasks"] = [list(t) for t in self.tasks]
        data["shot"] = self.shot.to_dict() if self.shot else None
        data["origin"] = self.origin
        return data
