"""The lab says no more than it knows (issue 36.5): no interval outside what is possible
(mean points above 1, scores below 0, differences beyond ±1) at any sample size, no
ranking below the minimum sample, « identique » for a configuration compared with itself,
and teams with one team list merged into one row."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from akvo.lab import Results, compare, paired, proportion, summarise, tournament
from akvo.lab.coverage import USE_COLUMNS
from akvo.lab.results import LUCK_COLUMNS, STAKE_COLUMNS, MatchResult
from akvo.lab.stats import MIN_SAMPLE, Interval, mean_interval, points_interval, within
from akvo.lab.tournament import MIN_MATCHES_PER_PAIR, BalanceReport, TeamResult

WINNERS = st.sampled_from(["A", "B", "draw"])
POINTS = {"A": 1.0, "draw": 0.5, "B": 0.0}


def _inside(interval: Interval, low: float, high: float) -> bool:
    return low <= interval.low <= interval.estimate <= interval.high <= high


def _row(index: int, winner: str, score_a: int, score_b: int, stakes: list[int]) -> MatchResult:
    return MatchResult(
        index, index, winner, score_a, score_b, "score", 8, "AB" * 4, 1, 0, 0, 0, 0,
        luck=(0,) * len(LUCK_COLUMNS), uses=(0,) * len(USE_COLUMNS), stakes=tuple(stakes),
    )  # fmt: skip


MATCH = st.tuples(
    WINNERS,
    st.integers(0, 12),
    st.integers(0, 12),
    st.lists(
        st.integers(-(10**12), 10**12), min_size=len(STAKE_COLUMNS), max_size=len(STAKE_COLUMNS)
    ),
)


def _results(matches: list[tuple[str, int, int, list[int]]], rules: str = "") -> Results:
    rows = tuple(_row(i, *match) for i, match in enumerate(matches))
    return Results(rows, {"rules": {"weather": rules or "bag"}, "seed": 0})


@settings(max_examples=200, deadline=None)
@given(st.lists(WINNERS, min_size=1, max_size=12))
def test_mean_points_stay_in_0_1_and_are_wilson_without_draws(winners: list[str]) -> None:
    points = [POINTS[w] for w in winners]
    interval = points_interval(points)
    assert _inside(interval, 0.0, 1.0)
    assert interval.high > interval.low  # five agreeing matches are not a certainty
    if "draw" not in winners:
        wilson = proportion(winners.count("A"), len(winners))
        assert (interval.low, interval.high) == pytest.approx((wilson.low, wilson.high))


@settings(max_examples=200, deadline=None)
@given(st.lists(MATCH, min_size=1, max_size=8))
def test_a_small_simulation_shows_no_impossible_value(
    matches: list[tuple[str, int, int, list[int]]],
) -> None:
    summary = summarise(_results(matches))
    for interval in (summary.p_a, summary.p_draw, summary.p_b):
        assert _inside(interval, 0.0, 1.0)
    for interval in (summary.score_a, summary.score_b):
        assert _inside(interval, 0.0, math.inf)  # a mean score is never below 0
    assert summary.caveat == (
        f"Peu de matchs ({len(matches)}, moins de 30) : intervalles larges, à confirmer sur "
        "plus de matchs."
    )
    enough = summarise(_results(matches * math.ceil(MIN_SAMPLE / len(matches))))
    assert enough.caveat is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(MATCH, MATCH), min_size=1, max_size=10))
def test_a_small_comparison_shows_no_impossible_difference(
    pairs: list[tuple[tuple[str, int, int, list[int]], tuple[str, int, int, list[int]]]],
) -> None:
    first = _results([one for one, _ in pairs])
    second = _results([two for _, two in pairs], rules="coin")
    diff = paired(first, second)
    assert _inside(diff.first, 0.0, 1.0) and _inside(diff.second, 0.0, 1.0)
    assert _inside(diff.delta, -1.0, 1.0) and _inside(diff.unpaired, -1.0, 1.0)
    assert diff.luck is not None and _inside(diff.luck.delta, -1.0, 1.0)
    assert not diff.identical


def test_the_student_interval_would_have_left_the_range() -> None:
    """The cases the issue met, at n = 5: Student's interval goes below 0 or above 1."""
    scores = [0.0, 0.0, 0.0, 0.0, 3.0]
    assert mean_interval(scores).low < 0 == mean_interval(scores, low=0.0).low
    assert mean_interval(scores, low=0.0).high == mean_interval(scores).high
    differences = [1.0, 1.0, 1.0, 1.0, 0.0]
    assert mean_interval(differences).high > 1 == mean_interval(differences, -1.0, 1.0).high
    assert within(Interval(1.2, 0.9, 1.5), 0.0, 1.0) == Interval(1.0, 0.9, 1.0)
    assert points_interval([1.0] * 5) == Interval(1.0, pytest.approx(0.5655, abs=1e-4), 1.0)


