"""The coach is right, and shown to be: the review rates a random player's decisions far
worse than the greedy bot's, and the win-chance intervals have their stated coverage on a
position whose true win chance is known exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest

from akvo.bots import make_bot
from akvo.bots.greedy import GreedyBot
from akvo.coach import WinChances
from akvo.coach.review import review
from akvo.match import MatchState, decisions, scenario
from akvo.match.phases import Phase
from akvo.match.streams import KeyedChance
from akvo.shots import shot_on_chest
from tests.match.helpers import bare

#: Scores level, all runes and Ultimes left; each side threatens chests in two lanes (its
#: lanes 1–2 or 5–6 are in reach), both have two mages in the enemy half.
BALANCED = {
    "A": {"pedalair": 5, "kitesurfeur": 5, "navire": 4, "surfeur": 3, "plongeur": 3},
    "B": {"pedalair": 6, "kitesurfeur": 6, "navire": 5, "surfeur": 4, "plongeur": 4},
}


@pytest.mark.slow
def test_a_random_players_decisions_lose_three_times_more_than_the_greedy_bots() -> None:
    """10 matches from a balanced turn 7, the random bot on side A in half of them and on
    side B in the other half, every decision of both sides reviewed (:func:`review`, the
    default budget). Late positions, because a side that is already lost has nothing left
    to lose: in whole matches the random side soon is, and its later decisions cost no win
    chance. Measured on these 10 (the default budget, seeds 0–9): greedy 0.0044 lost per
    decision (531 decisions), random 0.0194 (469), 4.4 times more (20 matches: 4.7 times,
    twice the time of the test for the same verdict)."""
    losses: dict[str, list[float]] = {"greedy": [], "random": []}
    for match in range(10):
        state = scenario(turn=7, rows=BALANCED)
        random_side = match % 2
        bots = [make_bot("greedy", match), make_bot("greedy", match)]
        bots[random_side] = make_bot("random", match)
        for _ in decisions(state, KeyedChance(1000 + match), (bots[0], bots[1])):
            pass
        done = review(state.record(), seed=match, workers=0, progress=False)
        for row in done.decisions:
            losses["random" if row.side == random_side else "greedy"].append(row.loss)
    greedy = sum(losses["greedy"]) / len(losses["greedy"])
    random = sum(losses["random"]) / len(losses["random"])
    assert len(losses["greedy"]) > 450 and len(losses["random"]) > 400
    assert random > 0.01
    assert random >= 3 * greedy, (greedy, random)


def _last_shot() -> MatchState:
    """Turn 10, the last: B leads 1–0 and wins a tie (five mages in A's half against one).
    A's Surfeur, the only unit with a Tirer order, is about to choose its target; every
    other unit is blocked. A wins only by a critical capture (+2 points)."""
    state = bare(
        turn=10,
        scores=[0, 1],
        rows={
            "A": {"pedalair": 1, "kitesurfeur": 1, "navire": 1, "surfeur": 5, "plongeur": 1},
            "B": {"pedalair": 2, "kitesurfeur": 2, "navire": 2, "surfeur": 6, "plongeur": 2},
        },
    )
    for action in ("weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur"):
        state.apply_action(action)
    assert state.phase == Phase.TARGET and "shoot chest" in state.legal
    return state


def _engine_chance(state: MatchState) -> Fraction:
    """P(A wins) by exhaustive enumeration of every roll through the engine (rolls grouped
    by their total and whether they are a prodige: all the engine reads of them), the
    greedy bot deciding."""
    bots = (GreedyBot(1), GreedyBot(2))
    state = state.copy()
    while not state.is_terminal():
        if state.is_chance_node():
            groups: dict[tuple[int, bool], tuple[Fraction, str]] = {}
            for action, p in state.chance_outcomes():
                faces = action.split()[1]
                key = (sum(map(int, faces)), len(set(faces)) == 1)
                total, _ = groups.get(key, (Fraction(0), action))
                groups[key] = (total + p, action)
            return sum(
                (p * _engine_chance(state.child(a)) for p, a in groups.values()), Fraction(0)
            )
        state.apply_action(bots[state.current_player](state))
    return Fraction(1 if state.result == "A" else 0)


def test_the_intervals_cover_a_win_chance_known_exactly() -> None:
    """The true win chance after « shoot chest » is P(critical capture) of akvo.shots (tier
    IV, chest at 4, interceptor at 1), which the engine's own rolls give too (exhaustive
    enumeration). 300 independent estimates of 40 rollouts each: their 95 % Wilson
    intervals cover it about 95 % of the time."""
    state = _last_shot()
    truth = shot_on_chest(4, 4, 1).outcomes["score_2"]
    assert _engine_chance(state.child("shoot chest")) == truth == Fraction(79025, 279936)
    covered = estimates = 0
    total = 0.0
    for seed in range(300):
        (chance,) = WinChances(state, ["shoot chest"], seed=seed).refine(40)
        covered += chance.low <= truth <= chance.high
        total += chance.p
        estimates += 1
    assert 0.90 <= covered / estimates <= 0.99, covered
    assert abs(total / estimates - float(truth)) < 0.02  # 12,000 rollouts: SE 0.004
