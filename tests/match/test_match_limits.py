"""The limits the concordance points to, one scripted position each: the defence modifiers
(R11, R20, R24), one rune per side and resolution (R18), Tourbillon's duration (R24), and
Rouleau's advance with or without a Mouvement rune (R20, variant ``rouleau_mouvement``)."""

from __future__ import annotations

import pytest

from akvo.config import RulesConfig
from akvo.errors import IllegalAction
from akvo.match.board import SURFEUR, UNITS
from akvo.match.phases import Phase
from akvo.match.state import MatchState
from tests.match.helpers import bare, play

SURFEUR_UNIT = 3


@pytest.mark.parametrize(
    ("rune", "egide", "resilience", "modifier"),
    [
        (False, False, 0, 0),
        (True, False, 0, 2),
        (False, True, 0, 1),
        (False, False, 2, 2),
        (True, True, 2, 5),
    ],
)
def test_the_defence_modifiers_add_up(
    rune: bool, egide: bool, resilience: int, modifier: int
) -> None:
    # R20: Défense +2; R24: Égide +1 to every ally; R11: +1 per Résilience point. A's
    # Surfeur shoots B's Surfeur 3 cells away at tier I: X 16, U 8.
    state = bare(
        keep={"B": "D" if rune else ""},
        ultimes={"B": ["barreur"] if egide else []},
        resilience={"B": {"surfeur": resilience}},
    )
    play(state, "weather B", "orders AATA AA", "orders AAAA AA")
    if egide:
        play(state, "ultime egide")
    play(state, "activate pedalair", "activate surfeur", "shoot surfeur")
    if rune:
        play(state, "rune D")
    assert state.roll_target() == (0, 16)
    play(state, "roll 6655")
    assert state.roll_target() == (modifier, 8) and state.roll_dice() == 4


def test_each_side_plays_at_most_one_rune_per_resolution() -> None:
    # R18: the attacker declares one rune, then the defender one, both before the attack
    # roll; neither may add a second (A's Confusion F, B's Confusion T stay unspent).
    state = bare(keep={"A": "NF", "B": "TA"})
    play(state, "weather A", "orders ATAA AA", "orders AAAA AA", "activate kitesurfeur")
    play(state, "shoot kitesurfeur")
    assert state.phase == Phase.ATTACK_RUNE
    assert state.legal_actions() == ("no rune", "rune N", "rune F")
    play(state, "rune N")
    assert state.phase == Phase.DEFENCE_RUNE and state.current_player == 1
    assert state.legal_actions() == ("no rune", "rune T", "rune A")
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply_action("rune F")  # A's second rune
    play(state, "rune A")
    assert state.phase == Phase.ROLL
    for second in ("rune T", "rune F"):
        with pytest.raises(IllegalAction):
            state.apply_action(second)
    assert state.to_json() != before
    play(state, "roll 5544", "roll 1111")
    assert not state.is_spent("A", "F") and not state.is_spent("B", "T")
    assert state.is_spent("A", "N") and state.is_spent("B", "A")


def test_tourbillon_lasts_until_the_end_of_the_turn() -> None:
    # R14 + R24: while B's Tourbillon lasts, A rolls one die fewer to defend against B's
    # Kitesurfeur and to attack it; the next turn, four dice again.
    state = bare(ultimes={"B": ["kitesurfeur"]})
    play(state, "weather B", "orders ATAA AA", "orders ATAA AA", "ultime tourbillon")
    play(state, "activate kitesurfeur", "shoot kitesurfeur")
    assert state.roll_dice() == 4  # the Kitesurfeur's own attack
    play(state, "roll 5544")
    assert state.roll_dice() == 3  # A's defence
    play(state, "roll 111", "activate kitesurfeur")  # A's only target: B's Kitesurfeur
    assert state.phase == Phase.ROLL and state.shot is not None and state.shot.target == 1
    assert state.roll_dice() == 3  # A's attack on it
    play(state, "roll 111")
    while state.turn == 1:
        play(state, next(a for a in state.legal_actions() if a.startswith("activate")))
    assert state.effects == [0, 0]
    play(state, "weather B", "orders ATAA AA", "orders ATAA AA", "activate kitesurfeur")
    play(state, "shoot kitesurfeur", "roll 5544")
    assert state.roll_dice() == 4  # A's defence: Tourbillon is over
    assert "ultime tourbillon" not in state.legal_actions()


