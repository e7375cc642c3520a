"""Properties of shot odds that must hold in every situation (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, NamedTuple

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from akvo.shots import ShotOdds, Side, shot_on_chest, shot_on_mage

tiers = st.integers(1, 4)
distances = st.integers(1, 4)
interceptions = st.sampled_from((None, 1, 2, 3, 4))
policies = st.sampled_from(("success", "critical"))

attack_sides = st.builds(
    Side,
    rune=st.sampled_from((None, "attaque", "confusion", "relance")),
    vigie=st.booleans(),
    tourbillon=st.booleans(),
    souffle=st.booleans(),
    policy=policies,
)
defence_sides = st.builds(
    Side,
    rune=st.sampled_from((None, "defense", "confusion", "relance")),
    resilience=st.integers(0, 3),
    egide=st.booleans(),
    tourbillon=st.booleans(),
    policy=policies,
)


def _legal(interception: int | None, attack: Side, defence: Side) -> bool:
    """R20: without an interception, only the attack roll can be touched."""
    if interception is not None:
        return True
    return attack.rune != "confusion" and defence.rune not in ("defense", "relance")


class Situation(NamedTuple):
    """A shot's situation: target kind, tier, distance, interception and both sides."""

    kind: str
    tier: int
    distance: int
    interception: int | None
    attack: Side
    defence: Side

    def shoot(self, attack: Side | None = None, defence: Side | None = None) -> ShotOdds:
        """The shot's odds, with ``attack`` / ``defence`` in place of the situation's own."""
        a = self.attack if attack is None else attack
        d = self.defence if defence is None else defence
        if self.kind == "mage":
            return shot_on_mage(self.tier, self.distance, a, d)
        return shot_on_chest(self.tier, self.distance, self.interception, a, d)


@st.composite
def situations(draw: st.DrawFn) -> Situation:
    kind = draw(st.sampled_from(("mage", "chest")))
    interception = draw(interceptions) if kind == "chest" else None
    attack, defence = draw(attack_sides), draw(defence_sides)
    assume(kind == "mage" or _legal(interception, attack, defence))
    return Situation(kind, draw(tiers), draw(distances), interception, attack, defence)


def stopped(shot: ShotOdds) -> Fraction:
    """P(the defence / interception stops the shot), critical or not."""
    values = list(shot.outcomes.values())  # miss, stopped, stopped critically, 1, 2
    return values[1] + values[2]


@given(situations())
def test_outcomes_are_a_distribution(case: Situation) -> None:
    shot = case.shoot()
    assert sum(shot.outcomes.values()) == 1
    assert all(0 <= p <= 1 for p in shot.outcomes.values())
    assert 0 <= shot.defence_prodige <= shot.attack.success
    assert shot.value == (shot.p_push if shot.kind == "mage" else shot.expected_points)


#: What the attacker may add to its side, each from its side without it (no rune yet: legal
#: whenever the situation is) to its side with it.
ATTACKER_BOOSTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "attaque": ({"rune": None}, {"rune": "attaque"}),
    "souffle": ({"souffle": False}, {"souffle": True}),
}


@pytest.mark.parametrize("boost", ATTACKER_BOOSTS.values(), ids=ATTACKER_BOOSTS)
@given(situations())
def test_an_attackers_boost_never_lowers_its_odds(
    boost: tuple[dict[str, Any], dict[str, Any]], case: Situation
) -> None:
    without, with_boost = (case.shoot(attack=replace(case.attack, **fields)) for fields in boost)
    assert with_boost.value >= without.value
    assert with_boost.outcomes["miss"] <= without.outcomes["miss"]


@given(situations())
def test_defense_never_lowers_the_defenders_odds(case: Situation) -> None:
    assume(case.defence.rune is None and (case.kind == "mage" or case.interception is not None))
    plain = case.shoot()
    boosted = case.shoot(defence=replace(case.defence, rune="defense"))
    assert boosted.value <= plain.value
    assert stopped(boosted) >= stopped(plain)
    assert boosted.p_shooter_pushed >= plain.p_shooter_pushed


@given(situations(), st.integers(0, 2))
def test_more_resilience_never_raises_push_odds(case: Situation, extra: int) -> None:
    defence = case.defence
    assume(defence.resilience + extra + 1 <= 3)
    less = case.shoot()
    more = case.shoot(defence=replace(defence, resilience=defence.resilience + extra + 1))
    assert more.p_push <= less.p_push
    assert more.expected_push <= less.expected_push
    assert more.value <= less.value


@given(situations())
def test_confusion_never_raises_the_opponents_odds(case: Situation) -> None:
    plain = case.shoot()
    # The defender's Confusion on the attack roll (it can always act, R20).
    if case.defence.rune is None:
        hit = case.shoot(defence=replace(case.defence, rune="confusion"))
        assert hit.value <= plain.value
        assert hit.attack.success <= plain.attack.success
    # The attacker's Confusion on the defence / interception roll.
    if case.attack.rune is None and (case.kind == "mage" or case.interception is not None):
        hit = case.shoot(attack=replace(case.attack, rune="confusion"))
        assert hit.value >= plain.value
        assert hit.defence.success <= plain.defence.success  # type: ignore[union-attr]
        assert hit.p_shooter_pushed <= plain.p_shooter_pushed


@given(situations())
def test_ultimes_help_their_side(case: Situation) -> None:
    base = case.shoot()
    for attack in (replace(case.attack, vigie=True), replace(case.attack, tourbillon=True)):
        assert case.shoot(attack=attack).value >= base.value
    for defence in (replace(case.defence, egide=True), replace(case.defence, tourbillon=True)):
        assert case.shoot(defence=defence).value <= base.value


@given(situations())
def test_relance_never_lowers_what_its_policy_seeks(case: Situation) -> None:
    attack = replace(case.attack, rune=None)  # no rune yet: legal whenever the situation is
    plain = case.shoot(attack=attack)
    rerolled = case.shoot(attack=replace(attack, rune="relance"))
    # R15: the policy's first aim never gets worse, and keeping the dice stays possible.
    assert rerolled.attack.critical >= plain.attack.critical
    if attack.policy == "success":
        assert rerolled.attack.success >= plain.attack.success
        assert rerolled.value >= plain.value
