"""akvo.lab's dice luck and the luck-adjusted paired interval (a control variate)."""

from __future__ import annotations

import itertools
import random

import pytest
from scipy import stats

from akvo.lab import (
    LUCK_COLUMNS,
    Interval,
    Results,
    luck_adjusted,
    mean_interval,
    paired,
    simulate,
)
from akvo.lab.play import _luck, _reach
from akvo.match.chance import ROLLS

FAST = {"workers": 0, "progress": False}


@pytest.fixture(scope="module")
def runs() -> tuple[Results, Results]:
    default = simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, 200, seed=3, **FAST)
    swapped = simulate(
        "perrockiss", "fish-tank", ("greedy", "greedy"), "grimoire=swapped", 200, seed=3, **FAST
    )
    return default, swapped


def test_a_rolls_luck_is_its_success_minus_its_chance_in_1296ths() -> None:
    # Two dice need 7: 21 of the 36 rolls reach it; a success is 15/36 of luck, a miss −21/36.
    assert _reach(2, 7) == 21
    assert _luck(2, 7, 7) == 15 * 36
    assert _luck(2, 7, 6) == -21 * 36
    assert _luck(1, 7, 6) == 0  # out of reach: no luck either way
    assert _luck(4, 4, 4) == 0  # sure


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_rolls_luck_averages_exactly_zero_over_its_faces(count: int) -> None:
    for need in range(-1, 6 * count + 3):
        total = sum(_luck(count, need, sum(faces)) for _, faces in ROLLS[count])
        assert total == 0, (count, need)


def test_the_luck_of_seeded_matches_has_mean_zero(runs: tuple[Results, Results]) -> None:
    default, swapped = runs
    for results in runs:
        for column in LUCK_COLUMNS:
            values = [float(v) for v in results.column(column)]
            assert any(values), column  # recorded, not a column of zeros
            assert 0.0 in mean_interval(values), column
    # The same dice wherever the same roll happens, but not the same matches: luck differs.
    assert default.column("luck_attack_mage") != swapped.column("luck_attack_mage")


def test_the_luck_survives_the_csv_and_json_tables(runs: tuple[Results, Results]) -> None:
    default = runs[0]
    assert Results.from_csv(default.to_csv()).rows == default.rows
    assert Results.from_json(default.to_json()).rows == default.rows
    header, *lines = default.to_csv().splitlines()
    old = [",".join(c for c in header.split(",") if c not in LUCK_COLUMNS)]
    keep = [i for i, c in enumerate(header.split(",")) if c not in LUCK_COLUMNS]
    old += [",".join(line.split(",")[i] for i in keep) for line in lines]
    loaded = Results.from_csv("\n".join(old))  # a table from before the luck: none known
    assert {row.luck for row in loaded} == {(0,) * len(LUCK_COLUMNS)}


def test_a_reading_compared_with_itself_gives_exactly_zero(
    runs: tuple[Results, Results],
) -> None:
    same = paired(runs[0], runs[0])
    assert same.luck is not None
    assert same.luck.delta == Interval(0.0, 0.0, 0.0)
    assert same.luck.betas == (0.0,) * len(LUCK_COLUMNS)
    assert same.luck.explained == 0.0


def test_the_comparison_reports_both_intervals(runs: tuple[Results, Results]) -> None:
    diff = paired(*runs)
    assert diff.luck is not None
    assert 0.0 <= diff.luck.explained <= 1.0
    text = diff.to_text()
    assert "différence (2e - 1re)" in text
    assert "différence, chance des dés prise en compte" in text
    assert "intervalle avec la chance des dés prise en compte plus étroit (fois)" in text
    assert "part de la variance expliquée par la chance des dés" in text


def test_a_known_beta_is_recovered_and_the_value_at_zero_luck_estimated() -> None:
    rng = random.Random(11)
    controls = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(2000)]
    beta = (0.7, -0.2, 0.0, 0.1)
    d = [
        0.3 + sum(b * x for b, x in zip(beta, row, strict=True)) + rng.gauss(0, 0.5)
        for row in controls
    ]
    adjusted = luck_adjusted(d, controls)
    for found, true in zip(adjusted.betas, beta, strict=True):
        assert found == pytest.approx(true, abs=0.04)
    assert adjusted.delta.estimate == pytest.approx(0.3, abs=0.05)  # its s.e. is 0.011
    # Variance of D: 0.7² + 0.2² + 0.1² = 0.54 explained, 0.25 left: R² ≈ 0.54 / 0.79.
    assert adjusted.explained == pytest.approx(0.54 / 0.79, abs=0.03)
    plain = mean_interval(d)
    assert adjusted.delta.high - adjusted.delta.low < (plain.high - plain.low) / 1.6


def test_the_interval_is_the_regression_intercepts_when_luck_has_mean_zero() -> None:
    # Centred controls: the value at X = 0 is the mean of D minus nothing; the standard
    # error is the residuals' over √n, with n − k − 1 degrees of freedom.
    rng = random.Random(2)
    raw = [rng.gauss(0, 1) for _ in range(50)]
    mean = sum(raw) / len(raw)
    x = [v - mean for v in raw]
    d = [1.0 + 2.0 * v + rng.gauss(0, 1) for v in x]
    adjusted = luck_adjusted(d, [[v] for v in x])
    fit = stats.linregress(x, d)
    assert adjusted.betas[0] == pytest.approx(fit.slope, rel=1e-12)
    assert adjusted.delta.estimate == pytest.approx(fit.intercept, rel=1e-12)
    half = stats.t.ppf(0.975, 48) * fit.intercept_stderr
    assert adjusted.delta.high - adjusted.delta.estimate == pytest.approx(half, rel=1e-9)


def test_an_exact_linear_law_leaves_no_width() -> None:
    controls = [[float(a), float(b)] for a, b in itertools.product(range(-3, 4), repeat=2)]
    d = [0.25 + 0.5 * a - b for a, b in controls]
    adjusted = luck_adjusted(d, controls)
    assert adjusted.delta.low == pytest.approx(0.25, abs=1e-12)  # only rounding is left
    assert adjusted.delta.high == pytest.approx(0.25, abs=1e-12)
    assert adjusted.explained == pytest.approx(1.0)


def test_controls_that_never_vary_give_the_plain_interval() -> None:
    d = [0.0, 1.0, -1.0, 0.5, 0.0, -0.5]
    adjusted = luck_adjusted(d, [[0.0, 2.0]] * len(d))
    assert adjusted.delta == mean_interval(d)
    assert adjusted.betas == (0.0, 0.0)


def test_on_few_matches_luck_that_explains_nothing_can_widen_the_interval() -> None:
    # What holds is R² ≥ 0, not a narrower interval: the fit spends degrees of freedom.
    rng = random.Random(0)
    controls = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(12)]
    d = [rng.gauss(0, 1) for _ in range(12)]
    adjusted, plain = luck_adjusted(d, controls), mean_interval(d)
    assert adjusted.explained >= 0
    assert adjusted.delta.high - adjusted.delta.low > plain.high - plain.low
