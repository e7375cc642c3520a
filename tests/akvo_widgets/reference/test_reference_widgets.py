"""The reference pages' widgets without a browser: every number shown is the engine's."""

from __future__ import annotations

import base64
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
from scipy.stats import binomtest

from akvo.concordance import sentences
from akvo.config import CHOICES, RulesConfig
from akvo.lab import mean_interval, paired, proportion, simulate
from akvo.match.showcase import highest_score
from akvo.rules import (
    CRITICAL_MARGIN,
    DISTANCES,
    LETTERS,
    MAX_RESILIENCE,
    TIERS,
    Character,
    thresholds,
    tier_for_turn,
)
from akvo.shots import Side, shot_on_mage
from akvo.siblings import lieu_duel, pirate_ship_forecast, souvenir_duel, wall_survival, wall_test
from akvo.variants import mouvement_before_shot, ship_double_advance, weather_favoured_turns
from akvo_widgets import chapters as manifest
from akvo_widgets.design import variants
from akvo_widgets.design.lab import interval_text
from akvo_widgets.reference import aide_memoire as reference
from akvo_widgets.reference import concordance, glossary, siblings
from akvo_widgets.text.formatting import decimal, fraction, percent

BOOK = Path(__file__).resolve().parents[3] / "book"
GLOSSARY_LINK = re.compile(r"\]\(glossaire\.ipynb#([a-z0-9-]+)\)")


def _cell(html: str, css: str) -> str:
    found = re.search(rf"class=[\"']{re.escape(css)}[\"']>([^<]*)<", html)
    assert found, css
    return found.group(1)


# --- Aide-mémoire ---------------------------------------------------------------------------


def test_aide_memoire_reads_every_value_from_the_rules() -> None:
    html = reference.aide_memoire_html()
    for tier in TIERS:
        for distance in DISTANCES:
            x, u = thresholds(tier, distance)
            assert f"X\u00a0{x} · U\u00a0{u}" in html
    assert f"seuil + {CRITICAL_MARGIN}" in html
    assert f"max {MAX_RESILIENCE}" in html
    for character in Character:
        assert character.ultime.name in html
    assert all(f"{letter}" in html for letter in LETTERS)
    assert "@page { size: A4" in html
    assert html.count("<section>") == 9


def test_aide_memoire_turn_slider_reads_the_matrix() -> None:
    aide = reference.AideMemoire()
    for turn in (1, 5, 9):
        aide.turn.value = turn
        for distance in DISTANCES:
            expected = thresholds(tier_for_turn(turn), distance).attack
            assert _cell(aide.line.value, f"akvo-aide-x-{distance}") == str(expected)


# --- Glossary -------------------------------------------------------------------------------


def test_glossary_anchors_are_unique_and_chapters_exist() -> None:
    anchors = [t.anchor for t in glossary.TERMS]
    assert len(anchors) == len(set(anchors))
    files = {c.file for c in manifest.CHAPTERS}
    for term in glossary.TERMS:
        assert term.chapter in files, term
        assert term.definition.endswith("."), term


def test_glossary_covers_the_terms_of_the_issue() -> None:
    wanted = ["unite", "couloir", "palier", "seuil", "critique", "prodige", "resilience",
              "interception", "rune", "ultime", "navire", "double-jeton", "mile",
              "feuille-de-score", "camp-avantage", "departage", "bot"]  # fmt: skip
    assert set(wanted) <= set(glossary.BY_ANCHOR)


def test_every_glossary_link_of_the_book_has_its_entry() -> None:
    links: list[str] = []
    for path in BOOK.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        text = "\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
        links += GLOSSARY_LINK.findall(text)
    assert len(links) >= 10
    assert set(links) <= set(glossary.BY_ANCHOR)
    html = glossary.glossary_html()
    for anchor in links:
        assert f"id='{anchor}'" in html


def test_glossary_definitions_use_engine_numbers() -> None:
    assert str(MAX_RESILIENCE) in glossary.BY_ANCHOR["resilience"].definition
    assert str(CRITICAL_MARGIN) in glossary.BY_ANCHOR["critique"].definition
    finder = glossary.TermFinder()
    finder.term.value = "resilience"
    assert f"jusqu’à {MAX_RESILIENCE}" in finder.result.value


