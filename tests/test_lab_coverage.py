"""What the lab counts each match used (akvo.lab.coverage), checked against the engine's own
counts and against an independent recount from each match's record; and what a comparison
says when a rule never came into play."""

from __future__ import annotations

import pytest

from akvo.config import CHOICES, RulesConfig
from akvo.lab import Results, compare, paired, replay_match, simulate
from akvo.lab.coverage import (
    COUNTED,
    RUNE_KINDS,
    UNCOUNTED,
    USE_COLUMNS,
    rule_uses,
    use_label,
)
from akvo.match.actions import SHIP_AA
from akvo.match.board import CHARS, SHIP
from akvo.match.phases import Phase
from akvo.match.state import MatchState, new_match
from akvo.rules import RuneCategory

FAST = {"workers": 0, "progress": False}
RUNE_PHASES = (
    Phase.ATTACK_RUNE,
    Phase.DEFENCE_RUNE,
    Phase.PRE_SHOT,
    Phase.ADVANCE,
    Phase.ROULEAU,
)
EVERY_VARIANT = RulesConfig(
    weather="coin",
    prodige="all",
    grimoire="swapped",
    ship_advance_runes="per_order",
    rouleau_mouvement="plus_one",
)
SURFEUR_UNIT = 3


@pytest.fixture(scope="module", params=[RulesConfig(), EVERY_VARIANT], ids=["default", "variants"])
def run(request: pytest.FixtureRequest) -> Results:
    return simulate("perrockiss", "pink-star", ("greedy", "random"), request.param, 12, 4, **FAST)


def test_rune_and_ultime_counts_are_the_engines(run: Results) -> None:
    """Runes by kind add up to the state's runes_spent_count; Ultimes are its ult_uses."""
    kinds = len(RUNE_KINDS)
    for row in run:
        state = replay_match(run, row.index)
        assert sum(row.uses[:kinds]) == row.runes_a == state.runes_spent_count[0]
        assert sum(row.uses[kinds : 2 * kinds]) == row.runes_b == state.runes_spent_count[1]
        ultimes = row.uses[2 * kinds : 2 * kinds + 2 * CHARS]
        assert list(ultimes) == state.ult_uses
        assert sum(ultimes) == row.ultimes_a + row.ultimes_b


#: The switches the recount below derives again, independently of the engine (a new switch
#: brings its own engine test instead).
RECOUNTED = (
    "weather",
    "prodige",
    "grimoire",
    "rune_u",
    "mouvement_rune",
    "ship_advance_runes",
    "rouleau_mouvement",
)


def _recount(state: MatchState) -> dict[str, int]:
    """Each rule's branch but R8's, counted again by replaying the match's history action by
    action (the phase says which roll, rune or advance each action is)."""
    again = new_match(*state.teams, state.rules, log=False)
    counts = dict.fromkeys(RECOUNTED, 0)
    dice: list[int] = []
    rolling = (Phase.ROLL, Phase.REROLL, Phase.RELANCE)
    for action in state.history:
        phase, side = again.phase_enum, again.current_player
        if phase is Phase.ROLL:
            dice = [int(face) for face in action.split()[1]]
        elif phase is Phase.REROLL:
            dice[again.shot.relanced - 1] = int(action.split()[1])  # type: ignore[union-attr]
        if phase is Phase.ROULEAU:
            counts["rouleau_mouvement"] += _rouleau_could_take_a_rune(again, side)
        if action.startswith("rune U "):
            counts["rune_u"] += 1
        elif phase in RUNE_PHASES and action not in NO_RUNE_PLAYED:
            category = again.rosters[side].category_of[action[-1]]
            wild = (RuneCategory.CONFUSION, RuneCategory.RELANCE)
            counts["grimoire"] += list(RuneCategory)[category] in wild
            counts["mouvement_rune"] += phase is Phase.PRE_SHOT
            orders = again.orders[side]
            ship_aa = again.unit == SHIP and orders is not None and orders[SHIP] == SHIP_AA
            counts["ship_advance_runes"] += phase is Phase.ADVANCE and ship_aa
        again.apply_action(action)
        finished = phase in rolling and again.phase_enum not in (Phase.RELANCE, Phase.REROLL)
        counts["prodige"] += finished and 2 <= len(dice) <= 3 and len(set(dice)) == 1
    return counts


NO_RUNE_PLAYED = ("no rune", "no move", "advance", "rouleau", "no rouleau")


