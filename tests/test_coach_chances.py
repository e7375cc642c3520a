"""akvo.coach.chances: reproducible, paired (common random numbers), never peeking, right
where the answer is known."""

from __future__ import annotations

import pytest

from akvo.bots import make_bot
from akvo.bots.greedy import GreedyBot
from akvo.bots.search import neighbours
from akvo.coach import CoachError, WinChances, candidate_options
from akvo.coach.chances import (
    LOSS,
    MEMO_STEPS,
    WIN,
    RolloutMemo,
    rollout_chance,
    rollout_seed,
    state_key,
)
from akvo.lab.stats import proportion
from akvo.match import MatchState, Phase, decisions, new_match, play_match, scenario
from akvo.match.streams import KeyedChance


def _first(state: MatchState, phase: Phase, seed: int = 4) -> MatchState:
    bots = (make_bot("greedy", 1), make_bot("greedy", 2))
    for node in decisions(state, KeyedChance(seed), bots):
        if node.phase == phase:
            return node.copy()
    raise AssertionError(f"no {phase.label} decision")


def _late() -> MatchState:
    """Turn 8, side A two points ahead: a short match to roll out."""
    return scenario(turn=8, scores=[2, 0], rows={"A": {"surfeur": 5}, "B": {"surfeur": 6}})


def test_the_same_seed_gives_the_same_estimates_in_any_steps() -> None:
    node = _first(_late(), Phase.TARGET)
    once = WinChances(node, seed=5).refine(6)
    steps = WinChances(node, seed=5)
    steps.refine(2)
    steps.refine(0)
    assert steps.refine(4) == once
    assert steps.rollouts == 6 and all(c.rollouts == 6 for c in once)
    assert WinChances(node, seed=6).refine(6) != once


def test_remembered_dice_are_the_keyed_chance_dice() -> None:
    """The rollouts' chance (faces hashed once per event) plays exactly KeyedChance's."""
    for index in range(3):
        seed = rollout_seed(9, index)
        bots = (GreedyBot(1), GreedyBot(2))
        plain, remembered = new_match(log=False), new_match(log=False)
        for _ in decisions(plain, KeyedChance(seed), bots):
            pass
        for _ in range(2):  # the second match meets every event again
            remembered = new_match(log=False)
            for _ in decisions(remembered, rollout_chance(9, index), bots):
                pass
        assert remembered.history == plain.history


def test_a_rollout_pairs_the_options_on_the_same_dice() -> None:
    node = _first(_late(), Phase.RELANCE)
    chances = WinChances(node, seed=1)
    chances.refine(3)
    for index in range(3):
        results = {option: chances.rollout(option, index) for option in chances.options}
        assert results == {o: chances[o].outcomes[index] for o in chances.options}


def test_a_decided_match_is_won_whatever_the_option() -> None:
    """Turn 8, A leads 20–0: every option wins every rollout; the interval is Wilson's."""
    node = _first(scenario(turn=8, scores=[20, 0], bag=[1, 0]), Phase.ACTIVATE)
    assert node.current_player == 0
    for chance in WinChances(node).refine(5):
        assert chance.outcomes == (WIN,) * 5 and chance.p == 1.0
        assert chance.interval == proportion(5, 5)
    node_b = _first(scenario(turn=8, scores=[20, 0], bag=[0, 1]), Phase.ACTIVATE)
    assert node_b.current_player == 1
    assert all(c.outcomes == (LOSS,) * 3 for c in WinChances(node_b).refine(3))


def test_orders_are_the_greedy_programme_and_its_neighbours_by_default() -> None:
    node = _first(new_match(log=False), Phase.ORDERS)
    base = GreedyBot(0).orders(node, node.current_player)
    assert candidate_options(node) == (base, *neighbours(base))
    chances = WinChances(node, ["orders TTTT TT", base, base])
    assert chances.options == ("orders TTTT TT", base)


def test_the_other_sides_hidden_orders_are_never_read() -> None:
    state = scenario(turn=8, rows={"A": {"surfeur": 5}, "B": {"surfeur": 6}})
    state.apply_action("weather A")
    state.apply_action("orders TTTT TT")  # A's secret orders
    assert state.current_player == 1 and state.phase == Phase.ORDERS
    other = state.copy()
    other.orders[0] = (0, 0, 0, 0, 0)  # another secret: B cannot tell them apart
    options = candidate_options(state)
    first = WinChances(state, options, seed=2).refine(4)
    second = WinChances(other, options, seed=2).refine(4)
    assert first == second


