"""Hypothesis properties over random legal play (seeded random bots)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from akvo.config import RulesConfig
from akvo.errors import IllegalAction
from akvo.match import CHANCE, TERMINAL, MatchState, new_match
from akvo.match.board import CHARS, UNITS

RULE_SETS = [
    RulesConfig(),
    RulesConfig(weather="coin", prodige="all", grimoire="swapped", rune_u="names_only"),
]
TEAMS = ["perrockiss", "fish-tank", "pink-star", "tortues-carets"]


def _rune_letter(action: str) -> str | None:
    """The rune an action spends, if any."""
    if action.startswith(("rune ", "move ", "advance +")):
        return action[-1]
    return None


def _check_invariants(state: MatchState) -> None:
    for unit in range(UNITS):  # never two units in a cell: A below B in every lane (R11)
        assert 1 <= state.rows[unit] < state.rows[UNITS + unit] <= 8
    assert all(0 <= r <= 3 for r in state.res)


def play_checked(seed: int, rules: RulesConfig, team_a: str, team_b: str) -> MatchState:
    rng = random.Random(seed)
    state = new_match(team_a, team_b, rules)
    scores = list(state.scores)
    resilience = list(state.res)
    rune_u_spent = [False, False]
    while state.player != TERMINAL:
        if state.player == CHANCE:
            outcomes = state.chance_outcomes()
            if len(outcomes) <= 6:
                assert sum(p for _, p in outcomes) == 1
            else:  # a roll: every ordered roll once, each 6^-n
                assert outcomes[0][1] * len(outcomes) == 1
            action = state.sample_chance(rng)
            assert action.startswith(outcomes[0][0][:5])
        else:
            legal = state.legal_actions()
            assert len(legal) >= 2 and len(set(legal)) == len(legal)
            action = rng.choice(legal)
            letter = _rune_letter(action)
            if letter is not None:  # no rune spent twice (unless a prodige recovered it)
                assert not state.spent[state.player] >> (ord(letter) - 65) & 1
            if action.startswith("rune U"):
                rune_u_spent[state.player] = True
        if state.phase_name() == "orders" and state.current_player == 1:
            # B programs after A: B's observation must not show A's orders.
            assert state.observation("B")["orders"]["A"] == "hidden"
        if rng.random() < 0.02:  # now and then: a snapshot round trip and an illegal action
            snapshot = state.to_json()
            assert MatchState.from_json(snapshot).to_json() == snapshot
            with pytest.raises(IllegalAction):
                state.apply_action("activate nobody")
            assert state.to_json() == snapshot
        state.apply_action(action)
        _check_invariants(state)
        assert state.scores[0] >= scores[0] and state.scores[1] >= scores[1]
        assert all(now >= before for now, before in zip(state.res, resilience, strict=True))
        scores, resilience = list(state.scores), list(state.res)
    # Ultimes once per match, twice at most when the side's rune U restored one (R22).
    for side in (0, 1):
        uses = state.ult_uses[side * CHARS : (side + 1) * CHARS]
        limit = 2 if rune_u_spent[side] and rules.rune_u == "restores_ultime" else 1
        assert max(uses) <= limit
        assert sum(u > 1 for u in uses) <= (1 if rune_u_spent[side] else 0)
    return state


def _check_result(state: MatchState) -> None:
    a, b = state.scores
    assert state.turn in (8, 10)
    if state.turn == 8:  # R25: decided on points after turn 8
        assert a != b and state.result == ("A" if a > b else "B") and state.reason == "score"
    elif a != b:
        assert state.result == ("A" if a > b else "B") and state.reason == "score"
    else:
        halves = state.mages_in_enemy_half(0), state.mages_in_enemy_half(1)
        if halves[0] == halves[1]:
            assert state.result == "draw"
        else:
            assert state.result == ("A" if halves[0] > halves[1] else "B")
            assert state.reason == "half"


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(RULE_SETS),
    team_a=st.sampled_from(TEAMS),
    team_b=st.sampled_from(TEAMS),
)
def test_random_play_keeps_the_invariants(
    seed: int, rules: RulesConfig, team_a: str, team_b: str
) -> None:
    state = play_checked(seed, rules, team_a, team_b)
    _check_result(state)


def test_many_seeded_matches_end_by_r25() -> None:
    turns = set()
    reasons = set()
    for seed in range(60):
        state = play_checked(seed, RULE_SETS[seed % 2], "perrockiss", "fish-tank")
        _check_result(state)
        turns.add(state.turn)
        reasons.add(state.reason)
    assert turns == {8, 10}  # the tie-break is reached on some seeds
    assert "score" in reasons