# --- Variants and contradictions -------------------------------------------------------------


def test_weather_switch_shows_the_engine_odds() -> None:
    switch = variants.VariantSwitch("weather")
    assert _cell(switch.result.value, "akvo-variant-weather-value") == percent(1)
    switch.reading.value = "coin"
    even = weather_favoured_turns(RulesConfig(weather="coin"))[4]
    assert _cell(switch.result.value, "akvo-variant-weather-value") == percent(even)
    assert switch.rules == RulesConfig(weather="coin")


def test_prodige_switch_shows_three_dice_prodiges_only_in_the_variant() -> None:
    switch = variants.VariantSwitch("prodige")
    assert _cell(switch.result.value, "akvo-variant-prodige-0") == percent(0)
    switch.reading.value = "all"
    shot = shot_on_mage(2, 2, Side(), Side(rune="confusion"), rules=RulesConfig(prodige="all"))
    assert shot.attack_prodige == Fraction(1, 36)
    assert _cell(switch.result.value, "akvo-variant-prodige-0") == percent(shot.attack_prodige)


def test_grimoire_and_rune_u_switches() -> None:
    grimoire = variants.VariantSwitch("grimoire")
    before = _cell(grimoire.result.value, "akvo-variant-grimoire-kitesurfeur")
    grimoire.reading.value = "swapped"
    after = _cell(grimoire.result.value, "akvo-variant-grimoire-kitesurfeur")
    assert before != after
    rune_u = variants.VariantSwitch("rune_u")
    assert _cell(rune_u.result.value, "akvo-variant-rune_u-value") == str(highest_score().total)
    rune_u.reading.value = "names_only"
    names_only = highest_score(rules=RulesConfig(rune_u="names_only")).total
    assert _cell(rune_u.result.value, "akvo-variant-rune_u-value") == str(names_only)
    with pytest.raises(ValueError, match="unknown rules variant"):
        variants.VariantSwitch("dice")


def test_mouvement_rune_switch_shows_the_engine_shot() -> None:
    switch = variants.VariantSwitch("mouvement_rune")
    default = mouvement_before_shot()
    html = switch.result.value
    assert _cell(html, "akvo-variant-mouvement_rune-still") == percent(default.still.p_push)
    assert _cell(html, "akvo-variant-mouvement_rune-moved") == percent(Fraction(37375, 93312))
    assert _cell(html, "akvo-variant-mouvement_rune-value") == percent(Fraction(2465, 5184))
    switch.reading.value = "separate"
    moved = shot_on_mage(3, 2, Side(rune="confusion")).p_push
    assert _cell(switch.result.value, "akvo-variant-mouvement_rune-moved") == percent(moved)
    assert _cell(switch.result.value, "akvo-variant-mouvement_rune-value") == percent(moved)
    assert "N (Attaque), F (Confusion), Q (Attaque)" in switch.result.value


def test_ship_switch_shows_how_far_the_ship_goes() -> None:
    switch = variants.VariantSwitch("ship_advance_runes")
    for reading, cells in (("one", 3), ("per_order", 4)):
        switch.reading.value = reading
        advance = ship_double_advance(RulesConfig(ship_advance_runes=reading))  # type: ignore[arg-type]
        assert _cell(switch.result.value, "akvo-variant-ship_advance_runes-value") == str(cells)
        shown = _cell(switch.result.value, "akvo-variant-ship_advance_runes-points")
        assert shown == decimal(advance.chest_points, 2)


def test_rouleau_switch_shows_how_far_the_surfeur_goes() -> None:
    switch = variants.VariantSwitch("rouleau_mouvement")
    field = "akvo-variant-rouleau_mouvement"
    for reading, cells, chest in (("no_rune", 1, 5), ("plus_one", 2, 4)):
        switch.reading.value = reading
        assert _cell(switch.result.value, f"{field}-value") == str(cells)
        assert _cell(switch.result.value, f"{field}-chest") == f"{chest}\u00a0miles"
    assert "hors de portée" not in switch.result.value and "Y, W" in switch.result.value


def test_every_variant_shows_a_number_its_switch_changes() -> None:
    for field, (_default, other) in CHOICES.items():
        switch = variants.VariantSwitch(field)
        before = switch.result.value
        assert re.search(r"\d", re.sub(r"<[^>]*>", "", before)), field
        switch.reading.value = other
        assert switch.result.value != before, field
        assert switch.wins.comparison is None and switch.wins.result is None  # not yet run


