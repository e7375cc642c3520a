"""The live board in headless Chromium, on a real book page (tir-sur-un-mage.ipynb).

The page shows ``akvo_widgets.examples.shooter_on_board()``: a turn-3 position with A's
Surfeur selected. The expected odds are computed here with the engine
(:func:`akvo.match.preview.unit_preview`) and formatted by the board's own formatter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from akvo.match.board import CHAR_NAMES
from akvo.match.preview import unit_preview
from akvo.shots import Side, shot_on_mage
from akvo_widgets.board_svg import odds_text
from akvo_widgets.examples import shooter_on_board
from akvo_widgets.formatting import percent
from tests.browser.chromium import outside_requests
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


def expected_odds(side: int, character: str) -> dict[str, str]:
    """Each target's action → the odds text the board must show, from the engine."""
    state = shooter_on_board().state
    preview = unit_preview(state, side, CHAR_NAMES.index(character))
    return {t.action: odds_text(t) for t in preview.targets}


def check_targets(page: Page, side: int, character: str) -> None:
    board = page.locator(".akvo-board")
    expected = expected_odds(side, character)
    targets = board.locator(".akvo-board-target")
    expect(targets).to_have_count(len(expected), timeout=WAIT)
    for action, odds in expected.items():
        target = board.locator(f'.akvo-board-target[data-action="{action}"]')
        expect(target.locator(".akvo-board-odds")).to_have_text(
            re.compile(re.escape(odds).replace("\\\xa0", "[\\s\xa0]") + "$")
        )


def test_board_shows_targets_with_the_engines_odds_by_click_and_keyboard(
    page: Page, base_url: str
) -> None:
    open_page(page, base_url, PAGE)
    board = page.locator(".akvo-board")
    expect(board).to_have_count(1, timeout=WAIT)
    expect(board.locator(".akvo-board-status")).to_contain_text("Tour 3")
    expect(board.locator(".akvo-board-unit")).to_have_count(12)
    check_targets(page, 0, "surfeur")  # the worked example's selected shooter
    board.locator('.akvo-board-unit[data-side="A"][data-character="plongeur"]').click()
    check_targets(page, 0, "plongeur")
    expect(board.locator(".akvo-board-details")).to_contain_text("Plongeur de A")
    expect(board).to_have_attribute("data-selected", "unit-A-plongeur")  # Python agrees
    # The keyboard: focus B's Pédalair, Enter selects it; its targets are A's mages.
    pedalair = board.locator('.akvo-board-unit[data-side="B"][data-character="pedalair"]')
    pedalair.focus()
    page.keyboard.press("Enter")
    check_targets(page, 1, "pedalair")
    expect(pedalair).to_have_attribute("aria-pressed", "true")
    expect(board).to_have_attribute("data-selected", "unit-B-pedalair")
    # Escape clears the selection.
    page.keyboard.press("Escape")
    expect(board.locator(".akvo-board-target")).to_have_count(0, timeout=WAIT)
    expect(board).to_have_attribute("data-selected", "")


def test_board_fits_a_phone(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, base_url, PAGE)
    svg = page.locator(".akvo-board svg")
    expect(svg).to_be_visible(timeout=WAIT)
    box = svg.bounding_box()
    assert box is not None and 200 < box["width"] <= 390
    overflow = page.evaluate("() => document.documentElement.scrollWidth")
    assert overflow <= 390


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
