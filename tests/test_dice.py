"""Exact roll odds (akvo.dice) against brute force, icepool and hand-checked values."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from akvo.dice import (
    OUTCOME_KEYS,
    at_least,
    at_least_table,
    roll,
    sum_counts,
    sum_distribution,
)
from akvo.errors import AkvoError, DiceError
from tests.brute_force import brute_roll

THRESHOLDS = range(1, 31)
MODIFIERS = range(8)
DICE = range(1, 5)
REROLLS = (None, "success", "critical")


# --- Spot values the issue fixes ----------------------------------------------------------


def test_four_dice_at_least_14() -> None:
    assert roll(14).success == Fraction(721, 1296)


def test_reroll_for_success_at_16() -> None:
    assert roll(16, reroll="success").success == Fraction(2189, 3888)


def test_prodige_on_four_dice_without_reroll() -> None:
    assert roll(3).prodige == Fraction(1, 216)


def test_critical_is_four_above_threshold() -> None:
    assert roll(10).critical == roll(14).success
    assert roll(10, modifier=2).critical == roll(12).success


# --- The full table against brute force ---------------------------------------------------


@pytest.mark.parametrize("reroll", REROLLS)
@pytest.mark.parametrize("dice", DICE)
def test_full_table_matches_brute_force(dice: int, reroll: str | None) -> None:
    """Every threshold 1–30 × modifier 0–7: success, critical, prodige, joint and totals.

    The brute force is run at modifier 0 on the effective threshold (threshold − modifier),
    and its totals shifted by the modifier; test_modifier_brute_force_direct checks that
    shortcut against a direct enumeration.
    """
    for threshold in THRESHOLDS:
        for modifier in MODIFIERS:
            odds = roll(threshold, dice=dice, modifier=modifier, reroll=reroll)  # type: ignore[arg-type]
            joint, totals = brute_roll(threshold - modifier, dice, 0, reroll, "four")
            expected_joint = {k: joint.get(k, Fraction(0)) for k in OUTCOME_KEYS}
            assert dict(odds.joint) == expected_joint, (threshold, modifier)
            assert dict(odds.totals) == {t + modifier: p for t, p in totals.items()}
            assert odds.success == sum(p for k, p in joint.items() if k[0])
            assert odds.critical == sum(p for k, p in joint.items() if k[1])
            assert odds.prodige == sum(p for k, p in joint.items() if k[2])


@pytest.mark.parametrize(
    ("threshold", "dice", "modifier", "reroll"),
    [(14, 4, 3, "success"), (20, 3, 7, "critical"), (9, 4, 5, None), (13, 2, 1, "success")],
)
def test_modifier_brute_force_direct(
    threshold: int, dice: int, modifier: int, reroll: str | None
) -> None:
    joint, totals = brute_roll(threshold, dice, modifier, reroll, "four")
    odds = roll(threshold, dice=dice, modifier=modifier, reroll=reroll)  # type: ignore[arg-type]
    assert {k: v for k, v in odds.joint.items() if v} == joint
    assert dict(odds.totals) == totals


@pytest.mark.parametrize("reroll", REROLLS)
@pytest.mark.parametrize("dice", [2, 3, 4, 5])
def test_prodige_variant_all_dice_equal(dice: int, reroll: str | None) -> None:
    """R13 variant: every die equal, for any count ≥ 2."""
    for threshold in (6, 12, 17, 25):
        joint, _ = brute_roll(threshold, dice, 0, reroll, "all")
        odds = roll(threshold, dice=dice, reroll=reroll, prodige="all")  # type: ignore[arg-type]
        assert {k: v for k, v in odds.joint.items() if v} == joint


def test_prodige_needs_exactly_four_dice_by_default() -> None:
    assert roll(3, dice=3).prodige == 0
    assert roll(3, dice=5).prodige == 0
    assert roll(3, dice=3, prodige="all").prodige == Fraction(1, 36)
    assert roll(3, dice=1, prodige="all").prodige == 0


def test_relance_raises_prodige_odds() -> None:
    # Without reroll 6/1296; with one reroll, three-of-a-kind can be completed.
    assert roll(3, reroll="success").prodige > roll(3).prodige
    # When success and critical are certain, both policies chase the prodige (R15's third
    # criterion): a three-of-a-kind rerolls its odd die and completes it 1 time in 6.
    three_same = Fraction(4 * 5 * 6, 6**4)  # ordered 3-of-a-kind with one odd die
    expected = Fraction(1, 216) + three_same * Fraction(1, 6)
    assert roll(-3, reroll="success").prodige == expected == Fraction(13, 648)
    assert roll(-3, reroll="critical").prodige == expected
    # At threshold 3 the critical (total ≥ 7) comes before the prodige: 1-1-1-2 rerolls a 1.
    assert roll(3, reroll="success").prodige < expected


# --- icepool as an independent peer -------------------------------------------------------


def test_sums_agree_with_icepool() -> None:
    icepool = pytest.importorskip("icepool")
    for n in range(1, 7):
        die = n @ icepool.d6
        assert {int(k): Fraction(int(v), int(die.denominator())) for k, v in die.items()} == (
            sum_distribution(n)
        )


@pytest.mark.parametrize("threshold", [8, 12, 14, 16, 18, 21])
def test_optimal_reroll_agrees_with_icepool(threshold: int) -> None:
    """R15's optional single reroll, success policy, written as a function over the pool."""
    icepool = pytest.importorskip("icepool")

    def best_success(faces: tuple[int, ...]) -> icepool.Die:
        total = sum(faces)
        if total >= threshold:
            return icepool.Die([1])
        lowest = min(faces)
        return icepool.Die([int(total - lowest + g >= threshold) for g in range(1, 7)])

    die = icepool.map(best_success, icepool.d6.pool(4))
    p = Fraction(int(die.quantity(1)), int(die.denominator()))
    assert roll(threshold, reroll="success").success == p


