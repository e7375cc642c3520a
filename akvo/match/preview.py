"""What a mage could do from where it stands, with the exact odds of each shot.

The live board and the bots ask the same question: "if this mage shot now, at whom could it
shoot, and with what chance?". :func:`unit_preview` answers it from a match state without
changing it: the cells an Advance would reach (R10, one more with a playable Mouvement rune,
R20) and every target in range (R4, R5; with Souffle portant where it is still available,
R24), each with the exact :class:`akvo.shots.ShotOdds` for the current tier, the defender's
Résilience and the Ultimes active this turn — no rune played (the runes are the next
decision, R18). The geometry comes from :mod:`akvo.match.board`, the odds from
:mod:`akvo.shots`: nothing here re-implements a rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from akvo.errors import AkvoError
from akvo.match.board import (
    CHAR_NAMES,
    CHARS,
    FORWARD,
    LANE_OF_CHAR,
    MAX_RANGE,
    PLONGEUR,
    SIDE_NAMES,
    UNIT_OF_CHAR,
    UNITS,
    chest_distance,
    mage_distance,
)
from akvo.match.flow import room_ahead
from akvo.match.phases import TARGET
from akvo.match.roster import BONUS, MOUVEMENT
from akvo.match.state import MatchState
from akvo.match.ultimes import egide_on, souffle_available, tourbillon_on, vigie_on
from akvo.resolution import MAX_SOUFFLE_DISTANCE, souffle_helps
from akvo.shots import ShotOdds, Side, shot


class PreviewError(AkvoError):
    """A preview asked of something that is not a match state, a side or a character."""


#: Target name of the chest of the shooter's lane, as in the engine's actions.
CHEST_NAME = "chest"


@dataclass(frozen=True, slots=True)
class TargetPreview:
    """One shot the mage could take now: the engine's action and its exact odds."""

    action: str  # the TARGET decision, e.g. "shoot surfeur" or "shoot chest souffle"
    target: str  # a character name of akvo.match.board.CHAR_NAMES, or "chest"
    base_distance: int  # before Souffle portant
    souffle: bool
    odds: ShotOdds

    @property
    def value(self) -> Fraction:
        """P(push) for a mage, expected points for a chest (as the calculators show)."""
        return self.odds.value


@dataclass(frozen=True, slots=True)
class UnitPreview:
    """A mage's options from its current cell."""

    side: int
    character: int
    row: int
    advance_rows: tuple[int, ...]  # cells an Advance reaches: the order's step, then a rune's
    targets: tuple[TargetPreview, ...]


def _check(state: object, side: object, character: object) -> tuple[MatchState, int, int]:
    if not isinstance(state, MatchState):
        raise PreviewError(f"state must be a MatchState, got {type(state).__name__}")
    if side not in (0, 1) or isinstance(side, bool):
        raise PreviewError(f"side must be 0 (A) or 1 (B), got {str(side)[:20]!r}")
    if character not in range(CHARS) or isinstance(character, bool):
        raise PreviewError(f"character must be 0–{CHARS - 1}, got {str(character)[:20]!r}")
    return state, int(side), int(character)  # type: ignore[call-overload]


def _advance_rows(state: MatchState, side: int, character: int) -> tuple[int, ...]:
    """R10: the order's one step, then one more with a playable Mouvement rune (R20)."""
    unit = UNIT_OF_CHAR[character]
    room = room_ahead(state, side, unit)
    row = state.rows[side * UNITS + unit]
    holders = (character, BONUS)
    has_rune = bool(state.rosters[side].playable(state.spent[side], holders, 1 << MOUVEMENT))
    steps = min(room, 2 if has_rune else 1)
    return tuple(row + FORWARD[side] * step for step in range(1, steps + 1))


def _attacker(state: MatchState, side: int, character: int, souffle: bool) -> Side:
    return Side(
        vigie=vigie_on(state, side),
        tourbillon=tourbillon_on(state, side, character),
        souffle=souffle,
    )


def _defender(state: MatchState, side: int, character: int) -> Side:
    return Side(
        resilience=state.resilience(side, character),
        egide=egide_on(state, side),
        tourbillon=tourbillon_on(state, side, character),
    )


def unit_preview(state: MatchState, side: int, character: int) -> UnitPreview:
    """The mage's advance cells and every target in range now, each with its exact odds."""
    state, side, character = _check(state, side, character)
    other = 1 - side
    row = state.rows[side * UNITS + UNIT_OF_CHAR[character]]
    lane = LANE_OF_CHAR[character]
    souffle_free = souffle_available(state, side)
    rules = state.rules
    targets: list[TargetPreview] = []
    boosted: list[TargetPreview] = []

    def add(name: str, distance: int, kind: str, defender: int, idist: int | None) -> None:
        for souffle in (False, True):
            if souffle and not (souffle_free and souffle_helps(distance)):
                continue  # Souffle portant is offered only where it shortens the shot
            if distance > (MAX_SOUFFLE_DISTANCE if souffle else MAX_RANGE):
                continue
            odds = shot(
                kind,  # type: ignore[arg-type]
                state.tier,
                distance,
                idist,
                _attacker(state, side, character, souffle),
                _defender(state, other, defender),
                rules=rules,
            )
            action = f"shoot {name}" + (" souffle" if souffle else "")
            (boosted if souffle else targets).append(
                TargetPreview(action, name, distance, souffle, odds)
            )

    for enemy in range(CHARS):
        enemy_row = state.rows[other * UNITS + UNIT_OF_CHAR[enemy]]
        distance = mage_distance(row, lane, enemy_row, LANE_OF_CHAR[enemy])
        add(CHAR_NAMES[enemy], distance, "mage", enemy, None)
    trident_shooter = state.trident and character == PLONGEUR
    if not trident_shooter:  # Trident's shots are at mages only (R24)
        interceptor_row = state.rows[other * UNITS + UNIT_OF_CHAR[character]]
        idist = mage_distance(row, lane, interceptor_row, lane)  # R6
        add(CHEST_NAME, chest_distance(side, row), "chest", character, idist)
    return UnitPreview(
        side, character, row, _advance_rows(state, side, character), (*targets, *boosted)
    )


def target_values(state: MatchState) -> dict[str, Fraction]:
    """At a target decision: each legal ``shoot …`` action's value (P(push) or E[points])."""
    if not isinstance(state, MatchState):
        raise PreviewError(f"state must be a MatchState, got {type(state).__name__}")
    current = state.shot
    if current is None or state.phase != TARGET:
        raise PreviewError(f"no target to choose now (side to play: {SIDE_NAMES[state.side]})")
    preview = unit_preview(state, current.side, current.shooter)
    legal = set(state.legal)
    return {t.action: t.value for t in preview.targets if t.action in legal}
