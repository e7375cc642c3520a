"""The lab and variants pages in Chromium: the shipped ladder, the learned evaluation's
curves, and the book's simulator comparing two readings, each number the engine's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from akvo.lab import simulate
from akvo.lab.readings import compare_readings
from akvo_widgets.design.compare import signed
from akvo_widgets.design.strength import elo_text, load_ladder
from akvo_widgets.text.formatting import french
from tests.browser.test_site import WAIT, _same_text, open_page

pytestmark = pytest.mark.browser


def test_the_lab_shows_the_ladder_the_curves_and_compares_two_readings(
    page: Page, base_url: str
) -> None:
    open_page(page, base_url, "laboratoire.ipynb")
    report, _command = load_ladder()
    expert = page.locator(".akvo-ladder-elo-expert").first
    expect(expert).to_have_text(elo_text(report.elo["expert"].estimate), timeout=WAIT)
    expect(page.locator(".akvo-ladder-plot svg").first).to_be_visible(timeout=WAIT)
    expect(page.locator(".akvo-eval-reliability svg").first).to_be_visible(timeout=WAIT)
    page.locator(".akvo-compare-bot select").select_option(label="hasard")
    page.locator(".akvo-compare-run").click()
    runs = [
        simulate("perrockiss", "fish-tank", ("random", "random"), f"weather={o}", 40, 1, workers=0)
        for o in ("bag", "coin")
    ]
    compared = compare_readings(*runs)
    for side in compared.intervals:
        low, high = side.interval.low, side.interval.high
        cell = page.locator(f".akvo-compare-{side.key}-interval").first
        expect(cell).to_have_text(
            _same_text(french(f"de {signed(low)} à {signed(high)}")), timeout=WAIT
        )
    bars = page.locator(".akvo-compare-distribution rect.bar")  # both readings' bars drawn
    expect(bars.first).to_be_attached(timeout=WAIT)
    expect(page.locator(".akvo-compare-played-weather").first).to_have_text(
        str(compared.coverage[0].matches)
    )


def test_the_lab_fits_a_phone(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_page(page, base_url, "laboratoire.ipynb")
    for panel in (".akvo-ladder", ".akvo-eval", ".akvo-compare"):
        box = page.locator(panel).first
        expect(box).to_be_visible(timeout=WAIT)
        right = box.evaluate("(e) => e.getBoundingClientRect().right")
        assert right <= 390, f"{panel} ends at {right} px, past the screen"
    wide = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert wide <= 390, f"the page scrolls sideways ({wide} px)"
    button = page.locator(".akvo-compare-run").first
    assert button.evaluate("(e) => e.scrollWidth <= e.clientWidth"), "the button's label is cut"


def test_the_variants_page_lists_every_switch(page: Page, base_url: str) -> None:
    open_page(page, base_url, "arbitrages-et-variantes.ipynb")
    expect(page.get_by_text("Toutes les variantes que le moteur sait jouer")).to_be_visible(
        timeout=WAIT
    )
