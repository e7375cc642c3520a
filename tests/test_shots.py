"""Exact shot odds (akvo.shots) against brute force, hand-derived values and the rulings.

The reference :func:`brute_shot` re-reads R14–R17, R20 and R24 on its own: it copies the
matrix from the rulebook, builds each roll from ``tests.brute_force.brute_roll`` (every
ordered tuple of faces enumerated) and combines the two rolls outcome by outcome.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from akvo.config import RulesConfig
from akvo.errors import AkvoError, ShotError
from akvo.shots import (
    CHEST_OUTCOMES,
    MAGE_OUTCOMES,
    Side,
    clear_caches,
    shot_on_chest,
    shot_on_mage,
)
from tests.brute_force import brute_roll

# The matrix as printed in the rulebook: (X, U) by tier, then distance 1–4.
MATRIX = {
    1: ((12, 12), (14, 10), (16, 8), (18, 6)),
    2: ((10, 14), (12, 12), (14, 10), (16, 8)),
    3: ((8, 16), (10, 14), (12, 12), (14, 10)),
    4: ((6, 18), (8, 16), (10, 14), (12, 12)),
}


def four_d6_at_least(threshold: int, dice: int = 4) -> Fraction:
    """P(sum of ``dice`` d6 ≥ threshold), by enumerating every ordered tuple of faces."""
    counts = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=dice))
    return Fraction(sum(n for s, n in counts.items() if s >= threshold), 6**dice)


def brute_shot(
    kind: str,
    tier: int,
    distance: int,
    interception: int | None,
    attack: Side,
    defence: Side,
    prodige: str = "four",
) -> tuple[dict[str, Fraction], Fraction, Fraction]:
    """(outcomes, attack prodige, defence prodige) of a shot, read independently."""
    shot_distance = max(1, distance - 2) if attack.souffle else distance
    x = MATRIX[tier][shot_distance - 1][0]
    a_dice = 4 - (defence.rune == "confusion") - (defence.tourbillon and kind == "mage")
    a_mod = 2 * (attack.rune == "attaque") + attack.vigie
    a_reroll = attack.policy if attack.rune == "relance" else None
    a_joint, _ = brute_roll(x, max(1, a_dice), a_mod, a_reroll, prodige)
    defends = kind == "mage" or interception in (1, 2, 3, 4)
    names = MAGE_OUTCOMES if kind == "mage" else CHEST_OUTCOMES
    out = dict.fromkeys(names, Fraction(0))
    a_prodige = sum((p for k, p in a_joint.items() if k[2]), Fraction(0))
    d_prodige = Fraction(0)
    if not defends:
        for (hit, crit, _), p in a_joint.items():
            out[names[4] if crit else names[3] if hit else names[0]] += p
        return out, a_prodige, d_prodige
    u = MATRIX[tier][(shot_distance if kind == "mage" else interception) - 1][1]  # type: ignore[operator]
    d_dice = 4 - (attack.rune == "confusion") - attack.tourbillon
    d_mod = 2 * (defence.rune == "defense") + defence.resilience + defence.egide
    d_reroll = defence.policy if defence.rune == "relance" else None
    d_joint, _ = brute_roll(u, max(1, d_dice), d_mod, d_reroll, prodige)
    for (hit, crit, _), pa in a_joint.items():
        if not hit:
            out[names[0]] += pa
            continue
        for (stop, stop_crit, d_prod), pd in d_joint.items():
            p = pa * pd
            d_prodige += p if d_prod else 0
            if stop_crit:
                out[names[2]] += p
            elif stop:
                out[names[1]] += p
            else:
                out[names[4] if crit else names[3]] += p
    return out, a_prodige, d_prodige


# --- Spot values ---------------------------------------------------------------------------


def test_tier_one_distance_one_no_runes() -> None:
    p_hit = four_d6_at_least(12)
    shot = shot_on_mage(1, 1)
    assert shot.p_push == p_hit * (1 - p_hit)
    assert shot.outcomes["miss"] == 1 - p_hit
    assert shot.outcomes["push_2"] == four_d6_at_least(16) * (1 - p_hit)
    assert shot.outcomes["defence_critical"] == p_hit * four_d6_at_least(16)
    assert shot.p_push == Fraction(76415, 419904)


def test_both_confusions_at_tier_two_distance_two() -> None:
    # 3d6 ≥ 12 in 81 of 216 ways (25+21+15+10+6+3+1), by hand.
    shot = shot_on_mage(2, 2, Side("confusion"), Side("confusion"))
    assert shot.attack.dice == shot.defence.dice == 3  # type: ignore[union-attr]
    assert shot.p_push == Fraction(81, 216) * Fraction(135, 216) == Fraction(15, 64)
    assert shot.attack_prodige == shot.defence_prodige == 0  # R13: 3 dice never a prodige


def test_unintercepted_chest_scores_every_hit() -> None:
    shot = shot_on_chest(2, 3, None, Side("attaque"))
    hit, crit = four_d6_at_least(12), four_d6_at_least(16)  # X 14 with +2
    assert shot.outcomes["score_1"] == hit - crit
    assert shot.outcomes["score_2"] == crit
    assert shot.expected_points == hit + crit == shot.value
    assert shot.defence is None and shot.defence_threshold is None
    assert shot.outcomes["intercepted"] == shot.outcomes["interception_critical"] == 0


def test_chest_interception_uses_its_own_distance() -> None:
    shot = shot_on_chest(1, 4, 2, Side(vigie=True), Side(resilience=2, egide=True))
    assert (shot.attack_threshold, shot.defence_threshold) == (18, 10)
    assert shot.attack.modifier == 1 and shot.defence.modifier == 3  # type: ignore[union-attr]
    hit, crit = four_d6_at_least(17), four_d6_at_least(21)
    stop = four_d6_at_least(7)
    assert shot.p_score == hit * (1 - stop)
    assert shot.outcomes["score_2"] == crit * (1 - stop)
    assert shot.expected_points == (hit + crit) * (1 - stop)


def test_defence_prodige_needs_a_hit() -> None:
    shot = shot_on_mage(4, 4)  # X 12, U 12: both rolls plain 4d6
    assert shot.attack_prodige == Fraction(6, 1296)
    assert shot.defence_prodige == four_d6_at_least(12) * Fraction(6, 1296)


def test_prodige_variant_counts_three_equal_dice() -> None:
    rules = RulesConfig(prodige="all")
    shot = shot_on_mage(1, 1, Side("confusion"), Side("confusion"), rules=rules)
    assert shot.attack_prodige == Fraction(6, 216)
    assert shot.defence_prodige == four_d6_at_least(12, dice=3) * Fraction(6, 216)


# --- Brute force --------------------------------------------------------------------------


def _situations(count: int, seed: int) -> list[tuple[str, int, int, int | None, Side, Side]]:
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        kind = rng.choice(("mage", "chest"))
        souffle = rng.random() < 0.25
        distance = rng.randint(1, 6 if souffle else 4)
        interception = rng.choice((None, 0, 1, 2, 3, 4, 5)) if kind == "chest" else None
        a_rune = rng.choice((None, "attaque", "confusion", "relance"))
        d_rune = rng.choice((None, "defense", "confusion", "relance"))
        cannot_act = a_rune == "confusion" or d_rune in ("defense", "relance")
        if kind == "chest" and interception not in (1, 2, 3, 4) and cannot_act:
            continue  # R20: those runes cannot be played without an interception
        attack = Side(
            a_rune,
            vigie=rng.random() < 0.3,
            tourbillon=rng.random() < 0.3,
            souffle=souffle,
            policy=rng.choice(("success", "critical")),
        )
        defence = Side(
            d_rune,
            resilience=rng.randint(0, 3),
            egide=rng.random() < 0.3,
            tourbillon=rng.random() < 0.3,
            policy=rng.choice(("success", "critical")),
        )
        cases.append((kind, rng.randint(1, 4), distance, interception, attack, defence))
    return cases


@pytest.mark.parametrize("case", _situations(150, seed=3), ids=str)
def test_matches_brute_force(case: tuple[str, int, int, int | None, Side, Side]) -> None:
    kind, tier, distance, interception, attack, defence = case
    if kind == "mage":
        shot = shot_on_mage(tier, distance, attack, defence)
    else:
        shot = shot_on_chest(tier, distance, interception, attack, defence)
    outcomes, a_prodige, d_prodige = brute_shot(kind, tier, distance, interception, attack, defence)
    assert dict(shot.outcomes) == outcomes
    assert shot.attack_prodige == a_prodige
    assert shot.defence_prodige == d_prodige


def test_matches_brute_force_with_prodige_variant() -> None:
    rules = RulesConfig(prodige="all")
    for kind, tier, distance, interception, attack, defence in _situations(25, seed=11):
        if kind == "mage":
            shot = shot_on_mage(tier, distance, attack, defence, rules=rules)
        else:
            shot = shot_on_chest(tier, distance, interception, attack, defence, rules=rules)
        expected = brute_shot(kind, tier, distance, interception, attack, defence, "all")
        assert (dict(shot.outcomes), shot.attack_prodige, shot.defence_prodige) == expected


def test_outcomes_sum_to_one_everywhere() -> None:
    checked = 0
    for tier, distance in itertools.product(range(1, 5), range(1, 5)):
        for a_rune, d_rune in itertools.product(
            (None, "attaque", "confusion", "relance"), (None, "defense", "confusion", "relance")
        ):
            for resilience, flags in itertools.product(range(4), range(4)):
                attack = Side(a_rune, vigie=bool(flags & 1), tourbillon=bool(flags & 2))
                defence = Side(d_rune, resilience=resilience, egide=bool(flags & 1))
                shots = [shot_on_mage(tier, distance, attack, defence)]
                shots += [shot_on_chest(tier, distance, i, attack, defence) for i in (1, 4)]
                for shot in shots:
                    assert sum(shot.outcomes.values()) == 1
                    assert all(p >= 0 for p in shot.outcomes.values())
                    checked += 1
    assert checked == 16 * 16 * 16 * 3


# --- Fields and their consistency ---------------------------------------------------------


def test_mage_fields_are_consistent() -> None:
    shot = shot_on_mage(3, 2, Side("relance"), Side(resilience=1))
    o = shot.outcomes
    assert tuple(o) == MAGE_OUTCOMES
    assert shot.p_push == o["push_1"] + o["push_2"] == shot.value
    assert shot.expected_push == o["push_1"] + 2 * o["push_2"]
    assert shot.expected_points == shot.p_score == 0
    assert shot.p_shooter_pushed == o["defence_critical"]
    assert shot.attack.reroll == "success" and shot.defence.reroll is None  # type: ignore[union-attr]
    assert (shot.kind, shot.tier, shot.distance, shot.interception_distance) == (
        "mage",
        3,
        2,
        None,
    )


def test_chest_fields_are_consistent() -> None:
    shot = shot_on_chest(2, 3, 1, Side("attaque"), Side("relance", policy="critical"))
    o = shot.outcomes
    assert tuple(o) == CHEST_OUTCOMES
    assert shot.p_score == o["score_1"] + o["score_2"]
    assert shot.expected_points == o["score_1"] + 2 * o["score_2"] == shot.value
    assert shot.p_push == shot.expected_push == 0
    assert shot.p_shooter_pushed == o["interception_critical"]
    assert shot.defence.reroll == "critical"  # type: ignore[union-attr]


def test_relance_policy_only_matters_with_relance() -> None:
    plain = shot_on_mage(2, 2, Side(policy="critical"))
    assert plain.attack.reroll is None
    assert plain == shot_on_mage(2, 2)
    chasing = shot_on_mage(2, 2, Side("relance", policy="critical"))
    safe = shot_on_mage(2, 2, Side("relance"))
    assert chasing.attack.critical > safe.attack.critical
    assert chasing.attack.success < safe.attack.success


# --- Ultimes, Confusion, Souffle ----------------------------------------------------------


def test_tourbillon_and_confusion_stack_on_dice() -> None:
    shot = shot_on_mage(
        2, 2, Side("confusion", tourbillon=True), Side("confusion", tourbillon=True)
    )
    assert shot.attack.dice == 2 and shot.defence.dice == 2  # type: ignore[union-attr]


def test_tourbillon_of_an_interceptor_does_not_hit_a_chest_shot() -> None:
    # R24: Tourbillon hits whoever attacks the Kitesurfeur; a chest shot attacks a chest.
    assert shot_on_chest(2, 2, 1, defence=Side(tourbillon=True)).attack.dice == 4
    # …but a Kitesurfeur shooting at a chest makes the interceptor roll one die fewer.
    assert shot_on_chest(2, 2, 1, Side(tourbillon=True)).defence.dice == 3  # type: ignore[union-attr]


def test_states_that_do_not_apply_are_ignored() -> None:
    base = shot_on_mage(2, 3)
    assert shot_on_mage(2, 3, Side(resilience=3, egide=True), Side(vigie=True)) == base
    no_interception = shot_on_chest(2, 3, None)
    assert shot_on_chest(2, 3, None, Side(tourbillon=True), Side(resilience=2)) == (no_interception)


def test_egide_counts_like_one_resilience() -> None:
    assert shot_on_mage(1, 2, defence=Side(egide=True)).outcomes == (
        shot_on_mage(1, 2, defence=Side(resilience=1)).outcomes
    )


def test_souffle_shortens_the_shot_not_the_interception() -> None:
    assert shot_on_mage(1, 3, Side(souffle=True)) == shot_on_mage(1, 1)
    assert shot_on_mage(1, 2, Side(souffle=True)).distance == 1  # minimum 1
    far = shot_on_mage(2, 6, Side(souffle=True))
    assert far.distance == 4 and far.attack_threshold == 16
    chest = shot_on_chest(1, 5, 3, Side(souffle=True))
    assert (chest.distance, chest.interception_distance) == (3, 3)
    assert chest.defence_threshold == 8


@pytest.mark.parametrize("interception", [None, 0, 5, 9])
def test_no_interception_outside_one_to_four(interception: int | None) -> None:
    shot = shot_on_chest(3, 2, interception, defence=Side("confusion"))
    assert shot.interception_distance is None
    assert shot.defence is None
    assert shot.attack.dice == 3  # the defender's Confusion still acts on the attack


# --- Errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: shot_on_mage(0, 1), "tier 0"),
        (lambda: shot_on_mage(5, 1), "tier 5"),
        (lambda: shot_on_mage(True, 1), "tier must be an integer"),
        (lambda: shot_on_mage(1, 5), "distance 5"),
        (lambda: shot_on_mage(1, 0), "distance 0"),
        (lambda: shot_on_mage(1, 7, Side(souffle=True)), "even with Souffle"),
        (lambda: shot_on_mage(1, "2"), "distance must be an integer"),
        (lambda: shot_on_chest(1, 5, 1), "chest_distance 5"),
        (lambda: shot_on_chest(1, 1, -1), "cannot be negative"),
        (lambda: shot_on_chest(1, 1, 1.5), "interception_distance must be an integer"),
        (lambda: shot_on_mage(1, 1, Side("defense")), "attacking side cannot play 'defense'"),
        (lambda: shot_on_mage(1, 1, defence=Side("attaque")), "cannot play 'attaque'"),
        (lambda: shot_on_mage(1, 1, defence=Side(souffle=True)), "attacking side only"),
        (lambda: shot_on_chest(1, 1, None, defence=Side("defense")), "'defense' cannot act"),
        (lambda: shot_on_chest(1, 1, 6, defence=Side("relance")), "'relance' cannot act"),
        (lambda: shot_on_chest(1, 1, None, Side("confusion")), "'confusion' cannot act"),
        (lambda: shot_on_mage(1, 1, []), "attack must be a Side"),  # unhashable
        (lambda: shot_on_mage(1, 1, defence="defense"), "defence must be a Side"),
        (lambda: shot_on_mage(1, 1, rules="four"), "rules must be a RulesConfig"),
        (lambda: Side(resilience=4), "resilience 4"),
        (lambda: Side(resilience=-1), "resilience -1"),
        (lambda: Side(resilience=1.0), "resilience must be an integer"),
        (lambda: Side("mouvement"), "unknown rune"),
        (lambda: Side("relance", policy="prodige"), "unknown Relance policy"),
        (lambda: Side(vigie=1), "vigie must be True or False"),
    ],
)
def test_bad_shots_raise_shot_error(call: object, message: str) -> None:
    with pytest.raises(ShotError, match=message):
        call()  # type: ignore[operator]


def test_shot_errors_are_akvo_errors() -> None:
    assert issubclass(ShotError, AkvoError)


# --- Caching ------------------------------------------------------------------------------


def test_cached_calls_return_the_same_object() -> None:
    clear_caches()
    first = shot_on_mage(3, 2, Side("relance"), Side(resilience=1))
    assert shot_on_mage(3, 2, Side("relance"), Side(resilience=1)) is first
    # Equivalent descriptions share one computed result.
    assert shot_on_mage(3, 4, Side("relance", souffle=True), Side(resilience=1)) is first


def test_sides_are_hashable_and_immutable() -> None:
    assert hash(Side("attaque")) == hash(Side("attaque"))
    with pytest.raises(AttributeError):
        Side().rune = "attaque"  # type: ignore[misc]


def test_shot_dispatches_by_kind() -> None:
    from akvo.shots import shot

    attack, defence = Side("attaque"), Side(resilience=2)
    assert shot("mage", 2, 3, 1, attack, defence) == shot_on_mage(2, 3, attack, defence)
    assert shot("chest", 2, 3, 1, attack, defence) == shot_on_chest(2, 3, 1, attack, defence)
    assert shot("chest", 2, 3, None).outcomes["intercepted"] == 0
    with pytest.raises(ShotError, match="unknown shot kind 'coffre'"):
        shot("coffre", 2, 3)  # type: ignore[arg-type]


def test_which_chest_shots_the_board_allows() -> None:
    """R10–R11: the lane's interceptor stands between shooter and chest (R5, R6, R24)."""
    from akvo.shots import chest_shot_on_board

    plain = {(d, k) for d in range(1, 5) for k in (None, 1, 2, 3, 4) if chest_shot_on_board(d, k)}
    assert plain == {(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3)}
    with_souffle = {
        (d, k)
        for d in range(1, 7)
        for k in (None, 1, 2, 3, 4, 5)
        if chest_shot_on_board(d, k, souffle=True)
    }
    assert (6, None) in with_souffle and (6, 5) in with_souffle
    assert (5, None) not in with_souffle and (1, None) not in with_souffle
    assert {(d, k) for d, k in with_souffle if k is not None and k <= 4} == {
        (d, k) for d in range(2, 7) for k in range(1, min(d, 5))
    }
    with pytest.raises(ShotError, match="chest_distance must be an integer"):
        chest_shot_on_board("3", 1)  # type: ignore[arg-type]
