"""Exact odds of one shot (R16–R18, R20, R24): on a mage, or on a chest with interception.

A shot is one *resolution*: each side contributes a :class:`Side` (its rune, Résilience and
active Ultimes), the attack roll and the defence / interception roll are built from them
with :func:`akvo.dice.roll`, and the two independent rolls are combined exactly.

Readings this module makes (besides the rulings it cites):

- Confusion (R20) removes one die from "the opponent's next roll in this resolution": the
  attacker's Confusion hits the defence / interception roll, the defender's the attack roll.
  If the attack misses, the attacker's Confusion is simply wasted.
- Tourbillon (R24) hits "any opponent attacking the Kitesurfeur or defending against its
  shot": ``attack.tourbillon`` (the shooter is the Kitesurfeur) removes a die from the defence
  or interception roll; ``defence.tourbillon`` (the target is the Kitesurfeur) removes a die
  from the attack roll of a *mage* shot. A chest shot does not attack the interceptor, so an
  intercepting Kitesurfeur's Tourbillon leaves the attack roll alone.
- Souffle portant (R24) shortens the shot's own distance only (``max(1, d − 2)``), never
  the interception distance, which R6 measures between the two mages. With it a base
  distance up to 6 is legal; the shot must end in 1–4.
- A chest shot with no possible interception (R17) has no opponent roll after the attack:
  the defender's Défense or Relance and the attacker's Confusion cannot act and are
  rejected (R20); the defender's Confusion still acts on the attack roll.
- State that does not apply to a side's role is ignored, not rejected: the attacker's
  Résilience and Égide, the defender's Vigie (they are standing effects, not choices).
  Choices that cannot act are rejected: Défense while attacking, Attaque while defending,
  Souffle portant on the defending side.

Results are cached twice (``functools.lru_cache``): on the call's own arguments, and on
the two rolls the shot reduces to, so that equivalent shots (Égide or one more Résilience,
Souffle from 3 or from 1…) are computed once. :func:`clear_caches` forgets them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Literal, get_args

from akvo.config import DEFAULT_RULES, ProdigeRule, RulesConfig
from akvo.dice import RollOdds, roll
from akvo.errors import ShotError, require_instance, require_int
from akvo.resolution import CHEST_OUTCOMES as CHEST_OUTCOMES
from akvo.resolution import MAGE_OUTCOMES as MAGE_OUTCOMES
from akvo.resolution import (
    MAX_SOUFFLE_DISTANCE as MAX_SOUFFLE_DISTANCE,
)
from akvo.resolution import RELANCE_POLICIES as RELANCE_POLICIES
from akvo.resolution import RelancePolicy as RelancePolicy
from akvo.resolution import (
    attack_dice,
    attack_modifier,
    defence_dice,
    defence_modifier,
    souffle_distance,
)
from akvo.rules import DISTANCES, MAX_RESILIENCE, TIERS, thresholds

#: The runes that act on a roll (R20), named by their :class:`~akvo.rules.RuneCategory`
#: value (``RuneCategory(name)`` is the category).
RollRune = Literal["attaque", "defense", "confusion", "relance"]
RuneChoice = RollRune | None
ShotKind = Literal["mage", "chest"]

ROLL_RUNES: tuple[RollRune, ...] = get_args(RollRune)
RUNE_CHOICES: tuple[RuneChoice, ...] = (None, *ROLL_RUNES)
#: Runes the attacking / defending side may play in a shot (R20): not Défense while
#: attacking, not Attaque while defending.
ATTACK_RUNES: tuple[RuneChoice, ...] = tuple(r for r in RUNE_CHOICES if r != "defense")
DEFENCE_RUNES: tuple[RuneChoice, ...] = tuple(r for r in RUNE_CHOICES if r != "attaque")


@dataclass(frozen=True, slots=True)
class Side:
    """One side's contribution to a resolution (hashable, so shots can be cached).

    - ``rune``: the one rune this side plays (R18), or ``None``.
    - ``resilience`` 0–3: +1 per point to this side's defence / interception roll (R11).
    - ``vigie`` / ``egide``: the Lanceur's / Barreur's Ultime is active for this side:
      +1 attack / +1 defence (R24).
    - ``tourbillon``: this side's mage in the shot is the Kitesurfeur with Tourbillon
      active: the opponent rolls one die fewer against it (R14, R24).
    - ``souffle``: Souffle portant is used on this shot (attacking side only, R24).
    - ``policy``: the Relance policy of R15, used when ``rune == "relance"``.
    """

    rune: RuneChoice = None
    resilience: int = 0
    vigie: bool = False
    egide: bool = False
    tourbillon: bool = False
    souffle: bool = False
    policy: RelancePolicy = "success"

    def __post_init__(self) -> None:
        if self.rune not in RUNE_CHOICES:
            raise ShotError(f"unknown rune {self.rune!r}; choose one of {RUNE_CHOICES}")
        require_int("resilience", self.resilience, ShotError)
        if not 0 <= self.resilience <= MAX_RESILIENCE:
            raise ShotError(f"resilience {self.resilience} is outside 0–{MAX_RESILIENCE} (R11)")
        for name in ("vigie", "egide", "tourbillon", "souffle"):
            if not isinstance(getattr(self, name), bool):
                raise ShotError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.policy not in RELANCE_POLICIES:
            raise ShotError(
                f"unknown Relance policy {self.policy!r}; choose one of {RELANCE_POLICIES}"
            )


NO_SIDE = Side()


@dataclass(frozen=True, slots=True)
class ShotOdds:
    """Exact outcome distribution of one shot, with the two rolls it is made of.

    ``outcomes`` has the keys of :data:`MAGE_OUTCOMES` or :data:`CHEST_OUTCOMES` and sums
    to exactly 1. ``value`` is the payoff grids and duels use: ``p_push`` for a mage shot,
    ``expected_points`` for a chest shot.
    """

    kind: ShotKind
    tier: int
    distance: int  # effective shot distance, after Souffle portant
    interception_distance: int | None  # chest only; None = no interception
    attack_threshold: int
    defence_threshold: int | None
    attack: RollOdds
    defence: RollOdds | None
    outcomes: Mapping[str, Fraction]
    attack_prodige: Fraction
    defence_prodige: Fraction  # P(the defence roll happens and is a prodige)
    expected_push: Fraction  # mage: E[cells the target is pushed]
    expected_points: Fraction  # chest: E[points]
    p_push: Fraction
    p_score: Fraction
    value: Fraction

    @property
    def p_shooter_pushed(self) -> Fraction:
        """P(a defence / interception critical pushes the shooter 1 cell)."""
        key = "defence_critical" if self.kind == "mage" else "interception_critical"
        return self.outcomes[key]


# --- Validation ---------------------------------------------------------------------------


def _check_int(name: str, value: object) -> int:
    return require_int(name, value, ShotError)


def _check_tier(tier: object) -> int:
    value = _check_int("tier", tier)
    if value not in TIERS:
        raise ShotError(f"tier {value} is outside I–IV (1–4)")
    return value


def _shot_distance(name: str, distance: object, souffle: bool) -> int:
    """Effective shot distance; Souffle portant (R24) brings up to 6 into range."""
    base = _check_int(name, distance)
    if souffle:
        if not 1 <= base <= MAX_SOUFFLE_DISTANCE:
            raise ShotError(
                f"{name} {base} is out of range even with Souffle portant "
                f"(1–{MAX_SOUFFLE_DISTANCE} before, 1–4 after)"
            )
        return souffle_distance(base)
    if base not in DISTANCES:
        raise ShotError(f"{name} {base} is out of range: a shot needs 1–4 (R4, R5)")
    return base


def _interception(distance: object) -> int | None:
    """R17: an interception happens only at distance 1–4; anything else means none."""
    if distance is None:
        return None
    value = _check_int("interception_distance", distance)
    if value < 0:
        raise ShotError(f"interception_distance {value} cannot be negative")
    return value if value in DISTANCES else None


def _check_sides(attack: object, defence: object, rules: object) -> tuple[Side, Side, RulesConfig]:
    attack = require_instance("attack", attack, Side, ShotError)
    defence = require_instance("defence", defence, Side, ShotError)
    rules = require_instance("rules", rules, RulesConfig, ShotError)
    if attack.rune not in ATTACK_RUNES:
        raise ShotError(f"the attacking side cannot play {attack.rune!r} (R20)")
    if defence.rune not in DEFENCE_RUNES:
        raise ShotError(f"the defending side cannot play {defence.rune!r} (R20)")
    if defence.souffle:
        raise ShotError("Souffle portant shortens an allied shot: attacking side only (R24)")
    return attack, defence, rules


# --- Rolls and their combination ----------------------------------------------------------


#: How one roll is made: (dice before the R14 floor, flat modifier, Relance policy or None).
RollSpec = tuple[int, int, RelancePolicy | None]


def _attack_spec(attack: Side, defence: Side, kind: ShotKind) -> RollSpec:
    # R20: the defender's Confusion hits the attack; R24: attacking the Kitesurfeur.
    dice = attack_dice(defence.rune == "confusion", defence.tourbillon and kind == "mage")
    modifier = attack_modifier(attack.rune == "attaque", attack.vigie)  # R20, R24
    reroll = attack.policy if attack.rune == "relance" else None  # R15
    return dice, modifier, reroll


def _defence_spec(attack: Side, defence: Side) -> RollSpec:
    # R20: the attacker's Confusion hits the defence; R24: against the Kitesurfeur's shot.
    dice = defence_dice(attack.rune == "confusion", attack.tourbillon)
    # R20 Défense, R24 Égide, R11: Résilience counts for interceptions too.
    modifier = defence_modifier(defence.rune == "defense", defence.egide, defence.resilience)
    reroll = defence.policy if defence.rune == "relance" else None  # R15
    return dice, modifier, reroll


def _frozen(keys: tuple[str, ...], values: tuple[Fraction, ...]) -> Mapping[str, Fraction]:
    return MappingProxyType(dict(zip(keys, values, strict=True)))


@lru_cache(maxsize=65536)
def _resolve(
    kind: ShotKind,
    tier: int,
    distance: int,
    interception: int | None,
    attack_spec: RollSpec,
    defence_spec: RollSpec | None,
    prodige: ProdigeRule,
) -> ShotOdds:
    """The shot for validated arguments reduced to the two rolls (see :func:`_normalise`)."""
    x = thresholds(tier, distance).attack
    a_dice, a_modifier, a_reroll = attack_spec
    # R14: fewer than one die counts as one (akvo.dice.roll enforces it).
    a = roll(x, dice=a_dice, modifier=a_modifier, reroll=a_reroll, prodige=prodige)
    hit, crit = a.success, a.critical
    plain_hit = hit - crit
    zero = Fraction(0)
    d: RollOdds | None = None
    u: int | None = None
    if defence_spec is not None:
        # R16: the defence is rolled at the shot's distance; R17: at the interception one.
        u = thresholds(tier, distance if interception is None else interception).defence
        d_dice, d_modifier, d_reroll = defence_spec
        d = roll(u, dice=d_dice, modifier=d_modifier, reroll=d_reroll, prodige=prodige)
        stop, stop_crit = d.success, d.critical
        through = 1 - stop
        values = (
            1 - hit,  # miss
            hit * (stop - stop_crit),  # defended / intercepted
            hit * stop_crit,  # critical: attack cancelled, shooter pushed 1
            plain_hit * through,  # push 1 / score 1
            crit * through,  # push 2 / score 2 (critical attack)
        )
        defence_prodige = hit * d.prodige  # R13: only a roll that happens can be one
    else:
        # R17: an impossible interception captures.
        values = (1 - hit, zero, zero, plain_hit, crit)
        defence_prodige = zero
    gain = values[3] + values[4]
    expected = values[3] + 2 * values[4]
    is_mage = kind == "mage"
    return ShotOdds(
        kind=kind,
        tier=tier,
        distance=distance,
        interception_distance=interception,
        attack_threshold=x,
        defence_threshold=u,
        attack=a,
        defence=d,
        outcomes=_frozen(MAGE_OUTCOMES if is_mage else CHEST_OUTCOMES, values),
        attack_prodige=a.prodige,
        defence_prodige=defence_prodige,
        expected_push=expected if is_mage else zero,
        expected_points=zero if is_mage else expected,
        p_push=gain if is_mage else zero,
        p_score=zero if is_mage else gain,
        value=gain if is_mage else expected,
    )


def _normalise(
    kind: ShotKind,
    tier: object,
    distance: object,
    interception_distance: object,
    attack: object,
    defence: object,
    rules: object,
) -> ShotOdds:
    """Validate, then reduce the shot to its two rolls, so that equivalent shots (Égide or
    one more Résilience, Souffle from 3 or from 1…) share one cache entry."""
    att, dfn, config = _check_sides(attack, defence, rules)
    level = _check_tier(tier)
    name = "distance" if kind == "mage" else "chest_distance"
    shot_distance = _shot_distance(name, distance, att.souffle)
    interception = _interception(interception_distance) if kind == "chest" else None
    rolls_defence = kind == "mage" or interception is not None
    if not rolls_defence:
        if dfn.rune in ("defense", "relance"):
            raise ShotError(
                f"no interception is possible, so the defender's {dfn.rune!r} cannot act (R20)"
            )
        if att.rune == "confusion":
            raise ShotError(
                "no interception is possible, so the attacker's 'confusion' cannot act (R20)"
            )
    return _resolve(
        kind,
        level,
        shot_distance,
        interception,
        _attack_spec(att, dfn, kind),
        _defence_spec(att, dfn) if rolls_defence else None,
        config.prodige,
    )


#: :func:`_normalise` cached on the call's own arguments (typed: ``True`` is not ``1``).
_cached_shot = lru_cache(maxsize=65536, typed=True)(_normalise)


def _shot(kind: ShotKind, *args: object) -> ShotOdds:
    """A shot from (tier, distance, interception distance, attack, defence, rules)."""
    try:
        return _cached_shot(kind, *args)
    except TypeError:
        # An unhashable argument: validate without the cache for a clear ShotError.
        return _normalise(kind, *args)


def shot_on_mage(
    tier: int,
    distance: int,
    attack: Side = NO_SIDE,
    defence: Side = NO_SIDE,
    *,
    rules: RulesConfig = DEFAULT_RULES,
) -> ShotOdds:
    """Exact odds of a shot on a mage (R16).

    Attack roll against X(tier, distance); on a hit, the target's defence roll against
    U(tier, distance). Outcomes: ``miss``; ``defended``; ``defence_critical`` (attack
    cancelled, shooter pushed 1); ``push_1``; ``push_2`` (critical attack, failed defence).
    """
    return _shot("mage", tier, distance, None, attack, defence, rules)


def shot_on_chest(
    tier: int,
    chest_distance: int,
    interception_distance: int | None,
    attack: Side = NO_SIDE,
    defence: Side = NO_SIDE,
    *,
    rules: RulesConfig = DEFAULT_RULES,
) -> ShotOdds:
    """Exact odds of a shot on a chest (R17).

    Attack roll against X(tier, chest distance); on a hit, the enemy mage of the lane
    intercepts against U(tier, interception distance) if that distance is 1–4 (else there
    is no interception). Outcomes: ``miss``; ``intercepted``; ``interception_critical``
    (shooter pushed 1); ``score_1``; ``score_2`` (critical attack, 2 points).
    """
    return _shot("chest", tier, chest_distance, interception_distance, attack, defence, rules)


def shot(
    kind: ShotKind,
    tier: int,
    distance: int,
    interception_distance: int | None = None,
    attack: Side = NO_SIDE,
    defence: Side = NO_SIDE,
    *,
    rules: RulesConfig = DEFAULT_RULES,
) -> ShotOdds:
    """Either kind of shot by name: :func:`shot_on_mage` (``interception_distance`` is
    ignored) or :func:`shot_on_chest` (``distance`` is the chest distance)."""
    if kind not in ("mage", "chest"):
        raise ShotError(f"unknown shot kind {kind!r}; choose 'mage' or 'chest'")
    if kind == "mage":
        interception_distance = None
    return _shot(kind, tier, distance, interception_distance, attack, defence, rules)


def chest_shot_on_board(
    chest_distance: int, interception_distance: int | None, *, souffle: bool = False
) -> bool:
    """Whether the board can produce this chest shot at all (R5, R6, R10, R11, R24).

    In every lane A's unit stays below B's, so the interceptor (the enemy mage of the
    shooter's lane) always stands between the shooter and the chest: the chest is at least
    2 cells away and the interceptor 1 to ``chest_distance − 1`` cells from the shooter.
    Only Souffle portant shoots from 5–6 cells, and so only it can leave the interceptor out
    of reach (5 cells away, chest at 6). :func:`shot_on_chest` still computes the other
    combinations, for what-if questions; this tells a reader which ones happen in a match.
    """
    base = _check_int("chest_distance", chest_distance)
    interceptor = _interception(interception_distance)
    if interceptor is None and interception_distance not in (None, 0):
        interceptor = _check_int("interception_distance", interception_distance)
    farthest = MAX_SOUFFLE_DISTANCE if souffle else DISTANCES[-1]
    if not 2 <= base <= farthest:
        return False
    if interceptor is None:  # nobody within 4: the interceptor is 5 or more cells away
        return base - 1 > DISTANCES[-1]
    return interceptor <= base - 1


def clear_caches() -> None:
    """Forget every cached shot (the dice caches of :mod:`akvo.dice` are left alone)."""
    _cached_shot.cache_clear()
    _resolve.cache_clear()
