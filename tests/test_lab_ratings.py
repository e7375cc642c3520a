"""Bradley–Terry ratings: the maximum-likelihood values and their intervals, checked by hand."""

from __future__ import annotations

import math

import pytest

from akvo.lab import LabError
from akvo.lab.ratings import ELO_PER_UNIT, bradley_terry


def test_one_pairing_gives_the_log_odds_and_the_binomial_standard_error() -> None:
    ratings = bradley_terry([("a", "b", 75, 100)], prior=0, elo=False)
    assert ratings["a"].estimate == ratings["a"].low == ratings["a"].high == 0  # the anchor
    b = ratings["b"]
    assert b.estimate == pytest.approx(-math.log(3))  # 75 of 100: odds 3 to 1
    half = 1.959963984540054 * math.sqrt(1 / (100 * 0.75 * 0.25))
    assert (b.low, b.high) == pytest.approx((b.estimate - half, b.estimate + half))


def test_a_chain_of_pairings_adds_up_and_the_elo_scale_is_400_per_decade() -> None:
    # b beats a 2 to 1 and c beats b 2 to 1: c is 4 to 1 over a, in one consistent fit
    ratings = bradley_terry([("a", "b", 100, 300), ("b", "c", 100, 300)], prior=0)
    assert ratings["b"].estimate == pytest.approx(ELO_PER_UNIT * math.log(2))
    assert ratings["c"].estimate == pytest.approx(2 * ELO_PER_UNIT * math.log(2))
    assert ratings["c"].high - ratings["c"].low > ratings["b"].high - ratings["b"].low
    assert ELO_PER_UNIT * math.log(10) == pytest.approx(400)


def test_a_pairing_always_won_stays_finite_with_the_prior_and_bad_input_is_refused() -> None:
    ratings = bradley_terry([("random", "greedy", 0, 200)], anchor="random")
    greedy = ratings["greedy"]
    assert greedy.estimate == pytest.approx(ELO_PER_UNIT * math.log(200.5 / 0.5))
    with pytest.raises(LabError, match="bad pairing"):
        bradley_terry([("a", "b", 11, 10)])
    with pytest.raises(LabError, match="anchor"):
        bradley_terry([("a", "b", 1, 2)], anchor="z")
