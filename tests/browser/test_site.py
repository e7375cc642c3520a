"""The Voilà book in headless Chromium: pages load, links work, controls change the odds.

Each expected number is computed here with the engine and formatted with the book's own
French formatter, so the page must show exactly the engine's value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from akvo.concordance import sentences
from akvo.config import RulesConfig
from akvo.dice import roll
from akvo.duel import rune_duel
from akvo.errors import TeamError
from akvo.lab import simulate
from akvo.rules import thresholds, tier_for_turn
from akvo.shots import Side, shot_on_chest, shot_on_mage
from akvo.siblings import lieu_duel
from akvo.tables import odds_grid
from akvo.teams import parse_team
from akvo.variants import weather_favoured_turns
from akvo_widgets import TurnStepper, UltimeScenes
from akvo_widgets import chapters as manifest
from akvo_widgets.board.view import lines_html
from akvo_widgets.chapters import Chapter
from akvo_widgets.learn.positions import play_move, verdict
from akvo_widgets.learn.sharing import default_split, sharing_notes
from akvo_widgets.learn.stepper import LineStepper
from akvo_widgets.play.decisions import orders_summary
from akvo_widgets.play.exercises import make_exercise, score_text
from akvo_widgets.play.replay import ReplayViewer, counter_text
from akvo_widgets.play.tutorial import LESSON, progress_text
from akvo_widgets.reference.glossary import BY_ANCHOR
from akvo_widgets.text.formatting import decimal, french, percent
from akvo_widgets.text.team_errors import team_error_french
from tests.browser.chromium import outside_requests

WAIT = 60_000  # ms: a cold kernel on a busy 2-core machine
RENDER = "/voila/render/"

CHAPTERS = manifest.CHAPTERS
TITLES = {c.file: c.title for c in CHAPTERS} | {manifest.HOME: manifest.HOME_TITLE}


def _same_text(text: str) -> re.Pattern[str]:
    """Match ``text`` exactly, whatever kind of space the page uses (NBSP, narrow NBSP)."""
    parts = (re.escape(p) for p in re.split(r"\s+", text.strip()))
    return re.compile(r"^\s*" + r"[\s\u00a0\u202f]+".join(parts) + r"\s*$")


def open_page(page: Page, base_url: str, file: str) -> None:
    page.goto(base_url + RENDER + file)
    expect_loaded(page, file)


def expect_loaded(page: Page, file: str) -> None:
    """Rendered, titled, without Voilà's error message and without any code."""
    expect(page.locator("#rendered_cells")).to_be_visible(timeout=WAIT)
    expect(page.locator("h1").first).to_contain_text(TITLES[file], timeout=WAIT)
    expect(page).to_have_title(re.compile("Akvolition"))
    expect(page.get_by_text("There was an error")).to_have_count(0)
    expect(page.locator(".jp-InputArea-editor:visible")).to_have_count(0)
    expect(page.get_by_text("akvo_widgets")).to_have_count(0)


def screenshot(page: Page, folder: Path, file: str) -> None:
    """The whole page: Voilà scrolls inside #rendered_cells, so grow the viewport first."""
    height = page.evaluate(
        "() => Math.max(document.documentElement.scrollHeight,"
        " document.querySelector('#rendered_cells').scrollHeight)"
    )
    page.set_viewport_size({"width": 1200, "height": int(height) + 40})
    page.screenshot(path=str(folder / f"{Path(file).stem}.png"), full_page=True)
    page.set_viewport_size({"width": 1200, "height": 900})


@pytest.fixture(autouse=True)
def nothing_from_outside(page: Page, base_url: str) -> Iterator[None]:
    """Every request a page makes stays on the book server (no CDN, no fonts, no analytics).

    Navigation may take as long as any other wait: a page without a pre-heated kernel is
    streamed while its cells run (the laboratory's take seconds on a busy machine).
    """
    page.set_default_navigation_timeout(WAIT)
    outside = outside_requests(page, base_url)
    yield
    assert outside == [], f"the page fetched from outside the book: {outside}"


def test_root_opens_the_home_page(page: Page, base_url: str, screenshots: Path) -> None:
    page.goto(base_url + "/")
    expect(page).to_have_url(base_url + RENDER + "index.ipynb", timeout=WAIT)
    expect_loaded(page, "index.ipynb")
    expect(page.locator(".akvo-toc a[href$='.ipynb']")).to_have_count(len(CHAPTERS))
    screenshot(page, screenshots, "index.ipynb")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.file)
