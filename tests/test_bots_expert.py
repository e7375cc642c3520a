"""« expert » and the weak levels: the exact-dice lookahead against brute force, regret
matching on games with known equilibria, the orders' payoff matrix, the softmax noise."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from akvo.bots import make_bot
from akvo.bots.expert import ORACLE_ADDS, PURIFY, ExpertBot, turn_end_matrix
from akvo.bots.greedy import GreedyBot
from akvo.bots.lookahead import Lookahead, activation_mark, chance_branches, signature
from akvo.bots.matrix import exploitability, regret_matching
from akvo.bots.noisy import NoisyBot, softmax_pick
from akvo.bots.search import neighbours
from akvo.match import MatchState, decisions, new_match
from akvo.match.actions import ORDER_ACTION_LIST
from akvo.match.core import CHANCE
from akvo.match.phases import ACTIVATE, ORDERS, REROLL, ROLL, TARGET
from akvo.match.streams import decision_key


class ScoreJudge:
    """A deterministic stand-in evaluation: a logistic of the score difference and rows."""

    def win_chances(self, states: Sequence[MatchState], side: int) -> list[float]:
        out = []
        for s in states:
            lead = s.scores[side] - s.scores[1 - side] + 0.1 * sum(s.res[6 * (1 - side) :])
            out.append(1 / (1 + math.exp(-lead)))
        return out


def _chance_nodes(count: int) -> list[MatchState]:
    """Roll and reroll nodes of seeded greedy-vs-random matches, runes included."""
    nodes: list[MatchState] = []
    rng = random.Random(3)
    for seed in range(30):
        state = new_match("pink-star", "foufous", log=False)
        bots = (make_bot("random", seed), GreedyBot(seed))
        while not state.is_terminal():
            if state.player == CHANCE:
                if state.phase in (ROLL, REROLL) and (state.phase == REROLL or rng.random() < 0.2):
                    nodes.append(state.copy())
                state.apply_action(state.sample_chance(rng))
            else:
                state.apply_action(bots[state.player](state))
        if len(nodes) >= count:
            break
    return nodes


def test_chance_branches_are_the_exact_outcomes_merged() -> None:
    """Grouping the rolls by what the engine reads loses nothing: applying every ordered
    outcome (state.chance_outcomes(), exact) and merging equal positions gives the same
    positions with the same exact probabilities."""
    nodes = _chance_nodes(60)
    assert any(n.phase == REROLL for n in nodes) and any(n.phase == ROLL for n in nodes)
    for node in nodes:
        brute: dict[object, Fraction] = {}
        for action, p in node.chance_outcomes():
            child = node.copy()
            child.apply_action(action)
            key = signature(child)
            brute[key] = brute.get(key, Fraction(0)) + p
        grouped = {signature(child): p for child, p in chance_branches(node)}
        assert grouped == brute
        assert sum(grouped.values()) == 1


def _target_nodes(count: int) -> list[MatchState]:
    nodes = []
    for seed in range(20):
        bots = (GreedyBot(1), make_bot("random", seed))
        for node in decisions(new_match(log=False), seed, bots):
            if node.phase == TARGET and len(node.legal) > 1:
                nodes.append(node.copy())
        if len(nodes) >= count:
            return nodes[:count]
    return nodes


def _brute_value(
    state: MatchState, mark: tuple[int, int, int], side: int, judge: ScoreJudge, chance_left: int
) -> float:
    """Expectimax over every ordered chance outcome, the greedy bot deciding, stopping
    where the lookahead stops (after ``chance_left`` chance nodes, or the activation)."""
    policy = GreedyBot(0)
    state = state.copy()
    while True:
        if state.is_terminal():
            break
        if state.player == CHANCE:
            if state.phase not in (ROLL, REROLL) or chance_left == 0:
                break
            return sum(
                float(p) * _brute_value(state.child(a), mark, side, judge, chance_left - 1)
                for a, p in state.chance_outcomes()
            )
        if state.phase in (ORDERS, ACTIVATE) and activation_mark(state) != mark:
            break
        state.apply_action(policy(state))
    return judge.win_chances([state], side)[0]


def test_lookahead_values_are_the_brute_force_expectation() -> None:
    """One chance node deep (cap 1), each target's value equals the expectation over all
    ordered dice outcomes computed by brute force."""
    judge = ScoreJudge()
    look = Lookahead(GreedyBot(0), cap=1)
    for node in _target_nodes(6):
        values = look.values(node, judge)
        mark = activation_mark(node)
        for action, value in zip(node.legal, values, strict=True):
            expected = _brute_value(node.child(action), mark, node.player, judge, 1)
            assert value == pytest.approx(expected, abs=1e-12)


def test_regret_matching_finds_known_equilibria() -> None:
    rps = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    x, y = regret_matching(rps, 4000)
    assert x == pytest.approx([1 / 3] * 3, abs=0.02) and y == pytest.approx([1 / 3] * 3, abs=0.02)
    assert exploitability(rps, x, y) < 0.02
    # A dominated row (always worse by 0.2) is dropped; matching pennies: one half each.
    game = np.array([[1.0, 0.0], [0.0, 1.0], [0.8, -0.2]])
    x, y = regret_matching(game, 4000)
    assert x[2] < 0.01 and x[:2] == pytest.approx([0.5, 0.5], abs=0.03)
    assert y == pytest.approx([0.5, 0.5], abs=0.03)
    # A saddle point: pure strategies.
    x, y = regret_matching(np.array([[0.6, 0.7], [0.4, 0.9]]), 2000)
    assert x[0] > 0.97 and y[0] > 0.97


def _orders_node(seed: int, side: int) -> MatchState:
    bots = (GreedyBot(1), GreedyBot(2))
    for node in decisions(new_match(log=False), seed, bots):
        if node.phase == ORDERS and node.player == side and node.turn >= 2:
            return node.copy()
    raise AssertionError("no orders node")


def test_expert_orders_matrix_and_mixed_strategy() -> None:
    bot = ExpertBot(7, budget=1, judge=ScoreJudge())
    node = _orders_node(4, 1)
    mine, theirs, matrix = bot.payoffs(node)
    greedy = GreedyBot(0)
    assert mine[: 1 + 7] == [greedy.orders(node, 1), *neighbours(greedy.orders(node, 1))]
    assert theirs[:8] == [greedy.orders(node, 0), *neighbours(greedy.orders(node, 0))]
    # The double oracle's round adds each side's best responses from the other programmes.
    assert len(theirs) == 8 + ORACLE_ADDS and len(set(theirs)) == len(theirs)
    assert len(mine) >= 8 + ORACLE_ADDS
    assert len(set(mine)) == len(mine) and set(mine) <= set(node.legal)
    assert len(matrix) == len(mine) and all(len(row) == len(theirs) for row in matrix)
    assert all(0 < v < 1 for row in matrix for v in row)
    actions, probabilities = bot.strategy(node)
    assert actions == mine and sum(probabilities) == pytest.approx(1)
    assert all(p == 0 or p >= 0.03 for p in probabilities)
    # The action played is drawn from the bot's own strategy, seeded.
    for seed in range(3):
        other = ExpertBot(seed, budget=1, judge=ScoreJudge())
        actions, probabilities = other.strategy(node)
        assert other(node) in {a for a, p in zip(actions, probabilities, strict=True) if p > 0}
    assert ExpertBot(7, budget=1, judge=ScoreJudge())(node) == bot(node)


def test_softmax_pick_draws_by_exp_value_over_temperature() -> None:
    values = [0.50, 0.48, 0.40, 0.10]
    weights = [math.exp(v / 0.05) for v in values]
    expected = [w / sum(weights) for w in weights]
    grid = 20_000
    counts = [0] * 4
    for k in range(grid):
        counts[softmax_pick(values, 0.05, (k + 0.5) / grid)] += 1
    assert [c / grid for c in counts] == pytest.approx(expected, abs=1 / grid + 1e-9)


def test_noisy_levels_err_less_the_colder_they_are() -> None:
    """At a cold temperature the noisy bot plays the lookahead's best target; warmer, it
    sometimes plays another, more often a close one than a far one."""
    judge = ScoreJudge()
    node = max(_target_nodes(30), key=lambda n: len(n.legal))
    values = Lookahead(GreedyBot(0), cap=2).values(node, judge)
    best = node.legal[values.index(max(values))]
    assert {NoisyBot(s, 1e-6, judge=judge)(node) for s in range(20)} == {best}
    warm = [NoisyBot(s, 0.5, judge=judge)(node) for s in range(300)]
    assert len(set(warm)) > 1


def test_the_double_oracle_adds_the_other_sides_best_responses() -> None:
    """Brute force over the programmes outside the sampled columns: the ones the oracle adds
    are those that lower the restricted game's row strategy's win chance the most."""
    bot = ExpertBot(7, budget=1, judge=ScoreJudge())
    node = _orders_node(4, 1)
    mine, theirs, matrix = bot.payoffs(node)
    rows = len(mine) - ORACLE_ADDS
    x, _ = regret_matching([row[:8] for row in matrix[:rows]])
    support = [(a, p) for a, p in zip(mine[:rows], x.tolist(), strict=True) if p >= PURIFY]
    outside = [a for a in ORDER_ACTION_LIST if a not in theirs[:8]]
    seeds = [bot.seeds.decision_word(decision_key(node), 0)]
    cells = turn_end_matrix(node, [a for a, _ in support], outside, seeds, ScoreJudge())
    value = {
        c: sum(p * row[j] for (_, p), row in zip(support, cells, strict=True))
        for j, c in enumerate(outside)
    }
    added = theirs[8:]
    assert all(value[a] <= value[c] + 1e-12 for a in added for c in outside if c not in added)
    assert matrix[0][8:] == turn_end_matrix(node, mine[:1], added, seeds, ScoreJudge())[0]
