"""The « normal » bot: the best immediate expected value, computed exactly.

Each decision is answered by a simple rule over exact worths (:mod:`akvo.bots.values`):

- orders: Tirer for a unit whose best target now is worth at least :data:`SHOOT_MIN` (or
  that cannot advance), Avancer otherwise; the ship's double token follows its two mages;
- activation: the shooter with the best target first, then the others; an Ultime (Vigie,
  Égide, Tourbillon) is declared when its exact gain this turn reaches :func:`spend_min`;
- target: the legal ``shoot …`` of highest worth from
  :func:`akvo.match.preview.target_values`; Souffle portant only when it gains more than
  :func:`spend_min`;
- runes: the rune (attack or defence) whose exact effect on this shot, computed with
  :func:`akvo.shots.shot`, gains at least :func:`spend_min`; Mouvement when the extra cell
  brings a chest into range; Relance by R15 (:func:`akvo.match.r15_relance`);
- prodige: recover the most useful category; Rouleau always (with a Mouvement rune, under
  the variant ``rouleau_mouvement``, as on an Avancer step); Trident when mage targets are
  worth more than the chest;
- the rune U (R22), before a turn's first activation: to restore Vigie, Égide or
  Tourbillon when declaring it again gains at least :func:`spend_min` this turn; from the
  last regular turn on (nothing is worth keeping then), to restore Souffle portant when an
  ally shoots this turn, Trident when the Plongeur does, Rouleau when the Surfeur does.

Thresholds fall as the match goes on: a rune or Ultime unused at the end is wasted.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from akvo.bots.values import (
    best_worth,
    resolution_key,
    rune_gain,
    shooters,
    split_target_worths,
    target_worths,
    ultime_gains,
)
from akvo.errors import AkvoError, MatchError, require_seed
from akvo.match.actions import (
    ADVANCE,
    FIRST_BARREUR,
    FIRST_LANCEUR,
    HOLD,
    MOVE_FIRST,
    NO_MOVE,
    NO_RUNE,
    NO_TRIDENT,
    ROULEAU,
    RUNE_LETTER,
    SHIP_AA,
    SHIP_AT_B,
    SHIP_AT_L,
    SHIP_TOKENS,
    SHIP_TT,
    SHOOT_AGAIN,
    SHOT_FIRST,
    STOP,
    TRIDENT,
)
from akvo.match.board import (
    BARREUR,
    CHAR_NAMES,
    CHARS_OF_UNIT,
    KITESURFEUR,
    LANCEUR,
    PEDALAIR,
    PLONGEUR,
    SHIP,
    SURFEUR,
    UNIT_OF_CHAR,
    UNIT_OF_NAME,
)
from akvo.match.bots import r15_relance
from akvo.match.geometry import chest_distance, reach, room_ahead
from akvo.match.phases import PHASE_COUNT, RESTING
from akvo.match.preview import CHEST_NAME
from akvo.match.roster import ATTAQUE, CONFUSION, DEFENSE, MOUVEMENT
from akvo.match.roster import RELANCE as RELANCE_CAT
from akvo.match.schema import EFFECT_EGIDE, EFFECT_TOURBILLON, EFFECT_VIGIE
from akvo.match.state import MatchState
from akvo.rules import DISTANCES, TURNS

#: A unit programs Tirer when its best target now is worth at least this (points).
SHOOT_MIN: Final = 0.05
_ULTIME_EFFECTS: Final = {
    "ultime vigie": EFFECT_VIGIE,
    "ultime egide": EFFECT_EGIDE,
    "ultime tourbillon": EFFECT_TOURBILLON,
}
#: Prodige: which spent rune to take back first.
_RECOVER_ORDER: Final[tuple[int, ...]] = (ATTAQUE, RELANCE_CAT, CONFUSION, DEFENSE, MOUVEMENT)
_LATERAL_UNITS: Final[tuple[int, ...]] = (0, 1, 3, 4)
# The engine's constants read here, as mypyc reads them fastest: ints as Final ints, tables
# read with a variable index as lists (a Final tuple of ints is unboxed into a C struct,
# then boxed into a new tuple at each such read).
_SHIP_AA: Final[int] = SHIP_AA
_SHIP_TT: Final[int] = SHIP_TT
_SHIP_AT_B: Final[int] = SHIP_AT_B
_SHIP_AT_L: Final[int] = SHIP_AT_L
_SHIP_TOKENS: Final[list[str]] = list(SHIP_TOKENS)
_UNIT_OF: Final[list[int]] = list(UNIT_OF_CHAR)
_FIRST_CHAR: Final[list[int]] = [chars[0] for chars in CHARS_OF_UNIT]
_UNIT_OF_ACTIVATION: Final = {f"activate {name}": unit for name, unit in UNIT_OF_NAME.items()}
_CHEST_ACTION: Final = f"shoot {CHEST_NAME}"
_RUNE_U: Final = "rune U "
_RUNE_U_CHAR: Final = {f"{_RUNE_U}{name}": char for char, name in enumerate(CHAR_NAMES)}
#: The turn-long Ultime of each character that has one (R24): its effect bit.
_EFFECT_OF: Final = {KITESURFEUR: EFFECT_TOURBILLON, BARREUR: EFFECT_EGIDE, LANCEUR: EFFECT_VIGIE}
_LAST_REGULAR_TURN: Final = TURNS[-1]
_MAX_RANGE: Final = DISTANCES[-1]
_SURFEUR_UNIT: Final = UNIT_OF_CHAR[SURFEUR]


def spend_min(turn: int) -> float:
    """Least gain (points) for spending a rune or an Ultime at this turn: high early,
    nothing in the last turns (what is not spent by then is lost)."""
    if turn >= 8:
        return 0.0
    return (9 - turn) / 80


class GreedyBot:
    """Best immediate expected value. Deterministic (ties go by a fixed order): ``seed`` is
    taken only for :func:`akvo.bots.make_bot`'s sake."""

    def __init__(self, seed: object = None) -> None:
        """``seed``: an integer or None (typed ``object``: checked here, see akvo.compiled)."""
        self.seed = require_seed("seed", seed, MatchError)

    def __call__(self, state: MatchState) -> str:
        return self.choose(state)

    # --- the decision by phase -------------------------------------------------------------
    def choose(self, state: MatchState) -> str:
        return _ANSWERS[state.phase](self, state)

    def relance(self, state: MatchState) -> str:
        return r15_relance(state)

    def rouleau(self, state: MatchState) -> str:
        """Rouleau always; with a Mouvement rune (variant ``rouleau_mouvement``) on the same
        rule as an Avancer step: when the second cell brings the chest into range."""
        legal = state.legal
        if len(legal) > 2:
            side = state.side
            plain = chest_distance(side, reach(state.rows, side, _SURFEUR_UNIT, 1))
            boosted = chest_distance(side, reach(state.rows, side, _SURFEUR_UNIT, 2))
            if plain > _MAX_RANGE >= boosted:
                return legal[1]
        return ROULEAU

    # --- orders and activations ------------------------------------------------------------
    def _wants_to_shoot(self, state: MatchState, side: int, character: int) -> bool:
        if not room_ahead(state.rows, side, _UNIT_OF[character]):
            return True
        return best_worth(state, side, character) >= SHOOT_MIN

    def orders(self, state: MatchState, side: int | None = None) -> str:
        """The orders of ``side`` (default: the side programming now), from public data."""
        side = state.side if side is None else side
        lateral = "".join(
            "T" if self._wants_to_shoot(state, side, _FIRST_CHAR[u]) else "A"
            for u in _LATERAL_UNITS
        )
        barreur = self._wants_to_shoot(state, side, BARREUR)
        lanceur = self._wants_to_shoot(state, side, LANCEUR)
        if barreur and lanceur:
            ship = _SHIP_TT
        elif barreur or lanceur:
            better_b = best_worth(state, side, BARREUR) >= best_worth(state, side, LANCEUR)
            ship = _SHIP_AT_B if better_b else _SHIP_AT_L
        else:
            ship = _SHIP_AA
        return f"orders {lateral} {_SHIP_TOKENS[ship]}"

    def activate(self, state: MatchState) -> str:
        side = state.side
        legal = state.legal
        if not state.activated[side]:  # an Ultime lasts the turn: declare it before the first
            if legal[-1].startswith(_RUNE_U):  # the engine offers the rune U last
                restore = self.rune_u(state, legal)
                if restore:
                    return restore
            declarable = [a for a in _ULTIME_EFFECTS if a in legal]
            if declarable:
                gains = ultime_gains(state, side, tuple(_ULTIME_EFFECTS[a] for a in declarable))
                gain, action = max(zip(gains, declarable, strict=True))
                if gain > 0 and gain >= spend_min(state.turn):
                    return action
        orders = state.orders[side]
        assert orders is not None
        best_action, best = "", -1.0
        for action in legal:
            unit = _UNIT_OF_ACTIVATION.get(action, -1)
            if unit < 0:
                continue
            worth = 0.0
            if unit == SHIP:
                if orders[SHIP] != _SHIP_AA:
                    worth = max(best_worth(state, side, BARREUR), best_worth(state, side, LANCEUR))
            elif orders[unit]:
                worth = best_worth(state, side, _FIRST_CHAR[unit])
            if worth > best:
                best_action, best = action, worth
        return best_action

    def rune_u(self, state: MatchState, legal: tuple[str, ...]) -> str:
        """The rune U action worth playing now (see the module), or ``""``."""
        side, turn = state.side, state.turn
        options = {_RUNE_U_CHAR[a]: a for a in legal if a.startswith(_RUNE_U)}
        effects = [
            (_EFFECT_OF[char], action)
            for char, action in options.items()
            if char in _EFFECT_OF and not state.effects[side] & _EFFECT_OF[char]
        ]
        if effects:
            gains = ultime_gains(state, side, tuple(effect for effect, _ in effects))
            gain, action = max(zip(gains, [a for _, a in effects], strict=True))
            if gain > 0 and gain >= spend_min(turn):
                return action
        if turn < _LAST_REGULAR_TURN:
            return ""
        shooting = shooters(state, side)
        for char, needed in ((PEDALAIR, -1), (PLONGEUR, PLONGEUR), (SURFEUR, SURFEUR)):
            if char in options and shooting and (needed < 0 or needed in shooting):
                return options[char]
        return ""

    def ship_order(self, state: MatchState) -> str:
        side = state.side
        orders = state.orders[side]
        assert orders is not None
        if orders[SHIP] == _SHIP_TT:
            barreur = best_worth(state, side, BARREUR)
            return FIRST_BARREUR if barreur >= best_worth(state, side, LANCEUR) else FIRST_LANCEUR
        shooter = BARREUR if orders[SHIP] == _SHIP_AT_B else LANCEUR
        return (
            MOVE_FIRST
            if _worth_after_step(state, side, shooter) > best_worth(state, side, shooter)
            else SHOT_FIRST
        )

    def trident(self, state: MatchState) -> str:
        """Trident (up to three shots at mages, no chest) when two mage shots beat the chest."""
        worths = target_worths(state, state.side, PLONGEUR)
        chest = worths.get(_CHEST_ACTION, 0.0)
        mage = max((w for a, w in worths.items() if a != _CHEST_ACTION), default=0.0)
        return TRIDENT if mage > 0 and 2 * mage > chest else NO_TRIDENT

    def trident_again(self, state: MatchState) -> str:
        return SHOOT_AGAIN if target_worths(state, state.side, PLONGEUR) else STOP

    def advance(self, state: MatchState) -> str:
        """A Mouvement rune when the extra cell brings the chest into range."""
        side, unit = state.side, state.unit
        cells = state.tasks[0][1]
        plain = chest_distance(side, reach(state.rows, side, unit, cells))
        boosted = chest_distance(side, reach(state.rows, side, unit, cells + 1))
        if plain > _MAX_RANGE >= boosted:
            runes = [a for a in state.legal if a != ADVANCE]
            if runes:
                return runes[0]
        return ADVANCE

    # --- one shot --------------------------------------------------------------------------
    def pre_shot(self, state: MatchState) -> str:
        current = state.shot
        assert current is not None
        side, shooter = current.side, current.shooter
        gain = _worth_after_step(state, side, shooter) - best_worth(state, side, shooter)
        if gain > 0 and gain >= spend_min(state.turn):
            runes = [a for a in state.legal if a != NO_MOVE]
            return runes[0]
        return NO_MOVE

    def target(self, state: MatchState) -> str:
        legal = state.legal
        current = state.shot
        assert current is not None
        plain, souffle = split_target_worths(state, current.side, current.shooter)
        best_plain = max(plain.values(), default=0.0)
        floor = max(spend_min(state.turn), 0.01)
        best_action, best = "", -1.0
        for action, worth in plain.items():
            if worth > best and action in legal:
                best_action, best = action, worth
        for action, worth in souffle.items():
            if worth - best_plain < floor:
                continue  # the Ultime is worth keeping for a better shot
            if worth > best and action in legal:
                best_action, best = action, worth
        if not best_action:
            return HOLD if HOLD in legal else legal[0]
        return best_action

    def attack_rune(self, state: MatchState) -> str:
        return self._best_rune(state, attacking=True)

    def defence_rune(self, state: MatchState) -> str:
        return self._best_rune(state, attacking=False)

    def _best_rune(self, state: MatchState, *, attacking: bool) -> str:
        """The first legal rune of the category that gains the most on this shot (exact
        gains, :func:`rune_gain`), if it gains at least :func:`spend_min`; else no rune."""
        current = state.shot
        assert current is not None
        rune_side = current.side if attacking else 1 - current.side
        category_of = state.rosters[rune_side].category_of
        legal = state.legal
        key = resolution_key(state)
        best_index, best_gain = -1, 0.0
        for index, action in enumerate(legal):
            if action == NO_RUNE:
                continue
            gain = rune_gain(state, key, attacking, category_of[RUNE_LETTER[action]])
            if gain > best_gain:
                best_index, best_gain = index, gain
        if best_index < 0 or best_gain < spend_min(state.turn):
            return NO_RUNE
        return legal[best_index]

    def prodige(self, state: MatchState) -> str:
        current = state.shot
        assert current is not None
        side = current.pending[0][0]
        category_of = state.rosters[side].category_of
        rank = {category: i for i, category in enumerate(_RECOVER_ORDER)}
        return min(
            state.legal, key=lambda a: (rank.get(category_of.get(RUNE_LETTER[a], -1), 99), a)
        )


def _no_decision(bot: GreedyBot, state: MatchState) -> str:  # pragma: no cover - never asked
    raise AkvoError(f"the greedy bot has no answer at phase {state.phase_name()!r}")


def _worth_after_step(state: MatchState, side: int, character: int) -> float:
    """Best worth of the character once its unit has moved one cell forward (R10: unless
    blocked)."""
    return best_worth(state, side, character, row=reach(state.rows, side, _UNIT_OF[character], 1))


#: Each decision phase's answer: the method named after the phase's label (``"attack
#: rune"`` → :meth:`GreedyBot.attack_rune`); chance and internal phases have none.
_ANSWERS: Final[list[Callable[[GreedyBot, MatchState], str]]] = [_no_decision] * PHASE_COUNT
for _phase in RESTING:
    _ANSWERS[_phase] = getattr(GreedyBot, re.sub(r"\W", "_", _phase.label), _no_decision)
