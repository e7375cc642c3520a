"""What each simulated match used: runes by category, Ultimes, and each rules variant's
branch — so that a comparison of two readings can say whether the rule came into play.

Counted by the lab's play loop (:mod:`akvo.lab.play`) from the decisions the bots take and
the rolls they make, in the engine's terms (the roster's rune categories, the state's
Ultime counts, the shot's finished rolls): the engine's own loop is not touched, so plain
matches do not pay for it. Each variant's *branch* is where its two readings differ:

- ``weather`` (R8): a turn whose draw the bag constrains (drawn from an uneven bag, or
  forced) or, with the coin, a turn that favours a side beyond the bag's four tokens;
- ``prodige`` (R13): a finished roll of 2 or 3 dice all equal (a prodige for ``all`` only);
- ``grimoire`` (R19): a rune played whose symbol is @ or # (Confusion or Relance);
- ``rune_u`` (R22): the rune U played (it restores an Ultime only by default);
- ``mouvement_rune`` (R18): a Mouvement rune played just before a shot;
- ``ship_advance_runes`` (R20): a Mouvement rune played on the ship's Avancer/Avancer;
- ``rouleau_mouvement`` (R20): a Rouleau decision where a Mouvement rune could go with it
  (the second cell free, a rune unspent): the variant offers it there, the default not;
- any other variant: not counted (:data:`UNCOUNTED`): a comparison says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from akvo.config import CHOICES
from akvo.match.actions import SHIP_AA
from akvo.match.board import CHARS, SHIP, ULTIME_KEYS
from akvo.match.core import Shot
from akvo.match.phases import ACTIVATE, ADVANCE, ATTACK_RUNE, DEFENCE_RUNE, PRE_SHOT, ROULEAU
from akvo.match.roster import CONFUSION
from akvo.match.roster import RELANCE as RELANCE_CATEGORY
from akvo.match.shooting import rouleau_with_runes
from akvo.match.state import MatchState
from akvo.rules import TURNS, RuneCategory

#: The rune categories counted per side (the rune U is the category Ultime of the grimoire).
RUNE_KINDS: Final = ("attaque", "defense", "confusion", "relance", "mouvement", "rune_u")
#: The Ultimes counted per side, in character order (Pédalair's Souffle portant first).
ULTIMES: Final = tuple(key.split()[0] for key in ULTIME_KEYS)
#: The variants whose branch the play loop counts.
COUNTED: Final = (
    "weather",
    "prodige",
    "grimoire",
    "rune_u",
    "mouvement_rune",
    "ship_advance_runes",
    "rouleau_mouvement",
)
#: Variants of :class:`~akvo.config.RulesConfig` the lab does not count yet.
UNCOUNTED: Final = tuple(field for field in CHOICES if field not in COUNTED)

#: The per-match columns, in this order: runes by kind and Ultimes for A then B, then the
#: branch of each counted variant (``rule_<field>``).
USE_COLUMNS: Final = (
    *(f"{kind}_{side}" for side in "ab" for kind in RUNE_KINDS),
    *(f"ultime_{name}_{side}" for side in "ab" for name in ULTIMES),
    *(f"rule_{field}" for field in COUNTED),
)
_PER_SIDE: Final = len(RUNE_KINDS)
_ULTIMES_AT: Final = 2 * _PER_SIDE
_RULES_AT: Final = _ULTIMES_AT + 2 * CHARS
_RULE: Final = {field: _RULES_AT + i for i, field in enumerate(COUNTED)}
_RUNE_PHASES: Final = (ATTACK_RUNE, DEFENCE_RUNE, PRE_SHOT, ADVANCE, ROULEAU)
_WILD: Final = (CONFUSION, RELANCE_CATEGORY)  # the @ and # symbols (R19)
_BAG_TOKENS: Final = 4
_LAST_REGULAR_TURN: Final = TURNS[-1]
_PRODIGE_DICE: Final = 4  # R13's default: a prodige needs four dice
_RUNE_U_PREFIX: Final = "rune U "
_RUNE_U_KIND: Final = RUNE_KINDS.index("rune_u")
_RUNE_PREFIXES: Final = ("rune ", "move ", "advance +", "rouleau +")

assert len(RuneCategory) == _PER_SIDE  # five categories and the Ultime (rune U)


_KIND_LABELS: Final = {
    "attaque": "runes Attaque",
    "defense": "runes Défense",
    "confusion": "runes Confusion",
    "relance": "runes Relance",
    "mouvement": "runes Mouvement",
    "rune_u": "rune U",
}
_ULTIME_LABELS: Final = dict(
    zip(
        ULTIMES,
        ("Souffle portant", "Tourbillon", "Égide", "Vigie", "Rouleau", "Trident"),
        strict=True,
    )
)
_RULE_LABELS: Final = {
    "weather": "R8 : tours où le sac compte (ou que la pièce déséquilibre)",
    "prodige": "R13 : jets de 2 ou 3 dés identiques",
    "grimoire": "R19 : runes @ ou # jouées",
    "rune_u": "R22 : rune U jouée",
    "mouvement_rune": "R18 : Mouvement joué juste avant un tir",
    "ship_advance_runes": "R20 : Mouvement joué sur Avancer/Avancer du navire",
    "rouleau_mouvement": "R20 : Rouleau qui pourrait prendre une rune de Mouvement",
}


def use_label(column: str) -> str:
    """The French label of a column of :data:`USE_COLUMNS` (``runes Attaque (A)``…)."""
    if column.startswith("rule_"):
        return _RULE_LABELS[column.removeprefix("rule_")]
    name, side = column.rsplit("_", 1)
    if name.startswith("ultime_"):
        return f"{_ULTIME_LABELS[name.removeprefix('ultime_')]} ({side.upper()})"
    return f"{_KIND_LABELS[name]} ({side.upper()})"


@dataclass(frozen=True, slots=True)
class RuleUse:
    """How much a variant that differs between two simulations came into play.

    ``counted`` is False for a variant whose branch the lab does not count
    (:data:`UNCOUNTED`); else ``matches`` is the number of matches (of ``total``) in which
    either simulation took its branch, ``first`` and ``second`` how many times each did."""

    field: str
    counted: bool
    total: int
    matches: int = 0
    first: int = 0
    second: int = 0

    @property
    def played(self) -> bool:
        return self.counted and self.matches > 0


def rule_uses(
    first: Sequence[Any], second: Sequence[Any], fields: Sequence[str]
) -> tuple[RuleUse, ...]:
    """The :class:`RuleUse` of each variant in ``fields`` over two paired simulations' rows."""
    out = []
    for field in fields:
        if field not in _RULE:
            out.append(RuleUse(field, False, len(first)))
            continue
        at = _RULE[field]
        one = [row.uses[at] for row in first]
        two = [row.uses[at] for row in second]
        either = sum(a > 0 or b > 0 for a, b in zip(one, two, strict=True))
        out.append(RuleUse(field, True, len(first), either, sum(one), sum(two)))
    return tuple(out)


