"""Edge cases of the rulebook and rulings, one scripted position each (from the audit)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from akvo.config import RulesConfig
from akvo.errors import IllegalAction
from akvo.match.board import BARREUR, LANCEUR, SURFEUR, UNITS
from akvo.match.phases import Phase
from akvo.match.scenario import scenario
from tests.match.helpers import bare, play

NAVIRE = 2


@pytest.mark.parametrize(
    ("defence", "roll", "points"), [("rune F", "roll 666", 1), ("no rune", "roll 6665", 2)]
)
def test_an_interception_beyond_4_is_impossible_and_the_chest_is_captured(
    defence: str, roll: str, points: int
) -> None:
    # R17 + R24: Souffle portant brings the chest 6 cells away to 4; B's Pédalair on row 8
    # is 5 cells from the shooter, so it cannot intercept. R20: A's Confusion G and B's
    # Relance I could not act (there is no interception roll): only L and F are offered.
    state = bare(
        keep={"A": "LG", "B": "FI"}, ultimes={"A": ["pedalair"]}, rows={"B": {"pedalair": 8}}
    )
    play(state, "weather A", "orders TAAA AA", "orders AAAA AA", "activate pedalair")
    assert state.legal_actions() == (
        "shoot kitesurfeur",
        "shoot pedalair souffle",
        "shoot kitesurfeur souffle",
        "shoot barreur souffle",
        "shoot lanceur souffle",
        "shoot chest souffle",
    )
    play(state, "shoot chest souffle")
    assert state.legal_actions() == ("no rune", "rune L")
    play(state, "no rune")
    assert state.legal_actions() == ("no rune", "rune F")
    play(state, defence)
    assert len(state.chance_outcomes()) == 6 ** (len(roll) - 5)
    play(state, roll)  # against X 18 (tier I, distance 4), critical from 22: no defence roll
    total, how = (18, "réussi.") if points == 1 else (23, "critique !")
    assert state.events[-1] == (
        "Tour 1 — le Pédalair de A tire sur le coffre du couloir 1 (distance 4) : "
        f"{total} contre 18, {how} Interception impossible : +{points} point"
        + ("s." if points == 2 else ".")
    )
    assert state.scores == [points, 0] and state.last_outcome == f"score_{points}"


def test_souffle_portant_is_not_offered_where_it_cannot_shorten_the_shot() -> None:
    # R24: distance − 2, minimum 1 — at distance 1 Souffle portant would change nothing.
    state = bare(ultimes={"A": ["pedalair"]}, rows={"A": {"surfeur": 5}})
    play(state, "weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur")
    assert "shoot surfeur" in state.legal_actions()  # distance 1
    assert "shoot surfeur souffle" not in state.legal_actions()
    assert "shoot plongeur souffle" in state.legal_actions()  # distance 2 → 1


@pytest.mark.parametrize(("prodige", "recovers"), [("four", False), ("all", True)])
def test_confusion_and_tourbillon_stack_and_only_the_variant_sees_a_prodige(
    prodige: str, recovers: bool
) -> None:
    # R14: B's Tourbillon and Confusion T each take a die from A's attack on B's
    # Kitesurfeur: 2 dice. R13: two equal dice are a prodige only under "all".
    state = bare(
        keep={"B": "T"},
        ultimes={"B": ["kitesurfeur"]},
        rules=RulesConfig(prodige=prodige),  # type: ignore[arg-type]
        rows={"A": {"kitesurfeur": 4}},
    )
    play(state, "weather B", "orders ATAA AA", "orders AAAA AA", "ultime tourbillon")
    play(state, "activate pedalair", "activate kitesurfeur", "shoot kitesurfeur", "rune T")
    assert len(state.chance_outcomes()) == 6**2
    assert state.prompt() == "Jet d'attaque : le Kitesurfeur de A lance 2 dés, seuil 14."
    play(state, "roll 55")
    assert state.events[-1].endswith("10 contre 14, raté." + (" Prodige !" if recovers else ""))
    assert (state.phase == Phase.PRODIGE) is recovers


def test_a_prodige_never_takes_back_the_rune_u() -> None:
    # R22/R23: with U and P spent, P is the only rune to recover (played at once).
    state = scenario(
        spent={"A": "UP"},
        ultimes_used={"A": ["pedalair", "surfeur"], "B": ["pedalair"]},
        rows={"A": {"surfeur": 5}},
    )
    play(state, "weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur")
    assert state.legal_actions() == (  # blocked: no Mouvement rune (R20); B's chest is 4 away
        "shoot kitesurfeur",
        "shoot barreur",
        "shoot lanceur",
        "shoot surfeur",
        "shoot plongeur",
        "shoot chest",
    )
    play(state, "shoot surfeur", "no rune", "no rune", "roll 4444", "roll 1112")
    assert state.events[-2:] == [
        "Tour 1 — le Surfeur de A tire sur le Surfeur de B (distance 1) : 16 contre 12, "
        "critique ! Prodige ! Défense 5 contre 12, ratée : le Surfeur de B recule de 2 cases, "
        "Résilience 1.",
        "Tour 1 — prodige : le Surfeur de A récupère la rune P.",
    ]
    assert state.spent_letters(0) == "U"
    assert state.phase == Phase.ACTIVATE  # Rouleau is used: no Rouleau node


def test_ultime_effects_end_with_the_turn() -> None:
    # R24: Égide lasts until the end of the turn, and is used for the match.
    state = bare(ultimes={"A": ["barreur"]})
    play(state, "weather A", "orders AAAA AA", "orders AAAA AA", "ultime egide")
    assert state.effects == [2, 0]
    while state.turn == 1:
        play(state, next(a for a in state.legal_actions() if a.startswith("activate")))
    assert state.effects == [0, 0]
    play(state, "weather A", "orders AAAA AA", "orders AAAA AA")
    assert "ultime egide" not in state.legal_actions()


def test_both_central_mages_count_in_the_enemy_half() -> None:
    # R25: rows 5–8 are A's enemy half, rows 1–4 B's; the ship counts for two mages.
    state = scenario(rows={"A": {"navire": 5, "surfeur": 5}, "B": {"navire": 6, "plongeur": 4}})
    assert state.mages_in_enemy_half(0) == 3
    assert state.mages_in_enemy_half(1) == 1


def test_a_mouvement_rune_adds_a_third_cell_to_the_ships_double_advance() -> None:
    # R10 + R20: the ship's AA may use a Mouvement rune of either central mage or a bonus
    # rune when the third cell is free.
    state = bare(keep={"A": "ZW"}, rows={"B": {"navire": 8}})
    play(state, "weather A", "orders AAAA AA", "orders AAAA AA", "activate navire")
    assert state.legal_actions() == ("advance", "advance +Z", "advance +W")
    play(state, "advance +Z")
    assert state.rows[NAVIRE] == 6
    assert state.events[-1] == (
        "Tour 1 — le navire de A joue la rune Z (Mouvement) et avance de 3 cases (ligne 6)."
    )


def test_a_central_mage_pushed_at_the_edge_still_gains_resilience_alone() -> None:
    # R11: the ship cannot move back from row 1; only the targeted Barreur gains 1.
    state = bare(rows={"A": {"navire": 1}, "B": {"navire": 3}})
    play(state, "weather B", "orders AAAA AA", "orders AAAA TT", "activate navire")
    play(state, "first barreur", "shoot barreur", "roll 6665", "roll 1112")
    assert state.events[-1] == (
        "Tour 1 — le Barreur de B tire sur le Barreur de A (distance 2) : 23 contre 14, "
        "critique ! Défense 5 contre 10, ratée : le Barreur de A ne peut pas reculer "
        "(bord du plan d'eau), Résilience 1."
    )
    assert state.rows[NAVIRE] == 1
    assert (state.res[BARREUR], state.res[LANCEUR]) == (1, 0)


def test_resilience_and_egide_add_to_an_interception() -> None:
    # R11 + R24: Résilience 3 and Égide give the intercepting Plongeur +4 against U 16
    # (tier IV, interception distance 2); failing it, a critical attack scores 2.
    state = bare(
        ultimes={"B": ["barreur"]},
        turn=7,
        rows={"A": {"plongeur": 6}, "B": {"plongeur": 8}},
        resilience={"B": {"plongeur": 3}},
    )
    play(state, "weather B", "orders AAAT AA", "orders AAAA AA", "ultime egide")
    play(state, "activate pedalair", "activate plongeur", "shoot chest", "roll 6655")
    assert state.roll_target() == (4, 16)
    play(state, "roll 1112")
    assert state.scores == [2, 0] and state.last_outcome == "score_2"


def test_rouleau_needs_the_enemy_surfeur_to_move() -> None:
    # R24: pushed against its own edge, B's Surfeur does not move: no Rouleau.
    state = bare(ultimes={"A": ["surfeur"]}, rows={"A": {"surfeur": 7}, "B": {"surfeur": 8}})
    play(state, "weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur")
    play(state, "shoot surfeur", "roll 4431", "roll 1112")
    assert state.last_outcome == "push_1"
    assert state.rows[UNITS + 3] == 8 and state.res[6 + SURFEUR] == 1
    assert state.phase == Phase.ACTIVATE and state.current_player == 1


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"rows": {"C": {"surfeur": 4}}}, "unknown side 'C'"),
        ({"spent": {"A": "P1"}}, "not a letter"),
        ({"bag": [-1, 4]}, "two counts"),
        ({"turn": 8, "bag": [0, 0]}, "one per turn left"),
        ({"turn": 5, "bag": [1, 2]}, "one per turn left"),
        ({"turn": 9, "bag": [5, 3]}, "two counts 0–4"),
        ({"scores": [1]}, "two counts"),
        ({"scores": ["one", 0]}, "two counts"),
        ({"resilience": {"A": {"surfeur": 4}}}, "outside 0–3"),
        ({"rows": {"A": {"surfeur": 7}, "B": {"surfeur": 7}}}, "below B's"),
    ],
)
def test_a_bad_scenario_is_rejected_by_name(setup: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalAction, match=message):
        scenario(**setup)  # type: ignore[arg-type]


def test_a_mouvement_rune_before_a_shot_is_the_sides_one_rune() -> None:
    # R18 + R20: after W moves the Kitesurfeur, A cannot add its Attaque Q to the shot;
    # B may still answer with its own rune.
    state = bare(keep={"A": "WQ", "B": "A"})
    play(state, "weather A", "orders ATAA AA", "orders AAAA AA", "activate kitesurfeur")
    assert state.legal_actions() == ("no move", "move W")
    play(state, "move W", "shoot kitesurfeur")
    assert state.phase == Phase.DEFENCE_RUNE and state.current_player == 1
    assert state.legal_actions() == ("no rune", "rune A")
    assert state.spent_letters(0) == "ABCDEFGHIJKLMNOPRSTUVWXYZ"  # Q is still unspent


@pytest.mark.parametrize(("token", "shooter"), [("AT-B", "Barreur"), ("AT-L", "Lanceur")])
def test_the_avancer_tirer_token_orientation_names_the_shooter(token: str, shooter: str) -> None:
    # The rulebook: the AT token's orientation says which central mage receives Tirer.
    state = bare()
    play(state, "weather A", f"orders AAAA {token}", "orders AAAA AA", "activate navire")
    play(state, "move first", "shoot kitesurfeur", "roll 1112")
    assert state.events[-1].startswith(f"Tour 1 — le {shooter} de A tire sur le Kitesurfeur")


@pytest.mark.parametrize(
    ("rules", "bag", "share_a"),
    [(RulesConfig(weather="coin"), [4, 4], 0.5), (RulesConfig(), [1, 3], 0.25)],
)
def test_sampled_weather_follows_its_exact_odds(
    rules: RulesConfig, bag: list[int], share_a: float
) -> None:
    # R8: a fair coin, or a draw from the bag without replacement (4000 seeded draws; the
    # tolerance is 5 standard deviations).
    state = scenario(rules=rules, turn=5, bag=bag)
    rng = random.Random(8)
    draws = 4000
    seen = sum(state.sample_chance(rng) == "weather A" for _ in range(draws)) / draws
    assert dict(state.chance_outcomes())["weather A"] == Fraction(share_a)
    assert abs(seen - share_a) < 5 * (share_a * (1 - share_a) / draws) ** 0.5


def test_a_mage_plays_only_its_own_runes_and_the_bonus_runes() -> None:
    # R21: A's Surfeur may play its P or the bonus Q, not the Plongeur's R; B's Surfeur
    # its D, not the Kitesurfeur's A.
    state = bare(keep={"A": "PQR", "B": "DA"}, rows={"A": {"surfeur": 5}})
    play(state, "weather A", "orders AATA AA", "orders AAAA AA", "activate surfeur")
    play(state, "shoot surfeur")
    assert state.legal_actions() == ("no rune", "rune P", "rune Q")
    play(state, "rune Q")
    assert state.legal_actions() == ("no rune", "rune D")
