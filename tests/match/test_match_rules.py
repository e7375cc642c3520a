"""Targeted rules: Mouvement runes, Souffle-only targets, rune U (R22), variants."""

from __future__ import annotations

from akvo.config import RulesConfig
from akvo.match.roster import CONFUSION, RELANCE
from akvo.match.scenario import scenario
from akvo.teams import parse_team
from tests.match.helpers import ALL, EVERY_ULTIME, play


def test_a_mouvement_rune_adds_a_cell_to_an_advance() -> None:
    state = play(scenario(), "weather A", "orders AAAA AA", "orders AAAA AA")
    play(state, "activate pedalair", "advance +W")
    assert state.rows[0] == 5
    assert state.spent_letters(0) == "W"
    assert state.events[-1] == (
        "Tour 1 — le Pédalair de A joue la rune W (Mouvement) et avance de 2 cases (ligne 5)."
    )


def test_a_mouvement_rune_before_a_shot_moves_the_whole_ship() -> None:
    state = play(
        scenario(spent={"A": ALL.replace("Z", "")}, ultimes_used={"A": EVERY_ULTIME}),
        "weather A",
        "orders AAAA AT-L",
        "orders AAAA AA",
        "activate navire",
        "shot first",
    )
    assert state.legal_actions() == ("no move", "move Z")
    state.apply_action("move Z")
    assert state.rows[2] == 4  # the ship, measured from its new row
    # Measured from (4, 4): the Kitesurfeur of B (6, 2) is now 4 away, the Pédalair 5.
    assert state.legal_actions() == (
        "shoot kitesurfeur",
        "shoot barreur",
        "shoot lanceur",
        "shoot surfeur",
        "shoot plongeur",
    )


def test_hold_exists_only_when_every_target_needs_souffle_portant() -> None:
    state = play(
        scenario(rows={"A": {"pedalair": 1}}, spent={"A": ALL, "B": ALL}),
        "weather A",
        "orders TAAA AA",
        "orders AAAA AA",
        "activate pedalair",
    )
    # From (1, 1): B's Pédalair is 5 away, its Kitesurfeur 6, the chest 8.
    assert state.legal_actions() == ("shoot pedalair souffle", "shoot kitesurfeur souffle", "hold")
    before = list(state.ult_used)
    state.apply_action("hold")
    assert state.ult_used == before
    assert state.events[-1] == "Tour 1 — le Pédalair de A renonce à tirer."


def test_a_bonus_rune_u_may_restore_any_allys_ultime() -> None:
    team = parse_team("FISH/TANK/CLOX/BEWZ/GMYD/PJQV+RU")
    state = play(
        scenario(team, "perrockiss", ultimes_used={"A": ["barreur", "lanceur"]}),
        "weather A",
        "orders AAAA AA",
        "orders AAAA AA",
    )
    assert [a for a in state.legal_actions() if a.startswith("rune U")] == [
        "rune U barreur",
        "rune U lanceur",
    ]
    state.apply_action("rune U lanceur")
    assert state.ult_used[0] == 1 << 2
    assert "ultime vigie" in state.legal_actions()
    assert not any(a.startswith("rune U") for a in state.legal_actions())


def test_names_only_rune_u_cannot_be_played() -> None:
    state = play(
        scenario(rules=RulesConfig(rune_u="names_only"), ultimes_used={"A": ["kitesurfeur"]}),
        "weather A",
        "orders AAAA AA",
        "orders AAAA AA",
    )
    assert not any(a.startswith("rune U") for a in state.legal_actions())


def test_prodige_variants() -> None:
    four = scenario()
    every = scenario(rules=RulesConfig(prodige="all"))
    assert four._is_prodige([3, 3, 3, 3]) and every._is_prodige([3, 3, 3, 3])
    assert not four._is_prodige([3, 3, 3]) and every._is_prodige([3, 3, 3])
    assert not every._is_prodige([3]) and not every._is_prodige([3, 3, 4])


def test_the_swapped_grimoire_reads_at_and_hash_the_other_way() -> None:
    standard = scenario().rosters[0]
    swapped = scenario(rules=RulesConfig(grimoire="swapped")).rosters[0]
    assert standard.category_of["G"] == CONFUSION and standard.category_of["L"] == RELANCE
    assert swapped.category_of["G"] == RELANCE and swapped.category_of["L"] == CONFUSION


def test_a_blocked_unit_still_shoots() -> None:
    state = play(
        scenario(rows={"A": {"surfeur": 5}, "B": {"surfeur": 6}}, spent={"A": ALL, "B": ALL}),
        "weather A",
        "orders AAAA AA",
        "orders AATA AA",
        "activate surfeur",
    )
    assert state.events[-1] == "Tour 1 — le Surfeur de A est bloqué et reste ligne 5."
    state.apply_action("activate surfeur")
    assert "shoot surfeur" in state.legal_actions()
