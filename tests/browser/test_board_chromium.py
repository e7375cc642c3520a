"""The live board in headless Chromium, on real book pages.

tir-sur-un-mage.ipynb shows ``akvo_widgets.learn.examples.shooter_on_board()``: a turn-3 position
with A's Surfeur selected; plateau-et-mise-en-place.ipynb shows the setup from B's seat
(``examples_game.setup_seen_from_b()``, a flipped board). The expected odds are computed
here with the engine (:func:`akvo.match.preview.unit_preview`) and formatted by the board's
own formatter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from akvo.match import new_match
from akvo.match.board import CHAR_NAMES
from akvo.match.preview import unit_preview
from akvo.match.state import MatchState
from akvo.shots import Side, shot_on_mage
from akvo_widgets.board.svg import badged_targets, odds_text
from akvo_widgets.learn.examples import shooter_on_board
from akvo_widgets.text.formatting import percent
from tests.browser.chromium import outside_requests
from tests.browser.shots import settle
from tests.browser.test_site import WAIT, open_page

PAGE = "tir-sur-un-mage.ipynb"


@pytest.fixture(autouse=True)
def nothing_from_outside(page: Page, base_url: str) -> Iterator[None]:
    """The board's front end ships in anywidget's package: nothing comes from elsewhere
    (its module is loaded from a blob: URL made by the page itself)."""
    page.set_default_navigation_timeout(WAIT)  # a cold server on a busy machine
    outside = outside_requests(page, base_url)
    yield
    assert outside == [], f"the page fetched from outside the book: {outside}"


def expected_odds(
    side: int, character: str, state: MatchState | None = None
) -> dict[str, tuple[str, bool]]:
    """Each shot's action → the odds text the board must show and whether it has a badge
    on the board (the others are listed under it), from the engine."""
    state = shooter_on_board().state if state is None else state
    preview = unit_preview(state, side, CHAR_NAMES.index(character))
    badged = {t.action for t in badged_targets(preview.targets)}
    return {t.action: (odds_text(t), t.action in badged) for t in preview.targets}


def same_text(odds: str) -> re.Pattern[str]:
    return re.compile(re.escape(odds).replace("\\\xa0", "[\\s\xa0]") + "$")


def check_targets(
    board: Locator, side: int, character: str, state: MatchState | None = None
) -> None:
    expected = expected_odds(side, character, state)
    targets = board.locator(".akvo-board-target")
    expect(targets).to_have_count(sum(on for _, on in expected.values()), timeout=WAIT)
    expect(board.locator(".akvo-board-target-list li")).to_have_count(len(expected))
    for action, (odds, on_board) in expected.items():
        listed = board.locator(f'.akvo-board-target-list li[data-action="{action}"]')
        expect(listed).to_have_attribute("data-odds", same_text(odds))
        if on_board:
            target = board.locator(f'.akvo-board-target[data-action="{action}"]')
            label = ("S " if action.endswith(" souffle") else "") + odds
            expect(target.locator(".akvo-board-odds")).to_have_text(same_text(label))


def test_board_shows_targets_with_the_engines_odds_by_click_and_keyboard(
    page: Page, base_url: str
) -> None:
    open_page(page, base_url, PAGE)
    board = page.locator(".akvo-board")
    expect(board).to_have_count(1, timeout=WAIT)
    expect(board.locator(".akvo-board-status")).to_contain_text("Tour 3")
    expect(board.locator(".akvo-board-unit")).to_have_count(12)
    check_targets(board, 0, "surfeur")  # the worked example's selected shooter
    board.locator('.akvo-board-unit[data-side="A"][data-character="plongeur"]').click()
    check_targets(board, 0, "plongeur")
    expect(board.locator(".akvo-board-details")).to_contain_text("Plongeur de A")
    expect(board).to_have_attribute("data-selected", "unit-A-plongeur")  # Python agrees
    # The keyboard: focus B's Pédalair, Enter selects it; its targets are A's mages.
    pedalair = board.locator('.akvo-board-unit[data-side="B"][data-character="pedalair"]')
    pedalair.focus()
    page.keyboard.press("Enter")
    check_targets(board, 1, "pedalair")
    expect(pedalair).to_have_attribute("aria-pressed", "true")
    expect(board).to_have_attribute("data-selected", "unit-B-pedalair")
    # Escape clears the selection.
    page.keyboard.press("Escape")
    expect(board.locator(".akvo-board-target")).to_have_count(0, timeout=WAIT)
    expect(board).to_have_attribute("data-selected", "")


#: Every text of a board as the reader sees it: its font size in CSS px (the SVG's own
#: units times the board's scale on screen) and its box's height.
TEXT_SIZES = """(board) => [...board.querySelectorAll(".akvo-board-figure svg text")].map((t) => ({
    css: t.getAttribute("class") || "",
    text: t.textContent,
    px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
    height: t.getBoundingClientRect().height,
}))"""
PHONE = {"width": 390, "height": 844}
MIN_TEXT_PX = 12
#: A compact board gives the phone's height to the controls under it: its picture is at
#: most half the screen high, its texts about 11 px.
COMPACT_TEXT_PX = 10.5


def readable_texts(board: Locator, minimum: float = MIN_TEXT_PX) -> list[dict[str, Any]]:
    """Every text of the board, each checked to be at least ``minimum`` CSS px tall."""
    texts: list[dict[str, Any]] = board.evaluate(TEXT_SIZES)
    small = [t for t in texts if t["px"] < minimum or t["height"] < minimum]
    assert small == [], f"texts under {minimum} px: {small[:5]}"
    return texts


def test_board_fits_a_phone_with_every_text_readable(page: Page, base_url: str) -> None:
    page.set_viewport_size(PHONE)
    open_page(page, base_url, PAGE)
    board = page.locator(".akvo-board")
    svg = board.locator("svg.akvo-board-svg")
    expect(svg).to_be_visible(timeout=WAIT)
    box = svg.bounding_box()
    assert box is not None and 200 < box["width"] <= PHONE["width"]
    check_targets(board, 0, "surfeur")
    texts = readable_texts(board)
    odds = [t for t in texts if t["css"] == "akvo-board-odds"]
    assert len(odds) == sum(on for _, on in expected_odds(0, "surfeur").values()) > 0
    for label in board.locator(".akvo-board-target").all():
        label_box = label.locator(".akvo-board-odds").bounding_box()
        cell = label.locator(".akvo-board-target-cell").bounding_box()
        assert label_box is not None and cell is not None
        assert label_box["height"] >= MIN_TEXT_PX
        assert label_box["width"] <= cell["width"] + 2  # squeezed into its cell if need be
    # No badge over a mage's letters, the shooter's side's or the targets'.
    letters = [
        b for b in (t.bounding_box() for t in board.locator(".akvo-board-initial").all()) if b
    ]
    assert len(letters) == 12
    for odds_label in board.locator(".akvo-board-odds").all():
        chip = odds_label.bounding_box()
        assert chip is not None and not any(overlap(chip, letter) for letter in letters)
    # The « Légende » toggle: reached with the keyboard, opened with Enter, fits the phone.
    toggle = board.locator(".akvo-board-legend > summary")
    expect(toggle).to_have_text("Légende")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(board.locator(".akvo-board-legend-list")).to_be_visible()
    expect(board.locator(".akvo-board-legend-list li")).to_have_count(13)
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= PHONE["width"]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def in_view(locator: Locator, height: int) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


#: Whether the compact board's picture and the stepper's button are both on screen.
BOTH_IN_VIEW = """() => [document.querySelector('.akvo-turn-stepper svg.akvo-board-svg'),
  document.querySelector('button.akvo-stepper-next')].every((e) => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1; })"""


def test_a_compact_board_stays_in_view_with_the_buttons_under_it(page: Page, base_url: str) -> None:
    """Chapter « tour de jeu » on a phone: the stepper's compact board sticks to the top of
    the screen, so the board and « Étape suivante » are visible together at every step,
    its texts still readable."""
    page.set_viewport_size(PHONE)
    open_page(page, base_url, "tour-de-jeu.ipynb")
    board = page.locator(".akvo-turn-stepper .akvo-board")
    expect(board).to_have_class(re.compile("akvo-board-compact"), timeout=WAIT)
    button = page.locator("button.akvo-stepper-next")
    svg = board.locator("svg.akvo-board-svg").first
    expect(svg).to_be_visible(timeout=WAIT)
    settle(page)  # every widget of the page drawn: nothing above the board moves any more
    board.evaluate("(e) => e.parentElement.scrollIntoView({block: 'start'})")
    for _ in range(3):
        page.wait_for_function(BOTH_IN_VIEW, timeout=10_000)
        button.click()
    readable_texts(board, COMPACT_TEXT_PX)
    page.evaluate("window.scrollBy(0, 100)")  # the step's text scrolls under the board…
    page.wait_for_timeout(200)
    box = board.bounding_box()
    assert box is not None and abs(box["y"]) < 1 and in_view(svg, PHONE["height"])  # …stuck


def centre(locator: Locator) -> tuple[float, float]:
    box = locator.bounding_box(timeout=WAIT)
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_board_seen_from_bs_seat(page: Page, base_url: str) -> None:
    """Chapter « plateau »: the setup seen from B's seat, on a phone. B's beach is at the
    bottom and lane 1 on the right; a click (or Enter) on B's mages shows the engine's
    targets, their odds readable."""
    page.set_viewport_size(PHONE)
    open_page(page, base_url, "plateau-et-mise-en-place.ipynb")
    board = page.locator(".akvo-setup-from-b .akvo-board")
    expect(board.locator("svg.akvo-board-svg")).to_have_attribute("data-bottom", "B", timeout=WAIT)

    def unit(side: str, character: str) -> Locator:
        return board.locator(f'.akvo-board-unit[data-side="{side}"][data-character="{character}"]')

    b_x, b_y = centre(unit("B", "pedalair"))
    a_x, a_y = centre(unit("A", "pedalair"))
    plongeur_x, _ = centre(unit("B", "plongeur"))
    assert b_y > a_y  # B's units below A's
    assert abs(b_x - a_x) < 1 and b_x > plongeur_x  # lane 1 on the right, facing lane 1
    unit("B", "surfeur").click()
    state = new_match()
    for character in ("surfeur", "plongeur"):
        check_targets(board, 1, character, state)
        readable_texts(board)
        unit("B", "plongeur").focus()  # then the keyboard
        page.keyboard.press("Enter")
    expect(board).to_have_attribute("data-selected", "unit-B-plongeur", timeout=WAIT)
    # Every target (A's mages) sits above the selected mage: the board really is turned.
    _, plongeur_y = centre(unit("B", "plongeur"))
    for target in board.locator(".akvo-board-target").all():
        assert centre(target.locator(".akvo-board-target-cell"))[1] < plongeur_y
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_shot_distance_end_key_reaches_souffle_range(page: Page, base_url: str) -> None:
    """Chapter 3's calculator: with Souffle portant, End goes to 6 miles; unticking it
    says why there is no shot from there (it used to stop at 4, then clamp silently)."""
    open_page(page, base_url, PAGE)
    souffle = page.locator(".akvo-shot-souffle input")
    souffle.check()
    handle = page.locator(".akvo-shot-distance [role='slider']")
    handle.focus()
    handle.press("End")
    value = percent(shot_on_mage(1, 6, Side(souffle=True)).p_push)
    expect(page.locator(".akvo-shot-value")).to_have_text(
        re.compile(re.escape(value).replace("\\\xa0", "[\\s\xa0]")), timeout=WAIT
    )
    expect(handle).to_have_attribute("aria-valuetext", "6")
    souffle.uncheck()
    expect(page.locator(".akvo-shot-sentence")).to_contain_text("hors de portée", timeout=WAIT)
    expect(page.locator(".akvo-shot-plot")).to_be_hidden()
