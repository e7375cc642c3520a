"""The outputs' reserved heights (akvo-heights.css) match the pages: every output of every
page, at 1280 and 390 px, has a reservation within a few pixels of its drawn height.

When it fails, an output was added, moved or resized: ``python -m tests.browser.heights
--write`` measures the pages again and rewrites the file (about 4 minutes).
"""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.heights import CSS, PAGES, from_css, measure, stale


def test_every_reservation_is_up_to_date(browser: Browser, base_url: str) -> None:
    problems = stale(from_css(CSS.read_text()), measure(browser, base_url, PAGES))
    assert not problems, (
        "akvo-heights.css is out of date (python -m tests.browser.heights --write):\n"
        + "\n".join(problems)
    )