def test_home_links_to_chapter_and_chapter_to_next(
    page: Page, base_url: str, chapter: Chapter
) -> None:
    open_page(page, base_url, "index.ipynb")
    page.locator(f".akvo-toc a[href='{chapter.file}']").click()
    expect(page).to_have_url(base_url + RENDER + chapter.file, timeout=WAIT)
    expect_loaded(page, chapter.file)
    following = manifest.next_of(chapter.file)
    next_file = following.file if following else manifest.HOME
    page.locator(f".akvo-nav a.akvo-nav-next[href='{next_file}']").click()
    expect(page).to_have_url(base_url + RENDER + next_file, timeout=WAIT)
    expect_loaded(page, next_file)


# --- One interaction per chapter: keyboard on a slider or a drop-down choice ------------


def _press(page: Page, control: str, key: str, times: int = 1) -> None:
    handle = page.locator(f"{control} [role='slider']")
    handle.focus()
    for _ in range(times):
        handle.press(key)


def _choose(page: Page, control: str, label: str) -> None:
    page.locator(f"{control} select").select_option(label=label)


def _dice(page: Page) -> str:
    _press(page, ".akvo-roll-threshold", "ArrowRight")  # 12 → 13
    return percent(roll(13).success)


def _matrix(page: Page) -> str:
    _choose(page, ".akvo-matrix-attack-rune", "Attaque\u00a0: +2 à l’attaque")
    return percent(odds_grid("mage", Side(rune="attaque")).value(1, 1))


def _mage(page: Page) -> str:
    _press(page, ".akvo-shot-turn", "ArrowRight", 2)  # turn 3: tier II
    _choose(page, ".akvo-shot-defence-rune", "Défense\u00a0: +2 à la défense")
    return percent(shot_on_mage(2, 1, Side(), Side(rune="defense")).p_push)


def _chest(page: Page) -> str:
    _choose(page, ".akvo-shot-interception", "Personne à portée")
    _press(page, ".akvo-shot-distance", "ArrowLeft")  # 2 → 1
    return decimal(shot_on_chest(1, 1, None).expected_points, 3)


def _lab(page: Page) -> str:
    _choose(page, ".akvo-lab-bot-b", "hasard")
    page.locator(".akvo-lab-run").click()
    results = simulate("perrockiss", "fish-tank", ("greedy", "random"), None, 40, 1, workers=0)
    return percent(results.summary().p_a.estimate)


def _duel(page: Page) -> str:
    _press(page, ".akvo-duel-distance", "ArrowRight")  # 1 → 2
    return percent(rune_duel("mage", 1, 2).sequential_value)


def _aide(page: Page) -> str:
    _press(page, ".akvo-aide-turn", "ArrowRight", 4)  # turn 1 → 5: tier III
    return str(thresholds(tier_for_turn(5), 1).attack)


def _siblings(page: Page) -> str:
    _choose(page, ".akvo-va-target", "Un Lieu\u00a0: trois lancers, égalités sans suite")
    return percent(lieu_duel("sans-suite").win)


def _variants(page: Page) -> str:
    _choose(page, ".akvo-variant-weather", "Pile ou face à chaque tour")
    return percent(weather_favoured_turns(RulesConfig(weather="coin"))[4])


def _glossary(page: Page) -> str:
    _choose(page, ".akvo-glossary-term", "Résilience")
    return BY_ANCHOR["resilience"].definition


def _concordance(page: Page) -> str:
    _choose(page, ".akvo-concordance-section", "Résilience")
    return str(sum(1 for s in sentences() if s.section == "Résilience"))