def test_win_rate_button_runs_a_paired_simulation_with_wilson_intervals() -> None:
    switch = variants.VariantSwitch("prodige", matches=4)
    wins = switch.wins
    assert len(wins.children) == 3 and wins.progress is None  # a light page until the click
    wins.button.click()
    assert wins.progress is not None and wins.result is not None
    assert wins.progress.value == wins.progress.max == 8 and not wins.button.disabled
    assert wins.progress in wins.children and wins.result in wins.children
    options = {"n": 4, "seed": variants.SEED, "workers": 0}
    teams, bots = variants.TEAMS, variants.BOTS_PLAYING
    first = simulate(*teams, bots, None, **options)  # type: ignore[arg-type]
    second = simulate(*teams, bots, "prodige=all", **options)  # type: ignore[arg-type]
    html = wins.result.value
    assert "Simulation en cours" not in html
    for results, css in ((first, "default"), (second, "variant")):
        won = results.column("winner").count("A")
        wilson = binomtest(won, 4).proportion_ci(confidence_level=0.95, method="wilson")
        interval = proportion(won, 4)
        assert (interval.low, interval.high) == pytest.approx((wilson.low, wilson.high))
        assert _cell(html, f"akvo-variant-prodige-wins-{css}") == interval_text(interval)
    comparison = paired(first, second)
    assert wins.comparison == comparison
    points = [{"A": 1.0, "draw": 0.5, "B": 0.0}[r.winner] for r in (*first, *second)]
    delta = mean_interval([b - a for a, b in zip(points[:4], points[4:], strict=True)])
    assert delta == comparison.delta
    shown = variants.points_text(delta, signed=True)
    assert _cell(html, "akvo-variant-prodige-wins-delta") == shown
    assert _cell(html, "akvo-variant-prodige-wins-changed") == str(comparison.changed)
    (rule,) = comparison.rules  # « matchs où la règle a joué »: here 1 of 4
    assert _cell(html, "akvo-variant-prodige-played") == str(rule.matches) == "1"
    assert "akvo-variant-prodige-wins-luck" not in html  # 4 matches: too few to fit the luck


def test_the_variants_page_shows_the_difference_corrected_for_the_dice_luck() -> None:
    """With enough matches the page adds the lab's luck-adjusted difference (the dice luck
    weighed by what each roll put at stake) and how much narrower its interval is than two
    independent runs'."""
    options = {"n": 40, "seed": variants.SEED, "workers": 0}
    teams, bots = variants.TEAMS, variants.BOTS_PLAYING
    first = simulate(*teams, bots, None, **options)  # type: ignore[arg-type]
    second = simulate(*teams, bots, "grimoire=swapped", **options)  # type: ignore[arg-type]
    comparison = paired(first, second)
    assert comparison.luck is not None and any(comparison.luck.betas)
    html = variants.wins_html("grimoire", first, second, comparison)
    shown = variants.points_text(comparison.luck.delta, signed=True)
    assert _cell(html, "akvo-variant-grimoire-wins-luck") == shown
    assert comparison.luck.delta != comparison.delta
    assert 1 < comparison.gain < comparison.luck_gain  # 1.23 and 1.31 on these 40
    gain = f"{comparison.luck_gain:.1f}".replace(".", ",")
    assert f"un intervalle {gain} fois plus étroit que celui de deux séries" in html


def test_a_rule_the_bots_never_played_is_said_so_not_shown_as_no_effect() -> None:
    # Seed 3: two matches without 2 or 3 equal dice (seed 2's had some once the ship's second
    # shot was keyed by its shooter alone, akvo.match.streams).
    wins = variants.WinRates("prodige", matches=2, seed=3)
    wins.button.click()
    comparison = wins.comparison
    assert comparison is not None and not comparison.exercised  # no 2 or 3 equal dice
    html = wins.result.value  # type: ignore[union-attr]
    assert "Règle jamais en jeu" in html and "aucun effet ne peut être mesuré" in html
    assert "akvo-variant-prodige-wins-delta" not in html


