"""akvo.online.ratings: Glicko-2 against Glickman's worked example, team tables rated
against the other side's composite, a leaver scored a loss whatever the bot made of it,
properties (symmetry, uncertainty shrinking with games)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from akvo.online.ratings import (
    Profile,
    Rating,
    RatingError,
    SeatResult,
    Table,
    rate_table,
    rate_tables,
    update,
)


def test_glickmans_worked_example() -> None:
    """Glickman (2013), « Example of the Glicko-2 system »: 1464.06, 151.52, 0.05999."""
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_game_only_widens_the_interval() -> None:
    after = update(Rating(1600, 50, 0.06), [])
    assert after.rating == 1600
    assert after.deviation == pytest.approx((50**2 + (0.06 * 173.7178) ** 2) ** 0.5)
    assert update(Rating(), []).deviation == 350  # never beyond a newcomer's


def test_a_two_player_table_moves_both_by_the_same_amount() -> None:
    table = Table((SeatResult("léa", 0), SeatResult("hugo", 1)), "A")
    after = rate_table({}, table)
    assert after["léa"].rating.rating - 1500 == pytest.approx(1500 - after["hugo"].rating.rating)
    assert after["léa"].rating.rating > 1500 and after["léa"].tables == 1
    low, high = after["léa"].rating.interval()
    assert low < 1500 < high  # one game says little


def test_a_leaver_loses_whatever_the_bot_made_of_it() -> None:
    seats = (
        SeatResult("léa", 0, own_decisions=12),
        SeatResult("hugo", 0, own_decisions=3, left=True, bot="greedy"),
        SeatResult("zoé", 1, own_decisions=15),
        SeatResult("max", 1, own_decisions=15),
    )
    after = rate_table({}, Table(seats, "A"))
    assert after["léa"].rating.rating > 1500  # her side won
    assert after["hugo"].rating.rating < 1500  # he left: a loss for him
    assert (after["hugo"].leaves, after["hugo"].leave_share) == (1, 1.0)
    assert after["léa"].leaves == 0
    assert after["zoé"].rating.rating < 1500


def test_unrated_seats_and_bot_sides() -> None:
    never = SeatResult("absent", 0, own_decisions=0, left=True)
    alone = Table((SeatResult("léa", 0), SeatResult(None, 1, bot="search"), never), "A")
    assert rate_table({}, alone) == {}  # no rated opponent, and « absent » never played
    rated = Table(alone.seats, "A", bot_rating={"search": Rating(1700, 60)})
    after = rate_table({}, rated)
    assert set(after) == {"léa"} and after["léa"].rating.rating > 1500


def test_ratings_follow_the_tables_in_order() -> None:
    tables = [Table((SeatResult("léa", 0), SeatResult("hugo", 1)), "A")] * 20
    profiles = rate_tables(tables)
    assert profiles["léa"].tables == 20
    assert profiles["léa"].rating.rating > profiles["hugo"].rating.rating + 300
    first = rate_tables(tables[:1])["léa"].rating.deviation
    assert profiles["léa"].rating.deviation < first < 350  # games narrow the interval
    assert profiles["hugo"] != Profile()


@given(
    st.floats(1000, 2000),
    st.floats(30, 350),
    st.floats(1000, 2000),
    st.floats(30, 350),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_a_win_never_lowers_and_a_game_never_widens(
    mine: float, my_rd: float, theirs: float, their_rd: float, score: float
) -> None:
    player = Rating(mine, my_rd)
    after = update(player, [(Rating(theirs, their_rd), score)])
    assert after.deviation <= (my_rd**2 + (0.06 * 173.7178) ** 2) ** 0.5 + 1e-9
    if score == 1.0:
        assert after.rating >= mine
    if score == 0.0:
        assert after.rating <= mine


def test_bad_results_are_refused() -> None:
    with pytest.raises(RatingError, match="A, B or draw"):
        rate_table({}, Table((SeatResult("a", 0), SeatResult("b", 1)), "C"))
    with pytest.raises(RatingError, match="between 0 and 1"):
        update(Rating(), [(Rating(), 2.0)])
    with pytest.raises(RatingError, match="between 0 and 1"):
        update(Rating(), [(Rating(), float("nan"))])