def _visible(html: str) -> str:
    """A widget's HTML as the page's text content (tags dropped, entities decoded)."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def _sharing(page: Page) -> str:
    _choose(page, ".akvo-sharing-players", "6 joueurs (3 contre 3)")
    return " ".join(sharing_notes(default_split(3), 3))


def _teams(page: Page) -> str:
    wrong = "LEGS/VUNF/JACK/ZBIM/PYTH/DROX+QQ"
    page.locator(".akvo-team-list input").first.fill(wrong)
    with pytest.raises(TeamError) as caught:
        parse_team(wrong)
    return team_error_french(caught.value)


def _first_step(stepper: Callable[[], LineStepper]) -> Callable[[Page], str]:
    """A stepper page's move: one « Étape suivante »; it must show the step that the same
    stepper, built here, shows after one advance."""

    def move(page: Page) -> str:
        page.locator("button.akvo-stepper-next").first.click()
        here = stepper()
        here.advance()
        return _visible(here.step.value)

    return move


_turn = _first_step(TurnStepper)
_ultimes = _first_step(UltimeScenes)


def _movement(page: Page) -> str:
    _press(page, ".akvo-move-row-b", "ArrowRight")  # B's ship 5 → 6: room for both cells
    return _visible(lines_html(play_move({"navire": 3}, {"navire": 6}, "navire", "advance").lines))


def _end(page: Page) -> str:
    _press(page, ".akvo-end-row-a", "ArrowLeft")  # A's ship 5 → 4: out of B's half
    rows_b = {"pedalair": 4, "kitesurfeur": 4, "plongeur": 4}
    _, lines = verdict({"surfeur": 5, "navire": 4}, rows_b, (2, 2), 10)
    return _visible(lines_html(lines))


def _first_turn(page: Page) -> str:
    """Program the lesson's orders with the toggles, confirm with Enter."""
    for lane in ("surfeur", "plongeur"):
        page.locator(f".akvo-play-order-{lane} button", has_text="Tirer").click()
    page.locator(".akvo-play-orders-confirm").press("Enter")
    after = next(i for i, step in enumerate(LESSON) if i > 1 and step.who == "you")
    return progress_text(after)


def _match(page: Page) -> str:
    page.locator(".akvo-play-order-pedalair button", has_text="Tirer").click()
    return orders_summary("orders TAAA AA")


def _replay(page: Page) -> str:
    steps = ReplayViewer.example().steps
    _press(page, ".akvo-replay-slider", "ArrowLeft")
    return counter_text(steps - 1, steps)


def _exercise(page: Page) -> str:
    number = page.locator(".akvo-exercise-number [data-number]").get_attribute("data-number")
    exercise = make_exercise(int(number or 0))
    best = exercise.options[exercise.correct]
    page.locator(".akvo-exercise-answer", has_text=_same_text(best)).click()
    return french(score_text(1, 1))


#: Per chapter: the number shown, and the move that must change it to the returned text.
#: Every chapter of the manifest needs one (test_every_chapter_has_an_interaction).
INTERACTIONS: dict[str, tuple[str, Callable[[Page], str]]] = {
    "plateau-et-mise-en-place.ipynb": (".akvo-sharing-notes", _sharing),
    "equipes.ipynb": (".akvo-team-message", _teams),
    "tour-de-jeu.ipynb": (".akvo-stepper-step", _turn),
    "avancer-et-se-bloquer.ipynb": (".akvo-move-result", _movement),
    "des.ipynb": (".akvo-roll-success", _dice),
    "matrice-du-vent.ipynb": (".akvo-matrix-t1-d1", _matrix),
    "tir-sur-un-mage.ipynb": (".akvo-shot-value", _mage),
    "tir-sur-un-coffre.ipynb": (".akvo-shot-value", _chest),
    "runes-et-ultimes.ipynb": (".akvo-duel-sequential", _duel),
    "laboratoire.ipynb": (".akvo-lab-p-a", _lab),
    "arbitrages-et-variantes.ipynb": (".akvo-variant-weather-value", _variants),
    "aide-memoire.ipynb": (".akvo-aide-x-1", _aide),
    "glossaire.ipynb": (".akvo-glossary-definition", _glossary),
    "concordance.ipynb": (".akvo-concordance-count", _concordance),
    "annexe-jeux-voisins.ipynb": (".akvo-va-win", _siblings),
    "ultimes-en-jeu.ipynb": (".akvo-stepper-step", _ultimes),
    "fin-du-match.ipynb": (".akvo-end-verdict", _end),
    "premier-tour.ipynb": (".akvo-tutorial-progress", _first_turn),
    "jouer-un-match.ipynb": (".akvo-play-orders-summary", _match),
    "jouer-en-ligne.ipynb": (".akvo-sharing-notes", _sharing),
    "rejouer-un-match.ipynb": (".akvo-replay-counter", _replay),
    "exercices.ipynb": (".akvo-exercise-score", _exercise),
}