def _rouleau_could_take_a_rune(state: MatchState, side: int) -> bool:
    """The second cell ahead of the Surfeur is water and free, and the Surfeur or the bonus
    holds an unspent Mouvement rune (read from the team list, not the engine's roster)."""
    row = state.rows[side * 5 + SURFEUR_UNIT]
    ahead = [row + step * (1 if side == 0 else -1) for step in (1, 2)]
    other = state.rows[(1 - side) * 5 + SURFEUR_UNIT]
    free = all(1 <= r <= 8 and r != other for r in ahead)
    team = state.teams[side]
    letters = team.groups[4] + team.bonus
    mouvement = [x for x in letters if x in "VWXYZ" and not state.is_spent(side, x)]
    return free and bool(mouvement)


def test_each_rules_branch_is_counted_as_a_recount_of_the_record_finds(run: Results) -> None:
    assert all(sum(run.column(f"rule_{field}")) > 0 for field in COUNTED)  # all exercised
    for row in run:
        state = replay_match(run, row.index)
        recount = _recount(state)
        bag_or_coin = _weather_recount(row.favoured, state.rules.weather)
        for field in RECOUNTED:
            expected = bag_or_coin if field == "weather" else recount[field]
            assert row.use(f"rule_{field}") == expected, (field, row.index)


def _weather_recount(favoured: str, weather: str) -> int:
    """R8's branch from the favoured side of each turn: draws from an uneven bag, or coin
    turns that favour a side beyond the bag's four tokens."""
    count, bag, tally = 0, [4, 4], [0, 0]
    for turn, name in enumerate(favoured, start=1):
        side = "AB".index(name)
        if turn == 9:
            bag = [4, 4]
        if weather == "bag":
            count += bag[0] != bag[1]
            bag[side] -= 1
        elif turn <= 8:
            tally[side] += 1
            count += tally[side] > 4
    return count


def test_every_branch_and_the_rune_u_come_into_play_with_greedy_bots() -> None:
    """Over 40 greedy matches each counted rule's branch is taken, and both sides spend
    the rune U (which restores an Ultime: some Ultime is then used twice)."""
    run = simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, 40, 1, **FAST)
    for field in COUNTED:
        assert sum(run.column(f"rule_{field}")) > 0, field
    assert sum(run.column("rune_u_a")) > 0 and sum(run.column("rune_u_b")) > 0
    twice = [c for c in USE_COLUMNS if c.startswith("ultime_") and max(run.column(c)) >= 2]
    assert twice


def test_rune_u_names_only_came_into_play_and_has_an_effect() -> None:
    _, _, diff = compare(
        "perrockiss", "fish-tank", ("greedy", "greedy"), None, 60, 1,
        other_rules="rune_u=names_only", **FAST,
    )  # fmt: skip
    (rule,) = diff.rules
    assert rule.field == "rune_u" and rule.counted and rule.played
    assert rule.matches == 60 and rule.first > 60 and rule.second == 0
    assert diff.exercised and diff.changed > 0
    text = diff.to_text()
    assert "matchs où la règle a joué (rune_u)\t60" in text
    assert "différence (2e - 1re)" in text


def test_a_rule_never_in_play_is_said_so_not_measured_as_zero() -> None:
    first = simulate("perrockiss", "fish-tank", ("greedy", "greedy"), None, 3, 2, **FAST)
    second = simulate(
        "perrockiss", "fish-tank", ("greedy", "greedy"), "ship_advance_runes=per_order", 3, 2,
        **FAST,
    )  # fmt: skip
    zeroed = [
        Results(tuple(_without(row, "rule_ship_advance_runes") for row in run), run.meta, True)
        for run in (first, second)
    ]
    diff = paired(*zeroed)
    assert not diff.exercised
    text = diff.to_text()
    assert "non mesurable : la règle n'a joué dans aucun match" in text
    assert "différence (2e - 1re)" not in text
    assert "matchs où la règle a joué (ship_advance_runes)\t0" in text


def _without(row: object, column: str) -> object:
    from dataclasses import replace

    uses = list(row.uses)  # type: ignore[attr-defined]
    uses[USE_COLUMNS.index(column)] = 0
    return replace(row, uses=tuple(uses))  # type: ignore[type-var]


def test_a_variant_the_lab_does_not_count_is_named() -> None:
    run = simulate("perrockiss", "fish-tank", ("random", "random"), None, 2, 1, **FAST)
    (rule,) = rule_uses(run, run, ["some_new_variant"])
    assert not rule.counted and not rule.played
    assert set(UNCOUNTED) == set(CHOICES) - set(COUNTED)


def test_every_column_has_a_french_label() -> None:
    labels = {use_label(column) for column in USE_COLUMNS}
    assert len(labels) == len(USE_COLUMNS)
    assert use_label("ultime_egide_b") == "Égide (B)"
    assert use_label("rule_rune_u") == "R22 : rune U jouée"
