"""akvo.lab's dice luck, weighted or not by what each roll puts at stake, and the
luck-adjusted paired interval (a control variate)."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from scipy import stats

from akvo.bots import make_bot
from akvo.config import DEFAULT_RULES
from akvo.lab import (
    LUCK_COLUMNS,
    STAKE_COLUMNS,
    Interval,
    Results,
    luck_adjusted,
    mean_interval,
    paired,
    roll_stakes,
    simulate,
)
from akvo.lab.loop import luck as roll_luck_of
from akvo.lab.loop import reach, roll_luck
from akvo.lab.play import STAKES, match_seed
from akvo.lab.results import LUCK_UNIT, STAKE_UNIT
from akvo.lab.stats import REMAINING_SPREAD, leverage, point_stake, win_share
from akvo.match.chance import ROLLS
from akvo.match.core import CHANCE
from akvo.match.phases import WEATHER
from akvo.match.state import MatchState, new_match
from akvo.match.streams import KeyedChance
from akvo.teams import preset_team
from tests.lab_runs import FAST


@pytest.fixture(scope="module")
def runs() -> tuple[Results, Results]:
    default = simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, 200, seed=3, **FAST)
    swapped = simulate(
        "perrockiss", "fish-tank", ("greedy", "greedy"), "grimoire=swapped", 200, seed=3, **FAST
    )
    return default, swapped


def test_a_rolls_luck_is_its_success_minus_its_chance_in_1296ths() -> None:
    # Two dice need 7: 21 of the 36 rolls reach it; a success is 15/36 of luck, a miss −21/36.
    assert reach(2, 7) == 21
    assert roll_luck_of(2, 7, 7) == 15 * 36
    assert roll_luck_of(2, 7, 6) == -21 * 36
    assert roll_luck_of(1, 7, 6) == 0  # out of reach: no luck either way
    assert roll_luck_of(4, 4, 4) == 0  # sure


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_a_rolls_luck_averages_exactly_zero_over_its_faces(count: int) -> None:
    for need in range(-1, 6 * count + 3):
        total = sum(roll_luck_of(count, need, sum(faces)) for _, faces in ROLLS[count])
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
    assert same.luck.betas == (0.0,) * len(STAKE_COLUMNS)
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


# --- the stake-weighted luck -------------------------------------------------------------
def test_the_cheap_value_is_a_normal_law_of_the_score_to_come() -> None:
    # Turn 8, spread 0.8: A one point up wins with Φ(1/0.8) = 0.894 of its match points.
    assert REMAINING_SPREAD[8] == 0.8
    assert win_share(0, 8) == 0.5
    assert win_share(1, 8) == pytest.approx(stats.norm.cdf(1.25), rel=1e-12)
    assert win_share(1, 8) == pytest.approx(0.8944, abs=1e-4)
    # A point for B when A leads by 1 at turn 8: back to ½.
    assert point_stake(1, 8, 1, 1) == pytest.approx(0.8944 - 0.5, abs=1e-4)
    assert leverage(0, 8) == pytest.approx(stats.norm.pdf(0, scale=0.8), rel=1e-12)
    assert leverage(0, 2) < leverage(0, 8)  # a point matters more late in a close match


def test_a_rolls_stakes_are_what_its_success_changes_in_the_cheap_value() -> None:
    one, two = stats.norm.cdf(1 / 0.8) - 0.5, stats.norm.cdf(2 / 0.8) - 0.5
    # A chest attack at turn 8, scores level, an interception of chance 1/4 to come: its
    # success scores 1 point three times in four, its critical 1 more.
    column, (success, critical) = roll_stakes(True, 0, 0, 8, 0, 0.25, False)
    assert STAKE_COLUMNS[column] == "stake_attack_chest"
    assert success == pytest.approx(0.75 * one, rel=1e-12)
    assert critical == pytest.approx(0.75 * (two - one), rel=1e-12)
    # The interception of a critical attack saves 2 points.
    column, (success, critical) = roll_stakes(True, 1, 0, 8, 0, 0.0, True)
    assert STAKE_COLUMNS[column : column + 2] == (
        "stake_defence_chest",
        "stake_defence_critical_chest",
    )
    assert success == pytest.approx(two, rel=1e-12)
    assert critical == pytest.approx(leverage(0, 8), rel=1e-12)
    # At a mage, by turn tier: a push, weighted by the leverage of a point.
    column, (success, critical) = roll_stakes(False, 0, 2, 3, 1, 0.5, False)
    assert STAKE_COLUMNS[column] == "stake_attack_mage_tier2"
    assert success == critical == pytest.approx(0.5 * leverage(2, 3), rel=1e-12)
    column, (success, _) = roll_stakes(False, 1, -1, 10, 0, 0.0, True)
    assert STAKE_COLUMNS[column] == "stake_defence_mage_tier4"
    assert success == pytest.approx(2 * leverage(-1, 10), rel=1e-12)


class _Face(KeyedChance):
    """A chance that plays one given outcome (to try every face of a roll)."""

    def __init__(self, action: str) -> None:
        super().__init__(0)
        self.action = action

    def apply(self, state: MatchState) -> str:
        state.apply_action(self.action)
        return self.action


def test_every_rolls_stakes_sum_to_exactly_zero_over_its_faces() -> None:
    # The weight is fixed before the dice come, so over a roll's equally likely faces the
    # stake-weighted luck sums to exactly 0 (integers): each roll of two matches, tried
    # with every face it could have had.
    rolls = 0
    for index in range(2):
        state = new_match(preset_team("perrockiss"), preset_team("fish-tank"), DEFAULT_RULES)
        bots = [make_bot("greedy", match_seed(5, index, side)) for side in "AB"]
        chance = KeyedChance(match_seed(5, index))
        while not state.is_terminal():
            if state.player != CHANCE:
                state.apply_action(bots[state.player](state))
                continue
            if state.phase != WEATHER:
                total = [0] * len(STAKE_COLUMNS)
                faces = state.chance_outcomes()
                assert len({p for _, p in faces}) == 1  # equally likely
                for action, _ in faces:
                    luck, stakes = [0] * len(LUCK_COLUMNS), [0] * len(STAKE_COLUMNS)
                    roll_luck(state.copy(), _Face(action), luck, stakes, STAKES)
                    total = [t + v for t, v in zip(total, stakes, strict=True)]
                assert total == [0] * len(STAKE_COLUMNS)
                rolls += 1
            chance.apply(state)
    assert rolls > 200


def test_the_stakes_of_seeded_matches_have_mean_zero(runs: tuple[Results, Results]) -> None:
    for results in runs:
        for column in STAKE_COLUMNS:
            values = [v / STAKE_UNIT for v in results.column(column)]
            assert any(values), column
            mean = sum(values) / len(values)
            error = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values) / len(values))
            assert abs(mean) < 3.5 * error, column  # a weight chosen after the roll fails


def test_the_stakes_explain_more_than_the_plain_luck(runs: tuple[Results, Results]) -> None:
    # grimoire=swapped on 200 matches: the regression's R² on 8 plain luck differences,
    # then on the 20 stake-weighted ones (what paired() uses), and the interval's width.
    default, swapped = runs
    points = {"A": 1.0, "draw": 0.5, "B": 0.0}
    d = [points[b.winner] - points[a.winner] for a, b in zip(default, swapped, strict=True)]
    luck = [
        [(y - x) / LUCK_UNIT for x, y in zip(a.luck, b.luck, strict=True)]
        for a, b in zip(default, swapped, strict=True)
    ]
    plain, weighted = luck_adjusted(d, luck), paired(default, swapped).luck
    assert weighted is not None
    assert plain.explained == pytest.approx(0.297, abs=5e-4)
    assert weighted.explained == pytest.approx(0.553, abs=5e-4)
    assert (plain.delta.high - plain.delta.low) / 2 == pytest.approx(0.0692, abs=5e-5)
    assert (weighted.delta.high - weighted.delta.low) / 2 == pytest.approx(0.0574, abs=5e-5)


def test_the_stakes_survive_the_tables_and_old_tables_have_none(
    runs: tuple[Results, Results],
) -> None:
    default = runs[0]
    assert Results.from_csv(default.to_csv()).column("stake_attack_chest") == default.column(
        "stake_attack_chest"
    )
    header, *lines = default.to_csv().splitlines()
    keep = [i for i, c in enumerate(header.split(",")) if c not in STAKE_COLUMNS]
    old = [",".join(line.split(",")[i] for i in keep) for line in [header, *lines]]
    loaded = Results.from_csv("\n".join(old))
    assert {row.stakes for row in loaded} == {(0,) * len(STAKE_COLUMNS)}
    assert [row.luck for row in loaded] == [row.luck for row in default]