#: Pages with a live board: after the move, a click on this mage of that board (index on
#: the page) must show its options in the board's details (side, character).
BOARD_CLICKS: dict[str, tuple[int, str, str]] = {
    "plateau-et-mise-en-place.ipynb": (0, "A", "surfeur"),
    "tour-de-jeu.ipynb": (0, "A", "plongeur"),
    "avancer-et-se-bloquer.ipynb": (0, "B", "surfeur"),
    "ultimes-en-jeu.ipynb": (0, "B", "surfeur"),
    # Not « La fin du match »: its « À vous » board now shows the finished match (issue
    # 36.3: every board line describes the position shown), where no mage has options.
}


def click_a_mage(page: Page, index: int, side: str, character: str) -> None:
    board = page.locator(".akvo-board").nth(index)
    unit = board.locator(f'.akvo-board-unit[data-side="{side}"][data-character="{character}"]')
    expect(unit).to_be_visible(timeout=WAIT)
    unit.click(timeout=WAIT)
    label = f"{character.capitalize()} de {side}"
    expect(board.locator(".akvo-board-details")).to_contain_text(label, timeout=WAIT)


def test_every_chapter_has_an_interaction() -> None:
    assert set(INTERACTIONS) == {c.file for c in CHAPTERS}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda c: c.file)
def test_controls_update_the_odds(
    page: Page, base_url: str, screenshots: Path, chapter: Chapter
) -> None:
    open_page(page, base_url, chapter.file)
    expect(page.locator(".akvo-widget").first).to_be_visible(timeout=WAIT)
    screenshot(page, screenshots, chapter.file)
    number, move = INTERACTIONS[chapter.file]
    shown = page.locator(number).first
    initial = shown.inner_text(timeout=WAIT)  # a page's later widgets may still be coming
    expected = move(page)
    assert not _same_text(expected).match(initial), "the move must change the number"
    expect(shown).to_have_text(_same_text(expected), timeout=WAIT)
    if chapter.file in BOARD_CLICKS:
        click_a_mage(page, *BOARD_CLICKS[chapter.file])


def test_quick_presses_land_on_the_last_value(page: Page, base_url: str) -> None:
    """Five key presses in a row: the number and the slider end on the fifth value.

    The kernels run without ipywidgets' echo (``BookKernelManager.widget_echo``): the page
    holds changes back while one is unanswered and must still end where the reader stopped,
    with no value bouncing back.
    """
    open_page(page, base_url, "des.ipynb")
    shown = page.locator(".akvo-roll-success").first
    expect(shown).to_have_text(_same_text(percent(roll(12).success)), timeout=WAIT)
    _press(page, ".akvo-roll-threshold", "ArrowRight", 5)  # 12 → 17, without waiting
    expect(shown).to_have_text(_same_text(percent(roll(17).success)), timeout=WAIT)
    readout = page.locator(".akvo-roll-threshold .widget-readout")
    expect(readout).to_have_text("17", timeout=WAIT)
    page.wait_for_timeout(1000)  # a late echo or update would move them back
    expect(readout).to_have_text("17")
    expect(shown).to_have_text(_same_text(percent(roll(17).success)))


# --- Reference pages: the aide-mémoire prints on one A4 sheet ------------------------------

PDF_PAGE = re.compile(rb"/Type\s*/Page\b")


def test_aide_memoire_prints_on_one_a4_page(page: Page, base_url: str) -> None:
    open_page(page, base_url, "aide-memoire.ipynb")
    expect(page.locator(".akvo-aide").first).to_be_visible(timeout=WAIT)
    page.emulate_media(media="print")
    expect(page.locator(".akvo-nav")).to_be_hidden()
    expect(page.locator(".akvo-aide-turn")).to_be_hidden()
    expect(page.locator(".akvo-aide section:visible")).to_have_count(9)
    pdf = page.pdf(format="A4", print_background=True)
    assert len(PDF_PAGE.findall(pdf)) == 1


def test_a_chapter_term_opens_its_glossary_entry(page: Page, base_url: str) -> None:
    """A term's first use links to glossaire.ipynb#anchor, and the entry comes into view."""
    open_page(page, base_url, "des.ipynb")
    page.locator("a[href='glossaire.ipynb#resilience']").first.click()
    expect(page).to_have_url(base_url + RENDER + "glossaire.ipynb#resilience", timeout=WAIT)
    entry = page.locator("#resilience")
    expect(entry).to_be_in_viewport(timeout=WAIT)
    expect(entry).to_have_text("Résilience")