def test_every_page_links_to_the_reference_pages() -> None:
    """Any term, rule or ruling two clicks away: the reference page, then its entry."""
    assert {"glossaire.ipynb", "aide-memoire.ipynb", "arbitrages-et-variantes.ipynb"} <= set(
        manifest.REFERENCE_PAGES
    )
    for page in manifest.CHAPTERS:
        html = manifest.nav_html(page.file)
        for target in manifest.REFERENCE_PAGES:
            assert (f'href="{target}"' in html) is (target != page.file), (page.file, target)
    toc = manifest.toc_html()
    assert all(f'href="{target}"' in toc for target in manifest.REFERENCE_PAGES)


def test_contradictions_come_from_the_engine() -> None:
    assert "une seule et même liste" in variants.duplicated_teams().data
    assert f"**{highest_score().total} points**" in variants.highest_score_versus_final().data
    text = variants.letter_u().data
    assert "«\u00a0Ultime\u00a0»" in text and "A, B, C, D, E" in text


# --- Sibling games ---------------------------------------------------------------------------


def test_duel_calculator_follows_its_choice() -> None:
    duel = siblings.DuelCalculator()
    assert _cell(duel.result.value, "akvo-va-win") == percent(souvenir_duel().win)
    for choice, reading in (("sans-suite", "sans-suite"), ("rejouer", "rejouer")):
        duel.target.value = choice
        odds = lieu_duel(reading)  # type: ignore[arg-type]
        assert duel.odds == odds
        assert _cell(duel.result.value, "akvo-va-tie") == percent(odds.tie)


def test_pirate_ship_and_wall_widgets() -> None:
    ship = siblings.PirateShip()
    ship.turns.value = 6
    forecast = pirate_ship_forecast(6)
    assert _cell(ship.result.value, "akvo-ship-none-lost") == percent(forecast.losses[0])
    assert _cell(ship.result.value, "akvo-ship-expected-repos") == decimal(
        forecast.expected["repos"], 2
    )
    wall = siblings.WallTest()
    wall.material.value = "pierre"
    wall.tests.value = 4
    assert _cell(wall.result.value, "akvo-wall-holds") == percent(wall_test("pierre").holds)
    standing = wall_survival("pierre", 4)
    shown = _cell(wall.result.value, "akvo-fraction akvo-wall-standing-fraction")
    assert shown == fraction(standing)


# --- Concordance -----------------------------------------------------------------------------


def test_concordance_browser_counts_each_section() -> None:
    browser = concordance.ConcordanceBrowser()
    assert _cell(browser.count.value, "akvo-concordance-count") == str(len(sentences()))
    browser.section.value = "Résilience"
    expected = sum(1 for s in sentences() if s.section == "Résilience")
    assert _cell(browser.count.value, "akvo-concordance-count") == str(expected)
    assert "href='fin-du-match.ipynb'" in concordance.concordance_table("fin de match")


def test_win_rates_take_the_designers_n_bots_and_teams_and_export_every_match() -> None:
    wins = variants.WinRates("weather")
    settings = wins._settings()
    assert (settings["matches"].min, settings["matches"].max) == variants.MATCH_RANGE
    assert [label for label, _ in settings["bot_a"].options] == [
        "débutant",
        "facile",
        "normal",
        "fort",
        "expert",
        "hasard",
    ]
    settings["matches"].value = 200
    settings["bot_b"].value = "random"
    settings["team_a"].value = "pink-star"
    assert "un bot «\u00a0normal\u00a0» (A) et un bot «\u00a0hasard\u00a0» (B)" in wins.intro.value
    comparison = wins.run()
    options = {"n": 200, "seed": variants.SEED, "workers": 0}
    teams, bots = ("pink-star", "fish-tank"), ("greedy", "random")
    first = simulate(*teams, bots, None, **options)  # type: ignore[arg-type]
    second = simulate(*teams, bots, "weather=coin", **options)  # type: ignore[arg-type]
    assert comparison == paired(first, second)
    html = wins.result.value  # type: ignore[union-attr]
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", html)
    assert payload is not None
    table = base64.b64decode(payload.group(1)).decode().splitlines()
    assert len(table) == 1 + 400
    assert table[1].split(",")[:2] == ["defaut", "0"] and table[201].split(",")[0] == "variante"
    assert table[1].split(",", 1)[1] == first.to_csv().splitlines()[1]