def test_a_reading_compared_with_itself_reads_identique() -> None:
    options = {"n": 4, "seed": 1, "workers": 0, "progress": False}
    _, _, same = compare("perrockiss", "fish-tank", rules="weather=coin",
                         other_rules="weather=coin", **options)  # type: ignore[arg-type]  # fmt: skip
    assert same.identical and "inf" not in same.to_text()
    assert "intervalle apparié plus étroit (fois)\tidentique" in same.to_text()
    _, _, other = compare("perrockiss", "fish-tank", other_rules="weather=coin", **options)  # type: ignore[arg-type]
    assert not other.identical and "identique" not in other.to_text()


def test_teams_with_one_team_list_are_one_row_naming_them_all() -> None:
    report = tournament(
        ["foufous", "perrockiss", "iragwak", "tortues-carets"], n=2, effect_matches=0,
        workers=0, progress=False,
    )  # fmt: skip
    assert report.teams == ("foufous", "perrockiss")
    assert [t.label for t in report.team_results] == [
        "foufous = iragwak = tortues-carets",
        "perrockiss",
    ]
    assert len(report.pairs) == 2  # one pair each way, no team against its own list
    assert report.to_text().count("foufous = iragwak = tortues-carets\t") == 1
    with pytest.raises(Exception, match="foufous, iragwak have one team list"):
        tournament(["foufous", "iragwak"], n=1, workers=0)


def _team(name: str, wins: int, matches: int = 60) -> TeamResult:
    return TeamResult(name, matches, wins, 0, matches - wins, proportion(wins, matches))


def _report(n: int, effect_matches: int) -> BalanceReport:
    teams = (_team("fish-tank", 20), _team("perrockiss", 40))
    edge = Interval(0.0, 0.0, 0.0)
    return BalanceReport(("fish-tank", "perrockiss"), "greedy", 0, n, effect_matches, (),
                         teams, edge, ())  # fmt: skip


def test_no_ranking_below_the_minimum_sample() -> None:
    few = _report(MIN_MATCHES_PER_PAIR - 1, 0)
    assert not few.ranked and [t.team for t in few.ranking()] == ["fish-tank", "perrockiss"]
    assert few.caveat is not None and f"il en faut au moins {MIN_MATCHES_PER_PAIR}" in few.caveat
    assert f"# {few.caveat}" in few.to_text() and "non classées" in few.to_text()
    enough = _report(MIN_MATCHES_PER_PAIR, 0)
    assert enough.ranked and enough.caveat is None
    assert [t.team for t in enough.ranking()] == ["perrockiss", "fish-tank"]


def test_effects_from_two_matches_per_pair_carry_a_caveat() -> None:
    report = tournament(["perrockiss", "fish-tank"], n=2, effect_matches=2,
                        items=("attaque", "ultime_vigie"), workers=0, progress=False)  # fmt: skip
    assert report.effects_caveat is not None and "2 rejoués par paire" in report.effects_caveat
    assert [e.item for e in report.effects_ranking()] == ["attaque", "ultime_vigie"]
    for effect in report.effects:
        assert _inside(effect.effect, -1.0, 1.0)
    assert f"# {report.effects_caveat}" in report.to_text()


def test_two_readings_side_by_side_for_the_book() -> None:
    from akvo.lab import compare_readings

    options = {"n": 8, "seed": 3, "workers": 0, "progress": False}
    first, second, diff = compare("perrockiss", "fish-tank", other_rules="weather=coin",
                                  **options)  # type: ignore[arg-type]  # fmt: skip
    side = compare_readings(first, second, ("sac", "pièce"))
    paired_, unpaired, luck = side.intervals
    assert (paired_.key, unpaired.key, luck.key) == ("paired", "unpaired", "luck")
    assert paired_.interval == diff.delta and unpaired.interval == diff.unpaired
    assert diff.luck is not None and luck.interval == diff.luck.delta
    for row in side.intervals:
        assert _inside(row.interval, -1.0, 1.0)
    assert side.coverage == diff.rules and side.coverage[0].field == "weather"
    for results, shown in zip((first, second), side.distributions, strict=True):
        winners = results.column("winner")
        assert shown.outcomes == (winners.count("A"), winners.count("draw"), winners.count("B"))
        differences = [r.score_a - r.score_b for r in results]
        assert shown.score_differences == tuple(differences.count(v) for v in side.support)
        assert sum(shown.score_differences) == 8
    assert side.distributions[1].name == "pièce"
    assert any("Trop peu de matchs (8)" in c for c in side.caveats)
    assert side.to_dict()["intervals"]["luck"]["high"] == luck.interval.high
    same = compare_readings(first, first)
    assert same.identical and same.caveats == (
        "Les deux lectures sont identiques : mêmes matchs, différence nulle.",
    )


def test_an_interrupted_report_is_ranked_by_the_matches_it_played() -> None:
    from dataclasses import replace

    from akvo.lab.tournament import PairResult

    short = PairResult("fish-tank", "perrockiss", 12, 6, 0, 6, proportion(6, 12),
                       proportion(0, 12), Interval(0.0, 0.0, 0.0))  # fmt: skip
    report = replace(_report(MIN_MATCHES_PER_PAIR, 0), pairs=(short,), complete=False)
    assert report.fewest == 12 and not report.ranked
    assert report.caveat is not None and "12 par paire" in report.caveat
