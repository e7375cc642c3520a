"""akvo.coach.chances: reproducible, paired (common random numbers), never peeking, right
where the answer is known."""

from __future__ import annotations

import pytest

from akvo.bots import make_bot
from akvo.bots.greedy import GreedyBot
from akvo.bots.search import neighbours
from akvo.coach import CoachError, WinChances, candidate_options
from akvo.coach.chances import LOSS, WIN, rollout_chance, rollout_seed
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