def _rouleau_offered(
    rules: RulesConfig, keep: str = "YW", rows: tuple[int, int] = (4, 6), attack: str = "6655"
) -> MatchState:
    """A's Surfeur (Mouvement Y, bonus Mouvement W) on ``rows[0]`` pushes B's Surfeur from
    ``rows[1]`` (a critical by default: 2 cells back) and may declare Rouleau."""
    state = bare(
        keep={"A": keep}, ultimes={"A": ["surfeur"]}, rules=rules,
        rows={"A": {"surfeur": rows[0]}, "B": {"surfeur": rows[1]}},
    )  # fmt: skip
    play(state, "weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur")
    if state.phase == Phase.PRE_SHOT:
        play(state, "no move")
    play(state, "shoot surfeur", f"roll {attack}", "roll 1112")
    assert state.phase == Phase.ROULEAU
    return state


PLUS_ONE = RulesConfig(rouleau_mouvement="plus_one")


def test_by_default_no_mouvement_rune_goes_on_rouleau() -> None:
    # R20: Rouleau's advance is not an « action Avancer »: 1 cell, no rune offered.
    state = _rouleau_offered(RulesConfig())
    assert state.rows[UNITS + SURFEUR_UNIT] == 8
    assert state.legal_actions() == ("rouleau", "no rouleau")
    with pytest.raises(IllegalAction):
        state.apply_action("rouleau +Y")
    play(state, "rouleau")
    assert state.rows[SURFEUR_UNIT] == 5 and not state.is_spent("A", "Y")
    assert state.events[-1] == "Tour 1 — le Surfeur de A déclare Rouleau et avance de 1 case."


def test_the_variant_lets_a_mouvement_rune_take_rouleau_two_cells() -> None:
    state = _rouleau_offered(PLUS_ONE)
    assert state.legal_actions() == ("rouleau", "rouleau +Y", "rouleau +W", "no rouleau")
    play(state, "rouleau +W")
    assert state.rows[SURFEUR_UNIT] == 6 and state.is_spent("A", "W")
    assert not state.is_spent("A", "Y") and state.runes_spent_count[0] == 1
    assert state.ult_used[0] >> SURFEUR & 1
    assert state.events[-1] == (
        "Tour 1 — le Surfeur de A déclare Rouleau, joue la rune W (Mouvement) et avance de 2 cases."
    )
    assert state.phase == Phase.ACTIVATE and state.current_player == 1


def test_the_variant_offers_no_rune_where_the_second_cell_is_taken_or_none_is_left() -> None:
    # X 12 at distance 1: 12 succeeds without a critical, B's Surfeur goes back 1 cell to
    # row 6, and A's Surfeur on row 4 has one free cell ahead, not two.
    blocked = _rouleau_offered(PLUS_ONE, rows=(4, 5), attack="4431")
    assert blocked.rows[UNITS + SURFEUR_UNIT] == 6
    assert blocked.legal_actions() == ("rouleau", "no rouleau")
    play(blocked, "rouleau")
    assert blocked.rows[SURFEUR_UNIT] == 5
    assert _rouleau_offered(PLUS_ONE, keep="").legal_actions() == ("rouleau", "no rouleau")
    # Only the Surfeur's own Mouvement rune and the bonus ones (R21): not the Kitesurfeur's V.
    assert _rouleau_offered(PLUS_ONE, keep="V").legal_actions() == ("rouleau", "no rouleau")


def test_on_avancer_tirer_the_shooter_may_spend_its_own_mouvement_rune_on_the_ship() -> None:
    # R20: the ship's advance of Avancer/Tirer takes a Mouvement rune of either central mage,
    # the shooting Lanceur's own Z included; it is the ship's advance, not the step before
    # the shot, so the Lanceur still has its shot's rune (its Relance I, R18).
    state = bare(keep={"A": "ZI"}, rows={"B": {"navire": 8}})
    play(state, "weather A", "orders AAAA AT-L", "orders AAAA AA", "activate navire")
    play(state, "move first")
    assert state.legal_actions() == ("advance", "advance +Z")
    play(state, "advance +Z")
    assert state.rows[2] == 5 and state.is_spent("A", "Z")
    play(state, "shoot chest")
    assert state.phase == Phase.ATTACK_RUNE and state.legal_actions() == ("no rune", "rune I")
