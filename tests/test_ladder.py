"""The bots' ladder (akvo.lab.ladder, ``akvo ladder``): paired deals, bounded intervals."""

from __future__ import annotations

import pytest

from akvo.bots import LADDER, options_for
from akvo.cli import main
from akvo.lab.ladder import ladder, ladder_pairs, wilson_points
from akvo.lab.stats import proportion


def test_the_pairings_are_the_adjacent_levels_and_the_top_against_normal() -> None:
    assert ladder_pairs(LADDER) == [
        ("easy", "beginner"),
        ("greedy", "easy"),
        ("search", "greedy"),
        ("expert", "search"),
        ("expert", "greedy"),
    ]


def test_wilson_points_is_wilson_on_wins_and_losses_and_stays_in_0_1() -> None:
    outcomes = [1.0] * 37 + [0.0] * 13
    interval, wilson = wilson_points(outcomes), proportion(37, 50)
    assert interval.estimate == wilson.estimate
    assert interval.low == pytest.approx(wilson.low, abs=1e-12)
    assert interval.high == pytest.approx(wilson.high, abs=1e-12)
    for points in ([1.0] * 20, [0.0] * 5, [1.0, 0.75, 1.0, 1.0], [0.5, 0.25, 0.0]):
        found = wilson_points(points)
        assert 0 <= found.low <= found.estimate <= found.high <= 1
    # Half points (deals split one win each) carry less spread than wins and losses.
    split = wilson_points([0.5, 1.0] * 20)
    assert split.high - split.low < wilson_points([0.0, 1.0] * 20 + [1.0] * 20).high


def test_qualified_options_go_to_their_bot_only() -> None:
    options = {"budget": 2, "search.budget": 8, "horizon": 1}
    assert options_for("search", options) == {"budget": 8, "horizon": 1}
    assert options_for("expert", options) == {"budget": 2}
    assert options_for("greedy", options) == {}


def test_a_small_ladder_plays_each_deal_in_both_seats() -> None:
    report = ladder(3, seed=5, levels=("random", "greedy"), workers=0)
    (pairing,) = report.pairings
    assert (pairing.first, pairing.second) == ("greedy", "random")
    assert len(pairing.deal_points) == 3 and pairing.matches == 6
    assert all(p in (0, 0.25, 0.5, 0.75, 1) for p in pairing.deal_points)
    assert report.elo["greedy"].estimate == 0 and report.complete
    assert report.elo["random"].estimate < -200 < report.elo["random"].high  # few deals: wide
    text = report.to_text()
    assert "« " not in text.splitlines()[0] and "normal" in text and "hasard" in text


def test_the_ladder_command_refuses_an_odd_number_of_matches(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["ladder", "--matches", "3"]) == 2
    assert "deals of two" in capsys.readouterr().err
