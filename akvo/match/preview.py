"""What a mage could do from where it stands, with the exact odds of each shot.

The live board and the bots ask the same question: "if this mage shot now, at whom could it
shoot, and with what chance?". :func:`unit_preview` answers it from a match state without
changing it: the cells an Advance would reach (R10, one more with a playable Mouvement rune,
R20) and every target in range (R4, R5; with Souffle portant where it is still available,
R24), each with the exact :class:`akvo.shots.ShotOdds` for the current tier, the defender's
Résilience and the Ultimes active this turn — no rune played (the runes are the next
decision, R18). The geometry comes from :mod:`akvo.match.geometry`, the odds from
:mod:`akvo.shots`: nothing here re-implements a rule, and nothing changes the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from akvo.errors import AkvoError, require_int
from akvo.match.board import CHAR_NAMES, CHARS, CHEST, PLONGEUR, SIDE_NAMES, UNIT_OF_CHAR, UNITS
from akvo.match.flow import advance_rune_holders
from akvo.match.geometry import advance_path, interception_distance, shot_distance, targets
from akvo.match.phases import ADVANCE, TARGET
from akvo.match.roster import MOUVEMENT
from akvo.match.state import MatchState
from akvo.match.ultimes import egide_on, souffle_available, tourbillon_on, vigie_on
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
    #: The cells an Advance reaches, in order: the order's own steps (:attr:`order_cells`:
    #: 1, or 2 for the ship's Avancer/Avancer being played), then a Mouvement rune's one more
    #: (R20); fewer where the unit is blocked (R10).
    advance_rows: tuple[int, ...]
    targets: tuple[TargetPreview, ...]
    order_cells: int = 1

    @property
    def order_row(self) -> int | None:
        """The row the order's own steps reach (``None``: the unit cannot move)."""
        steps = self.advance_rows[: self.order_cells]
        return steps[-1] if steps else None

    @property
    def rune_row(self) -> int | None:
        """The row reached with a Mouvement rune as well (``None``: no rune can act)."""
        return self.advance_rows[-1] if len(self.advance_rows) > self.order_cells else None


def _check(state: object, side: object, character: object) -> tuple[MatchState, int, int]:
    if not isinstance(state, MatchState):
        raise PreviewError(f"state must be a MatchState, got {type(state).__name__}")
    index = require_int("side", side, PreviewError)
    if index not in (0, 1):
        raise PreviewError(f"side must be 0 (A) or 1 (B), got {index}")
    mage = require_int("character", character, PreviewError)
    if not 0 <= mage < CHARS:
        raise PreviewError(f"character must be 0–{CHARS - 1}, got {mage}")
    return state, index, mage


def _order_cells(state: MatchState, side: int, unit: int) -> int:
    """The cells of the Avancer step being played by this unit (the ship's Avancer/Avancer
    may be one 2-cell step, R20), else one."""
    if state.phase == ADVANCE and state.side == side and state.unit == unit and state.tasks:
        return state.tasks[0][1]
    return 1


def _advance_rows(state: MatchState, side: int, unit: int, cells: int) -> tuple[int, ...]:
    """R10: the order's steps, then one more with a playable Mouvement rune (R20)."""
    holders = advance_rune_holders(unit)
    has_rune = bool(state.rosters[side].playable(state.spent[side], holders, 1 << MOUVEMENT))
    return advance_path(state.rows, side, unit, cells + has_rune)


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
    unit = UNIT_OF_CHAR[character]
    rows = state.rows
    trident_shooter = state.trident and character == PLONGEUR  # R24: mages only
    plain, boosted = targets(rows, side, character, souffle_available(state, side), trident_shooter)

    def preview(target: int, souffle: bool) -> TargetPreview:
        distance = shot_distance(rows, side, character, target)
        chest = target == CHEST
        odds = shot(
            "chest" if chest else "mage",
            state.tier,
            distance,
            interception_distance(rows, side, character) if chest else None,
            _attacker(state, side, character, souffle),
            _defender(state, other, character if chest else target),
            rules=state.rules,
        )
        name = CHEST_NAME if chest else CHAR_NAMES[target]
        action = f"shoot {name}" + (" souffle" if souffle else "")
        return TargetPreview(action, name, distance, souffle, odds)

    cells = _order_cells(state, side, unit)
    return UnitPreview(
        side,
        character,
        rows[side * UNITS + unit],
        _advance_rows(state, side, unit, cells),
        (*[preview(t, False) for t in plain], *[preview(t, True) for t in boosted]),
        cells,
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
