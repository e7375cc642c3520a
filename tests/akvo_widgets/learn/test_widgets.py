"""The widgets without a browser: set each control from Python, read what the widget shows,
and compare with the engine's exact numbers (formatted by the book's French formatter)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from akvo import dice as dice_engine
from akvo.config import RulesConfig
from akvo.dice import roll
from akvo.duel import rune_duel
from akvo.rules import tier_for_turn
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo.tables import odds_grid
from akvo_widgets import RollCalculator, RuneDuel, ShotCalculator, WindMatrix
from akvo_widgets.learn.roll import BANDS
from akvo_widgets.learn.shot import NO_INTERCEPTOR
from akvo_widgets.text.formatting import (
    decimal,
    fraction,
    french,
    how_often,
    integer,
    percent,
    points_chip,
    signed,
    times_in_ten,
)


def shown(html: str, css: str) -> str:
    """Text of the first element whose class list contains ``css``."""
    match = re.search(rf'class="[^"]*\b{re.escape(css)}\b[^"]*">([^<]*)<', html)
    assert match, f"no element .{css} in {html[:200]}"
    return match.group(1)


# --- Formatting ---------------------------------------------------------------------------


def test_french_numbers() -> None:
    assert percent(Fraction(145, 432)) == "33,6\u00a0%"
    assert percent(1) == "100,0\u00a0%"
    assert fraction(Fraction(455, 1296)) == "455/1\u202f296"
    assert fraction(Fraction(2)) == "2"
    assert integer(1234567) == "1\u202f234\u202f567"
    assert decimal(Fraction(103, 144), 2) == "0,72"
    assert signed(2) == "+2" and signed(-1) == "\u22121" and signed(0) == "0"


def test_a_points_chip_never_rounds_a_possible_score_down_to_nothing() -> None:
    assert points_chip(Fraction(817075, 1679616)) == "0,49\u00a0pt"
    assert points_chip(Fraction(1, 1000)) == "<\u00a00,01\u00a0pt"
    assert points_chip(Fraction(1, 200)) == "0,01\u00a0pt"  # the threshold itself is shown
    assert points_chip(0) == "0,00\u00a0pt"


def test_times_in_ten_rounds_half_up() -> None:
    assert times_in_ten(Fraction(45, 100)) == "5 fois sur 10"
    assert times_in_ten(Fraction(44, 100)) == "4 fois sur 10"
    assert times_in_ten(Fraction(5, 100)) == "1 fois sur 10"
    assert times_in_ten(Fraction(949, 1000)) == "9 fois sur 10"


def test_times_in_ten_never_says_0_or_10_for_a_chance_that_is_neither() -> None:
    assert times_in_ten(0) == "jamais"
    assert times_in_ten(Fraction(9, 1000)) == "presque jamais"  # 0,9 %
    assert times_in_ten(Fraction(41, 1000)) == "moins d’une fois sur 10"  # 4,1 %
    assert times_in_ten(Fraction(96, 100)) == "plus de 9 fois sur 10"
    assert times_in_ten(Fraction(995, 1000)) == "presque toujours"
    assert times_in_ten(1) == "toujours"
    # « jamais » takes the negation: « ne … jamais », « n’… jamais ».
    assert how_often("Vous", "repoussez", "la cible", Fraction(9, 1000)) == (
        "Vous ne repoussez presque jamais la cible"
    )
    assert how_often("Vous", "atteignez", "le coffre", 0) == "Vous n’atteignez jamais le coffre"
    assert how_often("Vous", "repoussez", "la cible", Fraction(2, 5)) == (
        "Vous repoussez la cible 4 fois sur 10"
    )


def test_shot_sentences_read_well_at_both_ends() -> None:
    calc = ShotCalculator()
    calc.distance.value = 3  # tier I, 3 miles: 0,9 % (it used to say « 0 fois sur 10 »)
    assert float(shot_on_mage(1, 3).p_push) < 0.01
    assert "Vous ne repoussez presque jamais la cible" in calc.sentence.value
    calc.turn.value = 9
    calc.distance.value = 1  # tier IV, 1 mile: the shooter is pushed back 1,2 % of the time
    assert 0.01 < float(shot_on_mage(4, 1).p_shooter_pushed) < 0.05
    assert "votre tireur recule moins d’une fois sur 10" in calc.sentence.value
    assert "0 fois sur 10" not in calc.sentence.value


def test_french_spacing() -> None:
    assert french("Note : « oui » ; non ? ah !") == (
        "Note\u00a0: «\u00a0oui\u00a0» \u202f; non\u202f? ah\u202f!".replace(" \u202f;", "\u202f;")
    )


# --- RollCalculator -----------------------------------------------------------------------


def test_roll_calculator_starts_on_the_engine_values() -> None:
    calc = RollCalculator()
    odds = roll(12)
    assert calc.odds == odds
    assert shown(calc.result.value, "akvo-roll-success") == percent(odds.success)
    assert shown(calc.result.value, "akvo-roll-success-fraction") == fraction(odds.success)


def test_roll_calculator_enumerates_every_dice_count_before_a_reader_picks_one() -> None:
    dice_engine.clear_caches()
    calc = RollCalculator()
    enumerated = dice_engine._enumeration.cache_info().currsize
    assert enumerated == calc.dice.max - calc.dice.min + 1 == 8


@pytest.mark.parametrize(
    ("dice", "threshold", "modifier", "reroll"),
    [(4, 16, 0, "success"), (3, 10, 2, "none"), (1, 5, 1, "critical"), (8, 30, 3, "success")],
)
def test_roll_calculator_follows_every_control(
    dice: int, threshold: int, modifier: int, reroll: str
) -> None:
    calc = RollCalculator()
    calc.dice.value = dice
    calc.threshold.value = threshold
    calc.modifier.value = modifier
    calc.reroll.value = reroll
    odds = roll(
        threshold, dice=dice, modifier=modifier, reroll=None if reroll == "none" else reroll
    )
    assert calc.odds == odds
    for key in ("success", "critical", "prodige"):
        value = getattr(odds, key)
        assert shown(calc.result.value, f"akvo-roll-{key}") == percent(value)
        assert shown(calc.result.value, f"akvo-roll-{key}-fraction") == fraction(value)


def test_roll_calculator_never_makes_a_negative_total() -> None:
    """Modifiers in the game are bonuses, up to +6 (Défense, Égide, Résilience 3)."""
    calc = RollCalculator()
    assert (calc.modifier.min, calc.modifier.max) == (0, 6)
    calc.dice.value = calc.dice.min
    calc.modifier.value = -3  # what the old slider allowed: clamped to 0
    assert calc.modifier.value == 0
    assert min(calc.odds.totals) == 1


def test_roll_legend_sits_outside_the_bars() -> None:
    calc = RollCalculator()
    assert calc._bars.display_legend is False  # a legend inside the plot hid the bars
    assert calc.legend in calc.children[0].children
    for label in BANDS:
        assert label in calc.legend.value
    assert list(calc._bars.labels) == list(BANDS)


def test_roll_plot_is_updated_in_place() -> None:
    calc = RollCalculator()
    bars = calc._bars
    calc.threshold.value = 16
    assert calc._bars is bars
    odds = roll(16)
    assert list(bars.x) == sorted(odds.totals)
    totals = sorted(odds.totals)
    for total, band in ((15, 0), (18, 1), (21, 2)):  # failure, success, critical (≥ 20)
        column = totals.index(total)
        assert bars.y[band][column] == pytest.approx(float(odds.totals[total]) * 100)
        assert sum(layer[column] for layer in bars.y) == pytest.approx(bars.y[band][column])


# --- ShotCalculator -----------------------------------------------------------------------


def test_shot_calculator_mage_default() -> None:
    calc = ShotCalculator()
    odds = shot_on_mage(1, 1)
    assert calc.odds == odds
    assert shown(calc.main.value, "akvo-shot-value") == percent(odds.p_push)
    assert how_often("Vous", "repoussez", "la cible", odds.p_push) in calc.sentence.value
    for key, value in odds.outcomes.items():
        assert shown(calc.table.value, f"akvo-shot-{key}") == percent(value)


def test_shot_calculator_follows_both_sides() -> None:
    calc = ShotCalculator()
    calc.turn.value = 6
    calc.distance.value = 3
    calc.attack_rune.value = ("relance", "critical")
    calc.vigie.value = True
    calc.attack_tourbillon.value = True
    calc.defence_rune.value = ("defense", "success")
    calc.resilience.value = 2
    calc.egide.value = True
    calc.defence_tourbillon.value = True
    attack = Side(rune="relance", policy="critical", vigie=True, tourbillon=True)
    defence = Side(rune="defense", resilience=2, egide=True, tourbillon=True)
    odds = shot_on_mage(tier_for_turn(6), 3, attack, defence)
    assert calc.odds == odds
    assert shown(calc.main.value, "akvo-shot-value") == percent(odds.p_push)
    assert list(calc._bars.y) == pytest.approx([float(p) * 100 for p in odds.outcomes.values()])


def test_shot_calculator_souffle_reaches_6_and_unticking_it_says_why() -> None:
    calc = ShotCalculator()
    # The slider always spans Souffle portant's reach: a maximum changed in the browser
    # left the slider's End key at the old one.
    assert (calc.distance.min, calc.distance.max) == (1, 6)
    calc.souffle.value = True
    calc.distance.value = 6
    assert calc.odds == shot_on_mage(1, 6, Side(souffle=True))
    assert calc.figure.layout.display == ""
    calc.souffle.value = False  # no silent clamp: the distance stays, the page says why
    assert calc.distance.value == 6
    assert calc.odds is None
    assert "hors de portée" in calc.sentence.value and "Souffle portant" in calc.sentence.value
    assert calc.main.value == "" and calc.table.value == ""
    assert calc.figure.layout.display == "none"
    calc.distance.value = 4
    assert calc.odds == shot_on_mage(1, 4)
    assert calc.figure.layout.display == ""


def test_shot_calculator_chest() -> None:
    calc = ShotCalculator(kind="chest", distance=2)
    calc.interception.value = 3
    calc.attack_rune.value = ("attaque", "success")
    odds = shot_on_chest(1, 2, 3, Side(rune="attaque"))
    assert calc.odds == odds
    assert shown(calc.main.value, "akvo-shot-value") == decimal(odds.expected_points, 3)
    assert shown(calc.table.value, "akvo-shot-score_2") == percent(odds.outcomes["score_2"])


def test_shot_calculator_explains_a_rune_that_cannot_act() -> None:
    calc = ShotCalculator(kind="chest")
    calc.interception.value = 0  # nobody in range
    calc.defence_rune.value = ("defense", "success")
    assert calc.odds is None
    assert "R20" in calc.sentence.value
    assert calc.figure.layout.display == "none"  # no empty chart frame beside the message
    calc.defence_rune.value = (None, "success")
    assert calc.odds == shot_on_chest(1, 1, None)
    assert calc.figure.layout.display == ""


# --- WindMatrix ---------------------------------------------------------------------------


def test_wind_matrix_shows_every_cell_of_the_engine_grid() -> None:
    matrix = WindMatrix()
    matrix.attack_rune.value = ("confusion", "success")
    matrix.resilience.value = 1
    grid = odds_grid("mage", Side(rune="confusion"), Side(resilience=1))
    assert matrix.grid == grid
    for tier in range(1, 5):
        for distance in range(1, 5):
            cell = shown(matrix.table.value, f"akvo-matrix-t{tier}-d{distance}")
            assert cell == percent(grid.value(tier, distance))
    assert matrix._heatmap.color[3][0] == pytest.approx(float(grid.value(4, 1)))


def test_wind_matrix_chest_in_points() -> None:
    matrix = WindMatrix(kind="chest")
    matrix.interception.value = 2
    matrix.defence_rune.value = ("relance", "success")
    grid = odds_grid("chest", Side(), Side(rune="relance"), interception_distance=2)
    assert matrix.grid == grid
    assert shown(matrix.table.value, "akvo-matrix-t2-d3") == decimal(grid.value(2, 3), 3)
    # The U shown for a chest is the interception's: tier II at interception distance 2.
    assert "X 14 · U 12" in matrix.table.value
    matrix.defence_rune.value = (None, "success")
    matrix.interception.value = NO_INTERCEPTOR
    assert "X 14 · U —" in matrix.table.value


def test_wind_matrix_hides_its_heat_map_behind_an_r20_message() -> None:
    matrix = WindMatrix(kind="chest")
    assert matrix.figure.layout.display == ""
    matrix.interception.value = NO_INTERCEPTOR
    matrix.defence_rune.value = ("relance", "success")  # nobody to play it (R20)
    assert matrix.grid is None and "R20" in matrix.caption.value
    assert matrix.figure.layout.display == "none"  # not the previous situation's colours
    matrix.defence_rune.value = (None, "success")
    assert matrix.figure.layout.display == ""


def test_wind_matrix_names_the_interceptors_resilience() -> None:
    matrix = WindMatrix()
    assert matrix.resilience.description == "Résilience (cible)"
    matrix.kind.value = "chest"
    assert matrix.resilience.description == "Résilience (intercepteur)"


def test_wind_matrix_flags_chest_distances_the_board_cannot_produce() -> None:
    matrix = WindMatrix()
    assert matrix.board_note.value == ""
    matrix.kind.value = "chest"
    matrix.interception.value = 2  # the chest must be 3 or 4 miles away (R10, R11)
    assert "à 1 ou 2 miles avec cet intercepteur n’arrive pas" in matrix.board_note.value
    matrix.interception.value = NO_INTERCEPTOR  # only Souffle portant from 6 allows it
    assert "à 1, 2, 3 ou 4 miles sans intercepteur" in matrix.board_note.value
    matrix.kind.value = "mage"
    assert matrix.board_note.value == ""


# --- RuneDuel -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "interceptor"),
    [(ShotCalculator, "_interception_row"), (RuneDuel, "interception")],
    ids=["shot", "duel"],
)
def test_a_situation_shows_its_tier_and_an_interceptor_for_a_chest_only(
    make: type, interceptor: str
) -> None:
    calculator = make()
    shown = getattr(calculator, interceptor).layout
    assert shown.display == "none" and calculator.tier_label.value == "palier I"
    calculator.kind.value = "chest"
    calculator.turn.value = 5
    assert shown.display == "" and calculator.tier_label.value == "palier III"
    assert calculator.distance.description == "Distance du coffre"


def test_rune_duel_names_the_chest_distance_and_flags_cases_off_the_board() -> None:
    widget = RuneDuel()
    assert widget.distance.description == "Distance du tir"
    assert widget.board_note.value == ""
    widget.kind.value = "chest"
    assert widget.distance.description == "Distance du coffre"
    widget.interception.value = 1
    assert "ce cas n’arrive pas" in widget.board_note.value  # chest at 1 mile: impossible
    widget.distance.value = 3
    assert widget.board_note.value == ""  # interceptor 1 mile away, chest at 3: it happens
    widget.interception.value = 3
    assert "ce cas n’arrive pas" in widget.board_note.value


def test_rune_duel_matches_the_engine() -> None:
    widget = RuneDuel()
    widget.turn.value = 4
    widget.distance.value = 2
    duel = rune_duel("mage", 2, 2)
    assert widget.duel == duel
    assert shown(widget.summary.value, "akvo-duel-sequential") == percent(duel.sequential_value)
    for i in range(len(duel.attacker_options)):
        for j in range(len(duel.defender_options)):
            assert shown(widget.table.value, f"akvo-duel-a{i}-d{j}") == percent(duel.payoff[i][j])


def test_rune_duel_without_interception_shrinks_the_matrix() -> None:
    widget = RuneDuel(kind="chest")
    widget.interception.value = 0
    duel = rune_duel("chest", 1, 1, interception_distance=None)
    assert widget.duel == duel
    assert widget._heatmap.color.shape == (len(duel.attacker_options), len(duel.defender_options))
    assert shown(widget.table.value, "akvo-duel-a1-d1") == decimal(duel.payoff[1][1], 3)


# --- Worked examples (the numbers in the chapters' prose) ---------------------------------


def test_roll_example_shows_the_engine_numbers() -> None:
    from akvo_widgets.learn import examples

    text = examples.roll_example(16, reroll="success").data
    odds = roll(16, reroll="success")
    for value in (odds.success, odds.critical, odds.prodige):
        assert f"**{percent(value)}** ({fraction(value)})" in text


def test_shot_examples_show_the_engine_numbers() -> None:
    from akvo_widgets.learn import examples

    mage = examples.mage_shot_example(1, 1).data
    odds = shot_on_mage(1, 1)
    for value in odds.outcomes.values():
        assert f"**{percent(value)}** ({fraction(value)})" in mage
    assert how_often("Vous", "repoussez", "la cible", odds.p_push) in mage
    chest = examples.chest_shot_example(1, 2, None).data
    points = shot_on_chest(1, 2, None).expected_points
    assert f"**{decimal(points, 3)}** point ({fraction(points)})" in chest
    assert "interception" not in chest
    far = examples.chest_shot_example(1, 6, 5, souffle=True).data
    assert "coffre à 6 miles ramené à 4 par le Souffle portant (X 18)" in far
    assert "hors de portée" in far and "- interception" not in far
    points = shot_on_chest(1, 6, 5, Side(souffle=True)).expected_points
    assert f"**{decimal(points, 3)}** point ({fraction(points)})" in far


def test_duel_example_follows_r18() -> None:
    from akvo_widgets.learn import examples

    duel = rune_duel("mage", 2, 2)
    text = examples.duel_example(2, 2).data
    assert f"**{percent(duel.sequential_value)}** ({fraction(duel.sequential_value)})" in text


def test_threshold_matrix_is_read_from_the_rules() -> None:
    from akvo.rules import thresholds
    from akvo_widgets.learn import examples

    table = examples.threshold_matrix().data
    lines = table.splitlines()
    assert len(lines) == 6
    assert lines[2].startswith("| Palier I (tours 1–2) |")
    assert lines[5].startswith("| Palier IV (tours 7–8) |")
    x, u = thresholds(3, 4)
    assert lines[4].split("|")[5].strip() == f"X {x} · U {u}" == "X 14 · U 10"


def test_highest_score_example_comes_from_the_engine() -> None:
    from akvo.match.showcase import highest_score
    from akvo_widgets.learn import examples

    text = examples.highest_score_example().data
    best, other = highest_score(), highest_score("perrockiss")
    assert f"**{best.total} points**" in text
    assert f"**{other.total} points**" in text
    assert (best.total, other.total) == (90, 88)
    assert best.team_list in text


def test_shot_calculator_flags_chest_shots_the_board_cannot_produce() -> None:
    calc = ShotCalculator(kind="chest", distance=3)
    calc.interception.value = 2
    assert calc.board_note.value == ""  # interceptor between shooter and chest
    calc.interception.value = 3
    assert "ce cas n’arrive pas" in calc.board_note.value
    assert calc.odds == shot_on_chest(1, 3, 3)  # still computed, for comparison
    calc.interception.value = NO_INTERCEPTOR
    assert "Souffle portant depuis 6 cases" in calc.board_note.value
    calc.souffle.value = True
    calc.distance.value = 6
    assert calc.board_note.value == ""
    calc.kind.value = "mage"
    assert calc.board_note.value == ""


# --- Rules variants reach the engine -------------------------------------------------------


def test_every_calculator_takes_a_rules_configuration() -> None:
    every = RulesConfig(prodige="all")
    assert RollCalculator(12, dice=3, rules=every).odds == roll(12, dice=3, prodige="all")
    assert RollCalculator(12, dice=3).odds == roll(12, dice=3)
    assert roll(12, dice=3, prodige="all") != roll(12, dice=3)
    shot = ShotCalculator(rules=every)
    assert shot.odds == shot_on_mage(1, 1, rules=every)
    chest = ShotCalculator(kind="chest", rules=every)
    assert chest.odds == shot_on_chest(1, 1, 1, rules=every)
    assert WindMatrix(rules=every).grid == odds_grid("mage", rules=every)
    assert RuneDuel(rules=every).duel == rune_duel("mage", 1, 1, rules=every)
