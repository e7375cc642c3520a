"""The rulebook's data (akvo.rules) and the rules configuration (akvo.config)."""

from __future__ import annotations

import pytest

from akvo.config import CHOICES, DEFAULT_RULES, RulesConfig
from akvo.errors import AkvoError, RulesError
from akvo.rules import (
    CHARACTERS,
    DUPLICATED_PRESETS,
    GRIMOIRE,
    PRESET_TEAMS,
    Character,
    RuneCategory,
    Thresholds,
    grimoire,
    lighthouse_level,
    rune,
    runes_in,
    thresholds,
    tier_for_turn,
)

# The matrix as printed in the rulebook, one row per "FORCE", top row first (IV … I).
PRINTED_MATRIX = """
X 6 U 18	X 8 U 16	X 10 U 14	X 12 U 12
X 8 U 16	X 10 U 14	X 12 U 12	X 14 U 10
X 10 U 14	X 12 U 12	X 14 U 10	X 16 U 8
X 12 U 12	X 14 U 10	X 16 U 8	X 18 U 6
"""


def test_matrix_matches_the_printed_table() -> None:
    rows = [line.split("\t") for line in PRINTED_MATRIX.strip().splitlines()]
    for tier, row in zip((4, 3, 2, 1), rows, strict=True):
        for distance, cell in enumerate(row, start=1):
            _, attack, _, defence = cell.split()
            assert thresholds(tier, distance) == Thresholds(int(attack), int(defence))


def test_thresholds_always_sum_to_24() -> None:
    for tier in range(1, 5):
        for distance in range(1, 5):
            attack, defence = thresholds(tier, distance)
            assert attack + defence == 24
            assert attack == 12 + 2 * (distance - tier)


@pytest.mark.parametrize(
    ("tier", "distance", "message"),
    [
        (0, 1, "tier 0 is outside"),
        (5, 1, "tier 5 is outside"),
        (1, 0, "distance 0 is outside"),
        (1, 5, "distance 5 is outside"),
        (1.0, 1, "tier must be an integer"),
        (2, "3", "distance must be an integer"),
        (True, 1, "tier must be an integer"),
    ],
)
def test_thresholds_reject_out_of_range(tier: object, distance: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        thresholds(tier, distance)  # type: ignore[arg-type]


def test_wind_schedule() -> None:
    """R7: two turns per tier, tie-break turns at tier IV."""
    assert [tier_for_turn(t) for t in range(1, 11)] == [1, 1, 2, 2, 3, 3, 4, 4, 4, 4]
    assert [lighthouse_level(t) for t in range(1, 11)] == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    for bad in (0, 11, -1):
        with pytest.raises(RulesError, match="turn"):
            tier_for_turn(bad)


def test_characters_in_lane_order() -> None:
    """R1: lane k holds the same character for both sides."""
    assert [c.label for c in CHARACTERS] == [
        "Pédalair",
        "Kitesurfeur",
        "Barreur",
        "Lanceur",
        "Surfeur",
        "Plongeur",
    ]
    assert [c.lane for c in CHARACTERS] == [1, 2, 3, 4, 5, 6]
    assert [c for c in CHARACTERS if c.is_central] == [Character.BARREUR, Character.LANCEUR]
    assert [c.ultime.name for c in CHARACTERS] == [
        "Souffle portant",
        "Tourbillon",
        "Égide",
        "Vigie",
        "Rouleau",
        "Trident",
    ]
    assert Character.from_name("pedalair") is Character.PEDALAIR
    assert Character.from_name("Atlante") is Character.PLONGEUR
    assert Character.from_lane(4) is Character.LANCEUR
    with pytest.raises(RulesError, match="unknown character 'Capitaine Crochet'"):
        Character.from_name("Capitaine Crochet")
    with pytest.raises(RulesError, match="lane 7"):
        Character.from_lane(7)


def test_grimoire_categories_r19() -> None:
    assert len(GRIMOIRE) == 26
    letters = {cat: "".join(r.letter for r in runes_in(cat)) for cat in RuneCategory}
    assert letters == {
        RuneCategory.ATTAQUE: "NOPQR",
        RuneCategory.DEFENSE: "ABCDE",
        RuneCategory.CONFUSION: "FGHST",
        RuneCategory.RELANCE: "IJKLM",
        RuneCategory.MOUVEMENT: "VWXYZ",
        RuneCategory.ULTIME: "U",
    }
    assert rune("q").name == "Queue de poisson"
    assert rune("M").name == "Maelstörm"


def test_grimoire_variant_swaps_confusion_and_relance() -> None:
    swapped = RulesConfig(grimoire="swapped")
    assert "".join(r.letter for r in runes_in(RuneCategory.CONFUSION, swapped)) == "IJKLM"
    assert "".join(r.letter for r in runes_in(RuneCategory.RELANCE, swapped)) == "FGHST"
    assert grimoire(swapped)["N"].category is RuneCategory.ATTAQUE
    with pytest.raises(RulesError, match="not a rune letter"):
        rune("1")


def test_preset_teams_of_the_annex() -> None:
    assert len(PRESET_TEAMS) == 6
    lists = {PRESET_TEAMS[k].team_list for k in DUPLICATED_PRESETS}
    assert len(lists) == 1  # R28: printed identical, kept as printed


def test_rules_config_defaults_and_variants() -> None:
    # Every variant's default is its first option (docs/rulings.md states each one:
    # tests/test_rulings_doc.py); two spelled out here.
    assert DEFAULT_RULES.to_dict() == {field: options[0] for field, options in CHOICES.items()}
    assert DEFAULT_RULES.weather == "bag" and DEFAULT_RULES.rune_u == "restores_ultime"
    assert RulesConfig.from_text("weather=coin, prodige=all") == RulesConfig(
        weather="coin", prodige="all"
    )
    assert RulesConfig.from_text(DEFAULT_RULES.to_text()) == DEFAULT_RULES
    coin = DEFAULT_RULES.with_(weather="coin")
    assert coin.weather == "coin" and DEFAULT_RULES.weather == "bag"
    assert RulesConfig.from_dict(coin.to_dict()) == coin
    with pytest.raises(RulesError, match="weather='dice' is unknown"):
        RulesConfig(weather="dice")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="unknown rules variant"):
        RulesConfig.from_dict({"gravity": "low"})
    with pytest.raises(AkvoError):
        DEFAULT_RULES.with_(prodige="five")