def test_first_estimates_stream_and_the_state_is_left_alone() -> None:
    node = _first(_late(), Phase.TARGET)
    before = node.to_json()
    chances = WinChances(node, seed=3)
    stream = chances.stream(step=1)
    assert next(stream)[0].rollouts == 1
    assert next(stream)[0].rollouts == 2
    assert chances.refine_for(0.0, step=1)[0].rollouts == 3  # at least one step
    assert node.to_json() == before
    assert "3 rollouts" in repr(chances)
    best = chances.best()
    assert best.wins == max(c.wins for c in chances.chances())


@pytest.mark.parametrize(
    ("options", "message"),
    [("shoot chest", "not one string"), (["fly"], "not a legal"), ([], "at least one")],
)
def test_bad_options_are_refused(options: object, message: str) -> None:
    node = _first(_late(), Phase.TARGET)
    with pytest.raises(CoachError, match=message):
        WinChances(node, options)  # type: ignore[arg-type]


def test_bad_arguments_are_refused() -> None:
    node = _first(_late(), Phase.TARGET)
    with pytest.raises(CoachError, match="MatchState"):
        WinChances("state")
    with pytest.raises(CoachError, match="decision node"):
        WinChances(new_match())
    with pytest.raises(CoachError, match="decision node"):
        WinChances(play_match(2, log=False))
    with pytest.raises(CoachError, match="seed"):
        WinChances(node, seed="1")
    chances = WinChances(node)
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(CoachError, match="rollouts"):
            chances.refine(bad)
    with pytest.raises(CoachError, match="at most"):
        chances.refine(10**9)
    with pytest.raises(CoachError, match="not an option"):
        chances["hold"]


# --- shared work (issue 19.6) -----------------------------------------------------------------


def test_a_memo_gives_the_same_estimates_and_shares_the_next_decision() -> None:
    """Two consecutive decisions of a match: with one memo, the second decision's rollouts
    meet the first's (its greedy option is where they went), with the same outcomes as
    rollouts played in full."""
    first = _first(_late(), Phase.TARGET)
    chosen = GreedyBot(1)(first)
    second = first.child(chosen)
    while second.player < 0:
        KeyedChance(8).apply(second)
    memo = RolloutMemo()
    shared = [
        WinChances(first, seed=3, memo=memo).refine(5),
        WinChances(second, seed=3, memo=memo).refine(5),
    ]
    alone = [WinChances(first, seed=3).refine(5), WinChances(second, seed=3).refine(5)]
    assert shared == alone
    assert memo.hits > 0 and 0 < len(memo) <= MEMO_STEPS * 5 * (
        len(candidate_options(first)) + len(candidate_options(second))
    )
    with pytest.raises(CoachError, match="RolloutMemo"):
        WinChances(first, memo={})  # type: ignore[arg-type]


def test_a_memo_of_another_seed_or_rollout_is_not_read() -> None:
    node = _first(_late(), Phase.TARGET)
    memo = RolloutMemo()
    WinChances(node, seed=1, memo=memo).refine(4)
    hits = memo.hits
    assert WinChances(node, seed=2, memo=memo).refine(4) == WinChances(node, seed=2).refine(4)
    assert WinChances(node, seed=1, memo=memo).refine(4) == WinChances(node, seed=1).refine(4)
    assert memo.hits >= hits + len(WinChances(node, seed=1).options) * 4  # all known now


def test_the_state_key_holds_what_the_rest_of_the_match_depends_on() -> None:
    node = _first(_late(), Phase.TARGET)
    same = node.copy()
    same.history.append("noted")  # the history and the log change nothing to come
    same.events.append("noted")
    assert state_key(same) == state_key(node) and hash(state_key(node))
    for change in (
        lambda s: s.rows.__setitem__(0, s.rows[0] + 1),
        lambda s: s.scores.__setitem__(1, s.scores[1] + 1),
        lambda s: setattr(s, "turn", s.turn + 1),
        lambda s: setattr(s.shot, "att_rune", "A"),
        lambda s: s.orders.__setitem__(0, None),
    ):
        other = node.copy()
        change(other)
        assert state_key(other) != state_key(node)
