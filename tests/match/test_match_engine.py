"""Core engine behaviour: chance nodes, legal actions, illegal actions, perft counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from akvo.config import RulesConfig
from akvo.errors import IllegalAction
from akvo.match import CHANCE, MatchState, new_match, play_match
from akvo.match.phases import Phase
from akvo.match.scenario import scenario
from tests.match.helpers import play_random

ALL_ADVANCE = "orders AAAA AA"


def perft(state: MatchState, depth: int) -> int:
    """Leaf count of the game tree, chance outcomes included as branches."""
    if depth == 0 or state.is_terminal():
        return 1
    if state.is_chance_node():
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = list(state.legal_actions())
    return sum(perft(state.child(a), depth - 1) for a in actions)


def test_a_match_starts_with_the_weather_draw() -> None:
    state = new_match()
    assert state.current_player == CHANCE
    assert state.turn == 1 and state.tier == 1
    assert state.rows == [3] * 5 + [6] * 5  # R2
    assert state.chance_outcomes() == (
        ("weather A", Fraction(1, 2)),
        ("weather B", Fraction(1, 2)),
    )
    state.apply_action("weather B")
    assert state.bag == [4, 3]
    assert state.current_player == 0  # A programs first, in secret
    assert len(state.legal_actions()) == 64


def test_the_weather_bag_is_drawn_without_replacement() -> None:
    state = scenario(turn=5, bag=[1, 3])
    assert dict(state.chance_outcomes()) == {
        "weather A": Fraction(1, 4),
        "weather B": Fraction(3, 4),
    }
    forced = scenario(turn=8, bag=[0, 1])  # one token left: no chance node
    assert forced.favoured == 1 and forced.current_player == 0
    coin = scenario(rules=RulesConfig(weather="coin"), turn=5, bag=[0, 0])
    assert dict(coin.chance_outcomes()) == {
        "weather A": Fraction(1, 2),
        "weather B": Fraction(1, 2),
    }


def test_observation_hides_the_other_sides_orders_until_revealed() -> None:
    state = new_match()
    state.apply_action("weather A")
    state.apply_action("orders TTAA TT")
    assert state.observation("B")["orders"] == {"A": "hidden", "B": None}
    assert state.observation("A")["orders"] == {"A": "TTAA TT", "B": None}
    assert state.observation("B")["legal_actions"] == list(state.legal_actions())
    assert state.observation("A")["legal_actions"] == []
    state.apply_action("orders AAAA AT-L")
    assert state.observation("B")["orders"] == {"A": "TTAA TT", "B": "AAAA AT-L"}


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = play_random(new_match(), 4, lambda s: s.phase == Phase.ATTACK_RUNE)
    checks = [
        "activate navire",
        "rune Z",
        "roll 1234",
        "",
        "weather A",
    ]
    for action in checks:
        before = state.to_json()
        with pytest.raises(IllegalAction, match="illegal action"):
            state.apply_action(action)
        assert state.to_json() == before
    # At a chance node: malformed rolls are named.
    roll = play_random(new_match(), 4, lambda s: s.phase == Phase.ROLL)
    before = roll.to_json()
    for action in ["roll 12", "roll 1237", "roll 12345", "keep", "weather A"]:
        with pytest.raises(IllegalAction, match="die faces"):
            roll.apply_action(action)
        assert roll.to_json() == before
    over = play_match(5)
    with pytest.raises(IllegalAction, match="the match is over"):
        over.apply_action("keep")
    assert isinstance(IllegalAction("x"), ValueError)


def test_roll_chance_nodes_list_every_ordered_roll() -> None:
    state = play_random(new_match(), 2, lambda s: s.phase == Phase.ROLL)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 ** len(outcomes[0][0][5:])
    assert sum(p for _, p in outcomes) == 1


def test_child_leaves_the_parent_untouched() -> None:
    state = new_match()
    before = state.to_json()
    child = state.child("weather A")
    assert state.to_json() == before
    assert child.favoured == 0 and state.favoured == -1


@pytest.mark.parametrize(
    ("depth", "expected"),
    [(1, 64), (2, 4096)],
)
def test_perft_of_the_orders(depth: int, expected: int) -> None:
    state = new_match()
    state.apply_action("weather A")
    assert perft(state, depth) == expected


def _all_advance(team_a: str = "perrockiss", team_b: str = "fish-tank") -> MatchState:
    state = new_match(team_a, team_b)
    state.apply_action("weather A")
    state.apply_action(ALL_ADVANCE)
    state.apply_action(ALL_ADVANCE)
    return state


def test_perft_of_the_first_activations() -> None:
    state = _all_advance()
    # A (Perrockiss): 5 units + Tourbillon, Égide, Vigie (rune U is useless: no Ultime used).
    assert state.legal_actions() == (
        "activate pedalair",
        "activate kitesurfeur",
        "activate navire",
        "activate surfeur",
        "activate plongeur",
        "ultime tourbillon",
        "ultime egide",
        "ultime vigie",
    )
    # The Pédalair (LEGS) may add the bonus Mouvement rune W to its Avancer.
    assert state.child("activate pedalair").legal_actions() == ("advance", "advance +W")
    assert perft(state, 1) == 8
    # Depth 2 by hand: Pédalair 2 (W), Kitesurfeur 3 (V, W), Surfeur 3 (Y, W), Plongeur 3
    # (X, W); the ship's AA needs both free cells, so a Mouvement rune could not act (R20):
    # its advance is played at once and B's 8 choices follow; after Tourbillon 8 (4 others
    # + "rune U kitesurfeur", R22), after Égide or Vigie 7 each:
    # 2 + 3 + 8 + 3 + 3 + 8 + 7 + 7 = 41.
    assert perft(state, 2) == 41
    assert perft(state, 3) == 239
    assert perft(state, 4) == 1388
