"""The highest-score line (akvo.match.showcase): the engine reaches the R26 bound."""

from __future__ import annotations

import pytest

from akvo.config import RulesConfig
from akvo.errors import IllegalAction
from akvo.match import play_match, replay, scenario, showcase
from akvo.teams import preset_team

NAMES_ONLY = RulesConfig(rune_u="names_only")


def test_the_line_scores_90_with_the_rune_u_on_the_pedalair() -> None:
    summary = showcase.highest_score(showcase.PEDALAIR_U_TEAM)
    assert summary.total == summary.bound == 90
    assert summary.per_turn == (6, 12, 12, 12, 12, 12, 12, 12)
    assert summary.opponent == 0
    assert summary.result == "A"
    assert summary.team == "Perrockiss, rune U au Pédalair"
    assert summary.team_list == "UEGS/VLNF/JACK/ZBIM/PYTH/DROX+QW"


def test_the_line_ends_by_score_and_replays() -> None:
    state = showcase.highest_score_line(showcase.PEDALAIR_U_TEAM)
    assert (state.result, state.reason, state.scores) == ("A", "score", [90, 0])
    assert state.turn == 8  # no tie-break
    assert replay(state.record()).to_json() == state.to_json()
    turn_one = [e for e in state.events if e.startswith("Tour 1 —")]
    assert sum("+2 points" in e for e in turn_one) == 3
    assert sum("déclare Souffle portant" in e for e in turn_one) == 2
    assert any("joue la rune U : Souffle portant" in e for e in turn_one)
    assert sum("avance de 2 cases (ligne 5)" in e for e in turn_one) == 3


def test_a_bonus_rune_u_also_restores_souffle_portant() -> None:
    summary = showcase.highest_score(showcase.BONUS_U_TEAM)
    assert (summary.total, summary.bound, summary.per_turn[0]) == (90, 90, 6)


@pytest.mark.parametrize("team", ["perrockiss", "tortues-carets", "pink-star"])
def test_88_when_the_rune_u_sits_elsewhere(team: str) -> None:
    assert not showcase.souffle_portant_twice(preset_team(team))
    summary = showcase.highest_score(team)
    assert summary.total == summary.bound == 88
    assert summary.per_turn == (4, 12, 12, 12, 12, 12, 12, 12)
    assert (summary.opponent, summary.result) == (0, "A")


def test_88_when_the_rune_u_only_spells_names() -> None:
    # R22 variant: U has no effect, so Souffle portant serves once.
    summary = showcase.highest_score(showcase.PEDALAIR_U_TEAM, rules=NAMES_ONLY)
    assert (summary.total, summary.bound, summary.per_turn[0]) == (88, 88, 4)


def test_bound_values() -> None:
    assert showcase.highest_score_bound(showcase.PEDALAIR_U_TEAM) == 90
    assert showcase.highest_score_bound(showcase.BONUS_U_TEAM) == 90
    assert showcase.highest_score_bound("perrockiss") == 88
    assert showcase.highest_score_bound(showcase.PEDALAIR_U_TEAM, NAMES_ONLY) == 88


def test_a_team_short_of_mouvement_runes_cannot_play_the_line() -> None:
    # Fish Tank's Pédalair and Kitesurfeur hold no Mouvement rune, nor does its bonus.
    with pytest.raises(IllegalAction, match="highest-score line wants"):
        showcase.highest_score_line("fish-tank", "perrockiss")


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (1, ((0,) * 10, (0,) * 10)),  # a tie-break decided by the mages in the enemy half
        (30, ((0,) * 9 + (1,), (0,) * 9 + (2,))),  # both score in turn 10
        (32, ((0, 0, 0, 1) + (0,) * 6, (0, 0, 1) + (0,) * 7)),
    ],
)
def test_points_per_turn_of_random_matches(
    seed: int, expected: tuple[tuple[int, ...], tuple[int, ...]]
) -> None:
    state = play_match(seed=seed)
    assert (showcase.points_per_turn(state, "A"), showcase.points_per_turn(state, 1)) == expected
    assert [sum(p) for p in expected] == state.scores


def test_points_per_turn_of_a_scenario_in_progress() -> None:
    state = scenario(turn=7, scores=[5, 3], rows={"A": {"surfeur": 5}})
    assert showcase.points_per_turn(state) == (0,)
    record = showcase.highest_score_line(showcase.PEDALAIR_U_TEAM).record()
    partial = replay({**record, "actions": record["actions"][:100]})  # mid-turn 2
    assert (partial.turn, partial.scores) == (2, [12, 0])
    assert showcase.points_per_turn(partial) == (6, 6)


@pytest.mark.parametrize(
    "rules",
    [
        RulesConfig(prodige="all"),
        RulesConfig(grimoire="swapped"),
        RulesConfig(weather="coin"),
        NAMES_ONLY,
    ],
    ids=str,
)
def test_the_line_reaches_the_bound_under_every_variant(rules: RulesConfig) -> None:
    for team in (showcase.PEDALAIR_U_TEAM, preset_team("perrockiss")):
        summary = showcase.highest_score(team, rules=rules)
        assert summary.total == summary.bound == showcase.highest_score_bound(team, rules)
        assert summary.opponent == 0
