"""Rulebook sentences about the material and the players, checked against the engine's data.

The concordance (akvo/concordance.toml) maps each of these sentences here: the counts the
rulebook prints must follow from the engine's rules data, so a change on either side fails.
"""

from __future__ import annotations

import random

from akvo.dice import DEFAULT_DICE, MAX_DICE
from akvo.match import CHANCE, TERMINAL, new_match
from akvo.match.actions import LATERAL_TOKENS, SHIP_TOKENS
from akvo.match.board import CHARS_OF_UNIT, LANE_OF_CHAR, START_ROW, UNITS
from akvo.rules import (
    CENTRAL_CHARACTERS,
    CHARACTERS,
    LANES,
    LETTERS,
    MAX_RESILIENCE,
    ROWS,
    TURNS,
    Character,
    lighthouse_level,
)
from akvo.teams import BONUS_SIZE, GROUP_COUNT, GROUP_SIZE, preset_team

SIDES = 2


def test_the_water_has_six_lanes_of_eight_cells() -> None:
    assert (len(LANES), len(ROWS)) == (6, 8)
    assert sorted(LANE_OF_CHAR) == list(LANES)


def test_six_characters_four_lateral_units_and_one_double_ship() -> None:
    assert [c.label for c in CHARACTERS] == [
        "Pédalair", "Kitesurfeur", "Barreur", "Lanceur", "Surfeur", "Plongeur"
    ]  # fmt: skip
    assert UNITS == 5
    doubles = [chars for chars in CHARS_OF_UNIT if len(chars) == 2]
    assert len(doubles) == 1
    assert tuple(CHARACTERS[i] for i in doubles[0]) == CENTRAL_CHARACTERS
    assert SIDES * (UNITS - 1) == 8  # « 8 pions latéraux et 2 pions-navires doubles »


def test_marker_counts_follow_from_the_rules() -> None:
    assert SIDES * len(CHARACTERS) * MAX_RESILIENCE == 36  # marques de Résilience
    assert SIDES * len(CHARACTERS) == 12  # marqueurs d'Ultime
    single, double = 8, 3  # per team: 4 Avancer + 4 Tirer, and the ship's three tokens
    assert set(LATERAL_TOKENS) == {"A", "T"}
    assert {t[:2] for t in SHIP_TOKENS} == {"AA", "AT", "TT"}
    assert single == 2 * (UNITS - 1) and double == len({t[:2] for t in SHIP_TOKENS})
    assert SIDES * (single + double) == 22


def test_eight_dice_are_enough_for_any_roll() -> None:
    assert DEFAULT_DICE <= MAX_DICE == 8


def test_twenty_six_runes_per_team() -> None:
    assert len(LETTERS) == GROUP_COUNT * GROUP_SIZE + BONUS_SIZE == 26
    team = preset_team("perrockiss")
    assert sum(len(team.runes_of(c)) for c in Character) == 24
    assert len(team.bonus_runes()) == 2


def test_setup_start_line_and_lighthouse() -> None:
    third = 3  # « la 3e case d’eau en partant de sa plage »
    assert START_ROW[0] == third
    assert START_ROW[1] == len(ROWS) + 1 - third
    assert lighthouse_level(TURNS[0]) == 1
    state = new_match()
    assert state.scores == [0, 0]
    assert state.current_player == CHANCE  # the first weather token is drawn


def test_each_side_decides_as_one_player() -> None:
    """Team-mates share the control of their six characters: one decision maker per side."""
    rng = random.Random(3)
    state = new_match()
    seen = set()
    for _ in range(400):
        if state.is_terminal():
            break
        seen.add(state.current_player)
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen <= {0, 1, CHANCE, TERMINAL}
    assert {0, 1} <= seen


def test_score_sheet_names_the_six_roles() -> None:
    """« < Aérologue > < Kiteur > < Capitaine > < Elfe > < Surfeur > < Atlante > », lane order."""
    roles = [c.role for c in CHARACTERS]
    assert roles == ["Aérologue", "Kiteur", "Capitaine", "Elfe", "Surfeur", "Atlante"]
