"""Properties of shot odds that must hold in every situation (hypothesis)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

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


@st.composite
def situations(draw: st.DrawFn) -> tuple[str, int, int, int | None, Side, Side]:
    kind = draw(st.sampled_from(("mage", "chest")))
    interception = draw(interceptions) if kind == "chest" else None
    attack, defence = draw(attack_sides), draw(defence_sides)
    assume(kind == "mage" or _legal(interception, attack, defence))
    return kind, draw(tiers), draw(distances), interception, attack, defence


def shoot(
    kind: str, tier: int, distance: int, interception: int | None, a: Side, d: Side
) -> ShotOdds:
    if kind == "mage":
        return shot_on_mage(tier, distance, a, d)
    return shot_on_chest(tier, distance, interception, a, d)


def stopped(shot: ShotOdds) -> Fraction:
    """P(the defence / interception stops the shot), critical or not."""
    values = list(shot.outcomes.values())  # miss, stopped, stopped critically, 1, 2
    return values[1] + values[2]


@given(situations())
def test_outcomes_are_a_distribution(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    shot = shoot(*case)
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
    boost: tuple[dict[str, Any], dict[str, Any]],
    case: tuple[str, int, int, int | None, Side, Side],
) -> None:
    kind, tier, distance, interception, attack, defence = case
    without, with_boost = (replace(attack, **fields) for fields in boost)
    plain = shoot(kind, tier, distance, interception, without, defence)
    boosted = shoot(kind, tier, distance, interception, with_boost, defence)
    assert boosted.value >= plain.value
    assert boosted.outcomes["miss"] <= plain.outcomes["miss"]


@given(situations())
def test_defense_never_lowers_the_defenders_odds(
    case: tuple[str, int, int, int | None, Side, Side],
) -> None:
    kind, tier, distance, interception, attack, defence = case
    assume(defence.rune is None and (kind == "mage" or interception is not None))
    plain = shoot(kind, tier, distance, interception, attack, defence)
    boosted = shoot(kind, tier, distance, interception, attack, replace(defence, rune="defense"))
    assert boosted.value <= plain.value
    assert stopped(boosted) >= stopped(plain)
    assert boosted.p_shooter_pushed >= plain.p_shooter_pushed


@given(situations(), st.integers(0, 2))
def test_more_resilience_never_raises_push_odds(
    case: tuple[str, int, int, int | None, Side, Side], extra: int
) -> None:
    kind, tier, distance, interception, attack, defence = case
    assume(defence.resilience + extra + 1 <= 3)
    less = shoot(kind, tier, distance, interception, attack, defence)
    more_side = replace(defence, resilience=defence.resilience + extra + 1)
    more = shoot(kind, tier, distance, interception, attack, more_side)
    assert more.p_push <= less.p_push
    assert more.expected_push <= less.expected_push
    assert more.value <= less.value


@given(situations())
def test_confusion_never_raises_the_opponents_odds(
    case: tuple[str, int, int, int | None, Side, Side],
) -> None:
    kind, tier, distance, interception, attack, defence = case
    # The defender's Confusion on the attack roll (it can always act, R20).
    if defence.rune is None:
        plain = shoot(kind, tier, distance, interception, attack, defence)
        confused = replace(defence, rune="confusion")
        hit = shoot(kind, tier, distance, interception, attack, confused)
        assert hit.value <= plain.value
        assert hit.attack.success <= plain.attack.success
    # The attacker's Confusion on the defence / interception roll.
    if attack.rune is None and (kind == "mage" or interception is not None):
        plain = shoot(kind, tier, distance, interception, attack, defence)
        confused = replace(attack, rune="confusion")
        hit = shoot(kind, tier, distance, interception, confused, defence)
        assert hit.value >= plain.value
        assert hit.defence.success <= plain.defence.success  # type: ignore[union-attr]
        assert hit.p_shooter_pushed <= plain.p_shooter_pushed


@given(situations())
def test_ultimes_help_their_side(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    kind, tier, distance, interception, attack, defence = case
    base = shoot(kind, tier, distance, interception, attack, defence)
    for boosted_attack in (replace(attack, vigie=True), replace(attack, tourbillon=True)):
        shot = shoot(kind, tier, distance, interception, boosted_attack, defence)
        assert shot.value >= base.value
    for boosted_defence in (replace(defence, egide=True), replace(defence, tourbillon=True)):
        shot = shoot(kind, tier, distance, interception, attack, boosted_defence)
        assert shot.value <= base.value


@given(situations())
def test_relance_never_lowers_what_its_policy_seeks(
    case: tuple[str, int, int, int | None, Side, Side],
) -> None:
    kind, tier, distance, interception, attack, defence = case
    attack = replace(attack, rune=None)  # no rune yet: legal whenever the situation is
    plain = shoot(kind, tier, distance, interception, attack, defence)
    rerolled = shoot(kind, tier, distance, interception, replace(attack, rune="relance"), defence)
    # R15: the policy's first aim never gets worse, and keeping the dice stays possible.
    assert rerolled.attack.critical >= plain.attack.critical
    if attack.policy == "success":
        assert rerolled.attack.success >= plain.attack.success
        assert rerolled.value >= plain.value
