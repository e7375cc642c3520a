"""The outputs' reserved heights (akvo-heights.css) match the pages: every output of every
page, at 1280 and 390 px, has a reservation close enough to its drawn height that nothing
jumps when it arrives (:data:`~tests.browser.heights.LAYOUT_TOLERANCE`).

When it fails, an output was added, moved or resized: ``python -m tests.browser.heights
--write`` measures the pages again and rewrites the file (about 2 minutes).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.heights import CSS, LAYOUT_TOLERANCE, PAGES, from_css, measure, stale


def test_every_reservation_is_up_to_date(browser: Browser, base_url: str) -> None:
    found = measure(browser, base_url, PAGES)
    problems = stale(from_css(CSS.read_text()), found, LAYOUT_TOLERANCE)
    assert not problems, (
        "akvo-heights.css is out of date (python -m tests.browser.heights --write):\n"
        + "\n".join(problems)
    )