# --- Sums and tables ----------------------------------------------------------------------


def test_sum_counts_are_multinomial() -> None:
    assert list(sum_counts(2)[2:]) == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert int(sum_counts(4).sum()) == 6**4
    assert sum_counts(0).tolist() == [1]


def test_at_least_and_float_table_agree() -> None:
    table = at_least_table()
    for n in range(9):
        for t in range(table.shape[1]):
            assert math.isclose(table[n, t], float(at_least(n, t)), rel_tol=1e-12, abs_tol=1e-15)
    assert table[4, 14] == pytest.approx(721 / 1296)
    with pytest.raises(ValueError):
        table[0, 0] = 0.5  # read-only


@given(
    threshold=st.integers(-10, 40),
    dice=st.integers(-3, 8),
    modifier=st.integers(-5, 10),
    reroll=st.sampled_from(REROLLS),
    prodige=st.sampled_from(("four", "all")),
)
def test_distributions_sum_to_one(
    threshold: int, dice: int, modifier: int, reroll: str | None, prodige: str
) -> None:
    odds = roll(threshold, dice=dice, modifier=modifier, reroll=reroll, prodige=prodige)  # type: ignore[arg-type]
    assert sum(odds.joint.values()) == 1
    assert sum(odds.totals.values()) == 1
    assert set(odds.joint) == set(OUTCOME_KEYS)
    assert odds.probability(success=False, critical=True) == 0
    assert odds.critical <= odds.success
    assert odds.success == sum(p for t, p in odds.totals.items() if t >= threshold)
    assert odds.dice == max(dice, 1)


@given(threshold=st.integers(1, 30), dice=st.integers(1, 6))
def test_reroll_never_hurts(threshold: int, dice: int) -> None:
    plain = roll(threshold, dice=dice)
    assert roll(threshold, dice=dice, reroll="success").success >= plain.success
    assert roll(threshold, dice=dice, reroll="critical").critical >= plain.critical
    assert roll(threshold, dice=dice, reroll="success").success >= (
        roll(threshold, dice=dice, reroll="critical").success
    )


@given(threshold=st.integers(1, 30), dice=st.integers(1, 7))
def test_one_more_die_never_hurts(threshold: int, dice: int) -> None:
    assert roll(threshold, dice=dice + 1).success >= roll(threshold, dice=dice).success


def test_fewer_than_one_die_counts_as_one() -> None:
    """R14: Confusion and Tourbillon stack, but a roll keeps one die."""
    assert roll(4, dice=0) == roll(4, dice=1)
    assert roll(4, dice=-2).success == Fraction(1, 2)


def test_roll_odds_are_immutable() -> None:
    odds = roll(12)
    with pytest.raises(AttributeError):
        odds.success = Fraction(1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        odds.joint[(True, True, True)] = Fraction(1)  # type: ignore[index]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threshold": 12.5}, "threshold must be an integer"),
        ({"threshold": "12"}, "threshold must be an integer"),
        ({"threshold": True}, "threshold must be an integer"),
        ({"threshold": 12, "dice": 9}, "above the maximum"),
        ({"threshold": 12, "dice": 2.0}, "dice must be an integer"),
        ({"threshold": 12, "modifier": None}, "modifier must be an integer"),
        ({"threshold": 12, "reroll": "always"}, "reroll must be one of"),
        ({"threshold": 12, "prodige": "five"}, "prodige must be one of"),
    ],
)
def test_bad_arguments_raise_dice_error(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DiceError, match=message) as info:
        roll(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, AkvoError)
    assert isinstance(info.value, ValueError)


def test_sum_counts_rejects_bad_counts() -> None:
    with pytest.raises(DiceError, match="outside 0–8"):
        sum_counts(9)
    with pytest.raises(DiceError):
        at_least(4, 3.5)  # type: ignore[arg-type]


def test_float_table_has_expected_shape() -> None:
    table = at_least_table()
    assert table.shape == (9, 50)
    assert np.all(np.diff(table, axis=1) <= 1e-15)  # non-increasing in the threshold


def test_prepare_tables_computes_every_dice_count_once_and_refuses_bad_input() -> None:
    from akvo import dice

    dice.clear_caches()
    dice.prepare_tables("all", most_dice=3)
    assert dice._threshold_batch.cache_info().currsize == 3
    assert dice._enumeration.cache_info().currsize == 3
    assert roll(9, dice=3, prodige="all") == roll(9, dice=3, prodige="all")
    assert dice._threshold_batch.cache_info().currsize == 3  # the roll used the prepared table
    for args, words in (
        (("four",), "dice count 9 is outside 1–8"),
        (("trois",), "prodige must be one of"),
    ):
        with pytest.raises(DiceError, match=words):
            dice.prepare_tables(args[0], most_dice=9 if args[0] == "four" else 2)
