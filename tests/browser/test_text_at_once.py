"""The text at once (issue 20.1): a page's prose is shown, styled, before Voilà's front end
has started; each output keeps its place with a French placeholder at its reserved height;
once drawn, the placeholders are gone and nothing moved.

Voilà's front end is held back by answering its main script only when the test says so
(a route on ``voila.js``): what the reader sees meanwhile is what these tests look at.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, Route, expect

from tests.browser.heights import CSS, from_css

PAGE = "des.ipynb"
SHIFTS = """(() => {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__shift += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
})();"""


class HeldFrontEnd:
    """Voilà's main script is held (its request unanswered) until :meth:`release`."""

    def __init__(self, page: Page) -> None:
        self.routes: list[Route] = []
        page.route(re.compile(r"/voila/static/voila\.js"), self._hold)

    def _hold(self, route: Route) -> None:
        self.routes.append(route)

    def release(self) -> None:
        for route in self.routes:
            route.continue_()


def test_prose_is_shown_and_styled_before_the_front_end(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 720})
    page.add_init_script(SHIFTS)
    held = HeldFrontEnd(page)
    page.goto(f"{base_url}/voila/render/{PAGE}", wait_until="commit")
    heading = page.locator("#rendered_cells h1")
    expect(heading).to_be_visible(timeout=90_000)
    expect(heading).to_have_css("color", "rgb(11, 79, 108)")  # akvo.css, not a raw page
    expect(page.locator("#rendered_cells")).to_have_css("max-width", "960px")
    expect(page.locator("#loading")).to_be_hidden()
    pending = page.locator(".akvo-pending")
    expect(pending.first).to_have_text("Chargement de l’exemple…")
    expect(pending).to_have_count(6, timeout=90_000)  # one per output, as the cells run
    reserved = from_css(CSS.read_text())["wide"]
    for index in range(pending.count()):
        key = pending.nth(index).get_attribute("data-akvo-output")
        box = pending.nth(index).bounding_box()
        assert key in reserved and box is not None, key
        assert abs(box["height"] - reserved[key]) <= 1, key
    # A link works while the outputs wait (the reader is not held by the front end).
    expect(page.get_by_role("link", name="Sommaire").first).to_have_attribute("href", "index.ipynb")
    held.release()
    expect(page.locator(".akvo-roll-success")).to_be_visible(timeout=60_000)
    expect(pending).to_have_count(0, timeout=60_000)
    assert page.locator('script[type="application/vnd.voila.cell-output+json"]').count() == 0
    shift = page.evaluate("() => window.__shift")
    assert shift <= 0.1, f"layout shift {shift:.3f} while the outputs arrived"


def test_phone_placeholders_use_the_phone_heights(page: Page, base_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    held = HeldFrontEnd(page)
    page.goto(f"{base_url}/voila/render/{PAGE}", wait_until="commit")
    pending = page.locator(".akvo-pending")
    expect(pending).to_have_count(6, timeout=90_000)
    reserved = from_css(CSS.read_text())["narrow"]
    key = pending.last.get_attribute("data-akvo-output")
    box = pending.last.bounding_box()
    assert key in reserved and box is not None
    assert abs(box["height"] - reserved[key]) <= 1
    held.release()
    expect(pending).to_have_count(0, timeout=60_000)