class MatchUses:
    """The counts of one match, fed by the play loop (:func:`akvo.lab.play.play_indexed`):
    :meth:`decision` before each decision is applied, :meth:`before_roll` /
    :meth:`after_roll` around each roll's chance outcome and Relance choice,
    :meth:`new_turn` at each turn's first orders, :meth:`finish` at the end."""

    __slots__ = ("_roll", "counts", "favoured")

    def __init__(self) -> None:
        self.counts = [0] * len(USE_COLUMNS)
        self.favoured = [0, 0]  # regular turns each side was favoured so far
        self._roll: tuple[Shot, int] | None = None  # the roll being made: its shot and stage

    def decision(self, state: MatchState, action: str) -> None:
        """``action`` is about to be applied at the decision node ``state``."""
        phase = state.phase
        if phase == ROULEAU and len(rouleau_with_runes(state)) > 1:
            self.counts[_RULE["rouleau_mouvement"]] += 1
        if phase == ACTIVATE:
            if action.startswith(_RUNE_U_PREFIX):
                self.counts[state.player * _PER_SIDE + _RUNE_U_KIND] += 1
                self.counts[_RULE["rune_u"]] += 1
            return
        if phase not in _RUNE_PHASES or not action.startswith(_RUNE_PREFIXES):
            return  # no rune played ("no rune", a plain "advance"…)
        side = state.player
        category = state.rosters[side].category_of[action[-1]]
        self.counts[side * _PER_SIDE + category] += 1
        if category in _WILD:
            self.counts[_RULE["grimoire"]] += 1
        if phase == PRE_SHOT:
            self.counts[_RULE["mouvement_rune"]] += 1
        elif phase == ADVANCE and state.unit == SHIP:
            orders = state.orders[side]
            if orders is not None and orders[SHIP] == SHIP_AA:
                self.counts[_RULE["ship_advance_runes"]] += 1

    def new_turn(self, state: MatchState) -> None:
        """At a turn's first orders, its weather drawn: R8's branch."""
        favoured = state.favoured
        if state.rules.weather == "coin":
            if state.turn <= _LAST_REGULAR_TURN:
                self.favoured[favoured] += 1
                self.counts[_RULE["weather"]] += self.favoured[favoured] > _BAG_TOKENS
            return
        before = [state.bag[0], state.bag[1]]  # the bag as the draw found it
        before[favoured] += 1
        self.counts[_RULE["weather"]] += before[0] != before[1]

    def before_roll(self, state: MatchState) -> None:
        """Before a roll's dice, its Relance choice or its rerolled die are applied."""
        shot = state.shot
        if shot is not None and (shot.attack if shot.stage == 0 else shot.defence) is None:
            self._roll = (shot, shot.stage)

    def after_roll(self) -> None:
        """After them: the roll, if it just finished, counted for R13's branch."""
        if self._roll is None:
            return
        shot, stage = self._roll
        roll = shot.attack if stage == 0 else shot.defence
        if roll is None:
            return  # a Relance or a reroll is still to come
        self._roll = None
        dice = roll.dice
        if 2 <= len(dice) < _PRODIGE_DICE and len(set(dice)) == 1:
            self.counts[_RULE["prodige"]] += 1

    def finish(self, state: MatchState) -> tuple[int, ...]:
        """The counts, with the Ultimes the state counted (``ult_uses``)."""
        uses = state.ult_uses
        for index in range(2 * CHARS):
            self.counts[_ULTIMES_AT + index] = uses[index]
        return tuple(self.counts)
